// A scenario played in the real window, as a presenter would: opened from the gallery or a file
// on a temporary database of its own, the tree and the lists showing what each step does, the
// time toolbar handing the clock to the scenario, the charts fed by it, and closing it going
// back to the database that was open before. A bad file is refused in the message bar.

#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "demo/CountsHistory.h"
#include "demo/EntityChartsPanel.h"
#include "demo/PresentationMode.h"
#include "demo/PresentationView.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioGallery.h"
#include "demo/ScenarioPanel.h"
#include "demo/ScenarioRecording.h"
#include "demo/ScenarioSession.h"
#include "demo/TimeControlBar.h"
#include "hourglass/scenario/ScenarioFile.h"
#include "messages/MessageListModel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include "ClientCall.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

const QString kTrafficSpike = QStringLiteral(":/scenarios/traffic-spike.json");

QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

// The window on a user database of its own, as the app opens it.
struct WindowEnv {
    WindowEnv() {
        auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
        auto broker = testing::openUiTestBroker(dir, clock);
        userDatabase = broker->databasePath();
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1400, 850);
        window.show();
    }
    ScenarioController& scenarios() { return *window.scenarios(); }
    ScenarioSession* session() { return scenarios().session(); }
    QTreeView* tree() { return window.findChild<QTreeView*>(QStringLiteral("namespaceTree")); }
    bool select(const QString& path) {
        if (!QTest::qWaitFor([&] { return findPath(tree()->model(), path).isValid(); }))
            return false;
        tree()->setCurrentIndex(findPath(tree()->model(), path));
        return true;
    }
    // Steps until `count` steps have run.
    bool stepTo(int count) {
        while (session()->nextStep() < count) {
            const int before = session()->nextStep();
            scenarios().panel()->stepAction()->trigger();
            if (!QTest::qWaitFor(
                    [&] { return session()->nextStep() > before && !session()->isBusy(); }))
                return false;
        }
        return true;
    }
    QString clockBadge() { return window.findChild<QLabel*>(QStringLiteral("clockMode"))->text(); }

    QTemporaryDir dir;
    QString userDatabase;
    MainWindow window;
};

QLineSeries* series(EntityChartsPanel* panel, const QString& name) {
    auto* view = panel->findChild<QChartView*>(QStringLiteral("countsChart"));
    for (QAbstractSeries* s : view->chart()->series())
        if (s->name() == name)
            return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

double maxY(const QLineSeries* line) {
    double max = -1;
    for (const QPointF& point : line->points())
        max = std::max(max, point.y());
    return max;
}

} // namespace

class TestUiScenarioWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void window_playsAScenarioOnItsOwnDatabaseStepByStep() {
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        auto* dock = env.window.findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
        QVERIFY(dock && dock->isVisible());
        QCOMPARE(env.window.windowTitle(), QStringLiteral("Scenario: Traffic spike — Hourglass"));
        QVERIFY(env.window.client()->databasePath() != env.userDatabase);

        // The scenario drives the clock: the toolbar says so and lends it no controls.
        QTRY_COMPARE(env.clockBadge(), QStringLiteral("SCENARIO · PAUSED"));
        QVERIFY(!env.window.timeBar()->playPauseAction()->isEnabled());
        QVERIFY(!env.window.timeBar()->jumpAction()->isEnabled());

