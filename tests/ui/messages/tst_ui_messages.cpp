// The explorer's message list: the windowed model over the engine (T1, T3, T5, T6, T9, L7), the
// countdown texts and states, the shared ticker (visible rows only), and the panel around them.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "messages/CountdownDelegate.h"
#include "messages/CountdownTicker.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace hourglass;
using namespace hourglass::ui;
using Model = MessageListModel;

namespace {

// A broker on a temporary database and a paused virtual clock, handed to a BrokerClient.
// Entities are created before the client exists; afterwards everything goes through the client.
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    std::unique_ptr<BrokerClient> client;

    explicit Env(const QList<QPair<QString, EntityProperties>>& queues) {
        std::unique_ptr<Broker> broker = testing::openUiTestBroker(dir, clock);
        for (const auto& [path, properties] : queues)
            if (!broker->createQueue(path, properties))
                qFatal("createQueue failed");
        client = std::make_unique<BrokerClient>(std::move(broker));
    }

    // Runs one broker call through the client and returns its result on this (GUI) thread.
    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }
};

EntityProperties queueProperties() {
    return EntityProperties::defaults(Tier::Standard);
}

OutgoingMessage message(const QString& id, std::optional<Millis> ttl = std::nullopt) {
    OutgoingMessage m = testing::TestBroker::message(id);
    m.subject = QStringLiteral("subject of ") + id;
    m.timeToLive = ttl;
    return m;
}

QString text(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.data(model.index(row, column), role).toString();
}

Countdown countdownAt(const QAbstractItemModel& model, int row, int column) {
    return model.data(model.index(row, column), Model::CountdownRole).value<Countdown>();
}

} // namespace

class TestUiMessages : public QObject {
    Q_OBJECT
private slots:
    void durationText_data();
    void durationText();
    void countdownStates();
    void barColorFollowsTheFractionLeft();
    void t1_countdownFollowsTheVirtualClock();
    void t9_derivedExpiryIsHinted();
    void t6_expiredButLockedIsHeldByLock();
    void l7_deadLetterPathListsTheDeadLetteredMessage();
    void windowLoadsOnlyThePagesInView();
    void tickerRepaintsOnlyVisibleCountdowns();
    void panelShowsTitleAndEmptyState();
};

void TestUiMessages::durationText_data() {
    QTest::addColumn<qint64>("millis");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative") << qint64(-5000) << "0s";
    QTest::newRow("zero") << qint64(0) << "0s";
    QTest::newRow("one millisecond rounds up") << qint64(1) << "1s";
    QTest::newRow("seconds") << seconds(45) << "45s";
    QTest::newRow("one minute") << minutes(1) << "1m 00s";
    QTest::newRow("minutes and seconds") << minutes(4) + seconds(12) << "4m 12s";
    QTest::newRow("just under ten minutes") << minutes(10) - 999 << "10m 00s";
    QTest::newRow("one hour") << hours(1) << "1h 00m";
    QTest::newRow("hours and minutes") << hours(2) + minutes(3) << "2h 03m";
    QTest::newRow("days and hours") << days(3) + hours(4) << "3d 4h";
    QTest::newRow("fourteen days") << days(14) << "14d 0h";
    QTest::newRow("infinite") << kInfinite << "never";
}

void TestUiMessages::durationText() {
    QFETCH(qint64, millis);
    QFETCH(QString, expected);
    QCOMPARE(shortDuration(millis), expected);
}

void TestUiMessages::countdownStates() {
    const Instant now = testing::kTestStart;
    const Countdown never = ttlCountdown(kNever, kInfinite, false, false, now);
    QCOMPARE(never.kind, Countdown::Kind::Never);
    QCOMPARE(never.text, QStringLiteral("never"));

    const Countdown half = ttlCountdown(now + minutes(5), minutes(10), false, false, now);
    QCOMPARE(half.kind, Countdown::Kind::Running);
    QCOMPARE(half.fraction, 0.5);
    QCOMPARE(half.text, QStringLiteral("5m 00s"));

    // Expired by the engine's flag, or by time that passed since the row was read.
    QCOMPARE(ttlCountdown(now + minutes(5), minutes(10), true, false, now).kind,
             Countdown::Kind::Expired);
    QCOMPARE(ttlCountdown(now - 1, minutes(10), false, false, now).text, QStringLiteral("expired"));
    QCOMPARE(ttlCountdown(now - 1, minutes(10), false, true, now).kind,
             Countdown::Kind::HeldByLock);

    QCOMPARE(lockCountdown(false, 0, minutes(1), now).kind, Countdown::Kind::None);
    const Countdown lock = lockCountdown(true, now + seconds(6), minutes(1), now);
    QCOMPARE(lock.text, QStringLiteral("6s"));
    QCOMPARE(lock.fraction, 0.1);
}

