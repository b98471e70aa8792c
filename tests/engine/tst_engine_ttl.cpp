// Time to live, part 1: when messages expire (service-bus-rules.md T1-T5).
#include "TestEngineTtl.h"

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

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

void TestEngineTtl::ttl_T3_forwardingNeverLengthensLife_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<qint64>("messageTtl"); // -1: none of its own
    QTest::addColumn<qint64>("lowered");
    // A queue with a 1-minute default forwarding to a queue with none: the message keeps the
    // minute it got in the first queue (today it would never expire).
    QTest::newRow("queue default, no own TTL") << "src" << qint64(-1) << qint64(minutes(1));
    QTest::newRow("queue default lowers own TTL")
        << "src" << qint64(hours(1)) << qint64(minutes(1));
    QTest::newRow("own TTL below the default")
        << "src" << qint64(seconds(30)) << qint64(seconds(30));
    // A subscription applies T4 first (topic 2 minutes, subscription 90 seconds), then forwards.
    QTest::newRow("subscription") << "t" << qint64(-1) << qint64(seconds(90));
}

void TestEngineTtl::ttl_T3_forwardingNeverLengthensLife() {
    QFETCH(QString, source);
    QFETCH(qint64, messageTtl);
    QFETCH(qint64, lowered);
    TestBroker tb;
    const QString destination = QStringLiteral("dst");
    HG_VERIFY_OK(tb->createQueue(destination, ttlProperties(kInfinite, false)));
    EntityProperties forwarding = ttlProperties(minutes(1), false);
    forwarding.forwardTo = destination;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("src"), forwarding));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), ttlProperties(minutes(2), false)));
    forwarding.defaultMessageTimeToLive = seconds(90);
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/fwd"), forwarding));

    tb.advance(seconds(1));
    const Instant sentAt = tb.clock().now();
    HG_VERIFY_OK(tb->send(source, messageWithTtl(QStringLiteral("m"), optionalTtl(messageTtl))));
    const auto arrived = tb->listMessages(destination, 0, 10);
    HG_VERIFY_OK(arrived);
    QCOMPARE(arrived->size(), 1);
    // The lowered TTL is the message's own from the first hop on.
    QCOMPARE(arrived->first().timeToLive, std::optional<Millis>(lowered));
    QCOMPARE(arrived->first().effectiveTimeToLive, lowered);
    QCOMPARE(arrived->first().expiresAt, sentAt + lowered);

    tb.advance(lowered - 1);
    auto counts = tb->counts(destination);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    tb.advance(1);
    counts = tb->counts(destination);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(0));
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
