// Recording a scenario from what is done to a broker (ScenarioRecorder over the Broker's
// OperationObserver): the file parses, replays with ScenarioRunner to the same end state, checks
// itself, and says what it had to leave out. An unset observer changes nothing.
#include "TestBroker.h"
#include "hourglass/OperationObserver.h"
#include "hourglass/scenario/ScenarioRecorder.h"
#include "hourglass/scenario/ScenarioRunner.h"

#include <QTest>

#include <atomic>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

OutgoingMessage withTtl(const QString& id, Millis ttl) {
    OutgoingMessage message = TestBroker::message(id);
    message.timeToLive = ttl;
    return message;
}

MessageView takeOne(Broker& broker, const QString& path, const QString& receiver) {
    const auto got = broker.receive(path, {ReceiveMode::PeekLock, 1, receiver});
    if (!got || got->isEmpty())
        qFatal("nothing to receive from %s", qPrintable(path));
    return got->first();
}

struct EndState {
    EntityCounts counts;
    QMap<QString, qint64> reasons;
    bool operator==(const EndState&) const = default;
};

QMap<QString, EndState> endStateOf(const Broker& broker) {
    QMap<QString, EndState> state;
    for (const EntityInfo& info : broker.entities()) {
        EndState entity{info.counts, {}};
        if (info.kind != EntityKind::Topic) {
            if (const auto reasons = broker.deadLetterReasons(info.path))
                entity.reasons = *reasons;
        }
        state.insert(info.path, entity);
    }
    return state;
}

QMap<QString, EndState> endStateOf(const ScenarioReport& report) {
    QMap<QString, EndState> state;
    for (const EntityReport& entity : report.entities)
        state.insert(entity.path, EndState{entity.counts, entity.deadLetterReasons});
    return state;
}

ScenarioReport replay(const QByteArray& document, Scenario* parsedOut = nullptr) {
    auto scenario = parseScenario(document);
    if (!scenario)
        qFatal("recorded scenario does not parse: %s\n%s", qPrintable(scenario.error().description),
               document.constData());
    if (parsedOut)
        *parsedOut = *scenario;
    ScenarioRunOptions options;
    options.start = kTestStart + minutes(5); // any start: the file is in offsets
    auto runner = ScenarioRunner::create(*scenario, options);
    if (!runner)
        qFatal("cannot replay: %s", qPrintable(runner.error().description));
    return (*runner)->run();
}

class CountingObserver final : public OperationObserver {
public:
    void operationDone(const BrokerOperation& operation) override {
        ++count;
        lastKind = operation.kind;
    }
    std::atomic<int> count{0};
    BrokerOperation::Kind lastKind = BrokerOperation::Kind::Send;
};

} // namespace

class TestEngineRecorder : public QObject {
    Q_OBJECT
private slots:
    void replaysToTheSameEndState();
    void recordedExpectationPassesOnReplay();
    void namesWhatItLeavesOut();
    void observerChangesNoResult();
    void unsetObserverHearsNothing();
    void cancelledRecorderNeitherBeginsNorRecords();
    void endCheckNamesAnEntityTheFileHolds();
    void replacedRuleRecordedAsRemoveThenAdd();
};

