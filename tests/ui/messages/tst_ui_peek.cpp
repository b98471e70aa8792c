// The Peek panel over a real broker (L12, T5): from the start, from a sequence number and page
// by page, with every state shown (active, locked, deferred, scheduled, expired) and nothing
// changed by peeking; sorting through the proxy; a dead-letter queue peeks its own messages.

#include "LocksTestEnv.h"
#include "messages/MessageViewModel.h"
#include "messages/PeekPanel.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using Kind = PeekPanel::NodeKind;

namespace {

// seq -> "State" of every row the panel shows, in sequence order.
QMap<qint64, QString> states(const PeekPanel& panel) {
    QMap<qint64, QString> out;
    const MessageViewModel& model = *panel.model();
    for (int row = 0; row < model.rowCount(); ++row)
        out.insert(model.messageAt(row).sequenceNumber,
                   model.index(row, MessageListModel::StateColumn).data().toString());
    return out;
}

QList<qint64> shown(const PeekPanel& panel) {
    return states(panel).keys();
}

// What peeking must not change: per message its state, delivery count and lock.
QStringList footprint(testing::LocksTestEnv& env) {
    QStringList out;
    for (const MessageView& m : env.all())
        out << QStringLiteral("%1 %2 dc=%3 lock=%4 until=%5")
                   .arg(m.sequenceNumber)
                   .arg(int(m.state))
                   .arg(m.deliveryCount)
                   .arg(m.lockHolder)
                   .arg(m.lockedUntil);
    return out;
}

void click(PeekPanel& panel, const char* name) {
    auto* button = panel.findChild<QPushButton*>(QLatin1String(name));
    QVERIFY2(button, name);
    QTest::mouseClick(button, Qt::LeftButton);
}

} // namespace

class PeekTest : public QObject {
    Q_OBJECT
private slots:
    void statesPagesAndNoSideEffects();
    void sortsThroughTheProxy();
    void deadLetterQueue();
    void emptyStates();
};

// Messages 1..5: deferred, deferred and past its expiry (T8: not swept), locked, active,
// scheduled.
void PeekTest::statesPagesAndNoSideEffects() {
    testing::LocksTestEnv env(minutes(5));
    env.send(QStringLiteral("deferred"));
    env.send(QStringLiteral("expiring"), seconds(10));
    for (const MessageView& m : env.receive(2, QStringLiteral("setup")))
        QVERIFY(env.call([m](Broker& b) { return b.defer(LockRef::of(m)); }).ok());
    env.send(QStringLiteral("locked"));
    QCOMPARE(env.receive(1, QStringLiteral("holder")).size(), 1);
    env.send(QStringLiteral("active"));
    const auto scheduled = env.call([](Broker& b) {
        return b.schedule(QStringLiteral("q"),
                          testing::TestBroker::message(QStringLiteral("later")),
                          b.clock().now() + hours(1));
    });
    QVERIFY(scheduled.ok());
    env.clock->advance(seconds(20));

    const EntityCounts countsBefore = env.counts();
    const QStringList before = footprint(env);

    PeekPanel panel(*env.client);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester sortTester(panel.sortModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.show();
    panel.setEntity(QStringLiteral("test:q"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 5);
    const QMap<qint64, QString> expected{{1, QStringLiteral("Deferred")},
                                         {2, QStringLiteral("Expired")},
                                         {3, QStringLiteral("Locked")},
                                         {4, QStringLiteral("Active")},
                                         {5, QStringLiteral("Scheduled")}};
    QCOMPARE(states(panel), expected);
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("peekTitle"))
                ->text()
                .contains(QStringLiteral("#1 to #5")));

    // N at a time: first page, next, next, then nothing left.
    panel.findChild<QSpinBox*>(QStringLiteral("peekCount"))->setValue(2);
    click(panel, "peekFirst");
    QTRY_COMPARE(shown(panel), (QList<qint64>{1, 2}));
    click(panel, "peekNext");
    QTRY_COMPARE(shown(panel), (QList<qint64>{3, 4}));
    click(panel, "peekNext");
    QTRY_COMPARE(shown(panel), (QList<qint64>{5}));
    QCOMPARE(states(panel).value(5), QStringLiteral("Scheduled"));
    click(panel, "peekNext");
    QTRY_COMPARE(panel.model()->rowCount(), 0);
    auto* stack = panel.findChild<QStackedWidget*>();
    QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("peekEmpty"));

    // From a given sequence number.
    panel.findChild<QSpinBox*>(QStringLiteral("peekFrom"))->setValue(3);
    click(panel, "peekGo");
    QTRY_COMPARE(shown(panel), (QList<qint64>{3, 4}));
    QCOMPARE(states(panel).value(3), QStringLiteral("Locked"));
    QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("peekList"));

    // Peek took no lock and changed no count, delivery count or lock.
    QCOMPARE(env.counts(), countsBefore);
    QCOMPARE(footprint(env), before);
}

