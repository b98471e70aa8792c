// Restart (SEMANTICS.md D2): after closing the engine and opening the same database, messages,
// entities, counters and sequence numbers are as they were; locks are gone (L9), so previously
// locked messages are receivable again. Crashes (kill -9, D1) are tested elsewhere.

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");

OutgoingMessage fullMessage(const QString& id) {
    OutgoingMessage m;
    m.messageId = id;
    m.body = QByteArray("\x00\x01binary\xff", 9);
    m.correlationId = QStringLiteral("corr");
    m.sessionId = QStringLiteral("session");
    m.replyTo = QStringLiteral("replies");
    m.replyToSessionId = QStringLiteral("reply-session");
    m.to = QStringLiteral("someone");
    m.subject = QStringLiteral("subject");
    m.contentType = QStringLiteral("application/octet-stream");
    m.timeToLive = days(2);
    m.applicationProperties.insert(QStringLiteral("text"), QStringLiteral("héllo"));
    m.applicationProperties.insert(QStringLiteral("int"), 42);
    m.applicationProperties.insert(QStringLiteral("long"), qint64(1) << 40);
    m.applicationProperties.insert(QStringLiteral("double"), 2.5);
    m.applicationProperties.insert(QStringLiteral("bool"), true);
    return m;
}
} // namespace

class TestEngineRestart : public QObject {
    Q_OBJECT

private slots:
    void restart_D2_everythingObservableSurvives();
    void restart_D2_sequenceNumbersContinueAfterEmptyQueue();
    void restart_D2_locksGoneMessagesReceivableAgain();
    void restart_D2_scheduledAndDeferredKeepWorking();
    void restart_D2_idleTimerIsNotReset();
    void restart_D2_duplicateHistorySurvives();
    void restart_D2_ruleFilterValuesKeepTheirTypes_data();
    void restart_D2_ruleFilterValuesKeepTheirTypes();
};

void TestEngineRestart::restart_D2_everythingObservableSurvives() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createNamespace({QStringLiteral("basic"), Tier::Basic}));
    HG_VERIFY_OK(
        tb->createQueue(QStringLiteral("basic:small"), EntityProperties::defaults(Tier::Basic)));
    EntityProperties queueProperties;
    queueProperties.lockDuration = seconds(30);
    queueProperties.maxDeliveryCount = 3;
    queueProperties.deadLetteringOnMessageExpiration = true;
    queueProperties.autoDeleteOnIdle = days(3);
    queueProperties.requiresDuplicateDetection = true;
    queueProperties.defaultMessageTimeToLive = days(5);
    HG_VERIFY_OK(tb->createQueue(kQueue, queueProperties));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("sink"), {}));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    CorrelationFilter filter;
    filter.subject = QStringLiteral("subject");
    filter.properties.insert(QStringLiteral("text"), QStringLiteral("h\u00e9llo"));
    Rule rule;
    rule.name = QStringLiteral("corr");
    rule.filterType = FilterType::Correlation;
    rule.correlation = filter;
    EntityProperties subProperties;
    subProperties.forwardDeadLetteredMessagesTo = QStringLiteral("sink");
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), subProperties,
                                        {rule, Rule::trueRule()}));

    tb.advance(minutes(1));
    for (int i = 0; i < 5; ++i)
        HG_VERIFY_OK(tb->send(kQueue, fullMessage(QStringLiteral("m%1").arg(i))));
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), fullMessage(QStringLiteral("fanned"))));
    HG_VERIFY_OK(tb->send(QStringLiteral("basic:small"), fullMessage(QStringLiteral("b"))));
    HG_VERIFY_OK(tb->schedule(kQueue, fullMessage(QStringLiteral("later")), kTestStart + hours(1)));
    // One dead-lettered with a reason, one deferred, one delivered twice.
    auto got = tb->receive(kQueue, peekLock(QStringLiteral("r"), 3));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 3);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->at(0)),
                                {QStringLiteral("why"), QStringLiteral("because"), {}}));
    HG_VERIFY_OK(tb->defer(LockRef::of(got->at(1)), {{QStringLiteral("deferred"), true}}));
    HG_VERIFY_OK(tb->abandon(LockRef::of(got->at(2)), {{QStringLiteral("tries"), 1}}));
    const auto subGot = tb->receive(QStringLiteral("t/Subscriptions/s"), peekLock("r"));
    HG_VERIFY_OK(subGot);
    QCOMPARE(subGot->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(subGot->first())));
    tb.advance(minutes(1));

    const BrokerSnapshot before = BrokerSnapshot::take(tb.broker());
    QVERIFY(before.lines().size() > 20);
    tb.reopen();
    const BrokerSnapshot after = BrokerSnapshot::take(tb.broker());
    const QString difference = before.differenceFrom(after);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestEngineRestart::restart_D2_sequenceNumbersContinueAfterEmptyQueue() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    qint64 last = 0;
    for (int i = 0; i < 3; ++i) {
        const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
        HG_VERIFY_OK(sent);
        last = sent->sequenceNumber;
    }
    const auto drained = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(drained);
    QCOMPARE(drained->size(), 3);
    // Nothing left in the queue tells the next number: the engine must have kept it.
    tb.reopen();
    const auto next = tb->send(kQueue, TestBroker::message(QStringLiteral("after")));
    HG_VERIFY_OK(next);
    QVERIFY2(next->sequenceNumber > last,
             qPrintable(QStringLiteral("%1 after %2").arg(next->sequenceNumber).arg(last)));
    // A scheduling number handed out before the restart is not reused either.
    const auto scheduled =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")), kTestStart + hours(1));
    HG_VERIFY_OK(scheduled);
    tb.reopen();
    const auto afterScheduled = tb->send(kQueue, TestBroker::message(QStringLiteral("x")));
    HG_VERIFY_OK(afterScheduled);
    QVERIFY(afterScheduled->sequenceNumber > scheduled->sequenceNumber);
}

