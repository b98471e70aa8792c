// The window's flows on a namespace it does not host, against an in-process `hourglass`
// namespace reached by an emulator-style string (tests/remote/ServedNamespace.h), driven by
// object name as the embedded flows are: dead-letter with a reason from Receive & settle and the
// Dead letters tab grouping the reasons; resubmit, asked first with what a break between its send
// and its complete can do; sessions (the Sessions tab lists them; accept a named one, set its
// state, receive in it, release); and a move by dragging a message from one queue's list onto
// another queue of the namespace's tree, asked first with the namespace named. Each step is
// checked on the served broker as well as in the window.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "messages/MessageDragSource.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "sessions/SessionListModel.h"
#include "window/EntityWorkspace.h"

#include <QComboBox>
#include <QDropEvent>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

namespace {

const QString kOrders = QStringLiteral("orders");
const QString kOrdersDlq = QStringLiteral("orders/$deadletterqueue");

// The question named `name` once it shows.
QMessageBox* question(const QString& name) {
    QMessageBox* box = nullptr;
    (void)QTest::qWaitFor(
        [&] { return (box = qobject_cast<QMessageBox*>(openDialog(name))) != nullptr; }, 10000);
    return box;
}

void agree(QMessageBox* box) {
    for (QAbstractButton* button : box->buttons())
        if (box->buttonRole(button) == QMessageBox::AcceptRole)
            return button->click();
}

// The row of `view` whose column `column` shows `text`, or -1.
int rowWith(QTableView* view, int column, const QString& text) {
    for (int row = 0; row < view->model()->rowCount(); ++row)
        if (view->model()->index(row, column).data().toString() == text)
            return row;
    return -1;
}

} // namespace

class TestRemoteFlows : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void deadLetterWithAReasonAndTheReasonsGrouped();
    void resubmitSaysItMayDuplicateButNeverLose();
    void sessionsAcceptStateReceiveRelease();
    void moveByDragOntoAnotherQueueOfTheTree();

