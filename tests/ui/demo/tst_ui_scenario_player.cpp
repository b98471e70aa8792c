// The scenario player without the window: the session moves the scenario's clock to each step's
// exact offset (stepping, and playing at any speed), marks checks passed or failed as they run,
// restarts from a fresh database, survives a Restart step; the panel and its step list show all
// of it; the gallery lists the bundled scenarios.

#include "demo/ScenarioGallery.h"
#include "demo/ScenarioPanel.h"
#include "demo/ScenarioSession.h"
#include "demo/ScenarioStepText.h"
#include "demo/ScenarioStepsModel.h"
#include "hourglass/Broker.h"
#include "hourglass/scenario/ScenarioFile.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using State = ScenarioSession::StepState;

Q_DECLARE_METATYPE(std::shared_ptr<hourglass::Broker>)

namespace {

// Three messages with a TTL, a receive, then one check that holds and one that does not.
const QByteArray kSmallScenario = R"({
  "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "jobs",
      "Properties": { "DeadLetteringOnMessageExpiration": true } } ] } ] },
  "Scenario": { "Title": "Small", "Description": "Three jobs. One is done. The rest expire.",
    "Steps": [
      { "At": "PT0S", "Send": { "To": "jobs", "Count": 3, "MessageId": "job-{n}", "TimeToLive": "PT2M" } },
      { "At": "PT30S", "Receive": { "From": "jobs", "Count": 1, "Receiver": "worker", "Then": "Complete" } },
      { "At": "PT1M", "Expect": { "Entity": "jobs", "Active": 2, "DeadLettered": 0 } },
      { "At": "PT3M", "Expect": { "Entity": "jobs", "Active": 5 } }
    ] } })";

Scenario parse(const QByteArray& json) {
    auto parsed = parseScenario(json);
    if (!parsed)
        qFatal("bad test scenario: %s", qPrintable(parsed.error().toString()));
    return std::move(parsed).value();
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

// A session that has opened its database.
struct ReadySession {
    explicit ReadySession(const QByteArray& json)
        : session(parse(json))
        , ready(&session, &ScenarioSession::ready) {
        // Like the window, the test lets go of a broker that is closing: a Restart step opens
        // its database again, which the old broker would still hold (one owner per database).
        QObject::connect(&session, &ScenarioSession::brokerClosing, &session, [this] {
            for (QList<QVariant>& arguments : ready)
                arguments[0] = QVariant();
        });
        session.start();
    }
    bool isReady() const { return session.isReady(); }
    std::shared_ptr<Broker> broker() const {
        return ready.last().at(0).value<std::shared_ptr<Broker>>();
    }
    ScenarioSession session;
    QSignalSpy ready;
};

// Steps once and waits until the session took it in.
bool stepAndWait(ScenarioSession& session) {
    const int before = session.nextStep();
    session.step();
    return QTest::qWaitFor([&] { return session.nextStep() == before + 1 && !session.isBusy(); });
}

} // namespace

