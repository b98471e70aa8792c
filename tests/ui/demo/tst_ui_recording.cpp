// Recording a scenario in the window (ScenarioRecording): the Record action observes the
// client's broker, operations done through the client become steps, "Add check" adds an Expect
// step, stopping opens the save dialog, and the saved file plays back with ScenarioRunner to the
// same state with every check passing. The status-bar indicator shows only while recording.
#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/DurationEdit.h"
#include "demo/ScenarioRecording.h"
#include "demo/ScenarioSession.h"
#include "demo/TimeControlBar.h"
#include "hourglass/scenario/ScenarioRunner.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;

namespace {

struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(kTestStart);
    std::unique_ptr<BrokerClient> client;
    QMainWindow window;
    std::unique_ptr<ScenarioRecording> recording;

    Env() {
        client = std::make_unique<BrokerClient>(openUiTestBroker(dir, clock));
        recording = std::make_unique<ScenarioRecording>(*client, &window);
        window.statusBar()->addPermanentWidget(recording->indicator());
        window.resize(640, 300);
        window.show();
    }
    ~Env() { client->waitForIdle(); }
};

} // namespace

class TestUiRecording : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void recordSaveAndReplay();
    void clockJumpIsAStepOfItsOwn();
    void addCheckNeedsRecordingAndEntity();
    void saveWithoutRecordingIsAnError();
    void droppedWhileStartingLeavesNoObserver();
    void unsavedRecordingIsKeptInAFile();
};

void TestUiRecording::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QDir(ScenarioRecording::unsavedFolder()).removeRecursively();
}

void TestUiRecording::recordSaveAndReplay() {
    Env env;
    ScenarioRecording& rec = *env.recording;
    BrokerClient& client = *env.client;
    QVERIFY(callAndWait(
        client, [](Broker& b) { return b.createQueue(QStringLiteral("test:orders"), {}).ok(); }));
    rec.setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
    QLabel* indicator = env.window.findChild<QLabel*>(QStringLiteral("recordingIndicator"));
    QVERIFY(indicator);
    QVERIFY(!indicator->isVisible());
    QSignalSpy changed(&rec, &ScenarioRecording::recordingChanged);

    QAction* record = rec.recordAction();
    QCOMPARE(record->objectName(), QStringLiteral("scenarioRecord"));
    QCOMPARE(record->shortcut(), QKeySequence(QStringLiteral("Ctrl+Alt+R")));
    record->trigger();
    QTRY_VERIFY(rec.isRecording());
    QCOMPARE(changed.size(), 1);
    QVERIFY(record->isChecked());
    QTRY_VERIFY(indicator->isVisible());
    QCOMPARE(indicator->text(), QStringLiteral("● REC 00:00 · 0 steps"));

    // What panels do, through the client: send, let time pass, receive, settle.
    QVERIFY(callAndWait(client, [](Broker& b) {
        OutgoingMessage m;
        m.body = "{\"n\":1}";
        m.contentType = QStringLiteral("application/json");
        return b.sendBatch(QStringLiteral("test:orders"), {m, m, m}).ok();
    }));
    QVERIFY(callAndWait(client, [](Broker& b) { return b.advanceClock(minutes(1)).ok(); }));
    QVERIFY(callAndWait(client, [](Broker& b) {
        const auto got =
            b.receive(QStringLiteral("test:orders"), {ReceiveMode::PeekLock, 2, "explorer"});
        if (!got || got->size() != 2)
            return false;
        return b.complete(LockRef::of(got->at(0))).ok() &&
               b.deadLetter(LockRef::of(got->at(1)), {QStringLiteral("Manual"), {}, {}}).ok();
    }));
    // Three sends, the jump of the clock, a receive of two, two settlements.
    QTRY_COMPARE(indicator->text(), QStringLiteral("● REC 01:00 · 7 steps"));

    QAction* addCheck = rec.addCheckAction();
    QVERIFY(addCheck->isEnabled());
    addCheck->trigger();
    QTRY_COMPARE(rec.stepCount(), 8);

    // Stopping asks where to save, without blocking.
    record->trigger();
    QTRY_VERIFY(!rec.isRecording());
    QCOMPARE(changed.size(), 2);
    QVERIFY(!record->isChecked());
    QVERIFY(!indicator->isVisible());
    QVERIFY(!addCheck->isEnabled());
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = env.window.findChild<QFileDialog*>(
                     QStringLiteral("scenarioSaveDialog"))) != nullptr);
    QCOMPARE(dialog->acceptMode(), QFileDialog::AcceptSave);
    dialog->reject();
    QVERIFY(rec.saveAction()->isEnabled());

    QTemporaryDir out;
    const QString fileName = out.filePath(QStringLiteral("recorded.json"));
    QSignalSpy status(&rec, &ScenarioRecording::statusMessage);
    QVERIFY(rec.saveTo(fileName));
    QVERIFY(status.last().first().toString().contains(QStringLiteral("8 steps")));

    auto scenario = loadScenarioFile(fileName);
    QVERIFY2(scenario, qPrintable(scenario ? QString() : scenario.error().description));
    QCOMPARE(scenario->steps.size(), 8);
    auto runner = ScenarioRunner::create(*scenario, {});
    QVERIFY(runner);
    const ScenarioReport report = (*runner)->run();
    QVERIFY2(report.allPassed(), qPrintable(report.failureLines().join(u'\n')));
    QVERIFY(report.passed > 0);
    const EntityCounts original = callAndWait(
        client, [](Broker& b) { return b.counts(QStringLiteral("test:orders")).value(); });
    QCOMPARE(report.entities.size(), 1);
    QCOMPARE(report.entities.first().path, QStringLiteral("orders"));
    QCOMPARE(report.entities.first().counts, original);
    QCOMPARE(report.entities.first().deadLetterReasons.value(QStringLiteral("Manual")), 1);
}