void TestUiMessages::barColorFollowsTheFractionLeft() {
    using M = CountdownDelegate::Meaning;
    const QColor plenty = CountdownDelegate::barColor(M::TimeToLive, 0.8);
    const QColor amber = CountdownDelegate::barColor(M::TimeToLive, 0.2);
    const QColor red = CountdownDelegate::barColor(M::TimeToLive, 0.05);
    QVERIFY(plenty != amber);
    QVERIFY(amber != red);
    QVERIFY(plenty.green() > plenty.red()); // green
    QVERIFY(red.red() > red.green());       // red
    QCOMPARE(CountdownDelegate::barColor(M::Lock, 0.05), red);
}

void TestUiMessages::t1_countdownFollowsTheVirtualClock() {
    Env env({{QStringLiteral("q"), queueProperties()}});
    Model model(*env.client);
    QAbstractItemModelTester tester(&model);
    model.setPath(QStringLiteral("test:q"));
    QTRY_VERIFY(model.isIndexLoaded());
    QCOMPARE(model.rowCount(), 0);

    const auto ten = env.call([](Broker& b) {
        return b.send(QStringLiteral("q"),
                      message(QStringLiteral("ten"), parseIsoDuration(QStringLiteral("PT10M"))));
    });
    QVERIFY(ten.ok());
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("q"),
                                 message(QStringLiteral("forever"), kInfinite));
               })
                .ok());

    QTRY_COMPARE(model.rowCount(), 2);
    QTRY_COMPARE(text(model, 0, Model::MessageIdColumn), QStringLiteral("ten"));
    QCOMPARE(model.data(model.index(0, Model::SequenceNumberColumn), Qt::UserRole).toLongLong(),
             ten->sequenceNumber);
    QCOMPARE(text(model, 0, Model::SubjectColumn), QStringLiteral("subject of ten"));
    QCOMPARE(text(model, 0, Model::StateColumn), QStringLiteral("Active"));
    QCOMPARE(text(model, 0, Model::DeliveryCountColumn), QStringLiteral("0"));
    QCOMPARE(text(model, 0, Model::TimeToLiveColumn), QStringLiteral("10m 00s"));
    QCOMPARE(model.data(model.index(0, Model::ExpiresAtColumn), Model::ExpiresAtRole).toLongLong(),
             testing::kTestStart + minutes(10));
    QCOMPARE(text(model, 0, Model::LockColumn), QString());
    QTRY_COMPARE(text(model, 1, Model::MessageIdColumn), QStringLiteral("forever"));
    QCOMPARE(text(model, 1, Model::TimeToLiveColumn), QStringLiteral("never"));
    QCOMPARE(text(model, 1, Model::ExpiresAtColumn), QStringLiteral("never"));
    QCOMPARE(countdownAt(model, 1, Model::TimeToLiveColumn).kind, Countdown::Kind::Never);

    // Countdowns read the engine's clock: a virtual minute later they read a minute less.
    env.clock->advance(minutes(1));
    QCOMPARE(text(model, 0, Model::TimeToLiveColumn), QStringLiteral("9m 00s"));
    QCOMPARE(model.data(model.index(0, Model::TimeToLiveColumn), Qt::UserRole).toLongLong(),
             minutes(9));
    QCOMPARE(countdownAt(model, 0, Model::TimeToLiveColumn).fraction, 0.9);
}

void TestUiMessages::t9_derivedExpiryIsHinted() {
    EntityProperties timed = queueProperties();
    timed.defaultMessageTimeToLive = hours(1);
    Env env({{QStringLiteral("timed"), timed}});
    Model model(*env.client);
    QAbstractItemModelTester tester(&model);
    model.setPath(QStringLiteral("test:timed"));
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("timed"), message(QStringLiteral("plain")));
               })
                .ok());
    QTRY_COMPARE(model.rowCount(), 1);
    QTRY_COMPARE(text(model, 0, Model::MessageIdColumn), QStringLiteral("plain"));
    QCOMPARE(text(model, 0, Model::TimeToLiveColumn), QStringLiteral("1h 00m"));
    QVERIFY(text(model, 0, Model::ExpiresAtColumn, Qt::ToolTipRole).contains("(derived)"));
}