private:
    // The window on its database, connected to the served namespace through the dialog, with
    // `path` selected in that namespace's tree.
    void openOn(const QString& path);
    template <typename T> T* named(const char* name) {
        T* found = m_view->workspace()->findChild<T*>(QLatin1String(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }
    // Receive & settle as `receiver`: `count` messages of the selected entity.
    void receiveAs(const QString& receiver, int count);
    EntityCounts served(const QString& path) {
        const auto counts = m_served->broker().counts(path);
        return counts ? *counts : EntityCounts{};
    }

    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
    RemoteNamespaceView* m_view = nullptr;
};

void TestRemoteFlows::initTestCase() {
    if (privateHome().isEmpty())
        QSKIP("run through secret-service.sh: this test needs a home of its own");
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
}

void TestRemoteFlows::init() {
    QSettings().clear();
    m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
    m_served->testBroker().clock().resetToRealTime();
    QVERIFY(m_served->broker().createQueue(kOrders, {}).ok());
}

void TestRemoteFlows::cleanup() {
    m_view = nullptr;
    m_window.reset();
    m_served.reset();
    m_dir.reset();
}

void TestRemoteFlows::openOn(const QString& path) {
    m_dir = std::make_unique<QTemporaryDir>();
    m_window = std::make_unique<MainWindow>();
    QVERIFY(showWithDatabase(*m_window, *m_dir));
    m_view = connectThroughDialog(*m_window, m_served->connectionText(), QString(),
                                  QStringLiteral("Served"));
    QVERIFY(m_view);
    QVERIFY(selectInRemote(*m_window, m_view, QStringLiteral("localhost:") + path));
}

void TestRemoteFlows::receiveAs(const QString& receiver, int count) {
    m_view->workspace()->showTab(EntityWorkspace::ReceiveTab);
    named<QComboBox>("lockReceiver")->setEditText(receiver);
    named<QSpinBox>("lockCount")->setValue(count);
    QTRY_VERIFY_WITH_TIMEOUT(pressable(m_view->workspace(), QStringLiteral("lockReceive")), 10000);
    QVERIFY(press(m_view->workspace(), QStringLiteral("lockReceive")));
}

void TestRemoteFlows::deadLetterWithAReasonAndTheReasonsGrouped() {
    for (const char* id : {"a", "b", "c"})
        QVERIFY(m_served->broker().send(kOrders, TestBroker::message(id)).ok());
    openOn(kOrders);
    receiveAs(QStringLiteral("alice"), 3);
    auto* locks = named<QTableView>("lockList");
    QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 3, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).locked, qint64(3), 10000);

    // Two dead-lettered from the Settle dialog under one reason, one under another.
    const auto deadLetter = [&](const QString& id, const QString& reason) {
        selectRowWith(locks, MessageListModel::MessageIdColumn, id);
        QTRY_VERIFY(pressable(m_view->workspace(), QStringLiteral("lockDeadLetter")));
        QVERIFY(press(m_view->workspace(), QStringLiteral("lockDeadLetter")));
        QDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog(QStringLiteral("settleDialog"))));
        // The dialog is the question: it names the namespace the message is dead-lettered on.
        auto* where = dialog->findChild<QLabel*>(QStringLiteral("settleRemoteNamespace"));
        QVERIFY(where && where->text().contains(QStringLiteral("\"Served\"")));
        dialog->findChild<QLineEdit*>(QStringLiteral("deadLetterReason"))->setText(reason);
        dialog->findChild<QPlainTextEdit*>(QStringLiteral("deadLetterDescription"))
            ->setPlainText(QStringLiteral("said of ") + id);
        QTRY_VERIFY(pressable(dialog, QStringLiteral("settleOk")));
        QVERIFY(press(dialog, QStringLiteral("settleOk")));
    };
    deadLetter(QStringLiteral("a"), QStringLiteral("NegativeTotal"));
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).deadLettered, qint64(1), 10000);
    deadLetter(QStringLiteral("b"), QStringLiteral("UnknownCustomer"));
    if (QTest::currentTestFailed())
        return;
    deadLetter(QStringLiteral("c"), QStringLiteral("NegativeTotal"));
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).deadLettered, qint64(3), 10000);
    QCOMPARE(served(kOrders).locked, qint64(0));
    QTRY_COMPARE(locks->model()->rowCount(), 0);

    // The served broker keeps each reason and description.
    const auto stored = m_served->broker().listMessages(kOrdersDlq, 0, 10);
    QVERIFY(stored.ok());
    QCOMPARE(stored->size(), 3);
    QCOMPARE(stored->at(0).messageId, QStringLiteral("a"));
    QCOMPARE(stored->at(0).deadLetterReason, QStringLiteral("NegativeTotal"));
    QCOMPARE(stored->at(0).deadLetterErrorDescription, QStringLiteral("said of a"));
    QCOMPARE(stored->at(1).deadLetterReason, QStringLiteral("UnknownCustomer"));

    // The Dead letters tab groups them by reason and shows each one's.
    m_view->workspace()->showTab(EntityWorkspace::DeadLettersTab);
    auto* reasons = named<QTableView>("deadLetterReasons");
    auto* dead = named<QTableView>("deadLetterList");
    QTRY_COMPARE_WITH_TIMEOUT(dead->model()->rowCount(), 3, 10000);
    const auto countOf = [&](const QString& reason) {
        const int row = rowWith(reasons, 0, reason);
        return row < 0 ? QString() : reasons->model()->index(row, 1).data().toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(countOf(QStringLiteral("NegativeTotal")), QStringLiteral("2"), 10000);
    QCOMPARE(countOf(QStringLiteral("UnknownCustomer")), QStringLiteral("1"));
    const int b = rowWith(dead, MessageListModel::MessageIdColumn, QStringLiteral("b"));
    QVERIFY(b >= 0);
    QCOMPARE(dead->model()->index(b, MessageListModel::ColumnCount).data().toString(),
             QStringLiteral("UnknownCustomer"));
    QCOMPARE(dead->model()->index(b, MessageListModel::ColumnCount + 1).data().toString(),
             QStringLiteral("said of b"));
}

