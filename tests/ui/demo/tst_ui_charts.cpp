// The charts panel over a real broker on a paused virtual clock: the counts history gains one
// point per engine-time step with the right values (and one point after a jump of the clock),
// exact throughput (sent, received, completed, expired, dead-lettered) per engine second,
// dead-letter reasons as bars (live), PNG export, empty states, each entity's history kept
// across switches (and dropped with the entity), the time axis back at the engine's now after
// "Real time" following a fast-forward, and the dark chart theme.

#include "DeadLetterTestEnv.h"
#include "common/Theme.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "demo/ChartHistories.h"
#include "demo/CountsHistory.h"
#include "demo/EntityChartsPanel.h"
#include "demo/TimeControlBar.h"
#include "hourglass/ChangeFeed.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;
using hourglass::testing::kTestStart;

namespace {

QChart* chartOf(const EntityChartsPanel& panel, const char* name) {
    return child<QChartView>(panel, name)->chart();
}

QLineSeries* seriesNamed(const EntityChartsPanel& panel, const char* chart, const QString& name) {
    for (QAbstractSeries* series : chartOf(panel, chart)->series())
        if (series->name() == name)
            return qobject_cast<QLineSeries*>(series);
    qFatal("no series %s", qPrintable(name));
}

QList<QPointF> points(const EntityChartsPanel& panel, const char* chart, const QString& name) {
    return seriesNamed(panel, chart, name)->points();
}

QList<QPointF> activePoints(const EntityChartsPanel& panel) {
    return points(panel, "countsChart", QStringLiteral("Active"));
}

// Where a chart's time axis ends, in engine milliseconds.
Instant axisEnd(const EntityChartsPanel& panel, const char* chart) {
    auto* x = qobject_cast<QDateTimeAxis*>(chartOf(panel, chart)->axes(Qt::Horizontal).value(0));
    return x->max().toMSecsSinceEpoch();
}

void advance(Env& env, Millis delta) {
    QVERIFY(env.call([delta](Broker& b) { return b.advanceClock(delta); }).ok());
}

void sendTen(Env& env, Millis timeToLive) {
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 10; ++i) {
        OutgoingMessage m = Env::message(QStringLiteral("m-%1").arg(i));
        m.timeToLive = timeToLive;
        batch.append(m);
    }
    QVERIFY(env.call([batch](Broker& b) { return b.sendBatch(kQueue, batch); }).ok());
}

} // namespace

class TestUiCharts : public QObject {
    Q_OBJECT
private slots:
    void countsFollowTheVirtualClock();
    void throughputIsExactWithinAnInterval();
    void legendMovesBesideANarrowChart();
    void reasonsAreBarsAndStayLive();
    void reasonsAxisCountsInWholeNumbers();
    void chartsSaveAsPng();
    void switchingEntityKeepsEachHistory();
    void timeAxisFollowsTheClockBack();
    void deletedEntityLosesItsHistory();
    void markersHideWhenSamplesCrowd();
    void keepsTheMostRecentlyViewed();
    void emptyStatesAndDarkTheme();
    void deletedEntityEmptiesThePanel();
    void viewsAreMadeAtTheFirstShow();
};

