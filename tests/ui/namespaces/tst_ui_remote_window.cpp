// The main window on namespaces it does not host, against an in-process `hourglass` namespace
// (tests/remote/ServedNamespace.h: a real broker behind the AMQP endpoint and its
// administration API), with a real Secret Service (secret-service.sh with): File > Connect to
// namespace… saves the string (its key in the keychain) and opens it beside the open database;
// its tree lists the served entities with their counts; selecting one brings its workspace and
// the title and marks say remote (and read-only); the clock, scenarios and recording say why they
// do not apply; a send from the window reaches the served broker and the tree's count follows at
// once; a click in the database's tree brings it back; Disconnect lets go. A saved namespace
// whose key the keychain does not hold asks for it; a wrong key and an unreachable host are said
// in its header, and nothing opens.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "demo/TimeControlBar.h"
#include "entities/EntityActions.h"
#include "hourglass/OperationObserver.h"
#include "hourglass/remote/RemoteBroker.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListPanel.h"
#include "namespaces/NamespaceHeader.h"
#include "namespaces/SavedNamespaces.h"
#include "tree/NamespaceTreeModel.h"
#include "tree/NamespaceTreePanel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"
#include "window/RemoteNamespaceView.h"
#include "window/RemoteNamespaces.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

namespace {

// A saved namespace for `served` without its key (the keychain is then asked, and holds none).
SavedNamespace savedFor(const ServedNamespace& served, const QString& name, bool readOnly) {
    SavedNamespace saved;
    saved.name = name;
    saved.connection = served.connection();
    saved.caFile = served.caFile();
    saved.readOnly = readOnly;
    return saved.withoutSecret();
}

// Purge… on the entity selected in `view`, agreed to: what the question said (empty when none
// came).
struct PurgeQuestion {
    QString text;
    QString informative;
};
PurgeQuestion purgeAndAgree(RemoteNamespaceView* view) {
    QAction* purge = view->workspace()->messages()->listActions()->purgeAction();
    QMessageBox* ask = nullptr;
    if (!QTest::qWaitFor([&] { return purge->isEnabled(); }, 10000))
        return {};
    purge->trigger();
    if (!QTest::qWaitFor(
            [&] {
                return (ask =
                            qobject_cast<QMessageBox*>(openDialog(QStringLiteral("confirmPurge"))));
            },
            30000))
        return {};
    const PurgeQuestion asked{ask->text(), ask->informativeText()};
    for (QAbstractButton* button : ask->buttons())
        if (ask->buttonRole(button) == QMessageBox::AcceptRole)
            button->click();
    return asked;
}

} // namespace

class TestRemoteWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void connectOpensTheNamespaceBesideTheDatabase();
    void readOnlyNamespaceSaysSoAndRefusesChanges();
    void keyIsAskedWhenTheKeychainHasNone();
    void wrongKeyAndUnreachableHostAreSaidInTheHeader();
    void destructiveStepsNameTheNamespaceAndAskFirst();
    void purgeEndsWhenAnotherReceiverHoldsAMessage();
    void purgeDeletesInBatchesWithoutReceiving();
    void namingEntitiesReopensWithTheKeptKey();

private:
    // The window, its database open, and a served namespace with a queue of two messages.
    void openWindow();
    RemoteNamespaceView* onlyView() const;

    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestRemoteWindow::initTestCase() {
    if (privateHome().isEmpty())
        QSKIP("run through secret-service.sh: this test needs a home of its own");
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
}

void TestRemoteWindow::init() {
    QSettings().clear();
    m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Tls);
    m_served->testBroker().clock().resetToRealTime();
    Broker& served = m_served->broker();
    QVERIFY(served.createQueue(QStringLiteral("orders"), {}).ok());
    QVERIFY(served.createTopic(QStringLiteral("events"), {}).ok());
    QVERIFY(served.createSubscription(QStringLiteral("events/Subscriptions/audit"), {}).ok());
    for (const char* id : {"a", "b"})
        QVERIFY(served.send(QStringLiteral("orders"), TestBroker::message(id)).ok());
}

void TestRemoteWindow::cleanup() {
    m_window.reset();
    m_served.reset();
    m_dir.reset();
}

