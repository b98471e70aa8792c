// Presentation mode over a real broker on a paused virtual clock: the header names the entity and
// shows the engine clock, the count tiles follow receives and dead-letters, the countdowns and
// the counts chart follow the virtual clock, the keys leave / step / pause, and a missing or
// deleted entity shows an empty state. The chart opens with the history the Charts tab gathered.
// With PRESENTATION_GRAB_DIR set, the screenshots test also saves the view at 1920x1080 (light and
// dark) there.

#include "DeadLetterTestEnv.h"
#include "common/Theme.h"
#include "demo/CountsHistory.h"
#include "demo/EntityChartsPanel.h"
#include "demo/PresentationStops.h"
#include "demo/PresentationView.h"
#include "demo/TimeControlBar.h"
#include "messages/MessageListModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTest>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;

namespace {

const QString kOrders = QStringLiteral("test:orders");

QString text(const PresentationView& view, const char* name) {
    return child<QLabel>(view, name)->text();
}

// Three active messages that live ten minutes, and one scheduled an hour ahead.
void sendStory(Env& env) {
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 3; ++i) {
        OutgoingMessage m = Env::message(QStringLiteral("job-%1").arg(i));
        m.timeToLive = minutes(10);
        batch.append(m);
    }
    OutgoingMessage later = Env::message(QStringLiteral("job-later"));
    later.scheduledEnqueueTime = env.clock->now() + minutes(60);
    batch.append(later);
    QVERIFY(env.call([batch](Broker& b) { return b.sendBatch(kQueue, batch); }).ok());
}

void advance(Env& env, Millis delta) {
    QVERIFY(env.call([delta](Broker& b) { return b.advanceClock(delta); }).ok());
}

QString ttlText(const PresentationView& view, int row) {
    const MessageListModel* model = view.messageModel();
    return model->index(row, MessageListModel::TimeToLiveColumn).data().toString();
}

qsizetype activePoints(const PresentationView& view) {
    QChart* chart = child<QChartView>(view, "presentationChart")->chart();
    return static_cast<QLineSeries*>(chart->series().value(0))->count();
}

bool showsEmptyState(const PresentationView& view) {
    return child<QLabel>(view, "presentationEmpty")->isVisibleTo(&view);
}

} // namespace

class TestUiPresentation : public QObject {
    Q_OBJECT
private slots:
    void headerAndTilesShowTheEntity();
    void tilesFollowReceiveAndDeadLetter();
    void countdownsAndChartFollowTheVirtualClock();
    void chartOpensWithTheChartsTabsHistory();
    void captionShowsAndHides();
    void fontIsLargerThanTheApplications();
    void keysLeaveStepAndPause();
    void stepsSkipTopicsAndWrap_data();
    void stepsSkipTopicsAndWrap();
    void missingAndDeletedEntitiesShowAnEmptyState();
    void deadLetterQueueAndEmptyList();
    void screenshots();
};