void TestUiCharts::countsFollowTheVirtualClock() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(points(panel, "countsChart", QStringLiteral("Active")).size(), 1);
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Active")).first(),
             QPointF(double(kTestStart), 0));

    sendTen(env, seconds(90));
    advance(env, seconds(1));
    QTRY_COMPARE(points(panel, "countsChart", QStringLiteral("Active")).size(), 2);
    advance(env, seconds(1));
    QTRY_COMPARE(points(panel, "countsChart", QStringLiteral("Active")).size(), 3);
    const QList<QPointF> expected = {QPointF(double(kTestStart), 0),
                                     QPointF(double(kTestStart + 1000), 10),
                                     QPointF(double(kTestStart + 2000), 10)};
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Active")), expected);
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Dead-lettered")).last().y(), 0.0);
    // 10 messages arrived within the first engine second, none in the second.
    const QList<QPointF> sent = points(panel, "throughputChart", QStringLiteral("Sent"));
    QCOMPARE(sent, (QList<QPointF>{QPointF(double(kTestStart + 1000), 10),
                                   QPointF(double(kTestStart + 2000), 0)}));

    // A jump of two minutes: the messages expire into the dead-letter queue, and the history
    // records one point at the new engine time, not 120 made-up ones.
    advance(env, minutes(2));
    QTRY_COMPARE(points(panel, "countsChart", QStringLiteral("Active")).size(), 4);
    const Instant jumped = kTestStart + 2000 + minutes(2);
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Active")).last(),
             QPointF(double(jumped), 0));
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Dead-lettered")).last(),
             QPointF(double(jumped), 10));
    QCOMPARE(axisEnd(panel, "countsChart"), jumped);
    QCOMPARE(axisEnd(panel, "throughputChart"), jumped);
    const CountsHistory::Rate rate = panel.history()->rates().last();
    QCOMPARE(rate.expired, 10.0 / 120.0);
    QCOMPARE(rate.deadLettered, 10.0 / 120.0);
    QCOMPARE(rate.sent, 0.0);
    QCOMPARE(rate.received, 0.0);
    QCOMPARE(points(panel, "throughputChart", QStringLiteral("Expired")).last(),
             QPointF(double(jumped), 10.0 / 120.0));
    QCOMPARE(points(panel, "throughputChart", QStringLiteral("Dead-lettered")).last(),
             QPointF(double(jumped), 10.0 / 120.0));
}

// Within one engine second ten messages are sent and four of them received and completed: the
// chart shows all three, not the net six that a difference of counts would give.
void TestUiCharts::throughputIsExactWithinAnInterval() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.show();
    auto* view = child<QChartView>(panel, "throughputChart");
    QCOMPARE(view->chart()->title(), QStringLiteral("Messages per second"));
    QStringList names;
    for (QAbstractSeries* series : view->chart()->series())
        names << series->name();
    QCOMPARE(names, (QStringList{QStringLiteral("Sent"), QStringLiteral("Received"),
                                 QStringLiteral("Completed"), QStringLiteral("Expired"),
                                 QStringLiteral("Dead-lettered")}));
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.history()->samples().size(), 1);

    sendTen(env, minutes(10));
    QVERIFY(env.call([](Broker& b) {
        const auto got = b.receive(kQueue, {ReceiveMode::PeekLock, 4, "worker"});
        if (!got || got->size() != 4)
            return false;
        for (const MessageView& m : *got) {
            if (!b.complete(LockRef::of(m)))
                return false;
        }
        return true;
    }));
    advance(env, seconds(2));
    QTRY_COMPARE(panel.history()->rates().size(), 1);
    const CountsHistory::Rate rate = panel.history()->rates().first();
    QCOMPARE(rate.sent, 5.0); // ten in two engine seconds
    QCOMPARE(rate.received, 2.0);
    QCOMPARE(rate.completed, 2.0);
    QCOMPARE(rate.expired, 0.0);
    QCOMPARE(rate.deadLettered, 0.0);
    QCOMPARE(points(panel, "throughputChart", QStringLiteral("Received")),
             QList<QPointF>{QPointF(double(kTestStart + 2000), 2.0)});
    QCOMPARE(panel.history()->samples().last().flow.sent, 10);
}

// Five names do not fit in one row of a narrow chart (each would be elided to "S..."): the
// legend goes beside the plot, one name per line, and the time axis keeps fewer labels.
void TestUiCharts::legendMovesBesideANarrowChart() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    panel.resize(1600, 800);
    panel.show(); // the chart views are made at the first show
    QChart* throughput = chartOf(panel, "throughputChart");
    const auto timeTicks = [throughput] {
        return qobject_cast<QDateTimeAxis*>(throughput->axes(Qt::Horizontal).value(0))->tickCount();
    };
    QTRY_COMPARE(throughput->legend()->alignment(), Qt::AlignBottom);
    QCOMPARE(timeTicks(), 4);
    panel.resize(560, 700);
    QTRY_COMPARE(throughput->legend()->alignment(), Qt::AlignRight);
    QVERIFY(timeTicks() < 4);
    QVERIFY(timeTicks() >= 2);
    panel.resize(1600, 800);
    QTRY_COMPARE(throughput->legend()->alignment(), Qt::AlignBottom);
    QCOMPARE(timeTicks(), 4);
}