void TestRemoteWindow::openWindow() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_window = std::make_unique<MainWindow>();
    QSignalSpy opened(m_window.get(), &MainWindow::databaseOpened);
    m_window->openDatabase(m_dir->filePath(QStringLiteral("local.db")));
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(opened.wait(20000));
}

RemoteNamespaceView* TestRemoteWindow::onlyView() const {
    const auto views = m_window->remotes()->views();
    return views.size() == 1 ? views.first() : nullptr;
}

void TestRemoteWindow::connectOpensTheNamespaceBesideTheDatabase() {
    openWindow();
    const QString localTitle = m_window->windowTitle();
    const QString key = QStringLiteral("SAS_KEY_VALUE");
    RemoteNamespaceView* view = connectThroughDialog(*m_window, m_served->connectionText(),
                                                     m_served->caFile(), QStringLiteral("Served"));
    QVERIFY(view);
    QCOMPARE(onlyView(), view);
    QVERIFY(view->tree()->isVisible());
    QVERIFY(m_window->tree()->isVisible()); // the database's tree stays
    const QString orders = QStringLiteral("localhost:orders");
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), orders), qint64(2), 10000);
    QVERIFY(findPath(view->tree()->view()->model(),
                     QStringLiteral("localhost:events/Subscriptions/audit"))
                .isValid());
    QVERIFY(view->findChild<QLabel*>(QStringLiteral("remoteMark"))->isVisible());
    QVERIFY(!view->findChild<QLabel*>(QStringLiteral("readOnlyMark")));
    // The key went to the keychain, never to a settings file.
    QSettings().sync();
    QCOMPARE(filesHolding(privateHome() + QStringLiteral("/.config"), key), QStringList());

    // Selecting the queue brings this namespace's workspace, title and marks.
    view->tree()->view()->setCurrentIndex(findPath(view->tree()->view()->model(), orders));
    QTRY_COMPARE(m_window->activeRemote(), view);
    QCOMPARE(m_window->activeWorkspace(), view->workspace());
    QTRY_VERIFY(view->workspace()->isVisible());
    QVERIFY(!m_window->workspace()->isVisible());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Served (remote) — Hourglass"));
    // The virtual clock is the database's: disabled, with the reason on the bar.
    QVERIFY(!m_window->timeBar()->isEnabled());
    auto* note = m_window->findChild<QLabel*>(QStringLiteral("remoteClockNote"));
    if (!qEnvironmentVariableIsEmpty("SHOT"))
        m_window->grab().save(qEnvironmentVariable("SHOT"));
    QVERIFY(note && note->isVisible());

    // A send from the window reaches the served broker; the tree's count follows at once.
    QTRY_VERIFY(m_window->findChild<QAction*>(QStringLiteral("sendMessageAction"))->isEnabled());
    QDialog* send = m_window->openSendDialog();
    QVERIFY(send);
    send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))
        ->setPlainText(QStringLiteral("from the window"));
    QVERIFY(QMetaObject::invokeMethod(send, "send"));
    QTRY_COMPARE_WITH_TIMEOUT(m_served->broker().counts(QStringLiteral("orders"))->active,
                              qint64(3), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), orders), qint64(3), 5000);
    send->close();

    // The Charts tab samples the counts over real time; the service gives no throughput, so
    // that chart is not there (and nothing complains about it).
    view->workspace()->showTab(EntityWorkspace::ChartsTab);
    auto* counts = view->workspace()->findChild<QWidget*>(QStringLiteral("countsChart"));
    QTRY_VERIFY(counts && counts->isVisible());
    QVERIFY(
        !view->workspace()->findChild<QWidget*>(QStringLiteral("throughputChart"))->isVisible());
    QTest::qWait(1500); // a sample or two
    auto* bar = m_window->findChild<QLabel*>(QStringLiteral("messageBarText"));
    QVERIFY2(!bar->isVisible(), qPrintable(bar->text()));

    // A click in the database's tree brings it back, clock and title included.
    QTest::mouseClick(m_window->tree()->view()->viewport(), Qt::LeftButton, {}, QPoint(10, 10));
    QTRY_COMPARE(m_window->activeRemote(), nullptr);
    QCOMPARE(m_window->windowTitle(), localTitle);
    QVERIFY(m_window->timeBar()->isEnabled());
    QVERIFY(!note->isVisible());

    // Disconnect: the namespace's panels go, its header stays to connect again.
    view->findChild<QToolButton*>(QStringLiteral("namespaceConnect"))->click();
    QVERIFY(!view->isConnected());
    QCOMPARE(view->header()->state(), NamespaceHeader::State::Disconnected);
    QVERIFY(!view->tree());
}