class TestUiScenarioPlayer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<Broker>>(); }

    void stepText_namesEachStepInOneLine() {
        const Scenario scenario = parse(kSmallScenario);
        QCOMPARE(scenarioClockText(0), QStringLiteral("0:00"));
        QCOMPARE(scenarioClockText(minutes(9) + seconds(45)), QStringLiteral("9:45"));
        QCOMPARE(scenarioClockText(hours(1) + minutes(2) + seconds(3)), QStringLiteral("1:02:03"));
        QCOMPARE(describeScenarioStep(scenario.steps.at(0)),
                 QStringLiteral("Send 3 to jobs · TTL 2m 00s"));
        QCOMPARE(describeScenarioStep(scenario.steps.at(1)),
                 QStringLiteral("Receive 1 from jobs as worker → complete"));
        QCOMPARE(describeScenarioStep(scenario.steps.at(2)),
                 QStringLiteral("Expect jobs: Active 2, Dead-lettered 0"));
        QCOMPARE(scenarioStepKind(scenario.steps.at(3)), QStringLiteral("Expect"));
    }

    void session_stepRunsEachStepAtItsExactOffset() {
        ReadySession s(kSmallScenario);
        QTRY_VERIFY(s.isReady());
        QCOMPARE(s.session.nextStep(), 0);
        QCOMPARE(s.session.elapsed(), 0);
        QVERIFY(stepAndWait(s.session));
        QCOMPARE(s.session.outcome(0).state, State::Done);
        QVERIFY(stepAndWait(s.session));
        QCOMPARE(s.session.elapsed(), seconds(30)); // the step's At, not a tick later
        QVERIFY(stepAndWait(s.session));
        QCOMPARE(s.session.elapsed(), minutes(1));
        QCOMPARE(s.session.outcome(2).state, State::Passed);
        QCOMPARE(s.session.passedCount(), 1);
        // The engine shows the same state the check saw.
        const auto counts = s.broker()->counts(QStringLiteral("jobs"));
        QVERIFY(counts);
        QCOMPARE(counts->active, 2);
    }

    void session_failedCheckIsMarkedWithItsDifference() {
        ReadySession s(kSmallScenario);
        QTRY_VERIFY(s.isReady());
        QSignalSpy finished(&s.session, &ScenarioSession::finished);
        for (int i = 0; i < 4; ++i)
            QVERIFY(stepAndWait(s.session));
        QVERIFY(s.session.atEnd());
        QCOMPARE(finished.count(), 1);
        // At PT3M the two jobs left have expired into the dead-letter queue.
        const auto& failed = s.session.outcome(3);
        QCOMPARE(failed.state, State::Failed);
        QCOMPARE(failed.failures.size(), 1);
        QVERIFY2(failed.failures.first().contains(QStringLiteral("Active: expected 5, actual 0")),
                 qPrintable(failed.failures.first()));
        QCOMPARE(s.session.failedCount(), 1);
        QCOMPARE(s.session.passedCount(), 1);
    }

    void session_playingAt600xReachesTheEndWithEveryCheckAsInAHeadlessRun() {
        ReadySession s(readFile(QStringLiteral(":/scenarios/traffic-spike.json")));
        QTRY_VERIFY(s.isReady());
        s.session.setSpeed(600);
        s.session.play();
        QVERIFY(s.session.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(s.session.atEnd(), 30000);
        QVERIFY(!s.session.isPlaying());
        QCOMPARE(s.session.failedCount(), 0);
        QVERIFY(s.session.passedCount() >= 5);
        // The clock stops where the story ends.
        QCOMPARE(s.session.elapsed(), s.session.length());
    }

    void session_pauseStopsTheClock() {
        ReadySession s(kSmallScenario);
        QTRY_VERIFY(s.isReady());
        s.session.setSpeed(10);
        s.session.play();
        QTRY_VERIFY(s.session.elapsed() > 0);
        s.session.pause();
        QVERIFY(!s.session.isPlaying());
        QTRY_VERIFY(!s.session.isBusy());
        const Millis paused = s.session.elapsed();
        QCoreApplication::processEvents();
        QCOMPARE(s.session.elapsed(), paused);
        QVERIFY(s.session.elapsed() < s.session.length());
    }

    void session_restartStartsOverOnAFreshDatabase() {
        ReadySession s(kSmallScenario);
        QTRY_VERIFY(s.isReady());
        QSignalSpy closing(&s.session, &ScenarioSession::brokerClosing);
        QVERIFY(stepAndWait(s.session));
        QVERIFY(stepAndWait(s.session));
        const QString firstDatabase = s.broker()->databasePath();
        s.session.restart();
        QCOMPARE(closing.count(), 1);
        QCOMPARE(s.session.nextStep(), 0);
        QCOMPARE(s.session.outcome(0).state, State::Pending);
        QTRY_COMPARE(s.ready.count(), 2);
        QVERIFY(s.broker()->databasePath() != firstDatabase);
        QCOMPARE(s.session.elapsed(), 0);
        const auto counts = s.broker()->counts(QStringLiteral("jobs"));
        QVERIFY(counts);
        QCOMPARE(counts->active, 0);
    }

    void session_restartStepHandsOverTheReopenedBroker() {
        ReadySession s(R"({
          "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "q" } ] } ] },
          "Scenario": { "Steps": [
            { "At": "PT0S", "Send": { "To": "q", "Count": 2 } },
            { "At": "PT1S", "Restart": {} },
            { "At": "PT2S", "Expect": { "Entity": "q", "Active": 2 } } ] } })");
        QTRY_VERIFY(s.isReady());
        QSignalSpy closing(&s.session, &ScenarioSession::brokerClosing);
        QVERIFY(stepAndWait(s.session));
        QCOMPARE(closing.count(), 0);
        QVERIFY(stepAndWait(s.session)); // the Restart
        QCOMPARE(closing.count(), 1);
        QCOMPARE(s.ready.count(), 2);
        QVERIFY(stepAndWait(s.session));
        QCOMPARE(s.session.outcome(2).state, State::Passed);
    }

    void model_marksTheNextStepAndTheResults() {
        ReadySession s(kSmallScenario);
        ScenarioStepsModel model(s.session);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(0, ScenarioStepsModel::AtColumn).data().toString(),
                 QStringLiteral("0:00"));
        QTRY_VERIFY(s.isReady());
        QVERIFY(model.index(0, 0).data(ScenarioStepsModel::CurrentRole).toBool());
        for (int i = 0; i < 4; ++i)
            QVERIFY(stepAndWait(s.session));
        const auto result = [&](int row) {
            return model.index(row, ScenarioStepsModel::ResultColumn).data().toString();
        };
        QCOMPARE(result(0), QStringLiteral("done"));
        QCOMPARE(result(2), QStringLiteral("✓ passed"));
        QCOMPARE(result(3), QStringLiteral("✗ failed"));
        QVERIFY(model.index(3, ScenarioStepsModel::ResultColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("expected 5")));
        QVERIFY(!model.index(3, 0).data(ScenarioStepsModel::CurrentRole).toBool());
    }

    void panel_controlsDriveTheSessionAndTheSummaryCounts() {
        ReadySession s(kSmallScenario);
        ScenarioPanel panel(s.session);
        panel.resize(420, 600);
        panel.show();
        auto* title = panel.findChild<QLabel*>(QStringLiteral("scenarioTitle"));
        auto* summary = panel.findChild<QLabel*>(QStringLiteral("scenarioSummary"));
        auto* speed = panel.findChild<QComboBox*>(QStringLiteral("scenarioSpeed"));
        auto* progress = panel.findChild<QLabel*>(QStringLiteral("scenarioProgress"));
        QVERIFY(title && summary && speed && progress);
        QCOMPARE(title->text(), QStringLiteral("Small"));
        QTRY_VERIFY(panel.playAction()->isEnabled());
        QCOMPARE(summary->text(), QStringLiteral("Step 1 of 4 · 0 checks passed, 0 failed"));
        QCOMPARE(progress->text(), QStringLiteral("0:00 / 3:00"));

        speed->setCurrentIndex(speed->findData(60.0));
        emit speed->activated(speed->currentIndex());
        QCOMPARE(s.session.speed(), 60.0);

        QSignalSpy captions(&panel, &ScenarioPanel::captionChanged);
        panel.stepAction()->trigger();
        QTRY_COMPARE(s.session.nextStep(), 1);
        QTRY_VERIFY(panel.stepAction()->isEnabled());
        QVERIFY(panel.caption().startsWith(QStringLiteral("Step 2 of 4 · Receive 1 from jobs")));
        QVERIFY(captions.count() >= 1);
        for (int i = 1; i < 4; ++i) {
            panel.stepAction()->trigger();
            QTRY_COMPARE(s.session.nextStep(), i + 1);
            QTRY_VERIFY(!s.session.isBusy());
        }
        QTRY_COMPARE(summary->text(), QStringLiteral("Finished · 1 check passed, 1 failed"));
        QVERIFY(!panel.playAction()->isEnabled());
        QVERIFY(!panel.stepAction()->isEnabled());

        // Picking the failed step shows its difference.
        auto* steps = panel.findChild<QTableView*>(QStringLiteral("scenarioSteps"));
        auto* detail = panel.findChild<QLabel*>(QStringLiteral("scenarioStepDetail"));
        steps->setCurrentIndex(steps->model()->index(3, 1));
        QTRY_VERIFY(detail->isVisible());
        QVERIFY(detail->text().contains(QStringLiteral("expected 5, actual 0")));

        panel.restartAction()->trigger();
        QTRY_COMPARE(summary->text(), QStringLiteral("Step 1 of 4 · 0 checks passed, 0 failed"));
    }

    void gallery_listsTheBundledScenariosAndPlaysTheChosenOne() {
        const QStringList bundled = ScenarioGallery::bundledScenarios();
        QCOMPARE(bundled.size(), 4);
        QVERIFY(bundled.contains(QStringLiteral(":/scenarios/traffic-spike.json")));
        ScenarioGallery gallery;
        gallery.show();
        QCOMPARE(gallery.list()->count(), 4);
        QVERIFY(gallery.list()->item(0)->text().contains(QStringLiteral("steps")));
        auto* story = gallery.findChild<QLabel*>(QStringLiteral("scenarioGalleryStory"));
        QVERIFY(!story->text().isEmpty());
        QSignalSpy chosen(&gallery, &ScenarioGallery::chosen);
        gallery.list()->setCurrentRow(2);
        QTest::mouseClick(gallery.findChild<QPushButton*>(QStringLiteral("scenarioGalleryPlay")),
                          Qt::LeftButton);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.first().first().toString(), bundled.at(2));
        QVERIFY(!gallery.isVisible());
    }
};

QTEST_MAIN(TestUiScenarioPlayer)
#include "tst_ui_scenario_player.moc"