void TestUiCharts::reasonsAreBarsAndStayLive() {
    Env env;
    env.deadLetter(kQueue, 3, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    env.expire(2);
    EntityChartsPanel panel(*env.client);
    panel.show();
    QAbstractItemModelTester tester(panel.reasonsModel());
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QChart* chart = chartOf(panel, "reasonsChart");
    auto* bars = qobject_cast<QHorizontalBarSeries*>(chart->series().value(0));
    QVERIFY(bars);
    auto* categories = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
    QVERIFY(categories);
    QTRY_COMPARE(categories->categories(),
                 (QStringList{QStringLiteral("TTLExpiredException"), QStringLiteral("BadOrder")}));
    QCOMPARE(bars->barSets().size(), 1);
    QCOMPARE(bars->barSets().first()->at(0), 2.0);
    QCOMPARE(bars->barSets().first()->at(1), 3.0);

    env.deadLetter(kQueue, 4, QStringLiteral("Poison"), QStringLiteral("Cannot parse"));
    QTRY_COMPARE(categories->categories().last(), QStringLiteral("Poison"));
    QCOMPARE(bars->barSets().first()->at(2), 4.0);
    const int poison = panel.reasonsModel()->rowOf(QStringLiteral("Poison"));
    QVERIFY(poison > 0);
    QCOMPARE(panel.reasonsModel()
                 ->index(poison, DeadLetterReasonsModel::CountColumn)
                 .data(Qt::UserRole)
                 .toLongLong(),
             4);
}

void TestUiCharts::reasonsAxisCountsInWholeNumbers() {
    // One dead-lettered message labelled its axis "0 0 0 1 1 1".
    Env env;
    env.deadLetter(kQueue, 1, QStringLiteral("Once"), QString());
    EntityChartsPanel panel(*env.client);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QChart* chart = chartOf(panel, "reasonsChart");
    auto* categories = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
    const auto wholeSteps = [&] {
        auto* amounts = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        const double step = (amounts->max() - amounts->min()) / (amounts->tickCount() - 1);
        return step >= 1.0 && step == std::floor(step);
    };
    QTRY_COMPARE(categories->categories(), QStringList{QStringLiteral("Once")});
    QVERIFY(wholeSteps());
    env.deadLetter(kQueue, 7, QStringLiteral("Often"), QString());
    QTRY_COMPARE(categories->categories().size(), 2);
    QVERIFY(wholeSteps());
}

void TestUiCharts::chartsSaveAsPng() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.show();
    QAction* save = panel.findChild<QAction*>(QStringLiteral("saveChartsPng"));
    QVERIFY(save);
    QVERIFY(!save->isEnabled()); // nothing to save yet
    QVERIFY(panel.actions().contains(save) && panel.QWidget::actions().contains(save));
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_VERIFY(!panel.history()->samples().isEmpty());
    QVERIFY(save->isEnabled());

    QTemporaryDir out;
    const QString one = out.filePath(QStringLiteral("counts.png"));
    QVERIFY(panel.saveChart(QStringLiteral("countsChart"), one));
    QImage image(one);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 100 && image.height() > 100);
    QVERIFY(!panel.saveChart(QStringLiteral("noSuchChart"), out.filePath(QStringLiteral("x.png"))));

    // The panel action asks for a file without blocking, then saves the three charts.
    QSignalSpy status(&panel, &EntityChartsPanel::statusMessage);
    save->trigger();
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = panel.findChild<QFileDialog*>(QStringLiteral("saveChartsDialog"))));
    const QString all = out.filePath(QStringLiteral("all.png"));
    emit dialog->fileSelected(all);
    dialog->close();
    QCOMPARE(status.size(), 1);
    QVERIFY(status.first().first().toString().contains(all));
    const QImage whole(all);
    QVERIFY(!whole.isNull());
    QVERIFY(whole.height() > image.height()); // the counts chart and the row below it
}