void TestEngineRestart::restart_D2_locksGoneMessagesReceivableAgain() {
    TestBroker tb;
    EntityProperties p;
    p.lockDuration = minutes(5);
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    for (const char* id : {"a", "b", "c"})
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QLatin1String(id))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r1"), 2));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 2);
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(2));

    tb.reopen();
    counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(0));
    QCOMPARE(counts->active, qint64(3));
    HG_VERIFY_REFUSED(tb.broker(), tb->complete(LockRef::of(got->at(0))),
                      ErrorCode::MessageLockLost);
    // No time passes: the messages are receivable at once, in their old order and numbers, and
    // their first delivery still counts.
    const auto again = tb->receive(kQueue, peekLock(QStringLiteral("r2"), 10));
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again),
             (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    QCOMPARE(again->at(0).sequenceNumber, got->at(0).sequenceNumber);
    QCOMPARE(again->at(0).deliveryCount, quint32(2));
    QCOMPARE(again->at(1).deliveryCount, quint32(2));
    QCOMPARE(again->at(2).deliveryCount, quint32(1));
    HG_VERIFY_OK(tb->complete(LockRef::of(again->at(0))));
}

void TestEngineRestart::restart_D2_scheduledAndDeferredKeepWorking() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto scheduled =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")), kTestStart + minutes(10));
    HG_VERIFY_OK(scheduled);
    const auto cancellable =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("c")), kTestStart + minutes(10));
    HG_VERIFY_OK(cancellable);
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("d"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));

    tb.reopen();
    HG_VERIFY_OK(tb->cancelScheduled(kQueue, cancellable->sequenceNumber));
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->scheduled, qint64(1));
    QCOMPARE(counts->deferred, qint64(1));
    tb.advance(minutes(10) - 1);
    const auto early = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(early);
    QVERIFY(early->isEmpty());
    tb.advance(1);
    const auto active = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(active);
    QCOMPARE(messageIds(*active), QStringList{QStringLiteral("s")});
    QCOMPARE(active->first().enqueuedTime, kTestStart + minutes(10));
    const auto deferred =
        tb->receiveDeferred(kQueue, got->first().sequenceNumber, QStringLiteral("r"));
    HG_VERIFY_OK(deferred);
    QCOMPARE(deferred->messageId, QStringLiteral("d"));
}

void TestEngineRestart::restart_D2_idleTimerIsNotReset() {
    TestBroker tb;
    EntityProperties p;
    p.autoDeleteOnIdle = minutes(10);
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    tb.advance(minutes(6));
    tb.reopen();
    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, kTestStart);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(10));
    tb.advance(minutes(4) + 1);
    HG_VERIFY_ERROR(tb->entity(kQueue), ErrorCode::MessagingEntityNotFound);
}

void TestEngineRestart::restart_D2_duplicateHistorySurvives() {
    TestBroker tb;
    EntityProperties p;
    p.requiresDuplicateDetection = true;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("once"))));
    tb.reopen();
    const auto again = tb->send(kQueue, TestBroker::message(QStringLiteral("once")));
    HG_VERIFY_OK(again);
    QCOMPARE(again->duplicate, true);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
}

void TestEngineRestart::restart_D2_ruleFilterValuesKeepTheirTypes_data() {
    QTest::addColumn<QVariant>("value");
    QTest::newRow("int") << QVariant(42);
    QTest::newRow("long") << QVariant(qint64(1) << 40);
    QTest::newRow("double") << QVariant(2.5);
    QTest::newRow("bool") << QVariant(true);
    QTest::newRow("string") << QVariant(QStringLiteral("42"));
}

void TestEngineRestart::restart_D2_ruleFilterValuesKeepTheirTypes() {
    QFETCH(QVariant, value);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    Rule rule;
    rule.name = QStringLiteral("typed");
    rule.filterType = FilterType::Correlation;
    rule.correlation.properties.insert(QStringLiteral("key"), value);
    const QString sub = QStringLiteral("t/Subscriptions/s");
    HG_VERIFY_OK(tb->createSubscription(sub, {}, {rule}));
    tb.reopen();
    const auto info = tb->entity(sub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules.size(), 1);
    // It still matches the same messages as before the restart...
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("key"), value);
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), m));
    const auto counts = tb->counts(sub);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    // ...and reads back as it was given, type included (the explorer shows it).
    const QVariant stored = info->rules.first().correlation.properties.value(QStringLiteral("key"));
    QCOMPARE(stored, value);
    QCOMPARE(stored.typeName(), value.typeName());
}

QTEST_GUILESS_MAIN(TestEngineRestart)
#include "tst_engine_restart.moc"