void TestEngineRecorder::replaysToTheSameEndState() {
    TestBroker t;
    Broker& b = t.broker();
    // Before the recording: an entity (kept) with a message (not kept, and deleted meanwhile).
    QVERIFY(b.createQueue(QStringLiteral("archive"), {}));
    const auto old = b.send(QStringLiteral("archive"), TestBroker::message(QStringLiteral("old")));
    QVERIFY(old);
    t.advance(minutes(3));

    auto recorder = std::make_shared<ScenarioRecorder>();
    QVERIFY(recorder->begin(b));
    b.setOperationObserver(recorder);

    EntityProperties orders;
    orders.lockDuration = seconds(30);
    orders.maxDeliveryCount = 5;
    orders.deadLetteringOnMessageExpiration = true;
    QVERIFY(b.createQueue(QStringLiteral("test:orders"), orders));
    QVERIFY(b.createTopic(QStringLiteral("events"), {}));
    QVERIFY(b.createSubscription(QStringLiteral("events/Subscriptions/eu"), {}));
    Rule eu;
    eu.name = QStringLiteral("eu");
    eu.filterType = FilterType::Correlation;
    eu.correlation.subject = QStringLiteral("eu");
    QVERIFY(b.addRule(QStringLiteral("events/Subscriptions/eu"), eu));
    QVERIFY(b.removeRule(QStringLiteral("events/Subscriptions/eu"), QStringLiteral("$Default")));
    EntityProperties topic = b.entity(QStringLiteral("events"))->properties;
    topic.defaultMessageTimeToLive = hours(1);
    QVERIFY(b.updateEntity(QStringLiteral("events"), topic));
    OutgoingMessage event = TestBroker::message(QStringLiteral("e1"));
    event.subject = QStringLiteral("eu");
    event.applicationProperties.insert(QStringLiteral("tenant"), 7);
    QVERIFY(b.send(QStringLiteral("events"), event));
    QVERIFY(b.sendBatch(QStringLiteral("orders"),
                        {withTtl(QStringLiteral("m1"), minutes(10)),
                         withTtl(QStringLiteral("m2"), minutes(10)), TestBroker::message({}),
                         withTtl(QStringLiteral("m4"), minutes(10))}));
    t.advance(minutes(1));
    const Instant now = t.clock().now();
    QVERIFY(b.schedule(QStringLiteral("orders"), TestBroker::message(QStringLiteral("later")),
                       now + minutes(4)));
    const auto cancelled = b.schedule(QStringLiteral("orders"),
                                      TestBroker::message(QStringLiteral("never")), now + hours(1));
    QVERIFY(cancelled);
    QVERIFY(b.cancelScheduled(QStringLiteral("orders"), cancelled->sequenceNumber));

    // alice takes three: completes one, dead-letters one, abandons one; bob holds the fourth.
    const auto got = b.receive(QStringLiteral("orders"), {ReceiveMode::PeekLock, 3, "alice"});
    QVERIFY(got && got->size() == 3);
    QVERIFY(b.complete(LockRef::of(got->at(0))));
    QVERIFY(b.deadLetter(LockRef::of(got->at(1)), {QStringLiteral("BadFormat"),
                                                   QStringLiteral("not JSON"),
                                                   {{QStringLiteral("checkedBy"), "alice"}}}));
    t.advance(seconds(10));
    QVERIFY(b.abandon(LockRef::of(got->at(2)), {{QStringLiteral("retry"), true}}));
    const MessageView held = takeOne(b, QStringLiteral("orders"), QStringLiteral("bob"));
    QVERIFY(b.renewLock(LockRef::of(held)));
    QVERIFY(recorder->addExpectation(b, QStringLiteral("orders")));

    // A short-lived message expires on the way (dead-lettered: DeadLetteringOnMessageExpiration).
    QVERIFY(b.send(QStringLiteral("orders"), withTtl(QStringLiteral("short"), minutes(1))));
    t.advance(minutes(2));
    QVERIFY(b.peek(QStringLiteral("orders"), 0, 10));
    // Deferred then received by its number; a delete and a resubmit have no step.
    const MessageView toDefer = takeOne(b, QStringLiteral("orders"), QStringLiteral("carol"));
    QVERIFY(b.defer(LockRef::of(toDefer)));
    const auto deferred =
        b.receiveDeferred(QStringLiteral("orders"), toDefer.sequenceNumber, "carol");
    QVERIFY(deferred);
    QVERIFY(b.complete(LockRef::of(*deferred)));
    QVERIFY(b.deleteMessages(QStringLiteral("archive"), {old->sequenceNumber}));
    QVERIFY(b.updateEntity(QStringLiteral("archive"), [&] {
        EntityProperties p = b.entity(QStringLiteral("archive"))->properties;
        p.maxDeliveryCount = 3;
        return p;
    }()));
    t.advance(minutes(5)); // "later" appears; bob's lock runs out
    b.setOperationObserver(nullptr);
    recorder->finish(b);

    const QByteArray document = recorder->toJson();
    Scenario scenario;
    const ScenarioReport report = replay(document, &scenario);
    QVERIFY2(report.allPassed(),
             qPrintable(report.failureLines().join(u'\n') + u'\n' + QString::fromUtf8(document)));
    // Each field checked counts: the check added (Exists, five counts, reasons) and the Exists
    // check that carries the replay's clock to where the recording stopped.
    QCOMPARE(report.passed, 8);
    QCOMPARE(report.clock, t.clock().now() - recorder->startedAt());
    QCOMPARE(endStateOf(report), endStateOf(b));
    QCOMPARE(endStateOf(b).value(QStringLiteral("orders")).reasons,
             (QMap<QString, qint64>{{QStringLiteral("BadFormat"), 1},
                                    {QStringLiteral("TTLExpiredException"), 1}}));
    QCOMPARE(recorder->leftOut().value(ScenarioRecorder::LeftOut::MessageDelete), 1);
    QVERIFY2(scenario.description.contains(
                 QStringLiteral("Left out (no scenario step): 1 message delete.")),
             qPrintable(scenario.description));
    QVERIFY2(scenario.description.contains(QStringLiteral("1 message already there")),
             qPrintable(scenario.description));
}

