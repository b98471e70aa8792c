// Recording a session application (S2-S6) as a scenario: the session calls reach the
// OperationObserver, the ScenarioRecorder writes AcceptSession, ReleaseSession and SessionState
// steps and receives through a session, and the file plays back headless to the same messages,
// session locks and states. What no step can express is named in the Description.
#include "TestBroker.h"
#include "hourglass/OperationObserver.h"
#include "hourglass/scenario/ScenarioRecorder.h"
#include "hourglass/scenario/ScenarioRunner.h"

#include <QTest>

#include <future>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

const QString kOrders = QStringLiteral("orders");

OutgoingMessage inSession(const QString& id, const QString& sessionId) {
    OutgoingMessage message = TestBroker::message(id);
    message.sessionId = sessionId;
    return message;
}

SessionRef accept(Broker& broker, const QString& receiver, const QString& sessionId) {
    const auto accepted = broker.acceptSession(kOrders, {receiver, sessionId});
    if (!accepted)
        qFatal("accept %s: %s", qPrintable(sessionId), qPrintable(accepted.error().toString()));
    return SessionRef::of(*accepted);
}

// What a session looks like, its lock's end counted from `now` (two clocks, one offset).
struct SessionEnd {
    QString id;
    qint64 active, deferred, locked;
    QString lockedBy;
    Millis lockLeft;
    bool hasState;
    qint64 stateSize;
    bool operator==(const SessionEnd&) const = default;
};

QList<SessionEnd> sessionsOf(Broker& broker) {
    const auto listed = broker.listSessions(kOrders, {}, 100);
    if (!listed)
        qFatal("listSessions: %s", qPrintable(listed.error().toString()));
    const Instant now = broker.clock().now();
    QList<SessionEnd> sessions;
    for (const SessionInfo& s : *listed)
        sessions.append({s.sessionId, s.active, s.deferred, s.locked, s.lockedBy,
                         s.lockedUntil ? s.lockedUntil - now : 0, s.hasState, s.stateSize});
    return sessions;
}

QString describe(const QList<SessionEnd>& sessions) {
    QStringList lines;
    for (const SessionEnd& s : sessions)
        lines << QStringLiteral("%1: active %2 deferred %3 locked %4 by '%5' for %6 ms state %7/%8")
                     .arg(s.id)
                     .arg(s.active)
                     .arg(s.deferred)
                     .arg(s.locked)
                     .arg(s.lockedBy)
                     .arg(s.lockLeft)
                     .arg(s.hasState)
                     .arg(s.stateSize);
    return lines.join(QStringLiteral("; "));
}

std::unique_ptr<ScenarioRunner> replay(const QByteArray& document, Scenario* parsedOut = nullptr) {
    auto scenario = parseScenario(document);
    if (!scenario)
        qFatal("recorded scenario does not parse: %s\n%s", qPrintable(scenario.error().description),
               document.constData());
    if (parsedOut)
        *parsedOut = *scenario;
    ScenarioRunOptions options;
    options.start = kTestStart + minutes(7); // any start: the file is in offsets
    auto runner = ScenarioRunner::create(*scenario, options);
    if (!runner)
        qFatal("cannot replay: %s", qPrintable(runner.error().description));
    return std::move(*runner);
}

QStringList stepNames(const Scenario& scenario) {
    QStringList names;
    for (const ScenarioStep& step : scenario.steps)
        names << stepName(step.action);
    return names;
}

// Records onto a fresh broker with a session queue.
struct Recording {
    TestBroker t;
    std::shared_ptr<ScenarioRecorder> recorder = std::make_shared<ScenarioRecorder>();
    Recording() {
        EntityProperties properties;
        properties.requiresSession = true;
        properties.lockDuration = seconds(30);
        if (!t->createQueue(kOrders, properties))
            qFatal("cannot create the queue");
    }
    void start() {
        if (!recorder->begin(t.broker()))
            qFatal("cannot begin");
        t->setOperationObserver(recorder);
    }
    QByteArray stop() {
        t->setOperationObserver(nullptr);
        recorder->finish(t.broker());
        return recorder->toJson();
    }
};

} // namespace