void TestUiPresentation::headerAndTilesShowTheEntity() {
    Env env;
    sendStory(env);
    PresentationView view(*env.client);
    QAbstractItemModelTester tester(view.messageModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setEntity(kOrders, Kind::Queue);
    QCOMPARE(view.entityPath(), kOrders);
    QCOMPARE(text(view, "presentationTitle"), QStringLiteral("orders"));
    QVERIFY(text(view, "presentationKind").startsWith(QStringLiteral("Queue")));
    QTRY_COMPARE(text(view, "presentationActive"), QStringLiteral("3"));
    QCOMPARE(text(view, "presentationScheduled"), QStringLiteral("1"));
    QCOMPARE(text(view, "presentationLocked"), QStringLiteral("0"));
    QCOMPARE(text(view, "presentationDeferred"), QStringLiteral("0"));
    QCOMPARE(text(view, "presentationDeadLettered"), QStringLiteral("0"));
    auto* table = child<QTableView>(view, "presentationMessages");
    QTRY_COMPARE(table->model()->rowCount(), 4);
    QTRY_COMPARE(table->model()->index(0, MessageListModel::MessageIdColumn).data().toString(),
                 QStringLiteral("job-0"));
    // The columns a room needs, not the explorer's full set.
    QVERIFY(!table->isColumnHidden(MessageListModel::MessageIdColumn));
    QVERIFY(!table->isColumnHidden(MessageListModel::StateColumn));
    QVERIFY(!table->isColumnHidden(MessageListModel::DeliveryCountColumn));
    QVERIFY(!table->isColumnHidden(MessageListModel::TimeToLiveColumn));
    QVERIFY(table->isColumnHidden(MessageListModel::LockHolderColumn));
    // The engine clock, paused at the test start, with the toolbar's badge text.
    const Instant now = env.clock->now();
    QCOMPARE(text(view, "presentationClock"),
             QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss")));
    QVERIFY2(text(view, "presentationClockMode").startsWith(QStringLiteral("PAUSED")),
             qPrintable(text(view, "presentationClockMode")));
}

void TestUiPresentation::tilesFollowReceiveAndDeadLetter() {
    Env env;
    sendStory(env);
    PresentationView view(*env.client);
    view.setEntity(kOrders, Kind::Queue);
    QTRY_COMPARE(text(view, "presentationActive"), QStringLiteral("3"));
    auto* table = child<QTableView>(view, "presentationMessages");
    QVERIFY(table->isColumnHidden(MessageListModel::LockColumn)); // nothing locked yet

    auto received = env.call([](Broker& b) {
        return b.receive(kQueue, {ReceiveMode::PeekLock, 1, QStringLiteral("worker")});
    });
    QVERIFY2(received && received->size() == 1, why(received).constData());
    QTRY_COMPARE(text(view, "presentationLocked"), QStringLiteral("1"));
    QCOMPARE(text(view, "presentationActive"), QStringLiteral("2"));
    QTRY_VERIFY(!table->isColumnHidden(MessageListModel::LockColumn)); // the lock counts down

    const LockRef lock = LockRef::of(received->first());
    QVERIFY(env.call([lock](Broker& b) {
                   return b.deadLetter(lock, {QStringLiteral("Poison"), {}, {}});
               })
                .ok());
    QTRY_COMPARE(text(view, "presentationDeadLettered"), QStringLiteral("1"));
    QCOMPARE(text(view, "presentationLocked"), QStringLiteral("0"));
    QTRY_COMPARE(table->model()->rowCount(), 3);
}

void TestUiPresentation::countdownsAndChartFollowTheVirtualClock() {
    Env env;
    sendStory(env);
    PresentationView view(*env.client);
    view.resize(1280, 800);
    view.show();
    view.setEntity(kOrders, Kind::Queue);
    QTRY_COMPARE(ttlText(view, 0), QStringLiteral("10m 00s"));
    QTRY_COMPARE(activePoints(view), 1);

    advance(env, minutes(4));
    QTRY_COMPARE(ttlText(view, 0), QStringLiteral("6m 00s"));
    QTRY_COMPARE(activePoints(view), 2);
    QTRY_COMPARE(
        text(view, "presentationClock"),
        QDateTime::fromMSecsSinceEpoch(env.clock->now()).toString(QStringLiteral("HH:mm:ss")));

    // Past the TTL the messages expire (into the dead-letter queue: the entity dead-letters on
    // expiry), and the chart and tiles say so.
    advance(env, minutes(7));
    QTRY_COMPARE(activePoints(view), 3);
    QTRY_COMPARE(text(view, "presentationActive"), QStringLiteral("0"));
    QCOMPARE(text(view, "presentationDeadLettered"), QStringLiteral("3"));
    const CountsHistory::Sample last = view.history()->samples().last();
    QCOMPARE(last.at, env.clock->now());
    QCOMPARE(last.counts.deadLettered, 3);
}

// The Charts tab of orders gathered three samples: presentation mode opens on the same three
// (not on a fresh chart), and both go on together.
void TestUiPresentation::chartOpensWithTheChartsTabsHistory() {
    Env env;
    EntityChartsPanel charts(*env.client);
    charts.show();
    charts.setEntity(kOrders, Kind::Queue);
    auto* tabSeries = static_cast<QLineSeries*>(
        child<QChartView>(charts, "countsChart")->chart()->series().value(0));
    QTRY_COMPARE(tabSeries->count(), 1);
    sendStory(env);
    advance(env, seconds(1));
    QTRY_COMPARE(tabSeries->count(), 2);
    advance(env, minutes(1));
    QTRY_COMPARE(tabSeries->count(), 3);

    PresentationView view(*env.client);
    view.resize(1280, 800);
    view.show();
    view.setEntity(kOrders, Kind::Queue);
    auto* viewSeries = static_cast<QLineSeries*>(
        child<QChartView>(view, "presentationChart")->chart()->series().value(0));
    QCOMPARE(viewSeries->points(), tabSeries->points());
    QCOMPARE(viewSeries->points().last(), QPointF(double(env.clock->now()), 3));

    advance(env, seconds(1));
    QTRY_COMPARE(viewSeries->count(), 4);
    QTRY_COMPARE(tabSeries->points(), viewSeries->points());
}

void TestUiPresentation::captionShowsAndHides() {
    Env env;
    PresentationView view(*env.client);
    view.show();
    auto* caption = child<QLabel>(view, "presentationCaption");
    QVERIFY(!caption->isVisible());
    view.setCaption(QStringLiteral("Step 4 of 9 · Receive jobs"));
    QVERIFY(caption->isVisible());
    QCOMPARE(caption->text(), QStringLiteral("Step 4 of 9 · Receive jobs"));
    view.setCaption({});
    QVERIFY(!caption->isVisible());
}

void TestUiPresentation::fontIsLargerThanTheApplications() {
    Env env;
    PresentationView view(*env.client);
    const double app = QApplication::font().pointSizeF();
    QVERIFY(view.font().pointSizeF() >= 1.5 * app);
    auto* table = child<QTableView>(view, "presentationMessages");
    QVERIFY(table->font().pointSizeF() >= 1.5 * app);
    QVERIFY(child<QLabel>(view, "presentationTitle")->font().pointSizeF() >
            view.font().pointSizeF());
    QVERIFY(child<QLabel>(view, "presentationActive")->font().pointSizeF() >
            view.font().pointSizeF());
    QVERIFY(child<QLabel>(view, "presentationClock")->font().pointSizeF() >
            view.font().pointSizeF());
}

void TestUiPresentation::keysLeaveStepAndPause() {
    Env env;
    PresentationView view(*env.client);
    view.setEntity(kOrders, Kind::Queue);
    view.show();
    QApplication::setActiveWindow(&view);
    QVERIFY(QTest::qWaitForWindowActive(&view));
    QTRY_COMPARE(QApplication::focusWidget(), &view); // the shortcuts need it

    QSignalSpy exit(&view, &PresentationView::exitRequested);
    QTest::keyClick(&view, Qt::Key_Escape);
    QCOMPARE(exit.count(), 1);

    // Queues and subscriptions in tree order (the topic holds no messages): orders, s1, s2.
    QTest::keyClick(&view, Qt::Key_Right);
    QTRY_COMPARE(view.entityPath(), QStringLiteral("test:t/Subscriptions/s1"));
    QCOMPARE(view.entityKind(), Kind::Subscription);
    QCOMPARE(text(view, "presentationTitle"), QStringLiteral("t › s1"));
    QTest::keyClick(&view, Qt::Key_PageDown);
    QTRY_COMPARE(view.entityPath(), QStringLiteral("test:t/Subscriptions/s2"));
    QTest::keyClick(&view, Qt::Key_Right); // wraps around
    QTRY_COMPARE(view.entityPath(), kOrders);
    QTest::keyClick(&view, Qt::Key_Left);
    QTRY_COMPARE(view.entityPath(), QStringLiteral("test:t/Subscriptions/s2"));

    QVERIFY(env.clock->isPaused());
    QTest::keyClick(&view, Qt::Key_Space);
    QVERIFY(!env.clock->isPaused());
    QVERIFY(!text(view, "presentationClockMode").startsWith(QStringLiteral("PAUSED")));
    QTest::keyClick(&view, Qt::Key_Space);
    QVERIFY(env.clock->isPaused());
    QVERIFY(text(view, "presentationClockMode").startsWith(QStringLiteral("PAUSED")));
}

void TestUiPresentation::stepsSkipTopicsAndWrap_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<int>("delta");
    QTest::addColumn<QString>("to");
    QTest::newRow("queue to the next queue") << "ns:a" << 1 << "ns:b";
    QTest::newRow("past the topic to its subscription") << "ns:b" << 1 << "ns:t/Subscriptions/s";
    QTest::newRow("wraps forward") << "ns:t/Subscriptions/s" << 1 << "ns:a";
    QTest::newRow("wraps backward") << "ns:a" << -1 << "ns:t/Subscriptions/s";
    QTest::newRow("topic forward: its subscription") << "ns:t" << 1 << "ns:t/Subscriptions/s";
    QTest::newRow("namespace forward: the first") << "ns" << 1 << "ns:a";
    QTest::newRow("namespace backward: the last") << "ns" << -1 << "ns:t/Subscriptions/s";
}

void TestUiPresentation::stepsSkipTopicsAndWrap() {
    QFETCH(QString, from);
    QFETCH(int, delta);
    QFETCH(QString, to);
    const auto entity = [](const QString& path, EntityKind kind) {
        EntityInfo info;
        info.namespaceName = QStringLiteral("ns");
        info.path = path;
        info.kind = kind;
        return info;
    };
    // Broker::entities order: queues and topics by path, then subscriptions.
    const QList<EntityInfo> entities{
        entity(QStringLiteral("a"), EntityKind::Queue),
        entity(QStringLiteral("b"), EntityKind::Queue),
        entity(QStringLiteral("t"), EntityKind::Topic),
        entity(QStringLiteral("t/Subscriptions/s"), EntityKind::Subscription)};
    const std::optional<presentation::Stop> stop = presentation::stepFrom(entities, from, delta);
    QVERIFY(stop);
    QCOMPARE(stop->path, to);
    QCOMPARE(stop->kind,
             to.contains(QStringLiteral("/Subscriptions/")) ? Kind::Subscription : Kind::Queue);
    QVERIFY(!presentation::stepFrom({}, from, delta));
}

void TestUiPresentation::missingAndDeletedEntitiesShowAnEmptyState() {
    Env env;
    PresentationView view(*env.client);
    view.show();
    view.setEntity(QStringLiteral("test:later"), Kind::Queue);
    QTRY_VERIFY(showsEmptyState(view));
    QVERIFY(text(view, "presentationEmpty").contains(QStringLiteral("test:later")));
    QCOMPARE(text(view, "presentationActive"), QStringLiteral("\u2013"));

    // Created after the view opened (as a scenario does): it appears by itself.
    QVERIFY(env.call([](Broker& b) {
                   return b.createQueue(QStringLiteral("later"),
                                        EntityProperties::defaults(Tier::Standard));
               })
                .ok());
    QTRY_VERIFY(!showsEmptyState(view));
    QTRY_COMPARE(text(view, "presentationActive"), QStringLiteral("0"));

    QVERIFY(env.call([](Broker& b) { return b.deleteEntity(QStringLiteral("later")); }).ok());
    QTRY_VERIFY(showsEmptyState(view));
    QVERIFY(text(view, "presentationEmpty").contains(QStringLiteral("deleted")));

    view.setEntity(QStringLiteral("test:t"), Kind::Topic);
    QVERIFY(showsEmptyState(view));
    QVERIFY(text(view, "presentationEmpty").contains(QStringLiteral("subscriptions")));
}

void TestUiPresentation::deadLetterQueueAndEmptyList() {
    Env env;
    PresentationView view(*env.client);
    view.show();
    view.setEntity(kOrders, Kind::Queue);
    auto* empty = child<QLabel>(view, "presentationMessagesEmpty");
    QTRY_VERIFY(empty->isVisible());
    QCOMPARE(empty->text(), QStringLiteral("No messages in orders"));

    env.deadLetter(kQueue, 2, QStringLiteral("Poison"), QStringLiteral("Cannot parse"));
    view.setEntity(kOrders + QStringLiteral("/$deadletterqueue"), Kind::DeadLetterQueue);
    QCOMPARE(text(view, "presentationTitle"), QStringLiteral("orders"));
    QVERIFY(text(view, "presentationKind").startsWith(QStringLiteral("Dead-letter queue")));
    QTRY_COMPARE(text(view, "presentationDeadLettered"), QStringLiteral("2"));
    auto* table = child<QTableView>(view, "presentationMessages");
    QTRY_COMPARE(table->model()->rowCount(), 2);
    QTRY_VERIFY(table->isVisible());
}

void TestUiPresentation::screenshots() {
    const QString dir = qEnvironmentVariable("PRESENTATION_GRAB_DIR");
    Env env;
    sendStory(env);
    env.deadLetter(kQueue, 1, QStringLiteral("Poison"), QStringLiteral("Cannot parse"));
    // A spike of orders with staggered lives, so the countdown bars show every colour.
    QList<OutgoingMessage> spike;
    for (int i = 0; i < 12; ++i) {
        OutgoingMessage m = Env::message(QStringLiteral("order-%1").arg(1000 + i));
        m.timeToLive = seconds(60 + 50 * i);
        spike.append(m);
    }
    QVERIFY(env.call([spike](Broker& b) { return b.sendBatch(kQueue, spike); }).ok());
    for (const ThemeChoice theme : {ThemeChoice::Light, ThemeChoice::Dark}) {
        applyTheme(theme);
        // A message in a worker's hands, so the lock column shows (a lock lasts a minute).
        auto received = env.call([](Broker& b) {
            return b.receive(kQueue, {ReceiveMode::PeekLock, 1, QStringLiteral("worker")});
        });
        QVERIFY(received && received->size() == 1);
        PresentationView view(*env.client);
        view.resize(1920, 1080);
        view.setCaption(QStringLiteral("Step 4 of 9 · A poison message lands in the dead-letter "
                                       "queue"));
        view.setEntity(kOrders, Kind::Queue);
        view.show();
        QTRY_COMPARE(text(view, "presentationLocked"), QString::number(env.counts(kQueue).locked));
        for (int i = 0; i < 4; ++i) {
            advance(env, seconds(10));
            QTRY_VERIFY(!view.history()->samples().isEmpty() &&
                        view.history()->samples().last().at == env.clock->now());
        }
        QTRY_VERIFY(view.messageModel()->isRowLoaded(0));
        const QImage image = view.grab().toImage();
        QCOMPARE(image.size(), QSize(1920, 1080));
        const QString suffix =
            theme == ThemeChoice::Dark ? QStringLiteral("-dark.png") : QStringLiteral("-light.png");
        const auto save = [&](const QImage& shot, const QString& name) {
            if (!dir.isEmpty())
                QVERIFY(shot.save(QDir(dir).filePath(name + suffix)));
        };
        save(image, QStringLiteral("pres"));
        // The two empty states: an entity without messages, and one that does not exist.
        view.setEntity(QStringLiteral("test:t/Subscriptions/s1"), Kind::Subscription);
        QTRY_VERIFY(child<QLabel>(view, "presentationMessagesEmpty")->isVisible());
        save(view.grab().toImage(), QStringLiteral("pres-empty"));
        view.setEntity(QStringLiteral("test:billing"), Kind::Queue);
        QTRY_VERIFY(showsEmptyState(view));
        save(view.grab().toImage(), QStringLiteral("pres-missing"));
    }
    applyTheme(ThemeChoice::Light);
}

QTEST_MAIN(TestUiPresentation)
#include "tst_ui_presentation.moc"