void TestRemoteWindow::readOnlyNamespaceSaysSoAndRefusesChanges() {
    openWindow();
    // Saved with its key through the store, as an earlier run of the window would have.
    SavedNamespaces* store = m_window->remotes()->saved();
    SavedNamespace saved = savedFor(*m_served, QStringLiteral("Watch only"), true);
    saved = saved.withSecret(NamespaceSecret{QStringLiteral("SAS_KEY_VALUE"), {}, {}, {}});
    QSignalSpy kept(store, &SavedNamespaces::saved);
    const QString id = store->save(saved);
    QVERIFY(kept.wait(10000));
    QVERIFY(kept.first().at(1).toBool()); // the keychain holds the key
    // A window opened later lists it, not connected, and connects on the header's word.
    m_window.reset();
    openWindow();
    RemoteNamespaceView* view = onlyView();
    QVERIFY(view);
    QCOMPARE(view->header()->state(), NamespaceHeader::State::Disconnected);
    QVERIFY(view->findChild<QLabel*>(QStringLiteral("readOnlyMark"))->isVisible());
    view->findChild<QToolButton*>(QStringLiteral("namespaceConnect"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);
    const QString orders = QStringLiteral("localhost:orders");
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), orders), qint64(2), 10000);
    view->tree()->view()->setCurrentIndex(findPath(view->tree()->view()->model(), orders));
    QTRY_COMPARE(m_window->activeRemote(), view);
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Watch only (remote, read-only) — Hourglass"));

    // A send is refused before the wire: said in the dialog, the served queue unchanged.
    QDialog* send = m_window->openSendDialog();
    QVERIFY(send);
    send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))->setPlainText(QStringLiteral("x"));
    QVERIFY(QMetaObject::invokeMethod(send, "send"));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (QLabel* label : send->findChildren<QLabel*>())
                if (label->isVisible() && label->text().contains(QStringLiteral("read-only")))
                    return true;
            return false;
        }(),
        10000);
    QCOMPARE(m_served->broker().counts(QStringLiteral("orders"))->active, qint64(2));
    send->close();

    // The poll interval is the user's: shown in the header, changed from its menu.
    auto* every15 = view->findChild<QAction*>(QStringLiteral("pollInterval-15"));
    QVERIFY(every15);
    every15->trigger();
    auto* remote = dynamic_cast<remote::RemoteBroker*>(view->client()->sharedBroker().get());
    QVERIFY(remote);
    QCOMPARE(remote->pollInterval(), std::chrono::milliseconds(15000));
    QTRY_VERIFY(view->findChild<QLabel*>(QStringLiteral("namespaceStatus"))
                    ->text()
                    .contains(QStringLiteral("counts every 15 s")));
    Q_UNUSED(id);
}

void TestRemoteWindow::keyIsAskedWhenTheKeychainHasNone() {
    openWindow();
    SavedNamespaces* store = m_window->remotes()->saved();
    QSignalSpy kept(store, &SavedNamespaces::saved);
    const QString id = store->save(savedFor(*m_served, QStringLiteral("Asked"), false));
    QVERIFY(kept.wait(10000));
    RemoteNamespaceView* view = onlyView();
    QVERIFY(view);
    QVERIFY(answerKeyPrompt(view, QStringLiteral("SAS_KEY_VALUE")));
    QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(treeActive(view->tree(), QStringLiteral("localhost:orders")),
                              qint64(2), 10000);
    // What was typed opened it once and was kept nowhere: the keychain still has nothing.
    QSignalSpy read(store, &SavedNamespaces::secretRead);
    store->readSecret(id);
    QVERIFY(read.wait(10000));
    QVERIFY(read.first().at(1).value<NamespaceSecret>().isEmpty());
}