class TestEngineRecorderSessions : public QObject {
    Q_OBJECT
private slots:
    void sessionApplicationReplays_S2_S4_S6();
    void renewalWithMessageLocksHeldIsLeftOut_S5();
    void sessionTakenBeforeRecordingIsLeftOut_S2();
    void brokenConnectionReleasesOnlyWhatIsStillHeld_S5();
};

void TestEngineRecorderSessions::sessionApplicationReplays_S2_S4_S6() {
    Recording r;
    r.start();
    Broker& b = r.t.broker();
    QVERIFY(b.sendBatch(kOrders, {inSession("a-1", "a"), inSession("a-2", "a"),
                                  inSession("b-1", "b"), inSession("c-1", "c")}));
    r.t.advance(seconds(1));

    // alice: a named session; one completed, one deferred then received by number (S6).
    const SessionRef alice = accept(b, QStringLiteral("alice"), QStringLiteral("a"));
    auto got = b.receiveFromSession(alice, ReceiveMode::PeekLock, 1);
    QVERIFY(got && got->size() == 1);
    QVERIFY(b.complete(LockRef::of(got->first())));
    got = b.receiveFromSession(alice, ReceiveMode::PeekLock, 1);
    QVERIFY(got && got->size() == 1);
    QVERIFY(b.defer(LockRef::of(got->first())));
    const auto deferred = b.receiveDeferredFromSession(alice, got->first().sequenceNumber);
    QVERIFY(deferred);
    QVERIFY(b.complete(LockRef::of(*deferred)));
    QVERIFY(b.setSessionState(alice, QByteArray("step-2")));

    // bob waits for the next available one (b: its message is the oldest) and holds its message.
    std::promise<Result<AcceptedSession>> granted;
    b.acceptSessionAsync(kOrders, {QStringLiteral("bob"), std::nullopt}, seconds(10),
                         [&](const Result<AcceptedSession>& result) { granted.set_value(result); });
    const Result<AcceptedSession> bobs = granted.get_future().get();
    QVERIFY(bobs);
    QCOMPARE(bobs->sessionId, QStringLiteral("b"));
    QVERIFY(b.receiveFromSession(SessionRef::of(*bobs), ReceiveMode::PeekLock, 1));

    // carol takes c and her connection breaks; dave takes it and deletes its message.
    accept(b, QStringLiteral("carol"), QStringLiteral("c"));
    QCOMPARE(b.releaseSessionsOf(QStringLiteral("carol")), 1);
    const SessionRef dave = accept(b, QStringLiteral("dave"), QStringLiteral("c"));
    QVERIFY(b.receiveFromSession(dave, ReceiveMode::ReceiveAndDelete, 5));
    QVERIFY(b.setSessionState(dave, QByteArray("seen")));
    QVERIFY(b.setSessionState(dave, std::nullopt));
    QVERIFY(b.releaseSession(dave));

    // alice renews (she holds no message lock); bob's session lock runs out with b-1's lock.
    r.t.advance(seconds(20));
    QVERIFY(b.renewSessionLock(alice));
    r.t.advance(seconds(20));
    const QByteArray document = r.stop();

    Scenario scenario;
    const auto runner = replay(document, &scenario);
    const ScenarioReport report = runner->run();
    QVERIFY2(report.allPassed(),
             qPrintable(report.failureLines().join(u'\n') + u'\n' + QString::fromUtf8(document)));
    QVERIFY2(scenario.description.indexOf(QStringLiteral("Left out")) < 0,
             qPrintable(scenario.description));
    const QStringList names = stepNames(scenario);
    QCOMPARE(names.count(QStringLiteral("AcceptSession")), 5);  // alice, bob, carol, dave, renewal
    QCOMPARE(names.count(QStringLiteral("ReleaseSession")), 3); // carol, dave, renewal
    QCOMPARE(names.count(QStringLiteral("SessionState")), 3);
    QCOMPARE(report.clock, b.clock().now() - r.recorder->startedAt());
    QCOMPARE(runner->broker().counts(kOrders)->active, b.counts(kOrders)->active);
    const QList<SessionEnd> replayed = sessionsOf(runner->broker());
    const QList<SessionEnd> recorded = sessionsOf(b);
    QVERIFY2(
        replayed == recorded,
        qPrintable(describe(replayed) + QStringLiteral("\nbut recorded\n") + describe(recorded)));
    // alice still holds a, renewed 20 s ago; b is free again with its message delivered once.
    QVERIFY2(recorded.first() == (SessionEnd{"a", 0, 0, 0, "alice", seconds(10), true, 6}),
             qPrintable(describe(recorded)));
    QCOMPARE(b.counts(kOrders)->active, 1);
}