// Each entity keeps its history while the database is open: going to another entity and back
// shows the earlier samples, and the ones taken while it was off screen.
void TestUiCharts::switchingEntityKeepsEachHistory() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(activePoints(panel).size(), 1);
    sendTen(env, minutes(10));
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).size(), 2);

    panel.setEntity(QStringLiteral("test:t/Subscriptions/s1"), Kind::Subscription);
    QCOMPARE(panel.entityPath(), QStringLiteral("test:t/Subscriptions/s1"));
    QTRY_COMPARE(activePoints(panel).size(), 1);
    QCOMPARE(activePoints(panel).first(), QPointF(double(kTestStart + 1000), 0));
    QVERIFY(points(panel, "throughputChart", QStringLiteral("Sent")).isEmpty());
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).size(), 2);

    // Back to orders: its two samples, and the one taken while s1 was on screen.
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    const QList<QPointF> orders = {QPointF(double(kTestStart), 0),
                                   QPointF(double(kTestStart + 1000), 10),
                                   QPointF(double(kTestStart + 2000), 10)};
    QCOMPARE(activePoints(panel), orders);
    QCOMPARE(points(panel, "throughputChart", QStringLiteral("Sent")),
             (QList<QPointF>{QPointF(double(kTestStart + 1000), 10),
                             QPointF(double(kTestStart + 2000), 0)}));
    QCOMPARE(axisEnd(panel, "countsChart"), kTestStart + 2000);

    // A dead-letter queue node charts its owner, with the owner's history.
    CountsHistory* ordersHistory = panel.history();
    panel.setEntity(QStringLiteral("test:orders/$deadletterqueue"), Kind::DeadLetterQueue);
    QCOMPARE(panel.entityPath(), QStringLiteral("test:orders"));
    QCOMPARE(panel.history(), ordersHistory);
    QCOMPARE(activePoints(panel), orders);
}

// A fast-forward past the real time, then "Real time": the clock goes back. The samples of the
// future it left are dropped, the time axis ends at the engine's now, and new samples appear
// as the clock moves on (before, the chart stood still until real time caught up).
void TestUiCharts::timeAxisFollowsTheClockBack() {
    Env env;
    TimeControlBar bar(*env.client);
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(activePoints(panel).size(), 1);
    // The test clock starts on 1 January 2026: thirty days past the real time.
    const Millis ahead = VirtualClock::realNow() - kTestStart + days(30);
    advance(env, ahead);
    QTRY_COMPARE(activePoints(panel).size(), 2);
    const Instant future = kTestStart + ahead;
    QCOMPARE(axisEnd(panel, "countsChart"), future);

    bar.findChild<QAction*>(QStringLiteral("clockRealTime"))->trigger();
    bar.findChild<QAction*>(QStringLiteral("clockPlayPause"))->trigger(); // pause: a fixed now
    QVERIFY(env.clock->isPaused());
    const Instant now = env.clock->now();
    QVERIFY(now < future - days(29));
    QTRY_VERIFY2(qAbs(axisEnd(panel, "countsChart") - now) <= 1000,
                 qPrintable(QString::number(axisEnd(panel, "countsChart") - now)));
    QVERIFY(qAbs(axisEnd(panel, "throughputChart") - now) <= 1000);
    const QList<QPointF> kept = activePoints(panel);
    QCOMPARE(kept.size(), 2); // the sample before the fast-forward, and one after the jump back
    QCOMPARE(kept.first(), QPointF(double(kTestStart), 0));
    QVERIFY(kept.last().x() <= double(now));

    // Time moves on from the new now: new samples appear, and the axis follows.
    sendTen(env, minutes(10));
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).last(), QPointF(double(now + 1000), 10));
    QCOMPARE(axisEnd(panel, "countsChart"), now + 1000);
    QCOMPARE(axisEnd(panel, "throughputChart"), now + 1000);
    // The throughput resumes after the jump: no rate across it (the flow counters went on
    // counting in the future that was dropped), one for the second after it.
    const QList<QPointF> sent = points(panel, "throughputChart", QStringLiteral("Sent"));
    QCOMPARE(sent.size(), 1);
    QCOMPARE(sent.first(), QPointF(double(now + 1000), 10));
}