void TestUiMessages::t6_expiredButLockedIsHeldByLock() {
    EntityProperties longLocks = queueProperties();
    longLocks.lockDuration = minutes(5);
    Env env({{QStringLiteral("locks"), longLocks}});
    Model model(*env.client);
    QAbstractItemModelTester tester(&model);
    model.setPath(QStringLiteral("test:locks"));
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("locks"),
                                 message(QStringLiteral("held"), seconds(30)));
               })
                .ok());
    const auto received = env.call([](Broker& b) {
        ReceiveOptions options;
        options.receiver = QStringLiteral("worker-1");
        return b.receive(QStringLiteral("locks"), options);
    });
    QVERIFY(received.ok());
    QCOMPARE(received->size(), 1);

    QTRY_COMPARE(text(model, 0, Model::StateColumn), QStringLiteral("Locked"));
    QCOMPARE(text(model, 0, Model::LockHolderColumn), QStringLiteral("worker-1"));
    QCOMPARE(text(model, 0, Model::LockColumn), QStringLiteral("5m 00s"));
    QCOMPARE(text(model, 0, Model::TimeToLiveColumn), QStringLiteral("30s"));
    QVERIFY(countdownAt(model, 0, Model::TimeToLiveColumn).locked);

    // T6: past its expiry the locked message stays, marked expired and held by its lock.
    env.clock->advance(minutes(1));
    QTRY_COMPARE(text(model, 0, Model::StateColumn), QStringLiteral("Expired"));
    QCOMPARE(countdownAt(model, 0, Model::TimeToLiveColumn).kind, Countdown::Kind::HeldByLock);
    QCOMPARE(text(model, 0, Model::TimeToLiveColumn), QStringLiteral("expired, held by lock"));
    QCOMPARE(text(model, 0, Model::LockColumn), QStringLiteral("4m 00s"));
    QVERIFY(!text(model, 0, Model::TimeToLiveColumn, Qt::ToolTipRole).isEmpty());
    QCOMPARE(model.rowCount(), 1);
}

void TestUiMessages::l7_deadLetterPathListsTheDeadLetteredMessage() {
    Env env({{QStringLiteral("q"), queueProperties()}});
    Model main(*env.client);
    QAbstractItemModelTester mainTester(&main);
    main.setPath(QStringLiteral("test:q"));
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("q"), message(QStringLiteral("poison")));
               })
                .ok());
    QTRY_COMPARE(main.rowCount(), 1);

    const auto dead = env.call([](Broker& b) -> Result<void> {
        auto received = b.receive(QStringLiteral("q"), ReceiveOptions{});
        if (!received)
            return received.error();
        return b.deadLetter(LockRef::of(received->first()),
                            DeadLetterOptions{QStringLiteral("Bad"), QStringLiteral("why"), {}});
    });
    QVERIFY(dead.ok());
    QTRY_COMPARE(main.rowCount(), 0); // followed the change notification

    // Switching paths at once: the reply for the first path must not land in the second.
    Model letters(*env.client);
    QAbstractItemModelTester lettersTester(&letters);
    letters.setPath(QStringLiteral("test:q"));
    letters.setPath(QStringLiteral("test:q/$deadletterqueue"));
    QTRY_COMPARE(letters.rowCount(), 1);
    QTRY_COMPARE(text(letters, 0, Model::MessageIdColumn), QStringLiteral("poison"));
    env.client->waitForIdle();
    QCoreApplication::processEvents();
    QCOMPARE(letters.rowCount(), 1);
    QCOMPARE(letters.path(), QStringLiteral("test:q/$deadletterqueue"));
}

void TestUiMessages::windowLoadsOnlyThePagesInView() {
    Env env({{QStringLiteral("big"), queueProperties()}});
    // No QAbstractItemModelTester here: it reads rows at every insertion boundary, which loads
    // pages the view never asked for (the other tests check the same model with it).
    MessageListPanel panel(*env.client);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("test:big"));

    constexpr int kBatches = 20;
    constexpr int kBatchSize = 1000;
    for (int batch = 0; batch < kBatches; ++batch) {
        QList<OutgoingMessage> messages;
        for (int i = 0; i < kBatchSize; ++i)
            messages.append(message(QStringLiteral("m%1").arg(batch * kBatchSize + i)));
        const auto sent = env.call(
            [messages](Broker& b) { return b.sendBatch(QStringLiteral("big"), messages); });
        QVERIFY(sent.ok());
    }
    Model* model = panel.model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), kBatches * kBatchSize, 30000);
    QTRY_VERIFY(model->isRowLoaded(0));
    QCOMPARE(text(*model, 0, Model::MessageIdColumn), QStringLiteral("m0"));
    // Only the pages of the rows in view (and the refresh's re-reads of those) are held.
    QVERIFY(model->loadedPageCount() >= 1);
    QVERIFY2(model->loadedPageCount() <= 2, qPrintable(QString::number(model->loadedPageCount())));

    const int last = kBatches * kBatchSize - 1;
    QVERIFY(!model->isRowLoaded(last));
    panel.view()->scrollToBottom();
    QTRY_VERIFY(model->isRowLoaded(last)); // the view's repaint asked for it
    QCOMPARE(text(*model, last, Model::MessageIdColumn), QStringLiteral("m%1").arg(last));
    QVERIFY(model->loadedPageCount() <= Model::kMaxLoadedPages);
}

