// Restart, part 1 (service-bus-rules.md D2): messages, entities, sequence numbers, scheduled and
// deferred messages, idle timers, duplicate history and rules survive; locks do not. Each test's
// "before" half is a BeforeRestart (KilledRestart.h) and runs before a clean restart and before a
// kill -9.
#include "TestEngineRestart.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "KilledRestart.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kRestartQueue;

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

// Every kind of state a client can observe, then a snapshot of it. Taking the snapshot reads the
// stored rows, which commits whatever the operations left pending: this test proves that nothing
// is lost or changed by a restart after that (the counters tests look at what was pending).
const BeforeRestart kEverything{
    "everything", [](TestBroker& tb, Handoff& handoff) {
        HG_VERIFY_OK(tb->createNamespace({QStringLiteral("basic"), Tier::Basic}));
        HG_VERIFY_OK(tb->createQueue(QStringLiteral("basic:small"),
                                     EntityProperties::defaults(Tier::Basic)));
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
        HG_VERIFY_OK(
            tb->schedule(kQueue, fullMessage(QStringLiteral("later")), kTestStart + hours(1)));
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
        handoff.put(QStringLiteral("snapshot"), before.lines());
    }};

// Three sends drained by receive-and-delete: nothing left in the queue tells the next number.
const BeforeRestart kDrain{"drain", [](TestBroker& tb, Handoff& handoff) {
                               HG_VERIFY_OK(tb->createQueue(kQueue, {}));
                               qint64 last = 0;
                               for (int i = 0; i < 3; ++i) {
                                   const auto sent =
                                       tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
                                   HG_VERIFY_OK(sent);
                                   last = sent->sequenceNumber;
                               }
                               const auto drained = tb->receive(kQueue, receiveAndDelete(10));
                               HG_VERIFY_OK(drained);
                               QCOMPARE(drained->size(), 3);
                               handoff.put(QStringLiteral("last"), last);
                           }};

const BeforeRestart kScheduleOne{
    "scheduleOne", [](TestBroker& tb, Handoff& handoff) {
        const auto scheduled =
            tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")), kTestStart + hours(1));
        HG_VERIFY_OK(scheduled);
        handoff.put(QStringLiteral("scheduled"), scheduled->sequenceNumber);
    }};

// Two of three messages locked by "r1" for five minutes.
const BeforeRestart kLockTwo{
    "lockTwo", [](TestBroker& tb, Handoff& handoff) {
        EntityProperties p;
        p.lockDuration = minutes(5);
        HG_VERIFY_OK(tb->createQueue(kQueue, p));
        for (const char* id : {"a", "b", "c"})
            HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QLatin1String(id))));
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r1"), 2));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 2);
        const auto counts = tb->counts(kQueue);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->locked, qint64(2));
        handoff.put(QStringLiteral("token"), got->at(0).lockToken);
        handoff.put(QStringLiteral("seq"), got->at(0).sequenceNumber);
    }};

// Two scheduled messages ten minutes ahead and a deferred one.
const BeforeRestart kScheduleAndDefer{
    "scheduleAndDefer", [](TestBroker& tb, Handoff& handoff) {
        HG_VERIFY_OK(tb->createQueue(kQueue, {}));
        const auto scheduled = tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")),
                                            kTestStart + minutes(10));
        HG_VERIFY_OK(scheduled);
        const auto cancellable = tb->schedule(kQueue, TestBroker::message(QStringLiteral("c")),
                                              kTestStart + minutes(10));
        HG_VERIFY_OK(cancellable);
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("d"))));
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));
        handoff.put(QStringLiteral("cancellable"), cancellable->sequenceNumber);
        handoff.put(QStringLiteral("deferred"), got->first().sequenceNumber);
    }};

// A queue idle for six of its ten minutes.
const BeforeRestart kIdleSixMinutes{"idleSixMinutes", [](TestBroker& tb, Handoff&) {
                                        EntityProperties p;
                                        p.autoDeleteOnIdle = minutes(10);
                                        HG_VERIFY_OK(tb->createQueue(kQueue, p));
                                        tb.advance(minutes(6));
                                    }};

const BeforeRestart kSendOnce{
    "sendOnce", [](TestBroker& tb, Handoff&) {
        EntityProperties p;
        p.requiresDuplicateDetection = true;
        HG_VERIFY_OK(tb->createQueue(kQueue, p));
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("once"))));
    }};

// A correlation filter value of each type a rule can hold, by name: the child gets the name.
QVariant filterValue(const QString& type) {
    if (type == QLatin1String("int"))
        return 42;
    if (type == QLatin1String("long"))
        return qint64(1) << 40;
    if (type == QLatin1String("double"))
        return 2.5;
    if (type == QLatin1String("bool"))
        return true;
    return QStringLiteral("42");
}

