// Time to live and expiry (SEMANTICS.md T1-T9), on the virtual clock.

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
const QString kDeadLetters = QStringLiteral("q/$deadletterqueue");
const QString kTtlExpired = QStringLiteral("TTLExpiredException");

EntityProperties ttlProperties(Millis defaultTtl, bool deadLetterOnExpiry,
                               Millis lockDuration = minutes(1)) {
    EntityProperties p;
    p.defaultMessageTimeToLive = defaultTtl;
    p.deadLetteringOnMessageExpiration = deadLetterOnExpiry;
    p.lockDuration = lockDuration;
    return p;
}

// -1 in a data table means "no TTL of its own".
std::optional<Millis> optionalTtl(qint64 value) {
    return value < 0 ? std::nullopt : std::optional<Millis>(value);
}
} // namespace

class TestEngineTtl : public QObject {
    Q_OBJECT

private slots:
    void ttl_T1_expiresAtIsEnqueuedPlusTtl_data();
    void ttl_T1_expiresAtIsEnqueuedPlusTtl();
    void ttl_T2_scheduledExpiresAtScheduledPlusTtl_data();
    void ttl_T2_scheduledExpiresAtScheduledPlusTtl();
    void ttl_T3_entityDefaultAppliesAndCapsMessageTtl_data();
    void ttl_T3_entityDefaultAppliesAndCapsMessageTtl();
    void ttl_T4_subscriptionTtlIsSmallestOfThree_data();
    void ttl_T4_subscriptionTtlIsSmallestOfThree();
    void ttl_T5_receiveNeverReturnsExpired_data();
    void ttl_T5_receiveNeverReturnsExpired();
    void ttl_T5_lockedExpiredMessageIsMarkedExpired();
    void ttl_T6_lockedMessageDoesNotExpireUntilSettled_data();
    void ttl_T6_lockedMessageDoesNotExpireUntilSettled();
    void ttl_T6_abandonAfterExpiryDropsWithoutDeadLettering();
    void ttl_T7_expiryDeadLettersAtomically_data();
    void ttl_T7_expiryDeadLettersAtomically();
    void ttl_T7_expiryWithoutDeadLetteringDrops();
    void ttl_T8_noTtlInDeadLetterQueue();
    void ttl_T8_deferredExpiresOnlyWhenAskedFor_data();
    void ttl_T8_deferredExpiresOnlyWhenAskedFor();
    void ttl_T8_deferredNotYetExpiredIsReceivable();
    void ttl_T9_peekShowsOwnOrDerivedExpiry();
    void ttl_T9_subscriptionShowsDerivedExpiry();
};

void TestEngineTtl::ttl_T1_expiresAtIsEnqueuedPlusTtl_data() {
    QTest::addColumn<qint64>("ttl");
    QTest::newRow("PT1S") << seconds(1);
    QTest::newRow("PT10M") << minutes(10);
    QTest::newRow("P1D") << days(1);
    QTest::newRow("P3DT1MS") << days(3) + 1;
}

void TestEngineTtl::ttl_T1_expiresAtIsEnqueuedPlusTtl() {
    QFETCH(qint64, ttl);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    tb.advance(minutes(2));
    const Instant sentAt = tb.clock().now();
    const auto sent = tb->send(kQueue, messageWithTtl(QStringLiteral("m"), ttl));
    HG_VERIFY_OK(sent);

    const auto stored = tb->message(kQueue, sent->sequenceNumber);
    HG_VERIFY_OK(stored);
    QCOMPARE(stored->enqueuedTime, sentAt);
    QCOMPARE(stored->expiresAt, sentAt + ttl);
    QVERIFY(stored->timeToLive.has_value());
    QCOMPARE(*stored->timeToLive, ttl);
    QCOMPARE(stored->effectiveTimeToLive, ttl);
    QCOMPARE(stored->expiryDerived, false);
    QCOMPARE(stored->expired, false);

    // Receivable until its expiry, never after.
    tb.advance(ttl - 1);
    const auto before = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(before);
    QCOMPARE(before->size(), 1);
    QCOMPARE(before->first().expiresAt, sentAt + ttl);
    HG_VERIFY_OK(tb->abandon(LockRef::of(before->first())));
    tb.advance(2);
    const auto after = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(after);
    QVERIFY2(after->isEmpty(), qPrintable(describe(after->value(0))));
}

