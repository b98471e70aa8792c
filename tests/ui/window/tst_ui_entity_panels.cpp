// The workspace's tabs are panels of one declared kind (tree/EntityPanel.h): each tab's panel
// is reached by its tab, gets the tree's selection through the interface (the Sessions tab only
// for a queue or a subscription), and the window hears every one of them: an error in the
// message bar, a success in the status bar. Only the Messages tab's panel is built with the
// workspace; the others follow a turn of the event loop each, get the selection made before them
// and report like the rest. The Charts tab's chart views are made when it is first shown, and
// draw the history gathered from the selection on.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "deadletter/DeadLetterPanel.h"
#include "demo/CountsHistory.h"
#include "demo/EntityChartsPanel.h"
#include "messages/MessageListPanel.h"
#include "messages/PeekPanel.h"
#include "sessions/SessionsPanel.h"
#include "settle/LockPanel.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

const QList<EntityWorkspace::Tab> kTabs{
    EntityWorkspace::MessagesTab,    EntityWorkspace::PeekTab,   EntityWorkspace::ReceiveTab,
    EntityWorkspace::DeadLettersTab, EntityWorkspace::ChartsTab, EntityWorkspace::SessionsTab};

// The window on a database with one queue, "test:orders", selected in the tree.
struct WindowEnv {
    WindowEnv() {
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        if (!broker->createQueue(QStringLiteral("test:orders"), {}))
            qFatal("createQueue failed");
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1280, 800);
        window.show();
    }
    bool select(const QString& path) {
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        if (!QTest::qWaitFor([&] { return findPath(tree->model(), path).isValid(); }))
            return false;
        tree->setCurrentIndex(findPath(tree->model(), path));
        return window.selectedPath() == path;
    }
    QTemporaryDir dir;
    MainWindow window;
};
} // namespace

class TestUiEntityPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void eachTabIsAPanelThatTheWindowHears() {
        WindowEnv env;
        QVERIFY(env.select(QStringLiteral("test:orders")));
        EntityWorkspace* workspace = env.window.workspace();
        for (EntityWorkspace::Tab tab : kTabs) {
            EntityPanel* panel = workspace->panel(tab);
            QVERIFY2(panel, qPrintable(QString::number(tab)));
            QWidget* page = workspace->tabs()->widget(tab);
            QVERIFY(page == panel || page->isAncestorOf(panel));
            if (workspace->tabs()->isTabEnabled(tab)) {
                workspace->showTab(tab);
                QCOMPARE(workspace->currentPanel(), panel);
            }

            const QString what = QStringLiteral("panel %1").arg(tab);
            emit panel->errorOccurred(Error::make(ErrorCode::GeneralError, what + " failed"));
            QVERIFY2(env.window.messageBar()->text().contains(what + " failed"),
                     qPrintable(env.window.messageBar()->text()));
            emit panel->statusMessage(what + " went through");
            QCOMPARE(env.window.statusBar()->currentMessage(), what + " went through");
        }
    }

    void hiddenTabsGetTheirPanelsAfterTheWorkspace() {
        WindowEnv env; // no turn of the event loop yet
        EntityWorkspace* workspace = env.window.workspace();
        QVERIFY(env.window.findChild<MessageListPanel*>());
        QVERIFY(!env.window.findChild<PeekPanel*>());
        QVERIFY(!env.window.findChild<LockPanel*>());
        QVERIFY(!env.window.findChild<DeadLetterPanel*>());
        QVERIFY(!env.window.findChild<EntityChartsPanel*>());
        // A selection before they are built reaches them when they are (Peek's, as always,
        // when its tab is shown); the Sessions tab's panel is built for it at once, since it
        // decides whether its tab is there.
        workspace->setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
        QVERIFY(env.window.findChild<SessionsPanel*>());
        QCOMPARE(env.window.findChild<SessionsPanel*>()->path(), QStringLiteral("test:orders"));
        QVERIFY(!env.window.findChild<LockPanel*>());

        QTRY_VERIFY(env.window.findChild<PeekPanel*>() && env.window.findChild<LockPanel*>() &&
                    env.window.findChild<DeadLetterPanel*>() &&
                    env.window.findChild<EntityChartsPanel*>());
        auto* locks = env.window.findChild<LockPanel*>();
        QCOMPARE(locks->path(), QStringLiteral("test:orders"));
        QVERIFY(workspace->tabs()->widget(EntityWorkspace::ReceiveTab)->isAncestorOf(locks));
        QCOMPARE(env.window.findChild<PeekPanel*>()->path(), QString());
        workspace->showTab(EntityWorkspace::PeekTab);
        QCOMPARE(env.window.findChild<PeekPanel*>()->path(), QStringLiteral("test:orders"));
        // The window heard of them as they came.
        emit env.window.findChild<DeadLetterPanel*>()->errorOccurred(
            Error::make(ErrorCode::GeneralError, QStringLiteral("a late panel failed")));
        QVERIFY2(env.window.messageBar()->text().contains(QStringLiteral("a late panel failed")),
                 qPrintable(env.window.messageBar()->text()));
    }

    void aTabShownBeforeItsPanelWasBuiltBuildsIt() {
        WindowEnv env;
        EntityWorkspace* workspace = env.window.workspace();
        workspace->setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
        QVERIFY(!env.window.findChild<LockPanel*>());
        workspace->tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        auto* locks = env.window.findChild<LockPanel*>();
        QVERIFY(locks);
        QCOMPARE(workspace->currentPanel(), locks);
        QCOMPARE(locks->path(), QStringLiteral("test:orders"));
    }

    void panelsGetTheSelectionThroughTheInterface() {
        WindowEnv env;
        QVERIFY(env.select(QStringLiteral("test:orders")));
        EntityWorkspace* workspace = env.window.workspace();
        // The Sessions tab's panel decides itself: a queue's path, and nothing for its
        // dead-letter queue.
        workspace->panel(EntityWorkspace::SessionsTab)
            ->setEntity(QStringLiteral("test:orders/$deadletterqueue"),
                        NamespaceTreeModel::NodeKind::DeadLetterQueue);
        QCOMPARE(workspace->sessions()->path(), QString());
        workspace->panel(EntityWorkspace::SessionsTab)
            ->setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
        QCOMPARE(workspace->sessions()->path(), QStringLiteral("test:orders"));
        // The Messages tab's panel: the path to list.
        workspace->panel(EntityWorkspace::MessagesTab)
            ->setEntity(QStringLiteral("test:orders"), NamespaceTreeModel::NodeKind::Queue);
        QCOMPARE(workspace->messages()->path(), QStringLiteral("test:orders"));
    }

    void chartViewsWaitForTheChartsTab() {
        WindowEnv env;
        QVERIFY(env.select(QStringLiteral("test:orders")));
        EntityWorkspace* workspace = env.window.workspace();
        QCOMPARE(workspace->tabs()->currentIndex(), int(EntityWorkspace::MessagesTab));
        // The history is kept from the selection on; nothing draws it yet.
        QTRY_COMPARE(workspace->charts()->history()->samples().size(), 1);
        QVERIFY(env.window.findChildren<QChartView*>().isEmpty());

        workspace->showTab(EntityWorkspace::ChartsTab);
        auto* counts = workspace->charts()->findChild<QChartView*>(QStringLiteral("countsChart"));
        QVERIFY(counts);
        QVERIFY(counts->isVisible());
        QCOMPARE(env.window.findChildren<QChartView*>().size(), 3);
        auto* active = qobject_cast<QLineSeries*>(counts->chart()->series().value(0));
        QVERIFY(active);
        QCOMPARE(active->count(), 1);
    }
};

QTEST_MAIN(TestUiEntityPanels)
#include "tst_ui_entity_panels.moc"