void TestEngineRecorder::recordedExpectationPassesOnReplay() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("jobs"), {}));
    auto recorder = std::make_shared<ScenarioRecorder>();
    QVERIFY(recorder->begin(b));
    b.setOperationObserver(recorder);
    QVERIFY(b.sendBatch(QStringLiteral("jobs"), {TestBroker::message(QStringLiteral("a")),
                                                 TestBroker::message(QStringLiteral("b"))}));
    const MessageView got = takeOne(b, QStringLiteral("jobs"), {});
    QVERIFY(b.deadLetter(LockRef::of(got), {QStringLiteral("Poison"), {}, {}}));
    t.advance(seconds(30));
    QVERIFY(recorder->addExpectation(b, QStringLiteral("jobs/$deadletterqueue")));
    b.setOperationObserver(nullptr);
    recorder->finish(b);
    // send, send, receive, settle, the jump of the clock, expect
    QCOMPARE(recorder->stepCount(), 6);

    Scenario scenario;
    const ScenarioReport report = replay(recorder->toJson(), &scenario);
    QVERIFY2(report.allPassed(), qPrintable(report.failureLines().join(u'\n')));
    QCOMPARE(report.passed, 7); // Exists, five counts, reasons; nothing after it to wait for
    const auto* expect = std::get_if<ExpectStep>(&scenario.steps.last().action);
    QVERIFY(expect);
    QCOMPARE(expect->entity, QStringLiteral("jobs"));
    QCOMPARE(expect->active, 1);
    QCOMPARE(expect->deadLettered, 1);
    QCOMPARE(*expect->deadLetterReasons, (QMap<QString, qint64>{{QStringLiteral("Poison"), 1}}));
    QCOMPARE(scenario.steps.last().at, seconds(30));

    // The same file fails on a state it did not record: the check is real.
    auto changed = parseScenario(recorder->toJson());
    QVERIFY(changed);
    std::get<ExpectStep>(changed->steps.last().action).active = 2;
    auto runner = ScenarioRunner::create(*changed, {});
    QVERIFY(runner);
    QVERIFY(!(*runner)->run().allPassed());
}