// A deleted entity's history goes with it, on screen or not: the entity created again under the
// same name starts a new one. The others keep theirs.
void TestUiCharts::deletedEntityLosesItsHistory() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(activePoints(panel).size(), 1);
    sendTen(env, minutes(10));
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).size(), 2);
    panel.setEntity(QStringLiteral("test:t/Subscriptions/s1"), Kind::Subscription);
    QTRY_COMPARE(activePoints(panel).size(), 1);

    QSignalSpy changes(env.client.get(), &BrokerClient::changed);
    QVERIFY(env.call([](Broker& b) { return b.deleteEntity(kQueue); }).ok());
    QTRY_VERIFY(std::any_of(changes.cbegin(), changes.cend(), [](const QList<QVariant>& args) {
        return args.first().value<ChangeBatch>().deleted.contains(QStringLiteral("test:orders"));
    }));
    QVERIFY(env.call([](Broker& b) {
                   return b.createQueue(kQueue, EntityProperties::defaults(Tier::Standard));
               })
                .ok());
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).size(), 2);

    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(activePoints(panel).size(), 1);
    QCOMPARE(activePoints(panel).first(), QPointF(double(kTestStart + 2000), 0));
    QVERIFY(points(panel, "throughputChart", QStringLiteral("Sent")).isEmpty());
    panel.setEntity(QStringLiteral("test:t/Subscriptions/s1"), Kind::Subscription);
    QCOMPARE(activePoints(panel).size(), 2);
}

// A marker per sample while they stand apart; after an hour's jump the seconds that follow are
// a few pixels apart, and their markers would merge into a band: the line alone shows them.
void TestUiCharts::markersHideWhenSamplesCrowd() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QLineSeries* active = seriesNamed(panel, "countsChart", QStringLiteral("Active"));
    QTRY_COMPARE(active->count(), 1);
    for (int i = 1; i <= 3; ++i) {
        advance(env, seconds(1));
        QTRY_COMPARE(active->count(), i + 1);
    }
    QVERIFY(active->pointsVisible());
    QVERIFY(seriesNamed(panel, "throughputChart", QStringLiteral("Sent"))->pointsVisible());

    advance(env, hours(1));
    QTRY_COMPARE(active->count(), 5);
    for (int i = 1; i <= 3; ++i) {
        advance(env, seconds(1));
        QTRY_COMPARE(active->count(), 5 + i);
    }
    QTRY_VERIFY(!active->pointsVisible());
    QVERIFY(!seriesNamed(panel, "countsChart", QStringLiteral("Dead-lettered"))->pointsVisible());
    QVERIFY(!seriesNamed(panel, "throughputChart", QStringLiteral("Sent"))->pointsVisible());
}

// The 32 most recently charted entities keep their histories; one more drops the least recently
// viewed, unless a view still shows it.
void TestUiCharts::keepsTheMostRecentlyViewed() {
    constexpr int kKept = ChartHistories::kKept;
    Env env;
    QVERIFY(env.call([](Broker& b) {
        for (int i = 0; i <= kKept; ++i) {
            if (!b.createQueue(QStringLiteral("q%1").arg(i),
                               EntityProperties::defaults(Tier::Standard)))
                return false;
        }
        return true;
    }));
    EntityChartsPanel other(*env.client); // presentation mode, say: it keeps showing orders
    other.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    EntityChartsPanel panel(*env.client);
    for (int i = 0; i <= kKept; ++i)
        panel.setEntity(QStringLiteral("test:q%1").arg(i), Kind::Queue);

    const QStringList kept = ChartHistories::of(*env.client).paths();
    QCOMPARE(kept.size(), kKept);
    QCOMPARE(kept.first(), QStringLiteral("test:q%1").arg(kKept));
    QVERIFY(kept.contains(QStringLiteral("test:orders")));
    QVERIFY(!kept.contains(QStringLiteral("test:q0")));
    QVERIFY(!kept.contains(QStringLiteral("test:q1")));
    QVERIFY(kept.contains(QStringLiteral("test:q2")));
    // Viewing a kept one again makes it the most recent.
    panel.setEntity(QStringLiteral("test:q2"), Kind::Queue);
    QCOMPARE(ChartHistories::of(*env.client).paths().first(), QStringLiteral("test:q2"));
    QTRY_VERIFY(!panel.history()->samples().isEmpty());
}

