// The Message menu's Move to… and Copy to… in the real window: they act on the messages selected
// in the current tab, through the entity picker, and report in the status bar.
#include "ColumnsTestEnv.h"
#include "tree/EntityPanel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::MainWindow;
using hourglass::ui::NamespaceTreeModel;

namespace {
QModelIndex findPath(const QAbstractItemModel* model, const QString& path) {
    const QModelIndexList found = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                               path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? QModelIndex() : found.first();
}

QAction* messageMenuCommand(MainWindow& window, const QString& name) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("Message"))
            for (QAction* action : menu->menu()->actions())
                if (action->objectName() == name)
                    return action;
    return nullptr;
}
} // namespace

class TestUiTransferMenu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void messageMenuMovesTheCurrentTabsSelection() {
        TransferEnv env;
        env.sendTo(kQueue, 2);
        MainWindow window;
        window.resize(1280, 800);
        std::unique_ptr<ui::BrokerClient> client = std::move(env.client);
        ui::BrokerClient* shared = client.get();
        window.setClient(std::move(client));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:orders")).isValid());
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:orders")));
        auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
        QTRY_COMPARE(list->model()->rowCount(), 2);
        QTRY_VERIFY(list->model()->index(1, 0).data(Qt::UserRole).isValid()); // loaded

        QAction* move = messageMenuCommand(window, QStringLiteral("menu-moveMessagesAction"));
        QVERIFY(move);
        list->selectAll();
        move->trigger();
        QVERIFY(pickEntity(window, kTarget));
        const auto counts = [shared](const QString& path) {
            return hourglass::testing::callAndWait(*shared,
                                                   [path](Broker& b) { return b.counts(path); })
                ->active;
        };
        QTRY_COMPARE(counts(kTarget), 2);
        QCOMPARE(counts(kQueue), 0);
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Moved 2")));

        // Receive & settle copies what is in hand; Move to… there says so rather than asking
        // for a selection the user has already made.
        window.findChild<QTabWidget*>(QStringLiteral("entityTabs"))
            ->setCurrentIndex(ui::EntityWorkspace::ReceiveTab);
        move->trigger();
        QVERIFY2(window.messageBar()->text().contains(QStringLiteral("This tab copies")),
                 qPrintable(window.messageBar()->text()));
    }

    // The menu finds the current tab's command by its id (the panel registered it), not by the
    // action's object name: a panel whose action is named otherwise still gets the command.
    void messageMenuFindsTheCommandByIdNotByName() {
        TransferEnv env;
        env.sendTo(kQueue, 1);
        MainWindow window;
        window.resize(1280, 800);
        ui::BrokerClient* shared = env.client.get();
        window.setClient(std::move(env.client));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:orders")).isValid());
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:orders")));
        auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
        QTRY_COMPARE(list->model()->rowCount(), 1);
        QTRY_VERIFY(list->model()->index(0, 0).data(Qt::UserRole).isValid()); // loaded

        QWidget* panel = window.workspace()->currentPanel();
        QVERIFY(panel);
        for (QAction* action : panel->actions())
            if (action->objectName() == QStringLiteral("copyMessagesAction"))
                action->setObjectName(QStringLiteral("renamedCopy"));
        list->selectAll();
        messageMenuCommand(window, QStringLiteral("menu-copyMessagesAction"))->trigger();
        QVERIFY2(pickEntity(window, kTarget), qPrintable(window.messageBar()->text()));
        const auto counts = [shared](const QString& path) {
            return hourglass::testing::callAndWait(*shared,
                                                   [path](Broker& b) { return b.counts(path); })
                ->active;
        };
        QTRY_COMPARE(counts(kTarget), 1);
        QCOMPARE(counts(kQueue), 1); // copied
    }
};

QTEST_MAIN(TestUiTransferMenu)
#include "tst_ui_transfer_menu.moc"