void TestEngineTtl::ttl_T2_scheduledExpiresAtScheduledPlusTtl_data() {
    QTest::addColumn<bool>("viaSchedule");
    QTest::newRow("schedule()") << true;
    QTest::newRow("send() with ScheduledEnqueueTime") << false;
}

void TestEngineTtl::ttl_T2_scheduledExpiresAtScheduledPlusTtl() {
    QFETCH(bool, viaSchedule);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const Instant t0 = tb.clock().now();
    const Instant at = t0 + minutes(5);
    OutgoingMessage m = messageWithTtl(QStringLiteral("later"), minutes(10));
    Result<SendResult> sent = makeError(ErrorCode::GeneralError, QStringLiteral("unset"));
    if (viaSchedule) {
        sent = tb->schedule(kQueue, m, at);
    } else {
        m.scheduledEnqueueTime = at;
        sent = tb->send(kQueue, m);
    }
    HG_VERIFY_OK(sent);
    QVERIFY(sent->scheduled);
    QVERIFY(sent->sequenceNumber > 0);

    const auto waiting = tb->message(kQueue, sent->sequenceNumber);
    HG_VERIFY_OK(waiting);
    QCOMPARE(waiting->state, MessageState::Scheduled);
    QCOMPARE(waiting->scheduledEnqueueTime, at);
    QCOMPARE(waiting->enqueuedTime, at);
    QCOMPARE(waiting->expiresAt, t0 + minutes(15));
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->scheduled, qint64(1));
    QCOMPARE(counts->active, qint64(0));
    const auto early = tb->receive(kQueue, receiveAndDelete());
    HG_VERIFY_OK(early);
    QVERIFY(early->isEmpty());

    tb.advance(minutes(5));
    const auto listed = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    const MessageView active = listed->first();
    QCOMPARE(active.state, MessageState::Active);
    QVERIFY2(active.sequenceNumber > sent->sequenceNumber, qPrintable(describe(active)));
    QCOMPARE(active.enqueuedTime, at);
    QCOMPARE(active.expiresAt, t0 + minutes(15));

    // 14:59.999 after the send it is still there; 15:00.001 after, it is gone.
    tb.advance(minutes(10) - 1);
    const auto stillThere = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(stillThere);
    QCOMPARE(stillThere->size(), 1);
    HG_VERIFY_OK(tb->abandon(LockRef::of(stillThere->first())));
    tb.advance(2);
    const auto gone = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(gone);
    QVERIFY(gone->isEmpty());
}

void TestEngineTtl::ttl_T3_entityDefaultAppliesAndCapsMessageTtl_data() {
    QTest::addColumn<qint64>("entityDefault");
    QTest::addColumn<qint64>("messageTtl");
    QTest::addColumn<qint64>("effective");
    QTest::newRow("no TTL takes the default") << hours(1) << qint64(-1) << hours(1);
    QTest::newRow("longer TTL lowered") << hours(1) << hours(2) << hours(1);
    QTest::newRow("shorter TTL kept") << hours(1) << minutes(10) << minutes(10);
    QTest::newRow("equal TTL kept") << hours(1) << hours(1) << hours(1);
    QTest::newRow("infinite default keeps TTL") << kInfinite << minutes(7) << minutes(7);
}

void TestEngineTtl::ttl_T3_entityDefaultAppliesAndCapsMessageTtl() {
    QFETCH(qint64, entityDefault);
    QFETCH(qint64, messageTtl);
    QFETCH(qint64, effective);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(entityDefault, false)));
    const auto sent =
        tb->send(kQueue, messageWithTtl(QStringLiteral("m"), optionalTtl(messageTtl)));
    HG_VERIFY_OK(sent);
    const auto stored = tb->message(kQueue, sent->sequenceNumber);
    HG_VERIFY_OK(stored);
    QCOMPARE(stored->effectiveTimeToLive, effective);
    QCOMPARE(stored->expiresAt, kTestStart + effective);
    if (messageTtl < 0) {
        QVERIFY(!stored->timeToLive.has_value());
        QCOMPARE(stored->expiryDerived, true);
    } else {
        QCOMPARE(stored->expiryDerived, false);
    }

    tb.advance(effective - 1);
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    tb.advance(2);
    const auto got = tb->receive(kQueue, receiveAndDelete());
    HG_VERIFY_OK(got);
    QVERIFY2(got->isEmpty(), qPrintable(describe(got->value(0))));
}