        QVERIFY(env.select(QStringLiteral("webshop:jobs")));
        auto* list = env.window.findChild<QTableView*>(QStringLiteral("messageList"));
        QVERIFY(list);
        // Steps 1-4: four jobs done, then the spike of twenty at 2:00, each with five minutes.
        QVERIFY(env.stepTo(4));
        QTRY_COMPARE(list->model()->rowCount(), 20);
        QTRY_VERIFY(list->isVisible());
        const QModelIndex ttl = list->model()->index(0, MessageListModel::TimeToLiveColumn);
        QTRY_COMPARE(ttl.data().toString(), QStringLiteral("5m 00s"));
        // 3:00: the countdowns moved with the scenario's clock; two jobs were done.
        QVERIFY(env.stepTo(5));
        QTRY_COMPARE(list->model()->rowCount(), 18);
        QTRY_COMPARE(list->model()->index(0, MessageListModel::TimeToLiveColumn).data().toString(),
                     QStringLiteral("4m 00s"));
        QCOMPARE(env.session()->failedCount(), 0);
        QCOMPARE(env.session()->passedCount(), 1);
    }

    void window_chartIsFedByTheScenario() {
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        QVERIFY(env.select(QStringLiteral("webshop:jobs")));
        env.window.workspace()->showTab(EntityWorkspace::ChartsTab);
        EntityChartsPanel* charts = env.window.workspace()->charts();
        QTRY_VERIFY(series(charts, QStringLiteral("Active")));
        // Up to the check at 8:00: the spike (20 active) and the twelve that expired.
        for (int step = 1; step <= 11; ++step) {
            QVERIFY(env.stepTo(step));
            // Each step moves the clock; the history samples the new instant.
            QTRY_VERIFY(!charts->history()->samples().isEmpty() &&
                        charts->history()->samples().last().at ==
                            env.window.client()->clock().now());
        }
        QCOMPARE(maxY(series(charts, QStringLiteral("Active"))), 20.0);
        QCOMPARE(maxY(series(charts, QStringLiteral("Dead-lettered"))), 12.0);
        QCOMPARE(env.session()->failedCount(), 0);
    }

    void window_galleryPlaysAndTheEndHandsTheClockBack() {
        WindowEnv env;
        QAction* gallery = env.window.findChild<QAction*>(QStringLiteral("scenarioGalleryAction"));
        QVERIFY(gallery);
        gallery->trigger();
        ScenarioGallery* dialog = nullptr;
        QTRY_VERIFY((dialog = env.window.findChild<ScenarioGallery*>()));
        const int row = ScenarioGallery::bundledScenarios().indexOf(kTrafficSpike);
        dialog->list()->setCurrentRow(row);
        // The speed is chosen in the gallery, and Play plays: nothing more to press.
        auto* speed = dialog->findChild<QComboBox*>(QStringLiteral("scenarioGallerySpeed"));
        QVERIFY(speed);
        speed->setCurrentIndex(speed->findData(600.0));
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("scenarioGalleryPlay")),
                          Qt::LeftButton);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        QTRY_VERIFY(env.session()->isPlaying() || env.session()->atEnd());
        QCOMPARE(env.session()->speed(), 600.0);
        QTRY_VERIFY_WITH_TIMEOUT(env.session()->atEnd(), 30000);
        QCOMPARE(env.session()->failedCount(), 0);
        QTRY_VERIFY(!env.window.timeBar()->isScenarioDriven());
        QVERIFY(env.window.timeBar()->playPauseAction()->isEnabled());
        // The clock is given back running, in real time, from where the story ended.
        VirtualClock* clock = env.window.client()->virtualClock();
        QVERIFY(clock);
        QVERIFY(!clock->isPaused());
        QCOMPARE(clock->speed(), 1.0);
        const Instant ended = clock->now();
        QTRY_VERIFY(clock->now() > ended);
        QCOMPARE(env.window.timeBar()->playPauseAction()->text(), QStringLiteral("Pause"));
        QVERIFY(env.window.statusBar()->currentMessage().contains(
            checksSummary(env.session()->passedCount(), 0)));
    }

    // A story that ends at or before the real time (here all at its start) gives the clock back
    // LIVE: the jump is forward, nothing under the story moves backwards.
    void window_aStoryEndingBehindTheRealTimeGivesTheClockBackLive() {
        WindowEnv env;
        QFile file(env.dir.filePath(QStringLiteral("instant.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({ "UserConfig": { "Namespaces": [ { "Name": "ns", "Queues": [ { "Name": "jobs" } ] } ] },
                        "Scenario": { "Title": "Instant", "Steps": [
                          { "At": "PT0S", "Send": { "To": "jobs", "Count": 2 } } ] } })");
        file.close();
        env.scenarios().openFile(file.fileName(), 1.0);
        QTRY_VERIFY_WITH_TIMEOUT(env.session() && env.session()->atEnd(), 10000);
        VirtualClock* clock = env.window.client()->virtualClock();
        QVERIFY(clock);
        QTRY_VERIFY(clock->isRealTime());
        QVERIFY(env.window.statusBar()->currentMessage().contains(QStringLiteral("back to LIVE")));
    }

    void window_theScenarioDockLeavesTheTreeItsRoomIn1024Pixels() {
        WindowEnv env;
        env.window.resize(1024, 700);
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        auto* dock = env.window.findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
        QTRY_VERIFY(dock->isVisible());
        QCoreApplication::processEvents();
        // The window is not pushed wider than the user made it, and the tree keeps names and a
        // count in view rather than a sliver.
        QCOMPARE(env.window.width(), 1024);
        QTRY_VERIFY2(env.tree()->width() >= env.tree()->fontMetrics().averageCharWidth() * 24,
                     qPrintable(QString::number(env.tree()->width())));
        QVERIFY(dock->width() <= 1024 / 3 + 20);
    }

    void window_closingTheScenarioReturnsToTheDatabaseBefore() {
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        auto* close = env.window.findChild<QPushButton*>(QStringLiteral("scenarioClose"));
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(!env.session());
        QTRY_VERIFY(env.window.client() && env.window.client()->databasePath() == env.userDatabase);
        QVERIFY(!env.window.findChild<QDockWidget*>(QStringLiteral("scenarioDock"))->isVisible());
        QVERIFY(!env.window.timeBar()->isScenarioDriven());
    }

    void window_presentationModeFollowsTheScenarioThroughARestart() {
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        QVERIFY(env.select(QStringLiteral("webshop:jobs")));
        QAction* present = env.window.findChild<QAction*>(QStringLiteral("presentationModeAction"));
        QVERIFY(present);
        QCOMPARE(present->shortcut(), QKeySequence(Qt::Key_F11));
        present->trigger();
        PresentationView* view = env.window.presentation()->view();
        QVERIFY(view);
        QVERIFY(view->isFullScreen());
        QCOMPARE(view->entityPath(), QStringLiteral("webshop:jobs"));
        auto* caption = view->findChild<QLabel*>(QStringLiteral("presentationCaption"));
        QVERIFY(caption);
        QTRY_VERIFY2(caption->text().startsWith(QStringLiteral("Step 1 of 29 · Send 4 to jobs")),
                     qPrintable(caption->text()));
        auto* badge = view->findChild<QLabel*>(QStringLiteral("presentationClockMode"));
        QVERIFY(badge);
        QTRY_COMPARE(badge->text(), QStringLiteral("SCENARIO · PAUSED"));

        // Space plays and pauses the scenario (not the bare clock, which the scenario drives).
        auto* space = view->findChild<QAction*>(QStringLiteral("presentationScenarioPlay"));
        QVERIFY(space);
        QCOMPARE(space->shortcut(), QKeySequence(Qt::Key_Space));
        auto* clockKey = view->findChild<QAction*>(QStringLiteral("presentationPlayPause"));
        QVERIFY(clockKey && !clockKey->isEnabled());
        space->trigger();
        QVERIFY(env.session()->isPlaying());
        space->trigger();
        QVERIFY(!env.session()->isPlaying());
        QVERIFY(env.stepTo(4));
        QTRY_VERIFY(caption->text().startsWith(QStringLiteral("Step 5 of 29")));

        // A restart replaces the database under the view: it comes back on the same entity.
        env.scenarios().panel()->restartAction()->trigger();
        QTRY_VERIFY(env.session()->isReady() && env.window.presentation()->view());
        view = env.window.presentation()->view();
        QCOMPARE(view->entityPath(), QStringLiteral("webshop:jobs"));
        QTRY_VERIFY(view->findChild<QLabel*>(QStringLiteral("presentationCaption"))
                        ->text()
                        .startsWith(QStringLiteral("Step 1 of 29")));

        // Esc leaves.
        QPointer<PresentationView> guard(view);
        emit view->exitRequested();
        QTRY_VERIFY(!guard);
        QVERIFY(!env.window.presentation()->view());
    }

    void window_presentingAShortStoryWaitsForSpace() {
        // hourglass --play traffic-spike --speed 60 --present: nineteen minutes of story are
        // nineteen seconds at 60x, over before the room looks up; it waits for the presenter.
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike, 60, ScenarioController::Start::KeyWhenShort);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        env.window.presentation()->enterWhenSelected();
        QTRY_VERIFY(env.window.presentation()->view());
        PresentationView* view = env.window.presentation()->view();
        auto* caption = view->findChild<QLabel*>(QStringLiteral("presentationCaption"));
        QVERIFY(caption);
        QTRY_VERIFY2(caption->text().startsWith(QStringLiteral("Press Space to start · Step 1")),
                     qPrintable(caption->text()));
        QVERIFY(env.scenarios().isWaitingForKey());
        QVERIFY(!env.session()->isPlaying());
        QCOMPARE(env.session()->speed(), 60.0);
        QCOMPARE(env.session()->elapsed(), 0);

        view->activateWindow();
        view->setFocus();
        QTRY_VERIFY(view->isActiveWindow());
        QTest::keyClick(view, Qt::Key_Space);
        QTRY_VERIFY(env.session()->isPlaying());
        QVERIFY(!env.scenarios().isWaitingForKey());
        QTRY_VERIFY2(caption->text().startsWith(QStringLiteral("Step ")),
                     qPrintable(caption->text()));
        QTRY_VERIFY(env.session()->elapsed() > 0);
    }

    void window_longStoryPresentedStartsAtOnce() {
        // At 1x the same story lasts nineteen minutes: it starts without waiting.
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike, 1, ScenarioController::Start::KeyWhenShort);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        QTRY_VERIFY(env.session()->isPlaying());
        QVERIFY(!env.scenarios().isWaitingForKey());
    }

    void window_recordsWhatIsDoneAndPlaysItBack() {
        WindowEnv env;
        BrokerClient& client = *env.window.client();
        QVERIFY(testing::callAndWait(
            client, [](Broker& b) { return b.createQueue(QStringLiteral("orders"), {}).ok(); }));
        QVERIFY(env.select(QStringLiteral("test:orders")));
        QAction* record = env.window.findChild<QAction*>(QStringLiteral("scenarioRecord"));
        QVERIFY(record);
        record->trigger();
        QTRY_VERIFY(env.window.recording()->isRecording());
        auto* indicator = env.window.findChild<QLabel*>(QStringLiteral("recordingIndicator"));
        QTRY_VERIFY(indicator && indicator->isVisible());

        // What the panels do, through the window's client: send with a TTL, time passes, one
        // message is received and dead-lettered, another expires.
        QVERIFY(testing::callAndWait(client, [](Broker& b) {
            OutgoingMessage m;
            m.messageId = QStringLiteral("order-1");
            m.timeToLive = minutes(5);
            OutgoingMessage n = m;
            n.messageId = QStringLiteral("order-2");
            return b.sendBatch(QStringLiteral("orders"), {m, n}).ok() &&
                   b.advanceClock(minutes(1)).ok();
        }));
        QVERIFY(testing::callAndWait(client, [](Broker& b) {
            const auto got = b.receive(QStringLiteral("orders"),
                                       {ReceiveMode::PeekLock, 1, QStringLiteral("explorer")});
            return got && got->size() == 1 &&
                   b.deadLetter(LockRef::of(got->first()), {QStringLiteral("Bad"), {}, {}}).ok() &&
                   b.advanceClock(minutes(10)).ok();
        }));
        QAction* check = env.window.findChild<QAction*>(QStringLiteral("scenarioAddCheck"));
        QTRY_VERIFY(check && check->isEnabled());
        const int before = env.window.recording()->stepCount();
        check->trigger();
        QTRY_COMPARE(env.window.recording()->stepCount(), before + 1);

        record->trigger(); // stop: the save dialog opens over the window
        QFileDialog* save = nullptr;
        QTRY_VERIFY((save = env.window.findChild<QFileDialog*>(
                         QStringLiteral("scenarioSaveDialog"))) != nullptr);
        const QString file = env.dir.filePath(QStringLiteral("recorded.json"));
        save->selectFile(file);
        emit save->fileSelected(file); // what choosing the file and pressing Save sends
        QTRY_VERIFY(QFile::exists(file));

        // Played back in the window, on a database of its own, every check holds.
        env.scenarios().openFile(file);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        env.session()->setSpeed(600);
        env.scenarios().panel()->playAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(env.session()->atEnd(), 20000);
        QCOMPARE(env.session()->failedCount(), 0);
        QVERIFY(env.session()->passedCount() >= 1);
    }

    // A second scenario opened while one is shown replaces it: the first one's temporary
    // database goes away, and closing returns to the user's database, not to the first scenario.
    void window_secondScenarioReplacesTheFirst() {
        WindowEnv env;
        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        QTRY_VERIFY(env.window.client() && env.window.client()->databasePath() != env.userDatabase);
        const QString firstDatabase = env.window.client()->databasePath();
        ScenarioSession* first = env.session();

        env.scenarios().openFile(QStringLiteral(":/scenarios/poison-message.json"));
        QTRY_VERIFY(env.session() && env.session() != first && env.session()->isReady());
        QTRY_VERIFY(env.window.client() && env.window.client()->databasePath() != firstDatabase &&
                    env.window.client()->databasePath() != env.userDatabase);
        QVERIFY(!QFile::exists(firstDatabase));
        QVERIFY(env.window.windowTitle().startsWith(QStringLiteral("Scenario: Poison")));

        env.scenarios().close();
        QTRY_VERIFY(env.window.client() && env.window.client()->databasePath() == env.userDatabase);
    }

    // Starting a scenario while recording replaces the database the recording belongs to: the
    // recording is kept in a file, and the message bar says where.
    void window_recordingUnderWayIsKeptWhenAScenarioStarts() {
        WindowEnv env;
        BrokerClient& client = *env.window.client();
        QVERIFY(testing::callAndWait(
            client, [](Broker& b) { return b.createQueue(QStringLiteral("orders"), {}).ok(); }));
        env.window.findChild<QAction*>(QStringLiteral("scenarioRecord"))->trigger();
        QTRY_VERIFY(env.window.recording()->isRecording());
        QVERIFY(testing::callAndWait(client, [](Broker& b) {
            return b
                .send(QStringLiteral("orders"), testing::TestBroker::message(QStringLiteral("o")))
                .ok();
        }));
        QTRY_COMPARE(env.window.recording()->stepCount(), 1);

        env.scenarios().openFile(kTrafficSpike);
        QTRY_VERIFY(env.session() && env.session()->isReady());
        auto* text = env.window.findChild<QLabel*>(QStringLiteral("messageBarText"));
        QTRY_VERIFY(text && text->isVisible() && text->text().contains(QStringLiteral("kept in")));
        const QString folder = QDir::toNativeSeparators(ScenarioRecording::unsavedFolder());
        const qsizetype at = text->text().indexOf(folder);
        QVERIFY2(at >= 0, qPrintable(text->text()));
        const QString file =
            QDir::fromNativeSeparators(text->text().mid(at).section(QStringLiteral(". "), 0, 0));
        auto kept = loadScenarioFile(file);
        QVERIFY2(kept, qPrintable(file));
        QCOMPARE(kept->steps.size(), 1);
        QFile::remove(file);
    }

    void window_badScenarioFileIsRefusedInTheMessageBar() {
        WindowEnv env;
        QFile bad(env.dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({ "Scenario": { "Steps": [ { "At": "PT", "Peek": { "From": "q" } } ] } })");
        bad.close();
        env.scenarios().openFile(bad.fileName());
        auto* text = env.window.findChild<QLabel*>(QStringLiteral("messageBarText"));
        QTRY_VERIFY(text && text->isVisible());
        QVERIFY2(text->text().contains(QStringLiteral("Scenario.Steps[0].At")),
                 qPrintable(text->text()));
        QVERIFY(!env.session());
        QCOMPARE(env.window.client()->databasePath(), env.userDatabase);
    }
};

QTEST_MAIN(TestUiScenarioWindow)
#include "tst_ui_scenario_window.moc"