// Operations no step can express are counted by kind and named in the Description.
void TestEngineRecorder::namesWhatItLeavesOut() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("q"), {}));
    QVERIFY(b.createQueue(QStringLiteral("other"), {}));
    QVERIFY(b.sendBatch(QStringLiteral("q"), {TestBroker::message(QStringLiteral("a")),
                                              TestBroker::message(QStringLiteral("b")),
                                              TestBroker::message(QStringLiteral("c")),
                                              TestBroker::message(QStringLiteral("d"))}));
    const MessageView early = takeOne(b, QStringLiteral("q"), QStringLiteral("r")); // a
    auto recorder = std::make_shared<ScenarioRecorder>();
    QVERIFY(recorder->begin(b));
    b.setOperationObserver(recorder);
    QVERIFY(b.complete(LockRef::of(early)));
    const MessageView poison = takeOne(b, QStringLiteral("q"), QStringLiteral("r")); // b
    QVERIFY(b.deadLetter(LockRef::of(poison), {QStringLiteral("Poison"), {}, {}}));
    QVERIFY(b.resubmit(QStringLiteral("q/$deadletterqueue"), {poison.sequenceNumber}));
    QVERIFY(b.transferMessages(QStringLiteral("q"), {3}, QStringLiteral("other"),
                               Broker::Transfer::Copy));
    QVERIFY(b.transferMessages(QStringLiteral("q"), {3}, QStringLiteral("other"),
                               Broker::Transfer::Move));
    QVERIFY(b.deleteMessages(QStringLiteral("q"), {4}));
    b.setOperationObserver(nullptr);
    recorder->finish(b);

    using L = ScenarioRecorder::LeftOut;
    const QMap<L, int> expected{{L::MessageDelete, 1},
                                {L::Copy, 1},
                                {L::Move, 1},
                                {L::Resubmit, 1},
                                {L::ForeignLockSettlement, 1}};
    QCOMPARE(recorder->leftOut(), expected);
    const auto scenario = parseScenario(recorder->toJson());
    QVERIFY(scenario);
    QVERIFY2(scenario->description.contains(QStringLiteral(
                 "Left out (no scenario step): 1 message delete, 1 copy, 1 move, 1 resubmit, "
                 "1 settlement of a message received before recording.")),
             qPrintable(scenario->description));
    QCOMPARE(scenario->steps.size(), 2); // the receive and the dead-lettering
}

// The same operations with and without an observer give the same results and the same state.
void TestEngineRecorder::observerChangesNoResult() {
    TestBroker plain;
    TestBroker seen;
    auto observer = std::make_shared<CountingObserver>();
    seen->setOperationObserver(observer);
    for (TestBroker* t : {&plain, &seen}) {
        EntityProperties small;
        small.maxMessageSizeInKilobytes = 1024;
        QVERIFY((*t)->createQueue(QStringLiteral("q"), small));
    }
    const QByteArray nearLimit(1024 * 1024 - 20, 'x'); // fits without an id, not with one
    for (TestBroker* t : {&plain, &seen}) {
        OutgoingMessage big;
        big.body = nearLimit;
        const auto sent = (*t)->send(QStringLiteral("q"), big);
        QVERIFY2(sent, qPrintable(sent ? QString() : sent.error().description));
        QCOMPARE(sent->sequenceNumber, 1);
        const auto missing = (*t)->send(QStringLiteral("nope"), TestBroker::message("x"));
        QCOMPARE(missing.error().code, ErrorCode::MessagingEntityNotFound);
        const auto got = (*t)->receive(QStringLiteral("q"), {ReceiveMode::PeekLock, 5, "r"});
        QVERIFY(got && got->size() == 1);
        QCOMPARE(got->first().body.size(), nearLimit.size());
        QVERIFY((*t)->abandon(LockRef::of(got->first())));
        QCOMPARE((*t)->complete(LockRef::of(got->first())).error().code,
                 ErrorCode::MessageLockLost);
    }
    QCOMPARE(endStateOf(plain.broker()), endStateOf(seen.broker()));
    // Successes only: create, send, receive, abandon.
    QCOMPARE(observer->count.load(), 4);
    QCOMPARE(observer->lastKind, BrokerOperation::Kind::Abandon);
}

void TestEngineRecorder::unsetObserverHearsNothing() {
    TestBroker t;
    auto observer = std::make_shared<CountingObserver>();
    t->setOperationObserver(observer);
    QVERIFY(t->createQueue(QStringLiteral("q"), {}));
    QCOMPARE(observer->count.load(), 1);
    t->setOperationObserver(nullptr);
    QVERIFY(t->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m"))));
    QVERIFY(t->peek(QStringLiteral("q"), 0, 1));
    QCOMPARE(observer->count.load(), 1);
    QCOMPARE(observer.use_count(), 1); // the broker let go of it
}

// An owner that goes away cancels its recorder: a begin() still queued refuses, and a recorder
// already observing records nothing more.
void TestEngineRecorder::cancelledRecorderNeitherBeginsNorRecords() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("q"), {}));
    auto late = std::make_shared<ScenarioRecorder>();
    late->cancel();
    QVERIFY(late->isCancelled());
    const auto refused = late->begin(b);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
    QVERIFY(!late->isRecording());

    auto running = std::make_shared<ScenarioRecorder>();
    QVERIFY(running->begin(b));
    b.setOperationObserver(running);
    QVERIFY(b.send(QStringLiteral("q"), TestBroker::message(QStringLiteral("kept"))));
    QCOMPARE(running->stepCount(), 1);
    running->cancel();
    QVERIFY(!running->isRecording());
    QVERIFY(b.send(QStringLiteral("q"), TestBroker::message(QStringLiteral("ignored"))));
    QCOMPARE(running->stepCount(), 1);
    QVERIFY(!running->begin(b)); // cancelled for good
    QCOMPARE(running->stepCount(), 1);
}

