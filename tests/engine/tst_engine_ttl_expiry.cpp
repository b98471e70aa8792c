// Time to live, part 2: locks, dead-lettering, deferral and peek around expiry (T6-T9).
#include "TestEngineTtl.h"

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

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