void TestRemoteWindow::wrongKeyAndUnreachableHostAreSaidInTheHeader() {
    openWindow();
    SavedNamespaces* store = m_window->remotes()->saved();
    QSignalSpy kept(store, &SavedNamespaces::saved);
    store->save(savedFor(*m_served, QStringLiteral("Wrong key"), false));
    QVERIFY(kept.wait(10000));
    RemoteNamespaceView* view = onlyView();
    QVERIFY(answerKeyPrompt(view, QStringLiteral("not-the-key")));
    QTRY_COMPARE_WITH_TIMEOUT(view->header()->state(), NamespaceHeader::State::Failed, 20000);
    QVERIFY(!view->isConnected());
    const QString said = view->findChild<QLabel*>(QStringLiteral("namespaceStatus"))->text();
    QVERIFY2(!said.isEmpty() && !said.contains(QStringLiteral("not-the-key")), qPrintable(said));

    // A host where nothing listens: said the same way, within the client's bound.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close();
    SavedNamespace nowhere;
    nowhere.name = QStringLiteral("Nowhere");
    nowhere.connection =
        remote::parseConnectionString(
            QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=k;SharedAccessKey=v;"
                           "UseDevelopmentEmulator=true")
                .arg(port))
            .value();
    kept.clear();
    const QString id = store->save(nowhere);
    QVERIFY(kept.wait(10000));
    RemoteNamespaceView* unreachable = m_window->remotes()->view(id);
    QVERIFY(unreachable);
    unreachable->findChild<QToolButton*>(QStringLiteral("namespaceConnect"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(unreachable->header()->state(), NamespaceHeader::State::Failed,
                              40000);
    QVERIFY(!unreachable->isConnected());
}

void TestRemoteWindow::destructiveStepsNameTheNamespaceAndAskFirst() {
    openWindow();
    RemoteNamespaceView* view = connectThroughDialog(*m_window, m_served->connectionText(),
                                                     m_served->caFile(), QStringLiteral("Served"));
    QVERIFY(view);
    QVERIFY(selectInRemote(*m_window, view, QStringLiteral("localhost:orders")));
    auto servedActive = [this] {
        return m_served->broker().counts(QStringLiteral("orders"))->active;
    };

    // Receive-and-delete: asked first, naming the namespace; Cancel takes nothing.
    EntityWorkspace* workspace = view->workspace();
    workspace->showTab(EntityWorkspace::ReceiveTab);
    auto* mode = workspace->findChild<QComboBox*>(QStringLiteral("lockMode"));
    mode->setCurrentIndex(mode->findData(int(ReceiveMode::ReceiveAndDelete)));
    workspace->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(1);
    auto* receive = workspace->findChild<QAbstractButton*>(QStringLiteral("lockReceive"));
    QTRY_VERIFY(receive->isEnabled());
    receive->click();
    QMessageBox* ask = nullptr;
    QTRY_VERIFY((ask = qobject_cast<QMessageBox*>(openDialog(QStringLiteral("confirmRemote")))));
    QVERIFY2(ask->text().contains(QStringLiteral("\"Served\"")), qPrintable(ask->text()));
    ask->button(QMessageBox::Cancel)->click();
    QTest::qWait(300);
    QCOMPARE(servedActive(), qint64(2));
    // Yes: one message received and gone from the served queue.
    receive->click();
    QTRY_VERIFY((ask = qobject_cast<QMessageBox*>(openDialog(QStringLiteral("confirmRemote")))));
    for (QAbstractButton* button : ask->buttons())
        if (ask->buttonRole(button) == QMessageBox::AcceptRole)
            button->click();
    QTRY_COMPARE_WITH_TIMEOUT(servedActive(), qint64(1), 10000);

    // Deleting the queue: the question names the namespace too.
    view->actions()->deleteAction()->trigger();
    QMessageBox* remove = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (remove = qobject_cast<QMessageBox*>(openDialog(QStringLiteral("confirmDelete")))), 10000);
    QVERIFY2(remove->text().contains(QStringLiteral("remote namespace \"Served\"")),
             qPrintable(remove->text()));
    remove->button(QMessageBox::Cancel)->click();
    QVERIFY(m_served->broker().entity(QStringLiteral("orders")).ok());
}