// "Jump ahead" on the time toolbar while recording: the file has an AdvanceClock step, so that
// a replay jumps too (a player at 1x does not wait the skipped hour) and ends at the same time.
void TestUiRecording::clockJumpIsAStepOfItsOwn() {
    Env env;
    ScenarioRecording& rec = *env.recording;
    BrokerClient& client = *env.client;
    auto* bar = new TimeControlBar(client, &env.window);
    env.window.addToolBar(bar);
    QVERIFY(callAndWait(
        client, [](Broker& b) { return b.createQueue(QStringLiteral("test:orders"), {}).ok(); }));
    rec.setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
    rec.recordAction()->trigger();
    QTRY_VERIFY(rec.isRecording());
    QVERIFY(callAndWait(client, [](Broker& b) {
        OutgoingMessage m;
        m.body = "short-lived";
        m.timeToLive = minutes(30);
        return b.send(QStringLiteral("test:orders"), m).ok();
    }));

    auto* jumpBy = bar->findChild<DurationEdit*>(QStringLiteral("clockJumpBy"));
    auto* jump = bar->findChild<QAction*>(QStringLiteral("clockJump"));
    QVERIFY(jumpBy && jump);
    jumpBy->setDuration(hours(1));
    QTRY_VERIFY(jump->isEnabled());
    jump->trigger();
    QTRY_COMPARE(env.clock->now(), kTestStart + hours(1));
    QTRY_VERIFY(jump->isEnabled()); // the jump's call came back
    rec.addCheckAction()->trigger();
    QTRY_COMPARE(rec.stepCount(), 3);
    rec.recordAction()->trigger();
    QTRY_VERIFY(!rec.isRecording());
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = env.window.findChild<QFileDialog*>(
                     QStringLiteral("scenarioSaveDialog"))) != nullptr);
    dialog->reject();

    QTemporaryDir out;
    const QString fileName = out.filePath(QStringLiteral("jumped.json"));
    QVERIFY(rec.saveTo(fileName));
    auto scenario = loadScenarioFile(fileName);
    QVERIFY2(scenario, qPrintable(scenario ? QString() : scenario.error().description));
    QCOMPARE(scenario->steps.size(), 3);
    const auto* advance = std::get_if<AdvanceClockStep>(&scenario->steps.at(1).action);
    QVERIFY(advance);
    QCOMPARE(scenario->steps.at(1).at, Millis(0));
    QCOMPARE(advance->by, hours(1));
    QCOMPARE(scenario->steps.at(2).at, hours(1));

    // Headless: the same end, every check passing (the message expired on the way).
    auto runner = ScenarioRunner::create(*scenario, {});
    QVERIFY(runner);
    const ScenarioReport report = (*runner)->run();
    QVERIFY2(report.allPassed(), qPrintable(report.failureLines().join(u'\n')));
    QCOMPARE(report.clock, hours(1));
    QCOMPARE(report.entities.first().counts.active, 0);

    // Played at 1x, the jump happens at once: the hour is not waited through.
    ScenarioSession session(*scenario);
    session.start();
    QTRY_VERIFY(session.isReady());
    session.setSpeed(1);
    session.play();
    QTRY_VERIFY_WITH_TIMEOUT(session.atEnd(), 10000);
    QCOMPARE(session.failedCount(), 0);
    QCOMPARE(session.passedCount(), 1);
    QVERIFY(session.elapsed() >= hours(1));
}