void TestUiCharts::emptyStatesAndDarkTheme() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.show();
    QLabel* empty = child<QLabel>(panel, "chartsEmpty");
    QVERIFY(empty->isVisible());
    QVERIFY(!child<QChartView>(panel, "countsChart")->isVisible());
    panel.setEntity(QStringLiteral("test:t"), Kind::Topic);
    QVERIFY(empty->isVisible());
    QVERIFY(empty->text().contains(QStringLiteral("subscription")));
    QVERIFY(panel.entityPath().isEmpty());
    panel.setEntity(QStringLiteral("test"), Kind::Namespace);
    QVERIFY(empty->isVisible());
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QVERIFY(!empty->isVisible());
    QVERIFY(child<QChartView>(panel, "countsChart")->isVisible());
    QVERIFY(child<QLabel>(panel, "chartsTitle")->text().contains(QStringLiteral("test:orders")));
    panel.setEntity({}, Kind::Queue);
    QVERIFY(empty->isVisible());
    QVERIFY(!panel.history());

    applyTheme(ThemeChoice::Dark);
    QTRY_COMPARE(chartOf(panel, "countsChart")->theme(), QChart::ChartThemeDark);
    applyTheme(ThemeChoice::Light);
    QTRY_COMPARE(chartOf(panel, "countsChart")->theme(), QChart::ChartThemeLight);
}

void TestUiCharts::deletedEntityEmptiesThePanel() {
    Env env;
    EntityChartsPanel panel(*env.client);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.history()->samples().size(), 1);
    QVERIFY(env.call([](Broker& b) { return b.deleteEntity(kQueue); }).ok());
    QLabel* empty = child<QLabel>(panel, "chartsEmpty");
    QTRY_VERIFY(empty->isVisible());
    QVERIFY(empty->text().contains(QStringLiteral("deleted")));
    QVERIFY(panel.entityPath().isEmpty());
    QVERIFY(!panel.history());
}

// The window builds every tab's panel when it opens a namespace: the chart views, most of this
// panel's cost, wait for its first show. The history and the reasons are gathered from
// setEntity on all the same, and the views draw them as soon as they are made.
void TestUiCharts::viewsAreMadeAtTheFirstShow() {
    Env env;
    env.deadLetter(kQueue, 3, QStringLiteral("BadOrder"), QString());
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 700);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.history()->samples().size(), 1);
    sendTen(env, seconds(90));
    advance(env, seconds(1));
    QTRY_COMPARE(panel.history()->samples().size(), 2);
    QTRY_COMPARE(panel.reasonsModel()->rowOf(QStringLiteral("BadOrder")), 1);
    applyTheme(ThemeChoice::Dark);
    QVERIFY(panel.findChildren<QChartView*>().isEmpty());

    panel.show();
    QCOMPARE(panel.findChildren<QChartView*>().size(), 3);
    for (const char* name : {"countsChart", "throughputChart", "reasonsChart"})
        QVERIFY2(child<QChartView>(panel, name)->isVisible(), name);
    // What was recorded before, drawn at once: both samples, the reasons, the dark theme.
    QCOMPARE(activePoints(panel), (QList<QPointF>{QPointF(double(kTestStart), 0),
                                                  QPointF(double(kTestStart + 1000), 10)}));
    QCOMPARE(points(panel, "countsChart", QStringLiteral("Dead-lettered")).first().y(), 3.0);
    QCOMPARE(points(panel, "throughputChart", QStringLiteral("Sent")),
             QList<QPointF>{QPointF(double(kTestStart + 1000), 10)});
    auto* categories = qobject_cast<QBarCategoryAxis*>(
        chartOf(panel, "reasonsChart")->axes(Qt::Vertical).value(0));
    QCOMPARE(categories->categories(), QStringList{QStringLiteral("BadOrder")});
    QCOMPARE(chartOf(panel, "countsChart")->theme(), QChart::ChartThemeDark);
    applyTheme(ThemeChoice::Light);

    // And they go on from there.
    advance(env, seconds(1));
    QTRY_COMPARE(activePoints(panel).size(), 3);
}

QTEST_MAIN(TestUiCharts)
#include "tst_ui_charts.moc"