// The closing Exists check (which makes a replay last as long as the recording) names an entity
// the file holds, never one created in a namespace the recording left out.
void TestEngineRecorder::endCheckNamesAnEntityTheFileHolds() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("zeta"), {}));
    auto recorder = std::make_shared<ScenarioRecorder>();
    QVERIFY(recorder->begin(b));
    b.setOperationObserver(recorder);
    QVERIFY(b.createNamespace({QStringLiteral("aaa"), Tier::Standard}));
    QVERIFY(b.createQueue(QStringLiteral("aaa:first"), {})); // left out: another namespace
    QVERIFY(b.entities().first().namespaceName == QStringLiteral("aaa")); // listed first
    t.advance(minutes(2));
    b.setOperationObserver(nullptr);
    recorder->finish(b);
    QCOMPARE(recorder->leftOut().value(ScenarioRecorder::LeftOut::ForeignNamespaceCreate), 1);

    Scenario scenario;
    const ScenarioReport report = replay(recorder->toJson(), &scenario);
    QVERIFY2(report.allPassed(), qPrintable(report.failureLines().join(u'\n')));
    const auto* expect = std::get_if<ExpectStep>(&scenario.steps.last().action);
    QVERIFY(expect);
    QCOMPARE(expect->entity, QStringLiteral("zeta"));
    QCOMPARE(scenario.steps.last().at, minutes(2));
}

// A scenario has no replace step: a replaced rule is written as its removal and the new rule's
// addition, and the replay routes as the recording did.
void TestEngineRecorder::replacedRuleRecordedAsRemoveThenAdd() {
    TestBroker t;
    Broker& b = t.broker();
    auto recorder = std::make_shared<ScenarioRecorder>();
    QVERIFY(recorder->begin(b));
    b.setOperationObserver(recorder);
    const QString sub = QStringLiteral("events/Subscriptions/eu");
    QVERIFY(b.createTopic(QStringLiteral("events"), {}));
    QVERIFY(b.createSubscription(sub, {}));
    Rule eu;
    eu.name = QStringLiteral("eu");
    eu.filterType = FilterType::Correlation;
    eu.correlation.subject = QStringLiteral("eu");
    QVERIFY(b.replaceRule(sub, QStringLiteral("$Default"), eu));
    OutgoingMessage inEu = TestBroker::message(QStringLiteral("in-eu"));
    inEu.subject = QStringLiteral("eu");
    QVERIFY(b.send(QStringLiteral("events"), inEu));
    QVERIFY(b.send(QStringLiteral("events"), TestBroker::message(QStringLiteral("elsewhere"))));
    b.setOperationObserver(nullptr);
    recorder->finish(b);

    const QByteArray document = recorder->toJson();
    const qsizetype removed = document.indexOf("\"RemoveRule\"");
    QVERIFY2(removed >= 0, document.constData());
    QVERIFY2(document.indexOf("\"AddRule\"", removed) > removed, document.constData());
    const ScenarioReport report = replay(document);
    QVERIFY2(report.allPassed(), qPrintable(report.failureLines().join(u'\n')));
    QCOMPARE(endStateOf(report), endStateOf(b));
    QCOMPARE(endStateOf(b).value(sub).counts.active, qint64(1));
}

QTEST_GUILESS_MAIN(TestEngineRecorder)
#include "tst_engine_recorder.moc"