void TestUiMessages::tickerRepaintsOnlyVisibleCountdowns() {
    Env env({{QStringLiteral("tick"), queueProperties()}});
    MessageListPanel panel(*env.client);
    panel.resize(900, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("test:tick"));
    QList<OutgoingMessage> messages;
    for (int i = 0; i < 500; ++i)
        messages.append(message(QStringLiteral("t%1").arg(i), minutes(10)));
    QVERIFY(
        env.call([messages](Broker& b) { return b.sendBatch(QStringLiteral("tick"), messages); })
            .ok());
    Model* model = panel.model();
    QTableView* view = panel.view();
    QTRY_COMPARE(model->rowCount(), 500);
    view->scrollTo(model->index(250, 0), QAbstractItemView::PositionAtTop);
    QTRY_VERIFY(model->isRowLoaded(250));
    env.client->waitForIdle();
    QCoreApplication::processEvents(); // page replies land before the spy starts

    const auto [first, last] = CountdownTicker::visibleRows(*view);
    QCOMPARE(first, view->indexAt(QPoint(0, 0)).row());
    QVERIFY(first >= 200);
    QVERIFY(last >= first);
    QVERIFY(last - first < 100);

    QSignalSpy spy(model, &QAbstractItemModel::dataChanged);
    QTRY_VERIFY(spy.count() >= 4); // two ticks: two countdown columns each
    for (const QList<QVariant>& emission : spy) {
        const auto topLeft = emission.at(0).value<QModelIndex>();
        const auto bottomRight = emission.at(1).value<QModelIndex>();
        QVERIFY(topLeft.row() >= first);
        QVERIFY(bottomRight.row() <= last);
        QCOMPARE(topLeft.column(), bottomRight.column());
        QVERIFY(topLeft.column() == Model::TimeToLiveColumn ||
                topLeft.column() == Model::LockColumn);
    }
}

void TestUiMessages::panelShowsTitleAndEmptyState() {
    Env env({{QStringLiteral("q"), queueProperties()}});
    MessageListPanel panel(*env.client);
    panel.resize(1600, 300); // every column in view
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* title = panel.findChild<QLabel*>(QStringLiteral("messageListTitle"));
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("messageListEmpty"));
    auto* view = panel.findChild<QTableView*>(QStringLiteral("messageList"));
    QVERIFY(title && empty && view);
    QVERIFY(qobject_cast<CountdownDelegate*>(view->itemDelegateForColumn(Model::TimeToLiveColumn)));
    QVERIFY(qobject_cast<CountdownDelegate*>(view->itemDelegateForColumn(Model::LockColumn)));
    QVERIFY(!view->isSortingEnabled());

    panel.setPath(QStringLiteral("test:q"));
    QTRY_VERIFY(empty->isVisible());
    QCOMPARE(empty->text(), QStringLiteral("No messages"));
    QVERIFY(title->text().contains(QStringLiteral("test:q")));
    QVERIFY(title->text().contains(QStringLiteral("0 messages")));

    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("q"), message(QStringLiteral("one"), minutes(10)));
               })
                .ok());
    QTRY_VERIFY(title->text().contains(QStringLiteral("(1 message)")));
    QVERIFY(view->isVisible());
    QVERIFY(!empty->isVisible());
    // The delegate paints the time left as a bar: full and green with all ten minutes left...
    QTRY_VERIFY(panel.model()->isRowLoaded(0));
    const QModelIndex ttl = panel.model()->index(0, Model::TimeToLiveColumn);
    auto barEndColor = [&] {
        view->viewport()->repaint();
        const QRect cell = view->visualRect(ttl);
        if (!view->viewport()->rect().contains(cell))
            qFatal("the time-to-live cell is out of view");
        return view->viewport()->grab().toImage().pixelColor(cell.right() - 6, cell.center().y());
    };
    const QColor full = barEndColor();
    QVERIFY2(full.green() > full.red() + 20 && full.green() > full.blue() + 20,
             qPrintable(full.name()));
    // ...and short (red, far from the cell's end) with half a minute left.
    env.clock->advance(minutes(9) + seconds(30));
    QCOMPARE(text(*panel.model(), 0, Model::TimeToLiveColumn), QStringLiteral("30s"));
    const QColor nearlyGone = barEndColor();
    QVERIFY2(nearlyGone != full, qPrintable(nearlyGone.name()));
    QVERIFY(!(nearlyGone.green() > nearlyGone.red() + 20));
}

QTEST_MAIN(TestUiMessages)
#include "tst_ui_messages.moc"