void TestRemoteFlows::resubmitSaysItMayDuplicateButNeverLose() {
    QVERIFY(m_served->broker().send(kOrders, TestBroker::message(QStringLiteral("a"))).ok());
    const auto held = m_served->broker().receive(kOrders, {});
    QVERIFY(held && held->size() == 1);
    QVERIFY(m_served->broker()
                .deadLetter(LockRef::of(held->first()), {QStringLiteral("Poison"), {}, {}})
                .ok());
    openOn(kOrders);
    m_view->workspace()->showTab(EntityWorkspace::DeadLettersTab);
    auto* dead = named<QTableView>("deadLetterList");
    QTRY_COMPARE_WITH_TIMEOUT(dead->model()->rowCount(), 1, 10000);

    // Asked first: what a break between the send and the complete can do, and where.
    const auto resubmit = [&] {
        selectRowWith(dead, MessageListModel::MessageIdColumn, QStringLiteral("a"));
        QTRY_VERIFY(pressable(m_view->workspace(), QStringLiteral("resubmitSelected")));
        QVERIFY(press(m_view->workspace(), QStringLiteral("resubmitSelected")));
    };
    resubmit();
    QMessageBox* ask = question(QStringLiteral("confirmResubmit"));
    QVERIFY(ask);
    QVERIFY2(ask->text().contains(QStringLiteral("\"Served\"")), qPrintable(ask->text()));
    QVERIFY2(ask->informativeText().contains(QStringLiteral("twice")) &&
                 ask->informativeText().contains(QStringLiteral("none is lost")),
             qPrintable(ask->informativeText()));
    if (!qEnvironmentVariableIsEmpty("SHOT"))
        ask->grab().save(qEnvironmentVariable("SHOT"));
    // Cancel leaves it where it is.
    ask->button(QMessageBox::Cancel)->click();
    QTest::qWait(300);
    QCOMPARE(served(kOrders).deadLettered, qint64(1));
    QCOMPARE(served(kOrders).active, qint64(0));

    resubmit();
    ask = question(QStringLiteral("confirmResubmit"));
    QVERIFY(ask);
    agree(ask);
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).active, qint64(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).deadLettered, qint64(0), 10000);
    const auto back = m_served->broker().listMessages(kOrders, 0, 10);
    QVERIFY(back.ok() && back->size() == 1);
    QCOMPARE(back->first().messageId, QStringLiteral("a"));
    QVERIFY(back->first().deadLetterReason.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(dead->model()->rowCount(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(m_view->tree(), QStringLiteral("localhost:orders")),
                              qint64(1), 10000);
}

void TestRemoteFlows::sessionsAcceptStateReceiveRelease() {
    const QString queue = QStringLiteral("tickets");
    EntityProperties properties = EntityProperties::defaults(Tier::Standard);
    properties.requiresSession = true;
    QVERIFY(m_served->broker().createQueue(queue, properties).ok());
    for (const auto& [session, id] : {std::pair{"A", "a-1"}, {"B", "b-1"}, {"A", "a-2"}}) {
        OutgoingMessage m = TestBroker::message(QLatin1String(id));
        m.sessionId = QLatin1String(session);
        QVERIFY(m_served->broker().send(queue, m).ok());
    }
    openOn(queue);

    // The Sessions tab lists the service's sessions.
    m_view->workspace()->showTab(EntityWorkspace::SessionsTab);
    auto* sessions = named<QTableView>("sessionList");
    QTRY_VERIFY_WITH_TIMEOUT(
        rowWith(sessions, SessionListModel::SessionIdColumn, QStringLiteral("A")) >= 0 &&
            rowWith(sessions, SessionListModel::SessionIdColumn, QStringLiteral("B")) >= 0,
        10000);

    // Receive & settle: alice accepts session A by name.
    m_view->workspace()->showTab(EntityWorkspace::ReceiveTab);
    QTRY_VERIFY_WITH_TIMEOUT(named<QWidget>("sessionBar")->isVisible(), 10000);
    named<QComboBox>("lockReceiver")->setEditText(QStringLiteral("alice"));
    named<QLineEdit>("sessionToAccept")->setText(QStringLiteral("A"));
    QTRY_VERIFY(pressable(m_view->workspace(), QStringLiteral("sessionAccept")));
    QVERIFY(press(m_view->workspace(), QStringLiteral("sessionAccept")));
    auto* held = named<QTableView>("heldSessions");
    QTRY_COMPARE_WITH_TIMEOUT(held->model()->rowCount(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_served->broker().session(queue, QStringLiteral("A"))->lockedBy.isEmpty(), 10000);

    // Its state, set with a confirmation, reaches the served session.
    QVERIFY(press(m_view->workspace(), QStringLiteral("sessionStateEdit")));
    QDialog* state = nullptr;
    QTRY_VERIFY(
        (state = openDialog(QStringLiteral("sessionStateDialog"))) ||
        (state = m_view->workspace()->findChild<QDialog*>(QStringLiteral("sessionStateDialog"))));
    state->findChild<QPlainTextEdit*>(QStringLiteral("stateEdit"))
        ->setPlainText(QStringLiteral("{\"step\": 2}"));
    QTest::mouseClick(state->findChild<QPushButton*>(QStringLiteral("stateApply")), Qt::LeftButton);
    QVERIFY(!m_served->broker().session(queue, QStringLiteral("A"))->hasState); // asked first
    QPointer<QDialog> stateGuard(state);
    QTest::mouseClick(state->findChild<QPushButton*>(QStringLiteral("stateConfirm")),
                      Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(stateGuard.isNull() || !stateGuard->isVisible(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_served->broker().session(queue, QStringLiteral("A"))->state,
                              QByteArray("{\"step\": 2}"), 10000);

    // Receiving in the session takes A's messages in order, not B's.
    named<QSpinBox>("lockCount")->setValue(5);
    QTRY_VERIFY(pressable(m_view->workspace(), QStringLiteral("lockReceive")));
    QVERIFY(press(m_view->workspace(), QStringLiteral("lockReceive")));
    auto* locks = named<QTableView>("lockList");
    QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 2, 10000);
    QCOMPARE(locks->model()->index(0, MessageListModel::MessageIdColumn).data().toString(),
             QStringLiteral("a-1"));
    QCOMPARE(locks->model()->index(1, MessageListModel::MessageIdColumn).data().toString(),
             QStringLiteral("a-2"));
    QTRY_COMPARE_WITH_TIMEOUT(m_served->broker().session(queue, QStringLiteral("A"))->locked,
                              qint64(2), 10000);
    QCOMPARE(m_served->broker().session(queue, QStringLiteral("B"))->active, qint64(1));

    // One completed in the session.
    selectRowWith(locks, MessageListModel::MessageIdColumn, QStringLiteral("a-1"));
    QTRY_VERIFY(pressable(m_view->workspace(), QStringLiteral("lockComplete")));
    QVERIFY(press(m_view->workspace(), QStringLiteral("lockComplete")));
    QTRY_COMPARE_WITH_TIMEOUT(served(queue).active + served(queue).locked, qint64(2), 10000);

    // Release: the served session is free again, its message back for the next holder; the
    // state stays with the session.
    QVERIFY(press(m_view->workspace(), QStringLiteral("sessionRelease")));
    QTRY_COMPARE_WITH_TIMEOUT(held->model()->rowCount(), 0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_served->broker().session(queue, QStringLiteral("A"))->lockedBy.isEmpty(), 10000);
    const auto a = m_served->broker().session(queue, QStringLiteral("A"));
    QVERIFY(a.ok());
    QCOMPARE(a->active, qint64(1));
    QCOMPARE(a->state, QByteArray("{\"step\": 2}"));
}

void TestRemoteFlows::moveByDragOntoAnotherQueueOfTheTree() {
    const QString archive = QStringLiteral("archive");
    QVERIFY(m_served->broker().createQueue(archive, {}).ok());
    for (const char* id : {"a", "b"})
        QVERIFY(m_served->broker().send(kOrders, TestBroker::message(id)).ok());
    openOn(kOrders);
    m_view->workspace()->showTab(EntityWorkspace::MessagesTab);
    auto* list = named<QTableView>("messageList");
    QTRY_COMPARE_WITH_TIMEOUT(list->model()->rowCount(), 2, 10000);

    // What the list's drag carries for the selected message: its own drag source builds it.
    selectRowWith(list, MessageListModel::MessageIdColumn, QStringLiteral("b"));
    auto* source = list->findChild<MessageDragSource*>();
    QVERIFY(source);
    std::unique_ptr<QMimeData> mime(source->createMimeData());
    QVERIFY(mime);

    // Dropped onto the archive queue's row of the namespace's tree, as a drag ends there (a
    // synthetic event has no QDrag behind it: the proposed action is set as a drag sets it).
    QTreeView* tree = m_view->tree()->view();
    const QModelIndex row = findPath(tree->model(), QStringLiteral("localhost:archive"));
    QVERIFY(row.isValid());
    tree->scrollTo(row);
    const QPoint at = tree->visualRect(row).center();
    const Qt::DropActions actions = Qt::MoveAction | Qt::CopyAction;
    QDragEnterEvent enter(at, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    enter.setDropAction(Qt::MoveAction);
    QCoreApplication::sendEvent(tree->viewport(), &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(at, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    move.setDropAction(Qt::MoveAction);
    QCoreApplication::sendEvent(tree->viewport(), &move);
    QVERIFY(move.isAccepted());
    QDropEvent drop(at, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    drop.setDropAction(Qt::MoveAction);
    QCoreApplication::sendEvent(tree->viewport(), &drop);
    QVERIFY(drop.isAccepted());

    // Asked first, naming the namespace; nothing moved until agreed.
    QMessageBox* ask = question(QStringLiteral("confirmRemote"));
    QVERIFY(ask);
    QVERIFY2(ask->text().contains(QStringLiteral("Move 1 message to 'archive'")) &&
                 ask->text().contains(QStringLiteral("\"Served\"")),
             qPrintable(ask->text()));
    QCOMPARE(served(archive).active, qint64(0));
    agree(ask);
    QTRY_COMPARE_WITH_TIMEOUT(served(archive).active, qint64(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(served(kOrders).active, qint64(1), 10000);
    const auto moved = m_served->broker().listMessages(archive, 0, 10);
    QVERIFY(moved.ok() && moved->size() == 1);
    QCOMPARE(moved->first().messageId, QStringLiteral("b"));
    // The window follows: the tree's counts and the list.
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(m_view->tree(), QStringLiteral("localhost:archive")),
                              qint64(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(m_view->tree(), QStringLiteral("localhost:orders")),
                              qint64(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(list->model()->rowCount(), 1, 10000);
    QCOMPARE(list->model()->index(0, MessageListModel::MessageIdColumn).data().toString(),
             QStringLiteral("a"));
}

QTEST_MAIN(TestRemoteFlows)
#include "tst_ui_remote_flows.moc"