void TestUiRecording::addCheckNeedsRecordingAndEntity() {
    Env env;
    ScenarioRecording& rec = *env.recording;
    QAction* addCheck = rec.addCheckAction();
    rec.setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
    QVERIFY(!addCheck->isEnabled()); // not recording
    rec.recordAction()->trigger();
    QTRY_VERIFY(rec.isRecording());
    QVERIFY(addCheck->isEnabled());
    rec.setEntity(QStringLiteral("test"), NamespaceTreeModel::NodeKind::Namespace);
    QVERIFY(!addCheck->isEnabled());
    rec.setEntity({}, NamespaceTreeModel::NodeKind::Queue);
    QVERIFY(!addCheck->isEnabled());
    // A dead-letter queue node checks its entity; one that does not exist is checked as absent.
    rec.setEntity(QStringLiteral("test:gone/$deadletterqueue"),
                  NamespaceTreeModel::NodeKind::DeadLetterQueue);
    QVERIFY(addCheck->isEnabled());
    addCheck->trigger();
    QTRY_COMPARE(rec.stepCount(), 1);
}

void TestUiRecording::saveWithoutRecordingIsAnError() {
    Env env;
    QSignalSpy errors(env.recording.get(), &ScenarioRecording::errorOccurred);
    QTemporaryDir out;
    QVERIFY(!env.recording->saveTo(out.filePath(QStringLiteral("x.json"))));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().first().value<Error>().code, ErrorCode::InvalidArgument);
    QVERIFY(!env.recording->saveAction()->isEnabled());
}

// A recording dropped right after Record (its start job still queued or running on one of the
// client's threads while the drop's job runs on the other) never leaves its observer behind.
void TestUiRecording::droppedWhileStartingLeavesNoObserver() {
    Env env;
    BrokerClient& client = *env.client;
    const auto observed = [&client] {
        return callAndWait(client, [](Broker& b) { return b.hasOperationObserver(); });
    };
    for (int round = 0; round < 25; ++round) {
        auto recording = std::make_unique<ScenarioRecording>(client, &env.window);
        recording->recordAction()->trigger();
        recording.reset();
        client.waitForIdle();
        QVERIFY2(!observed(), qPrintable(QStringLiteral("round %1").arg(round)));
    }
    // Dropped while recording, too.
    auto recording = std::make_unique<ScenarioRecording>(client, &env.window);
    recording->recordAction()->trigger();
    QTRY_VERIFY(recording->isRecording());
    QVERIFY(observed());
    recording.reset();
    client.waitForIdle();
    QVERIFY(!observed());
}

