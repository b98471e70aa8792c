// The whole explorer flow in the real main window, driven by objectName as a user would:
// create a queue through its dialog, send messages with a TTL, watch a countdown move with the
// virtual clock, peek, receive under a lock, complete, abandon, dead-letter with a reason, find
// the message in the dead-letter panel with its reason, and resubmit it to its queue.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "WidgetSteps.h"
#include "common/BrokerClient.h"
#include "entities/EntityActions.h"
#include "messages/MessageListModel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::callAndWait;
using hourglass::testing::openDialog;
using hourglass::testing::press;
using hourglass::testing::pressable;
using hourglass::testing::selectRowWith;

namespace {
const QString kQueue = QStringLiteral("flow:orders");

QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

} // namespace

class TestUiFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void flow_createSendPeekLockSettleDeadLetterResubmit();
};

void TestUiFlow::flow_createSendPeekLockSettleDeadLetterResubmit() {
    QTemporaryDir dir;
    auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
    auto broker = testing::openUiTestBroker(dir, clock, QStringLiteral("flow"));

    MainWindow window;
    window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    BrokerClient& client = *window.client();
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    QVERIFY(tree);

    // 1. Create the queue "orders" through the entity dialog.
    QTRY_VERIFY(findPath(tree->model(), QStringLiteral("flow")).isValid());
    tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("flow")));
    QTRY_VERIFY(window.entityActions()->newQueueAction()->isEnabled());
    window.entityActions()->newQueueAction()->trigger();
    QDialog* create = nullptr;
    QTRY_VERIFY((create = openDialog(QStringLiteral("entityDialog"))));
    create->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("orders"));
    QTRY_VERIFY(pressable(create, QStringLiteral("entityDialogOk")));
    QVERIFY(press(create, QStringLiteral("entityDialogOk")));
    QTRY_VERIFY(findPath(tree->model(), kQueue).isValid());
    const auto created = callAndWait(client, [](Broker& b) { return b.entity(kQueue); });
    QVERIFY(created.ok());

    // 2. Send three messages with a TTL of ten minutes.
    tree->setCurrentIndex(findPath(tree->model(), kQueue));
    QTRY_VERIFY(window.findChild<QAction*>(QStringLiteral("sendMessageAction"))->isEnabled());
    QDialog* send = window.openSendDialog();
    QVERIFY(send);
    send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))
        ->setPlainText(QStringLiteral("{\"total\": -5}"));
    send->findChild<QLineEdit*>(QStringLiteral("sendSubject"))->setText(QStringLiteral("order"));
    send->findChild<QLineEdit*>(QStringLiteral("sendTimeToLive"))->setText(QStringLiteral("PT10M"));
    send->findChild<QSpinBox*>(QStringLiteral("sendRepeat"))->setValue(3);
    QVERIFY(QMetaObject::invokeMethod(send, "send"));
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->active, 3);
    send->close();

    // 3. The countdown follows the virtual clock.
    auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    QVERIFY(list);
    QTRY_COMPARE(list->model()->rowCount(), 3);
    const QModelIndex ttl = list->model()->index(0, MessageListModel::TimeToLiveColumn);
    QTRY_COMPARE(list->model()->data(ttl).toString(), QStringLiteral("10m 00s"));
    clock->advance(seconds(30));
    QTRY_COMPARE(list->model()->data(ttl).toString(), QStringLiteral("9m 30s"));

    // 4. Peek: three active messages, nothing locked.
    EntityWorkspace* workspace = window.workspace();
    workspace->showTab(EntityWorkspace::PeekTab);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("peekFirst")));
    QVERIFY(press(workspace, QStringLiteral("peekFirst")));
    auto* peekList = window.findChild<QTableView*>(QStringLiteral("peekList"));
    QTRY_COMPARE(peekList->model()->rowCount(), 3);
    QCOMPARE(peekList->model()
                 ->data(peekList->model()->index(0, MessageListModel::StateColumn))
                 .toString(),
             QStringLiteral("Active"));
    QCOMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->locked, 0);

    // 5. Receive all three under peek-lock as "alice".
    workspace->showTab(EntityWorkspace::ReceiveTab);
    auto* receiver = window.findChild<QComboBox*>(QStringLiteral("lockReceiver"));
    receiver->setEditText(QStringLiteral("alice"));
    window.findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(3);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("lockReceive")));
    QVERIFY(press(workspace, QStringLiteral("lockReceive")));
    auto* locks = window.findChild<QTableView*>(QStringLiteral("lockList"));
    QTRY_COMPARE(locks->model()->rowCount(), 3);
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->locked, 3);
    const auto held = callAndWait(client, [](Broker& b) { return b.listMessages(kQueue, 0, 10); });
    QVERIFY(held.ok());
    const QString first = QString::number(held->at(0).sequenceNumber);
    const QString second = QString::number(held->at(1).sequenceNumber);
    const QString third = QString::number(held->at(2).sequenceNumber);
    QCOMPARE(held->at(0).lockHolder, QStringLiteral("alice"));

    // Complete the first.
    selectRowWith(locks, MessageListModel::SequenceNumberColumn, first);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("lockComplete")));
    QVERIFY(press(workspace, QStringLiteral("lockComplete")));
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->locked, 2);

    // Abandon the second with a property change: it is active again, delivered once.
    selectRowWith(locks, MessageListModel::SequenceNumberColumn, second);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("lockAbandon")));
    QVERIFY(press(workspace, QStringLiteral("lockAbandon")));
    QDialog* abandon = nullptr;
    QTRY_VERIFY((abandon = openDialog(QStringLiteral("settleDialog"))));
    QTRY_VERIFY(pressable(abandon, QStringLiteral("settleOk")));
    QVERIFY(press(abandon, QStringLiteral("settleOk")));
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->locked, 1);
    const auto abandoned = callAndWait(
        client, [seq = held->at(1).sequenceNumber](Broker& b) { return b.message(kQueue, seq); });
    QVERIFY(abandoned.ok());
    QVERIFY(!abandoned->locked);
    QCOMPARE(abandoned->deliveryCount, 1u);

    // Dead-letter the third with a reason and a description.
    selectRowWith(locks, MessageListModel::SequenceNumberColumn, third);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("lockDeadLetter")));
    QVERIFY(press(workspace, QStringLiteral("lockDeadLetter")));
    QDialog* deadLetter = nullptr;
    QTRY_VERIFY((deadLetter = openDialog(QStringLiteral("settleDialog"))));
    deadLetter->findChild<QLineEdit*>(QStringLiteral("deadLetterReason"))
        ->setText(QStringLiteral("NegativeTotal"));
    deadLetter->findChild<QPlainTextEdit*>(QStringLiteral("deadLetterDescription"))
        ->setPlainText(QStringLiteral("total must be positive"));
    QTRY_VERIFY(pressable(deadLetter, QStringLiteral("settleOk")));
    QVERIFY(press(deadLetter, QStringLiteral("settleOk")));
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->deadLettered, 1);

    // 6. The dead-letter panel groups it under its reason and shows the description.
    workspace->showTab(EntityWorkspace::DeadLettersTab);
    auto* reasons = window.findChild<QTableView*>(QStringLiteral("deadLetterReasons"));
    auto* dead = window.findChild<QTableView*>(QStringLiteral("deadLetterList"));
    QTRY_COMPARE(dead->model()->rowCount(), 1);
    QAbstractItemModel* reasonRows = reasons->model();
    QTRY_VERIFY(!reasonRows
                     ->match(reasonRows->index(0, 0), Qt::DisplayRole,
                             QStringLiteral("NegativeTotal"), 1, Qt::MatchExactly)
                     .isEmpty());
    QTRY_COMPARE(
        dead->model()->data(dead->model()->index(0, MessageListModel::ColumnCount)).toString(),
        QStringLiteral("NegativeTotal"));
    QCOMPARE(
        dead->model()->data(dead->model()->index(0, MessageListModel::ColumnCount + 1)).toString(),
        QStringLiteral("total must be positive"));

    // 7. Resubmit it: back in the queue without the reason properties, the DLQ empty.
    selectRowWith(dead, MessageListModel::SequenceNumberColumn, third);
    QTRY_VERIFY(pressable(workspace, QStringLiteral("resubmitSelected")));
    QVERIFY(press(workspace, QStringLiteral("resubmitSelected")));
    QTRY_COMPARE(callAndWait(client, [](Broker& b) { return b.counts(kQueue); })->deadLettered, 0);
    const auto back = callAndWait(client, [](Broker& b) { return b.listMessages(kQueue, 0, 10); });
    QVERIFY(back.ok());
    QCOMPARE(back->size(), 2);
    const MessageView& resubmitted = back->last();
    QCOMPARE(resubmitted.subject, QStringLiteral("order"));
    QCOMPARE(resubmitted.deliveryCount, 0u);
    QVERIFY(!resubmitted.applicationProperties.contains(QStringLiteral("DeadLetterReason")));
    QTRY_COMPARE(dead->model()->rowCount(), 0);
}

QTEST_MAIN(TestUiFlow)
#include "tst_ui_flow.moc"