const QString kTopic = QStringLiteral("t");
const QString kTypedSub = QStringLiteral("t/Subscriptions/s");

const BeforeRestart kTypedRule{"typedRule", [](TestBroker& tb, Handoff& handoff) {
                                   HG_VERIFY_OK(tb->createTopic(kTopic, {}));
                                   Rule rule;
                                   rule.name = QStringLiteral("typed");
                                   rule.filterType = FilterType::Correlation;
                                   rule.correlation.properties.insert(
                                       QStringLiteral("key"),
                                       filterValue(handoff.text(QStringLiteral("type"))));
                                   HG_VERIFY_OK(tb->createSubscription(kTypedSub, {}, {rule}));
                               }};

const QString kRuleTopic = QStringLiteral("rt");
const QString kRuleSub = QStringLiteral("rt/Subscriptions/s");

// R3/R4 rules as text: an SQL filter with an action given at creation, then a correlation
// filter with an action added, and a rule added and removed; the crash comes right after the
// removal is acknowledged.
const BeforeRestart kSqlRules{
    "sqlRules", [](TestBroker& tb, Handoff&) {
        HG_VERIFY_OK(tb->createTopic(kRuleTopic, {}));
        Rule big;
        big.name = QStringLiteral("big");
        big.filterType = FilterType::Sql;
        big.sqlExpression = QStringLiteral("quantity > 5 AND sys.Label LIKE 'order%'");
        big.sqlAction = QStringLiteral("SET tier = 'gold'; REMOVE secret");
        HG_VERIFY_OK(tb->createSubscription(kRuleSub, {}, {big}));
        Rule eu;
        eu.name = QStringLiteral("eu");
        eu.filterType = FilterType::Correlation;
        eu.correlation.properties.insert(QStringLiteral("region"), QStringLiteral("eu"));
        eu.sqlAction = QStringLiteral("SET sys.To = 'desk-eu'");
        HG_VERIFY_OK(tb->addRule(kRuleSub, eu));
        Rule gone;
        gone.name = QStringLiteral("gone");
        gone.filterType = FilterType::Sql;
        gone.sqlExpression = QStringLiteral("1=1");
        HG_VERIFY_OK(tb->addRule(kRuleSub, gone));
        HG_VERIFY_OK(tb->removeRule(kRuleSub, QStringLiteral("gone")));
    }};

} // namespace

void TestEngineRestart::restart_D2_R4_sqlRulesAndActionsSurvive_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_R4_sqlRulesAndActionsSurvive() {
    QFETCH(Restart, restart);
    TestBroker tb;
    kSqlRules.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto info = tb->entity(kRuleSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules.size(), 2);
    QCOMPARE(info->rules.at(0).name, QStringLiteral("big"));
    QCOMPARE(info->rules.at(0).sqlExpression,
             QStringLiteral("quantity > 5 AND sys.Label LIKE 'order%'"));
    QCOMPARE(info->rules.at(0).sqlAction, QStringLiteral("SET tier = 'gold'; REMOVE secret"));
    QCOMPARE(info->rules.at(1).name, QStringLiteral("eu"));
    QCOMPARE(info->rules.at(1).sqlAction, QStringLiteral("SET sys.To = 'desk-eu'"));

    // They route as before the crash: one copy per action rule, each changed by its action.
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.subject = QStringLiteral("order-1");
    m.applicationProperties.insert(QStringLiteral("quantity"), 9);
    m.applicationProperties.insert(QStringLiteral("region"), QStringLiteral("eu"));
    m.applicationProperties.insert(QStringLiteral("secret"), true);
    HG_VERIFY_OK(tb->send(kRuleTopic, m));
    const auto copies = tb->listMessages(kRuleSub, 0, 10);
    HG_VERIFY_OK(copies);
    QCOMPARE(copies->size(), 2);
    const MessageView& gold = copies->at(0);
    QCOMPARE(gold.applicationProperties.value(QStringLiteral("RuleName")).toString(),
             QStringLiteral("big"));
    QCOMPARE(gold.applicationProperties.value(QStringLiteral("tier")).toString(),
             QStringLiteral("gold"));
    QVERIFY(!gold.applicationProperties.contains(QStringLiteral("secret")));
    const MessageView& desk = copies->at(1);
    QCOMPARE(desk.applicationProperties.value(QStringLiteral("RuleName")).toString(),
             QStringLiteral("eu"));
    QCOMPARE(desk.to, QStringLiteral("desk-eu"));
}