// A recording that goes away unsaved (another database, a scenario, the window closing) is
// written to a file of its own rather than lost: one under way is finished first; one stopped
// whose save dialog was cancelled is written as it was. A saved one, or none, keeps nothing.
void TestUiRecording::unsavedRecordingIsKeptInAFile() {
    Env env;
    BrokerClient& client = *env.client;
    QVERIFY(callAndWait(
        client, [](Broker& b) { return b.createQueue(QStringLiteral("test:orders"), {}).ok(); }));
    QObject context;
    std::optional<Result<QString>> kept;
    const auto keep = [&](ScenarioRecording& recording) {
        kept.reset();
        return recording.keepUnsaved(&context, [&kept](Result<QString> file) { kept = file; });
    };
    QVERIFY(!keep(*env.recording)); // nothing recorded

    // Under way.
    env.recording->recordAction()->trigger();
    QTRY_VERIFY(env.recording->isRecording());
    QVERIFY(callAndWait(client, [](Broker& b) {
        return b.sendBatch(QStringLiteral("test:orders"),
                           {TestBroker::message(QStringLiteral("a")),
                            TestBroker::message(QStringLiteral("b"))})
                   .ok() &&
               b.advanceClock(minutes(1)).ok();
    }));
    QTRY_COMPARE(env.recording->stepCount(), 3); // two sends and the jump of the clock
    QVERIFY(keep(*env.recording));
    env.recording.reset();
    QTRY_VERIFY(kept.has_value());
    QVERIFY2(*kept, qPrintable(kept->ok() ? QString() : kept->error().toString()));
    const QString underWay = kept->value();
    QVERIFY(underWay.startsWith(ScenarioRecording::unsavedFolder()));
    auto scenario = loadScenarioFile(underWay);
    QVERIFY2(scenario, qPrintable(scenario ? QString() : scenario.error().description));
    // The two sends, the jump of the clock and the closing check at 1:00.
    QCOMPARE(scenario->steps.size(), 4);
    QCOMPARE(scenario->steps.last().at, minutes(1));
    QVERIFY(!callAndWait(client, [](Broker& b) { return b.hasOperationObserver(); }));
    const QString firstKept = underWay; // kept next to it, under another name

    // Stopped, the save dialog cancelled.
    env.recording = std::make_unique<ScenarioRecording>(client, &env.window);
    env.recording->recordAction()->trigger();
    QTRY_VERIFY(env.recording->isRecording());
    QVERIFY(callAndWait(client, [](Broker& b) {
        return b.send(QStringLiteral("test:orders"), TestBroker::message(QStringLiteral("c"))).ok();
    }));
    QTRY_COMPARE(env.recording->stepCount(), 1);
    env.recording->recordAction()->trigger();
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = env.window.findChild<QFileDialog*>(
                     QStringLiteral("scenarioSaveDialog"))) != nullptr);
    dialog->reject();
    QVERIFY(keep(*env.recording));
    QVERIFY(!keep(*env.recording)); // kept once
    env.recording.reset();
    QTRY_VERIFY(kept.has_value());
    QVERIFY(*kept);
    scenario = loadScenarioFile(kept->value());
    QVERIFY(scenario);
    QCOMPARE(scenario->steps.size(), 1);
    QVERIFY(kept->value() != firstKept);
    QVERIFY(QFile::exists(firstKept));
    QVERIFY(QFile::remove(kept->value()));
    QVERIFY(QFile::remove(firstKept));

    // Saved: nothing to keep.
    env.recording = std::make_unique<ScenarioRecording>(client, &env.window);
    env.recording->recordAction()->trigger();
    QTRY_VERIFY(env.recording->isRecording());
    env.recording->recordAction()->trigger();
    QTRY_VERIFY((dialog = env.window.findChild<QFileDialog*>(
                     QStringLiteral("scenarioSaveDialog"))) != nullptr);
    dialog->reject();
    QTemporaryDir out;
    QVERIFY(env.recording->saveTo(out.filePath(QStringLiteral("saved.json"))));
    QVERIFY(!keep(*env.recording));
}

QTEST_MAIN(TestUiRecording)
#include "tst_ui_recording.moc"