// Purge on a remote namespace takes every message it can (asked first, naming the namespace) and
// ends, with the service's word, on one another receiver holds locked: no endless retry.
void TestRemoteWindow::purgeEndsWhenAnotherReceiverHoldsAMessage() {
    ReceiveOptions other;
    other.receiver = QStringLiteral("elsewhere");
    const auto held = m_served->broker().receive(QStringLiteral("orders"), other);
    QVERIFY(held && held->size() == 1);
    openWindow();
    RemoteNamespaceView* view = connectThroughDialog(*m_window, m_served->connectionText(),
                                                     m_served->caFile(), QStringLiteral("Served"));
    QVERIFY(view);
    QVERIFY(selectInRemote(*m_window, view, QStringLiteral("localhost:orders")));
    const PurgeQuestion asked = purgeAndAgree(view);
    QVERIFY2(asked.informative.contains(QStringLiteral("\"Served\"")),
             qPrintable(asked.informative));
    // The free message goes; the held one stays, and the window says why it stopped.
    auto* bar = m_window->findChild<QLabel*>(QStringLiteral("messageBarText"));
    QTRY_VERIFY_WITH_TIMEOUT(
        bar->isVisible() && bar->text().contains(QStringLiteral("MessageNotFound")), 30000);
    QCOMPARE(m_served->broker().counts(QStringLiteral("orders"))->active, qint64(0));
    QCOMPARE(m_served->broker().counts(QStringLiteral("orders"))->locked, qint64(1));
}

// Purge on a remote namespace goes through the service's batch delete, a chunk at a time: every
// message goes, none of them received on the way (a receive each would be the slow way).
void TestRemoteWindow::purgeDeletesInBatchesWithoutReceiving() {
    struct CountReceives : OperationObserver {
        std::atomic<int> receives{0};
        std::atomic<int> peeks{0};
        void operationDone(const BrokerOperation& operation) override {
            if (operation.kind == BrokerOperation::Kind::Peek)
                ++peeks;
            if (operation.kind == BrokerOperation::Kind::Receive ||
                operation.kind == BrokerOperation::Kind::ReceiveDeferred)
                ++receives;
        }
    };
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 1200; ++i)
        batch.append(TestBroker::message(QStringLiteral("m%1").arg(i)));
    QVERIFY(m_served->broker().sendBatch(QStringLiteral("orders"), batch).ok());
    auto observer = std::make_shared<CountReceives>();
    m_served->broker().setOperationObserver(observer);
    openWindow();
    RemoteNamespaceView* view = connectThroughDialog(*m_window, m_served->connectionText(),
                                                     m_served->caFile(), QStringLiteral("Served"));
    QVERIFY(view);
    QVERIFY(selectInRemote(*m_window, view, QStringLiteral("localhost:orders")));
    const PurgeQuestion asked = purgeAndAgree(view);
    QVERIFY2(asked.text.contains(QLocale().toString(1202)), qPrintable(asked.text));
    QTRY_COMPARE_WITH_TIMEOUT(m_served->broker().counts(QStringLiteral("orders"))->active,
                              qint64(0), 30000);
    QVERIFY(observer->peeks.load() > 0); // the observer hears the served broker's calls
    QCOMPARE(observer->receives.load(), 0);
}

// Naming the entities to browse saves them and opens the namespace again with the key the
// keychain keeps: it is neither asked for nor lost.
void TestRemoteWindow::namingEntitiesReopensWithTheKeptKey() {
    openWindow();
    RemoteNamespaceView* view = connectThroughDialog(*m_window, m_served->connectionText(),
                                                     m_served->caFile(), QStringLiteral("Served"));
    QVERIFY(view);
    view->findChild<QAction*>(QStringLiteral("nameEntities"))->trigger();
    QDialog* names = nullptr;
    QTRY_VERIFY((names = openDialog(QStringLiteral("namedEntitiesDialog"))));
    names->findChild<QPlainTextEdit*>(QStringLiteral("namedEntitiesText"))
        ->setPlainText(QStringLiteral("orders"));
    names->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    QVERIFY(!view->isConnected()); // opened again, on the names
    QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);
    QVERIFY(!openDialog(QStringLiteral("keyPrompt")));
    QCOMPARE(m_window->remotes()->saved()->find(view->saved().id)->namedEntities,
             QStringLiteral("orders"));
    // This key lists the namespace: the names wait for a key that cannot.
    QTRY_VERIFY(
        findPath(view->tree()->view()->model(), QStringLiteral("localhost:events")).isValid());
}

QTEST_MAIN(TestRemoteWindow)
#include "tst_ui_remote_window.moc"