void TestEngineTtl::ttl_T4_subscriptionTtlIsSmallestOfThree_data() {
    QTest::addColumn<qint64>("topicDefault");
    QTest::addColumn<qint64>("subscriptionDefault");
    QTest::addColumn<qint64>("messageTtl");
    QTest::addColumn<qint64>("effective");
    QTest::newRow("message smallest") << hours(1) << hours(1) << minutes(10) << minutes(10);
    QTest::newRow("subscription smallest") << hours(1) << minutes(5) << minutes(30) << minutes(5);
    QTest::newRow("topic smallest") << minutes(2) << hours(1) << minutes(30) << minutes(2);
    QTest::newRow("no message TTL, subscription smaller")
        << hours(1) << minutes(20) << qint64(-1) << minutes(20);
    QTest::newRow("no message TTL, topic smaller")
        << minutes(15) << hours(1) << qint64(-1) << minutes(15);
    QTest::newRow("only the message has one") << kInfinite << kInfinite << minutes(7) << minutes(7);
}

void TestEngineTtl::ttl_T4_subscriptionTtlIsSmallestOfThree() {
    QFETCH(qint64, topicDefault);
    QFETCH(qint64, subscriptionDefault);
    QFETCH(qint64, messageTtl);
    QFETCH(qint64, effective);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), ttlProperties(topicDefault, false)));
    const QString sub = QStringLiteral("t/Subscriptions/s");
    // A second subscription without a default of its own: the smaller of message and topic.
    const QString open = QStringLiteral("t/Subscriptions/open");
    HG_VERIFY_OK(tb->createSubscription(sub, ttlProperties(subscriptionDefault, false)));
    HG_VERIFY_OK(tb->createSubscription(open, ttlProperties(kInfinite, false)));
    const Millis openEffective = std::min(topicDefault, messageTtl < 0 ? kInfinite : messageTtl);

    tb.advance(seconds(1));
    const Instant sentAt = tb.clock().now();
    HG_VERIFY_OK(tb->send(QStringLiteral("t"),
                          messageWithTtl(QStringLiteral("m"), optionalTtl(messageTtl))));
    const auto inSub = tb->listMessages(sub, 0, 10);
    HG_VERIFY_OK(inSub);
    QCOMPARE(inSub->size(), 1);
    QCOMPARE(inSub->first().effectiveTimeToLive, effective);
    QCOMPARE(inSub->first().expiresAt, sentAt + effective);
    const auto inOpen = tb->listMessages(open, 0, 10);
    HG_VERIFY_OK(inOpen);
    QCOMPARE(inOpen->size(), 1);
    QCOMPARE(inOpen->first().effectiveTimeToLive, openEffective);
    QCOMPARE(inOpen->first().expiresAt, addSaturating(sentAt, openEffective));

    tb.advance(effective - 1);
    auto counts = tb->counts(sub);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    tb.advance(2);
    const auto got = tb->receive(sub, receiveAndDelete());
    HG_VERIFY_OK(got);
    QVERIFY(got->isEmpty());
    if (openEffective > effective) {
        const auto other = tb->receive(open, receiveAndDelete());
        HG_VERIFY_OK(other);
        QCOMPARE(other->size(), 1);
    }
}

void TestEngineTtl::ttl_T5_receiveNeverReturnsExpired_data() {
    QTest::addColumn<bool>("peekLockMode");
    QTest::newRow("PeekLock") << true;
    QTest::newRow("ReceiveAndDelete") << false;
}