void PeekTest::sortsThroughTheProxy() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("a"), minutes(30));
    env.send(QStringLiteral("b"), minutes(10));
    env.send(QStringLiteral("c"), minutes(20));
    PeekPanel panel(*env.client);
    panel.setEntity(QStringLiteral("test:q"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 3);
    QTableView* view = panel.findChild<QTableView*>(QStringLiteral("peekList"));
    auto firstSeq = [view] {
        return view->model()->index(0, MessageListModel::SequenceNumberColumn).data(Qt::UserRole);
    };
    view->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::DescendingOrder);
    QCOMPARE(firstSeq().toLongLong(), 3);
    // By time to live left (its raw value), shortest first: b.
    view->sortByColumn(MessageListModel::TimeToLiveColumn, Qt::AscendingOrder);
    QCOMPARE(firstSeq().toLongLong(), 2);
}

void PeekTest::deadLetterQueue() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("keep"));
    env.send(QStringLiteral("poison"));
    const QList<MessageView> taken = env.receive(2, QStringLiteral("r"));
    QVERIFY(env.call([m = taken.at(1)](Broker& b) {
                   return b.deadLetter(LockRef::of(m),
                                       {QStringLiteral("Bad"), QStringLiteral("cannot parse"), {}});
               })
                .ok());
    PeekPanel panel(*env.client);
    panel.setEntity(QStringLiteral("test:q/$deadletterqueue"), Kind::DeadLetterQueue);
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    const MessageViewModel& model = *panel.model();
    QCOMPARE(model.messageAt(0).sequenceNumber, 2);
    QCOMPARE(model.index(0, MessageViewModel::DeadLetterReasonColumn).data().toString(),
             QStringLiteral("Bad"));
    QVERIFY(!panel.view()->isColumnHidden(MessageViewModel::DeadLetterReasonColumn));
    // The main queue hides the dead-letter columns.
    panel.setEntity(QStringLiteral("test:q"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QVERIFY(panel.view()->isColumnHidden(MessageViewModel::DeadLetterReasonColumn));
}

void PeekTest::emptyStates() {
    testing::LocksTestEnv env;
    PeekPanel panel(*env.client);
    panel.setEntity(QStringLiteral("test"), Kind::Namespace);
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("peekEmpty"));
    QCOMPARE(panel.findChild<QStackedWidget*>()->currentWidget(), empty);
    QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("peekGo"))->isEnabled());
    // An empty queue says so; a send afterwards marks the page out of date without re-peeking.
    panel.setEntity(QStringLiteral("test:q"), Kind::Queue);
    QTRY_COMPARE(empty->text(), QStringLiteral("No messages"));
    env.send(QStringLiteral("late"));
    auto* title = panel.findChild<QLabel*>(QStringLiteral("peekTitle"));
    QTRY_VERIFY(title->text().contains(QStringLiteral("changed since")));
    QCOMPARE(panel.model()->rowCount(), 0);
    click(panel, "peekGo");
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QVERIFY(!title->text().contains(QStringLiteral("changed since")));
}

QTEST_MAIN(PeekTest)
#include "tst_ui_peek.moc"
