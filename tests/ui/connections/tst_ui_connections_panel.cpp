// The Connections view when there is nothing to list: it says why in a sentence (no
// application yet, with the connection string to copy; the endpoint off; its port busy; no
// database) and offers the settings where they help. And the window keeps the size it was given
// with the Connections dock open, whatever the workspace's tabs would like: at 900x600 too,
// where Receive & settle still shows three held locks.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "connections/ConnectionsPanel.h"
#include "settle/HeldLocks.h"
#include "settle/HeldSessions.h"
#include "settle/LockPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

std::unique_ptr<BrokerClient> clientOn(const QTemporaryDir& dir) {
    auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
    if (!broker->createQueue(QStringLiteral("orders"), {}))
        qFatal("createQueue failed");
    return std::make_unique<BrokerClient>(std::move(broker));
}

AmqpSettings anyFreePort() {
    AmqpSettings settings;
    settings.port = 0;
    return settings;
}

struct EmptyState {
    QString headline;
    QString detail;
    QLineEdit* connectionString = nullptr;
    QPushButton* settings = nullptr;
};

EmptyState emptyStateOf(ConnectionsPanel* panel) {
    panel->refresh();
    return {panel->findChild<QLabel*>(QStringLiteral("connectionsEmpty"))->text(),
            panel->findChild<QLabel*>(QStringLiteral("connectionsEmptyDetail"))->text(),
            panel->findChild<QLineEdit*>(QStringLiteral("connectionsEmptyString")),
            panel->findChild<QPushButton*>(QStringLiteral("openAmqpSettings"))};
}

ConnectionsPanel* panelOf(const MainWindow& window) {
    return window.findChild<ConnectionsPanel*>(QStringLiteral("connectionsView"));
}

} // namespace

class UiConnectionsPanelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() {
        QSettings().remove(QStringLiteral("amqp"));
        QSettings().remove(QStringLiteral("window"));
    }

    void servingWithoutConnectionsOffersTheConnectionString() {
        anyFreePort().save();
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        const EmptyState empty = emptyStateOf(panelOf(window));
        QCOMPARE(empty.headline, QStringLiteral("No application is connected."));
        QVERIFY(empty.detail.contains(QStringLiteral("connection string")));
        QVERIFY(!empty.connectionString->isHidden());
        QVERIFY(empty.connectionString->isReadOnly());
        QCOMPARE(empty.connectionString->text(), window.amqp()->endpoint()->connectionString());
        QVERIFY(empty.settings->isHidden());
        // Nothing listed, nothing to close.
        QVERIFY(panelOf(window)
                    ->findChild<QPushButton*>(QStringLiteral("closeConnection"))
                    ->isHidden());
    }

    void offSaysSoAndOffersTheSettings() {
        AmqpSettings settings = anyFreePort();
        settings.enabled = false;
        settings.save();
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        const EmptyState empty = emptyStateOf(panelOf(window));
        QCOMPARE(empty.headline, QStringLiteral("The AMQP endpoint is off."));
        QVERIFY(empty.connectionString->isHidden());
        QVERIFY(!empty.settings->isHidden());
        QVERIFY(!panelOf(window)
                     ->findChild<QPushButton*>(QStringLiteral("copyConnectionString"))
                     ->isEnabled());
        empty.settings->click();
        auto* dialog = window.findChild<QDialog*>(QStringLiteral("amqpSettings"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        dialog->reject();
    }

    void aBusyPortIsSaidWithTheReason() {
        QTemporaryDir other;
        auto holder = testing::openUiTestBroker(other, std::make_shared<VirtualClock>());
        amqp::EndpointOptions options;
        options.port = 0;
        amqp::AmqpEndpoint occupying(*holder, options);
        const auto busy = occupying.start();
        QVERIFY(busy.ok());
        AmqpSettings settings;
        settings.port = *busy;
        settings.save();
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        const EmptyState empty = emptyStateOf(panelOf(window));
        QCOMPARE(empty.headline, QStringLiteral("The AMQP endpoint is not serving."));
        QVERIFY2(empty.detail.contains(QString::number(*busy)), qPrintable(empty.detail));
        QVERIFY(empty.connectionString->isHidden());
        QVERIFY(!empty.settings->isHidden());
    }

    void withoutADatabaseItSaysSo() {
        anyFreePort().save();
        MainWindow window;
        window.serveAmqp();
        const EmptyState empty = emptyStateOf(panelOf(window));
        QCOMPARE(empty.headline, QStringLiteral("No database is open."));
        QVERIFY(empty.connectionString->isHidden());
        QVERIFY(empty.settings->isHidden());
    }

    // A 1280x800 window with View > Connections open stays 1280x800: no panel of the workspace
    // (the charts least of all) asks for more height than the window has to give.
    void theConnectionsDockLeavesTheWindowItsSize_data() {
        QTest::addColumn<QSize>("given");
        QTest::addColumn<int>("tab");
        QTest::newRow("1280x800, messages")
            << QSize(1280, 800) << int(EntityWorkspace::MessagesTab);
        QTest::newRow("1280x800, charts") << QSize(1280, 800) << int(EntityWorkspace::ChartsTab);
        QTest::newRow("900x600, messages") << QSize(900, 600) << int(EntityWorkspace::MessagesTab);
        QTest::newRow("900x600, receive") << QSize(900, 600) << int(EntityWorkspace::ReceiveTab);
        QTest::newRow("900x600, sessions") << QSize(900, 600) << int(EntityWorkspace::SessionsTab);
    }
    void theConnectionsDockLeavesTheWindowItsSize() {
        QFETCH(QSize, given);
        QFETCH(int, tab);
        anyFreePort().save();
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        window.workspace()->tabs()->setCurrentIndex(tab);
        window.resize(given);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* toggle = window.findChild<QAction*>(QStringLiteral("connectionsAction"));
        QVERIFY(!toggle->isChecked());
        toggle->trigger();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("connectionsDock"));
        QTRY_VERIFY(dock->isVisible());
        QCoreApplication::processEvents();
        QVERIFY2(
            window.minimumSizeHint().height() <= given.height(),
            qPrintable(QStringLiteral("minimum height %1").arg(window.minimumSizeHint().height())));
        QCOMPARE(window.size(), given);
        QVERIFY(dock->height() > 0);
    }

    // Receive & settle at 900x600 with the dock open: the window keeps its size, three held
    // locks show whole, and the message detail under them gives way. On an entity that requires
    // sessions, the session rows on top scroll instead of growing the window.
    void receiveAt900x600WithTheDockKeepsTheWindowsSize_data() {
        QTest::addColumn<bool>("sessions");
        QTest::newRow("plain queue: three locks in view") << false;
        QTest::newRow("session queue: the panel scrolls") << true;
    }
    void receiveAt900x600WithTheDockKeepsTheWindowsSize() {
        QFETCH(bool, sessions);
        anyFreePort().save();
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.requiresSession = sessions;
        QVERIFY(broker->createQueue(QStringLiteral("orders"), properties));
        for (int i = 0; i < 3; ++i) {
            OutgoingMessage message;
            message.sessionId = sessions ? QStringLiteral("A") : QString();
            QVERIFY(broker->send(QStringLiteral("orders"), message));
        }
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.serveAmqp();
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QAction*>(QStringLiteral("connectionsAction"))->trigger();
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QModelIndexList found;
        QTRY_VERIFY((found = tree->model()->match(
                         tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                         QStringLiteral("test:orders"), 1, Qt::MatchExactly | Qt::MatchRecursive),
                     !found.isEmpty()));
        tree->setCurrentIndex(found.first());
        window.workspace()->tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        LockPanel* locks = window.workspace()->locks();
        if (sessions) {
            QTRY_VERIFY(locks->requiresSession());
            locks->findChild<QLineEdit*>(QStringLiteral("sessionToAccept"))
                ->setText(QStringLiteral("A"));
            locks->findChild<QAction*>(QStringLiteral("sessionAccept"))->trigger();
            QTRY_COMPARE(locks->sessions()->rowCount(), 1);
        }
        locks->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(3);
        locks->findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
        QTRY_COMPARE(locks->locks()->rowCount(), 3);
        QCoreApplication::processEvents();
        QCOMPARE(window.size(), QSize(900, 600));
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("connectionsDock"))->height() > 0);
        auto* list = locks->findChild<QTableView*>(QStringLiteral("lockList"));
        QTRY_VERIFY(list->isVisible());
        QVERIFY2(list->rowViewportPosition(2) + list->rowHeight(2) <= list->viewport()->height(),
                 qPrintable(QStringLiteral("row 3 ends at %1 in %2")
                                .arg(list->rowViewportPosition(2) + list->rowHeight(2))
                                .arg(list->viewport()->height())));
        auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("lockScroll"));
        QVERIFY(scroll);
        // Without sessions nothing scrolls; with them the session rows make it scroll.
        QCOMPARE(scroll->verticalScrollBar()->maximum() > 0, sessions);
    }
};

QTEST_MAIN(UiConnectionsPanelTest)
#include "tst_ui_connections_panel.moc"