void TestEngineTtl::ttl_T5_receiveNeverReturnsExpired() {
    QFETCH(bool, peekLockMode);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("old1"), minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("fresh"), hours(1))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("old2"), seconds(30))));
    tb.advance(minutes(2));
    const ReceiveOptions options =
        peekLockMode ? peekLock(QStringLiteral("r"), 10) : receiveAndDelete(10);
    const auto got = tb->receive(kQueue, options);
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), QStringList{QStringLiteral("fresh")});

    // Peek may still show unswept expired messages, but then marks them expired.
    const auto peeked = tb->peek(kQueue, 0, 10);
    HG_VERIFY_OK(peeked);
    for (const MessageView& m : *peeked) {
        if (m.expiresAt <= tb.clock().now())
            QVERIFY2(m.expired, qPrintable(describe(m)));
    }
    const auto again = tb->receive(kQueue, options);
    HG_VERIFY_OK(again);
    QVERIFY(again->isEmpty());
}

void TestEngineTtl::ttl_T5_lockedExpiredMessageIsMarkedExpired() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(kInfinite, false, minutes(5))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("m"), minutes(1))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    tb.advance(minutes(2));
    const auto peeked = tb->peek(kQueue, 0, 10);
    HG_VERIFY_OK(peeked);
    QCOMPARE(peeked->size(), 1);
    QCOMPARE(peeked->first().locked, true);
    QCOMPARE(peeked->first().expired, true);
    const auto listed = tb->message(kQueue, got->first().sequenceNumber);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->expired, true);
}

void TestEngineTtl::ttl_T6_lockedMessageDoesNotExpireUntilSettled_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<bool>("endsDeadLettered");
    QTest::addColumn<QString>("reason");
    QTest::newRow("complete") << "complete" << false << "";
    QTest::newRow("renew then complete") << "renew" << false << "";
    QTest::newRow("abandon") << "abandon" << true << "TTLExpiredException";
    QTest::newRow("lock runs out") << "timeout" << true << "TTLExpiredException";
    QTest::newRow("dead-letter") << "deadLetter" << true << "mine";
    QTest::newRow("defer then receive deferred") << "defer" << true << "TTLExpiredException";
}

void TestEngineTtl::ttl_T6_lockedMessageDoesNotExpireUntilSettled() {
    QFETCH(QString, action);
    QFETCH(bool, endsDeadLettered);
    QFETCH(QString, reason);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(kInfinite, true, minutes(5))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("m"), minutes(1))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const LockRef lock = LockRef::of(got->first());
    const qint64 seq = got->first().sequenceNumber;

    // Two minutes on, past its expiry, the locked message stays where it is.
    tb.advance(minutes(2));
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(1));
    QCOMPARE(counts->deadLettered, qint64(0));

    if (action == QLatin1String("complete")) {
        HG_VERIFY_OK(tb->complete(lock));
    } else if (action == QLatin1String("renew")) {
        const auto renewed = tb->renewLock(lock);
        HG_VERIFY_OK(renewed);
        QCOMPARE(*renewed, tb.clock().now() + minutes(5));
        tb.advance(minutes(4));
        HG_VERIFY_OK(tb->complete(lock));
    } else if (action == QLatin1String("abandon")) {
        HG_VERIFY_OK(tb->abandon(lock));
    } else if (action == QLatin1String("timeout")) {
        tb.advance(minutes(3) - 1);
        counts = tb->counts(kQueue);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->locked, qint64(1));
        tb.advance(2);
    } else if (action == QLatin1String("deadLetter")) {
        HG_VERIFY_OK(tb->deadLetter(lock, {QStringLiteral("mine"), QStringLiteral("why"), {}}));
    } else if (action == QLatin1String("defer")) {
        HG_VERIFY_OK(tb->defer(lock));
        HG_VERIFY_ERROR(tb->receiveDeferred(kQueue, seq, QStringLiteral("r")),
                        ErrorCode::MessageNotFound);
    }

    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    QVERIFY2(main->isEmpty(), qPrintable(describe(main->value(0))));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), endsDeadLettered ? 1 : 0);
    if (endsDeadLettered) {
        QCOMPARE(dead->first().messageId, QStringLiteral("m"));
        QCOMPARE(dead->first().deadLetterReason, reason);
    }
    const auto nothing = tb->receive(kQueue, receiveAndDelete());
    HG_VERIFY_OK(nothing);
    QVERIFY(nothing->isEmpty());
}

void TestEngineTtl::ttl_T6_abandonAfterExpiryDropsWithoutDeadLettering() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(kInfinite, false, minutes(5))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("m"), minutes(1))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    tb.advance(minutes(2));
    HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(0));
    QCOMPARE(counts->deadLettered, qint64(0));
    const auto again = tb->receive(kQueue, receiveAndDelete());
    HG_VERIFY_OK(again);
    QVERIFY(again->isEmpty());
}