void TestEngineRecorderSessions::renewalWithMessageLocksHeldIsLeftOut_S5() {
    Recording r;
    QVERIFY(r.t->send(kOrders, inSession("a-1", "a")));
    r.start();
    Broker& b = r.t.broker();
    const SessionRef alice = accept(b, QStringLiteral("alice"), QStringLiteral("a"));
    QVERIFY(b.receiveFromSession(alice, ReceiveMode::PeekLock, 1));
    // A release and accept would lose the message lock (S5): this renewal has no step.
    QVERIFY(b.renewSessionLock(alice));
    r.stop();
    QCOMPARE(r.recorder->leftOut().value(ScenarioRecorder::LeftOut::SessionRenewal), 1);
    QVERIFY2(r.recorder->description().contains(
                 QStringLiteral("1 session lock renewal while message locks were held")),
             qPrintable(r.recorder->description()));
}

void TestEngineRecorderSessions::sessionTakenBeforeRecordingIsLeftOut_S2() {
    Recording r;
    QVERIFY(r.t->send(kOrders, inSession("a-1", "a")));
    const SessionRef alice = accept(r.t.broker(), QStringLiteral("alice"), QStringLiteral("a"));
    r.start();
    Broker& b = r.t.broker();
    QVERIFY(b.receiveFromSession(alice, ReceiveMode::PeekLock, 1));
    QVERIFY(b.setSessionState(alice, QByteArray("x")));
    QVERIFY(b.releaseSession(alice));
    const QByteArray document = r.stop();
    QCOMPARE(r.recorder->leftOut().value(ScenarioRecorder::LeftOut::ForeignSession), 3);
    QCOMPARE(r.recorder->stepCount(), 0);
    QVERIFY(parseScenario(document));
}

void TestEngineRecorderSessions::brokenConnectionReleasesOnlyWhatIsStillHeld_S5() {
    Recording r;
    Broker& b = r.t.broker();
    const QString other = QStringLiteral("returns");
    EntityProperties properties = b.entity(kOrders)->properties;
    QVERIFY(b.createQueue(other, properties));
    r.start();
    // erin holds a session on each queue; an update of orders loses hers there (S5), then her
    // connection breaks: only the session on returns is left to release, on replay too.
    accept(b, QStringLiteral("erin"), QStringLiteral("x"));
    QVERIFY(b.acceptSession(other, {QStringLiteral("erin"), QStringLiteral("y")}));
    properties.maxDeliveryCount = 4;
    QVERIFY(b.updateEntity(kOrders, properties));
    QCOMPARE(b.releaseSessionsOf(QStringLiteral("erin")), 1);
    const QByteArray document = r.stop();
    Scenario scenario;
    const auto runner = replay(document, &scenario);
    const ScenarioReport report = runner->run();
    QVERIFY2(report.allPassed(),
             qPrintable(report.failureLines().join(u'\n') + u'\n' + QString::fromUtf8(document)));
    QCOMPARE(stepNames(scenario).count(QStringLiteral("ReleaseSession")), 1);
    QVERIFY(runner->broker().listSessions(other, {}, 10)->isEmpty());
}

QTEST_GUILESS_MAIN(TestEngineRecorderSessions)
#include "tst_engine_recorder_sessions.moc"
