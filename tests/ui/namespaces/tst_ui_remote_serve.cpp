// The window on real `hourglass serve` processes (ServeProcess.h) beside its own database, as a
// user would work: one namespace reached with a TLS connection string (its certificate
// authority's file trusted), one with an emulator-style string (plain AMQP and HTTP), both open
// at once. On each: create a queue through the entity dialog (the administration API), send two
// messages through the send dialog, receive one under a lock in Receive & settle and complete
// it (the data plane), the tree's counts following each step. Then the TLS one once more, over
// AMQP over WebSockets.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServeProcess.h"

#include "common/BrokerClient.h"
#include "entities/EntityActions.h"
#include "hourglass/remote/RemoteBroker.h"
#include "messages/MessageListModel.h"
#include "window/EntityWorkspace.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>

using namespace hourglass;
using namespace hourglass::ui;
using namespace namespaces_test;

namespace {

// Clicks the control named `name` under `root` once it is enabled.
bool pressWhenReady(QObject* root, const QString& name) {
    return QTest::qWaitFor([&] { return hourglass::testing::press(root, name); }, 10000);
}

} // namespace

class TestRemoteServe : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (privateHome().isEmpty())
            QSKIP("run through secret-service.sh: this test needs a home of its own");
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }
    void administerSendAndSettleOnTwoServedNamespaces();

private:
    // Creates "tasks", sends two, receives and completes one, in `view`'s namespace.
    void workOn(MainWindow& window, RemoteNamespaceView* view);
};

void TestRemoteServe::workOn(MainWindow& window, RemoteNamespaceView* view) {
    QTreeView* tree = view->tree()->view();
    // Administer: a new queue in the namespace, through the entity dialog.
    QTRY_VERIFY(findPath(tree->model(), QStringLiteral("localhost")).isValid());
    tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("localhost")));
    QTRY_COMPARE(window.activeRemote(), view);
    QTRY_VERIFY(view->actions()->newQueueAction()->isEnabled());
    view->actions()->newQueueAction()->trigger();
    QDialog* create = nullptr;
    QTRY_VERIFY((create = openDialog(QStringLiteral("entityDialog"))));
    create->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("tasks"));
    QVERIFY(pressWhenReady(create, QStringLiteral("entityDialogOk")));
    const QString tasks = QStringLiteral("localhost:tasks");
    QTRY_VERIFY_WITH_TIMEOUT(findPath(tree->model(), tasks).isValid(), 15000);

    // Send two through the send dialog.
    tree->setCurrentIndex(findPath(tree->model(), tasks));
    QTRY_COMPARE(view->selectedPath(), tasks);
    QDialog* send = window.openSendDialog();
    QVERIFY(send);
    send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))
        ->setPlainText(QStringLiteral("{\"job\": 1}"));
    send->findChild<QSpinBox*>(QStringLiteral("sendRepeat"))->setValue(2);
    QVERIFY(QMetaObject::invokeMethod(send, "send"));
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), tasks), qint64(2), 15000);
    send->close();

    // Receive one under a lock as "alice" and complete it.
    EntityWorkspace* workspace = view->workspace();
    workspace->showTab(EntityWorkspace::ReceiveTab);
    workspace->findChild<QComboBox*>(QStringLiteral("lockReceiver"))
        ->setEditText(QStringLiteral("alice"));
    workspace->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(1);
    QVERIFY(pressWhenReady(workspace, QStringLiteral("lockReceive")));
    auto* locks = workspace->findChild<QTableView*>(QStringLiteral("lockList"));
    QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 1, 15000);
    locks->selectRow(0);
    QVERIFY(pressWhenReady(workspace, QStringLiteral("lockComplete")));
    QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 0, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), tasks), qint64(1), 15000);
}

void TestRemoteServe::administerSendAndSettleOnTwoServedNamespaces() {
    ServeProcess tls(ServeProcess::Transport::Tls);
    ServeProcess plain(ServeProcess::Transport::Plain);
    QVERIFY2(tls.waitUntilReady(), qPrintable(tls.problem()));
    QVERIFY2(plain.waitUntilReady(), qPrintable(plain.problem()));
    QVERIFY(!tls.connectionText().contains(QStringLiteral("UseDevelopmentEmulator")));
    QVERIFY(plain.connectionText().contains(QStringLiteral("UseDevelopmentEmulator=true")));

    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(showWithDatabase(window, dir));

    RemoteNamespaceView* secure =
        connectThroughDialog(window, tls.connectionText(), tls.caFile(), QStringLiteral("TLS"));
    QVERIFY(secure);
    RemoteNamespaceView* emulator =
        connectThroughDialog(window, plain.connectionText(), {}, QStringLiteral("Emulator"));
    QVERIFY(emulator);
    QCOMPARE(window.remotes()->views().size(), 2);
    workOn(window, secure);
    workOn(window, emulator);

    // The TLS namespace again, its AMQP over WebSockets (wss on the same port), as a network
    // that blocks 5671 needs: its tree, and a send that reaches it.
    RemoteNamespaceView* overWeb = connectThroughDialog(
        window, tls.connectionText(), tls.caFile(), QStringLiteral("TLS over WebSockets"), true);
    QVERIFY(overWeb);
    auto* remote = dynamic_cast<remote::RemoteBroker*>(overWeb->client()->sharedBroker().get());
    QVERIFY(remote && remote->options().amqp.webSockets);
    const QString tasks = QStringLiteral("localhost:tasks");
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(overWeb->tree(), tasks), qint64(1), 15000);
    overWeb->tree()->view()->setCurrentIndex(findPath(overWeb->tree()->view()->model(), tasks));
    QTRY_COMPARE(window.activeRemote(), overWeb);
    QDialog* send = window.openSendDialog();
    QVERIFY(send);
    send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))->setPlainText(QStringLiteral("w"));
    QVERIFY(QMetaObject::invokeMethod(send, "send"));
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(overWeb->tree(), tasks), qint64(2), 15000);
    send->close();
    // Each kept its own: the emulator's queue still shows its one message.
    QCOMPARE(treeActive(emulator->tree(), QStringLiteral("localhost:tasks")), qint64(1));
    // And the database beside them is the window's own, untouched.
    QVERIFY(window.tree()->isVisible());
}

QTEST_MAIN(TestRemoteServe)
#include "tst_ui_remote_serve.moc"