void TestEngineTtl::ttl_T7_expiryDeadLettersAtomically_data() {
    QTest::addColumn<bool>("subscription");
    QTest::newRow("queue") << false;
    QTest::newRow("subscription") << true;
}

void TestEngineTtl::ttl_T7_expiryDeadLettersAtomically() {
    QFETCH(bool, subscription);
    TestBroker tb;
    QString path = kQueue;
    if (subscription) {
        HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
        path = QStringLiteral("t/Subscriptions/s");
        HG_VERIFY_OK(tb->createSubscription(path, ttlProperties(kInfinite, true)));
    } else {
        HG_VERIFY_OK(tb->createQueue(path, ttlProperties(kInfinite, true)));
    }
    const QString deadPath = path + QStringLiteral("/$deadletterqueue");
    OutgoingMessage m = messageWithTtl(QStringLiteral("m"), minutes(1));
    m.body = QByteArrayLiteral("payload");
    m.applicationProperties.insert(QStringLiteral("region"), QStringLiteral("eu"));
    HG_VERIFY_OK(tb->send(subscription ? QStringLiteral("t") : path, m));

    // Exactly one place at every instant: main until its expiry, then the dead-letter queue.
    for (const Millis step : {seconds(30), seconds(29) + 999, Millis(2), minutes(10)}) {
        tb.advance(step);
        const auto main = tb->listMessages(path, 0, 10);
        const auto dead = tb->listMessages(deadPath, 0, 10);
        HG_VERIFY_OK(main);
        HG_VERIFY_OK(dead);
        const bool due = tb.clock().now() > kTestStart + minutes(1);
        QCOMPARE(main->size(), due ? 0 : 1);
        QCOMPARE(dead->size(), due ? 1 : 0);
    }
    const auto dead = tb->listMessages(deadPath, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(dead);
    const MessageView& d = dead->first();
    QCOMPARE(d.messageId, QStringLiteral("m"));
    QCOMPARE(d.body, QByteArrayLiteral("payload"));
    QCOMPARE(d.subQueue, SubQueue::DeadLetter);
    QCOMPARE(d.deadLetterReason, kTtlExpired);
    QVERIFY2(!d.deadLetterErrorDescription.isEmpty(), qPrintable(describe(d)));
    QCOMPARE(d.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(),
             kTtlExpired);
    QCOMPARE(d.applicationProperties.value(QStringLiteral("region")).toString(),
             QStringLiteral("eu"));
    const auto counts = tb->counts(path);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(0));
    QCOMPARE(counts->deadLettered, qint64(1));
    const auto reasons = tb->deadLetterReasons(path);
    HG_VERIFY_OK(reasons);
    QCOMPARE(*reasons, (QMap<QString, qint64>{{kTtlExpired, 1}}));
}

void TestEngineTtl::ttl_T7_expiryWithoutDeadLetteringDrops() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(minutes(1), false)));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("a"), {})));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("b"), seconds(10))));
    tb.advance(minutes(1) + 1);
    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    QVERIFY(main->isEmpty());
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
    const auto reasons = tb->deadLetterReasons(kQueue);
    HG_VERIFY_OK(reasons);
    QVERIFY(reasons->isEmpty());
}

void TestEngineTtl::ttl_T8_noTtlInDeadLetterQueue() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(minutes(5), true)));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("byReceiver"), minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("byExpiry"), minutes(2))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));
    tb.advance(days(30));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(messageIds(*dead),
             (QStringList{QStringLiteral("byReceiver"), QStringLiteral("byExpiry")}));
    // Still receivable from the dead-letter queue a month later.
    const auto fromDead = tb->receive(kDeadLetters, receiveAndDelete(10));
    HG_VERIFY_OK(fromDead);
    QCOMPARE(fromDead->size(), 2);
}

void TestEngineTtl::ttl_T8_deferredExpiresOnlyWhenAskedFor_data() {
    QTest::addColumn<bool>("deadLetterOnExpiry");
    QTest::newRow("dead-letters") << true;
    QTest::newRow("drops") << false;
}