void TestEngineRestart::restart_D2_everythingObservableSurvives_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_everythingObservableSurvives() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kEverything.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto before = BrokerSnapshot::fromLines(handed.lines(QStringLiteral("snapshot")));
    const QString difference = before.differenceFrom(BrokerSnapshot::take(tb.broker()));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestEngineRestart::restart_D2_sequenceNumbersContinueAfterEmptyQueue_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_sequenceNumbersContinueAfterEmptyQueue() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff drained = kDrain.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const qint64 last = drained.number(QStringLiteral("last"));
    const auto next = tb->send(kQueue, TestBroker::message(QStringLiteral("after")));
    HG_VERIFY_OK(next);
    QVERIFY2(next->sequenceNumber > last,
             qPrintable(QStringLiteral("%1 after %2").arg(next->sequenceNumber).arg(last)));
    // A scheduling number handed out before the restart is not reused either.
    const Handoff scheduled = kScheduleOne.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto afterScheduled = tb->send(kQueue, TestBroker::message(QStringLiteral("x")));
    HG_VERIFY_OK(afterScheduled);
    QVERIFY(afterScheduled->sequenceNumber > scheduled.number(QStringLiteral("scheduled")));
}

void TestEngineRestart::restart_D2_locksGoneMessagesReceivableAgain_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_locksGoneMessagesReceivableAgain() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kLockTwo.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(0));
    QCOMPARE(counts->active, qint64(3));
    const LockRef lost{kQueue, handed.uuid(QStringLiteral("token")), QStringLiteral("r1")};
    QVERIFY(!lost.lockToken.isNull());
    HG_VERIFY_REFUSED(tb.broker(), tb->complete(lost), ErrorCode::MessageLockLost);
    // No time passes: the messages are receivable at once, in their old order and numbers, and
    // their first delivery still counts (D2: a delivery is durable before it is handed out).
    const auto again = tb->receive(kQueue, peekLock(QStringLiteral("r2"), 10));
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again),
             (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    QCOMPARE(again->at(0).sequenceNumber, handed.number(QStringLiteral("seq")));
    QCOMPARE(again->at(0).deliveryCount, quint32(2));
    QCOMPARE(again->at(1).deliveryCount, quint32(2));
    QCOMPARE(again->at(2).deliveryCount, quint32(1));
    HG_VERIFY_OK(tb->complete(LockRef::of(again->at(0))));
}

void TestEngineRestart::restart_D2_scheduledAndDeferredKeepWorking_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_scheduledAndDeferredKeepWorking() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kScheduleAndDefer.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_OK(tb->cancelScheduled(kQueue, handed.number(QStringLiteral("cancellable"))));
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
        tb->receiveDeferred(kQueue, handed.number(QStringLiteral("deferred")), QStringLiteral("r"));
    HG_VERIFY_OK(deferred);
    QCOMPARE(deferred->messageId, QStringLiteral("d"));
}

void TestEngineRestart::restart_D2_idleTimerIsNotReset_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_idleTimerIsNotReset() {
    QFETCH(Restart, restart);
    TestBroker tb;
    kIdleSixMinutes.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(tb.clock().now(), kTestStart + minutes(6));
    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, kTestStart);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(10));
    tb.advance(minutes(4) + 1);
    HG_VERIFY_ERROR(tb->entity(kQueue), ErrorCode::MessagingEntityNotFound);
}

void TestEngineRestart::restart_D2_duplicateHistorySurvives_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_duplicateHistorySurvives() {
    QFETCH(Restart, restart);
    TestBroker tb;
    kSendOnce.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto again = tb->send(kQueue, TestBroker::message(QStringLiteral("once")));
    HG_VERIFY_OK(again);
    QCOMPARE(again->duplicate, true);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
}

void TestEngineRestart::restart_D2_ruleFilterValuesKeepTheirTypes_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<Restart>("restart");
    for (const char* type : {"int", "long", "double", "bool", "string"}) {
        for (const RestartVariant& variant : kRestartVariants)
            QTest::addRow("%s/%s", type, variant.tag)
                << QString::fromLatin1(type) << variant.restart;
    }
}

void TestEngineRestart::restart_D2_ruleFilterValuesKeepTheirTypes() {
    QFETCH(QString, type);
    QFETCH(Restart, restart);
    const QVariant value = filterValue(type);
    TestBroker tb;
    Handoff handoff;
    handoff.put(QStringLiteral("type"), type);
    kTypedRule.runThenRestart(tb, restart, handoff);
    if (QTest::currentTestFailed())
        return;
    const auto info = tb->entity(kTypedSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules.size(), 1);
    // It still matches the same messages as before the restart...
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("key"), value);
    HG_VERIFY_OK(tb->send(kTopic, m));
    const auto counts = tb->counts(kTypedSub);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    // ...and reads back as it was given, type included (the explorer shows it).
    const QVariant stored = info->rules.first().correlation.properties.value(QStringLiteral("key"));
    QCOMPARE(stored, value);
    QCOMPARE(stored.typeName(), value.typeName());
}

HG_RESTART_TEST_MAIN(TestEngineRestart)