void TestEngineTtl::ttl_T8_deferredExpiresOnlyWhenAskedFor() {
    QFETCH(bool, deadLetterOnExpiry);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(kInfinite, deadLetterOnExpiry)));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("m"), minutes(1))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const qint64 seq = got->first().sequenceNumber;
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));

    // Not expired in the background.
    tb.advance(minutes(10));
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deferred, qint64(1));
    QCOMPARE(counts->deadLettered, qint64(0));
    const auto listed = tb->message(kQueue, seq);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->state, MessageState::Deferred);
    QCOMPARE(listed->expired, true);

    // Asked for, it is found expired: reported as not found and expired per T7.
    HG_VERIFY_ERROR(tb->receiveDeferred(kQueue, seq, QStringLiteral("r")),
                    ErrorCode::MessageNotFound);
    counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deferred, qint64(0));
    QCOMPARE(counts->deadLettered, qint64(deadLetterOnExpiry ? 1 : 0));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), deadLetterOnExpiry ? 1 : 0);
    if (deadLetterOnExpiry)
        QCOMPARE(dead->first().deadLetterReason, kTtlExpired);
    HG_VERIFY_ERROR(tb->message(kQueue, seq), ErrorCode::MessageNotFound);
}

void TestEngineTtl::ttl_T8_deferredNotYetExpiredIsReceivable() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(kInfinite, true)));
    HG_VERIFY_OK(tb->send(kQueue, messageWithTtl(QStringLiteral("m"), hours(1))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));
    tb.advance(minutes(59));
    const auto deferred =
        tb->receiveDeferred(kQueue, got->first().sequenceNumber, QStringLiteral("r2"));
    HG_VERIFY_OK(deferred);
    QCOMPARE(deferred->messageId, QStringLiteral("m"));
    QVERIFY(!deferred->lockToken.isNull());
    HG_VERIFY_OK(tb->complete(LockRef::of(*deferred)));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
}

void TestEngineTtl::ttl_T9_peekShowsOwnOrDerivedExpiry() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, ttlProperties(hours(1), false)));
    tb.advance(seconds(7));
    const Instant sentAt = tb.clock().now();
    const auto own = tb->send(kQueue, messageWithTtl(QStringLiteral("own"), minutes(10)));
    const auto derived = tb->send(kQueue, messageWithTtl(QStringLiteral("derived"), {}));
    HG_VERIFY_OK(own);
    HG_VERIFY_OK(derived);

    const auto peeked = tb->peek(kQueue, 0, 10);
    HG_VERIFY_OK(peeked);
    QCOMPARE(peeked->size(), 2);
    const auto listed = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 2);
    const auto single = tb->message(kQueue, derived->sequenceNumber);
    HG_VERIFY_OK(single);
    for (const QList<MessageView>& views :
         {*peeked, *listed, QList<MessageView>{listed->at(0), *single}}) {
        const MessageView& a = views.at(0);
        const MessageView& b = views.at(1);
        QCOMPARE(a.messageId, QStringLiteral("own"));
        QCOMPARE(a.expiresAt, sentAt + minutes(10));
        QCOMPARE(a.expiryDerived, false);
        QCOMPARE(b.messageId, QStringLiteral("derived"));
        QCOMPARE(b.expiresAt, sentAt + hours(1));
        QCOMPARE(b.effectiveTimeToLive, hours(1));
        QCOMPARE(b.expiryDerived, true);
        QVERIFY(!b.timeToLive.has_value());
    }
}

void TestEngineTtl::ttl_T9_subscriptionShowsDerivedExpiry() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), ttlProperties(minutes(30), false)));
    const QString sub = QStringLiteral("t/Subscriptions/s");
    HG_VERIFY_OK(tb->createSubscription(sub, ttlProperties(hours(1), false)));
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), messageWithTtl(QStringLiteral("m"), {})));
    const auto peeked = tb->peek(sub, 0, 10);
    HG_VERIFY_OK(peeked);
    QCOMPARE(peeked->size(), 1);
    QCOMPARE(peeked->first().expiresAt, kTestStart + minutes(30));
    QCOMPARE(peeked->first().expiryDerived, true);
}

QTEST_GUILESS_MAIN(TestEngineTtl)
#include "tst_engine_ttl.moc"
