// The window's room and its ways in, driven by objectName: File > Import, a new entity selected
// in the tree, the last selection restored when a database opens again, status messages never
// cut off under the database label, an empty database saying how to start, and the message
// detail keeping its room at 1024x700 with the Connections dock open.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "entities/EntityActions.h"
#include "entities/EntityDialog.h"
#include "tree/NamespaceTreeModel.h"
#include "window/ElidingStatusBar.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

QString currentPath(MainWindow& window) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    return tree ? tree->currentIndex().data(NamespaceTreeModel::PathRole).toString() : QString();
}

std::unique_ptr<BrokerClient> clientOn(const QTemporaryDir& dir,
                                       const QString& namespaceName = QStringLiteral("test")) {
    return std::make_unique<BrokerClient>(
        testing::openUiTestBroker(dir, std::make_shared<VirtualClock>(), namespaceName));
}

// Closes the next modal dialog (the static file dialogs block until then).
void rejectNextModal() {
    QTimer::singleShot(50, [] {
        if (auto* modal = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
            modal->reject();
        else
            rejectNextModal();
    });
}
} // namespace

class TestUiWindowLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests-layout"));
        // No endpoint bound by these windows.
        AmqpSettings settings;
        settings.enabled = false;
        settings.port = 0;
        settings.save();
    }
    void init() { QSettings().remove(QStringLiteral("window")); }

    void fileMenuImportsAConfig() {
        QTemporaryDir dir;
        MainWindow window;
        auto* import = window.findChild<QAction*>(QStringLiteral("fileImportAction"));
        QVERIFY(import);
        QVERIFY(!import->isEnabled()); // no database: nothing to import into
        window.setClient(clientOn(dir));
        QVERIFY(import->isEnabled());
        QMenu* file = window.menuBar()->actions().first()->menu();
        QVERIFY(file->actions().contains(import));
        // It is the Entity menu's import: the same file dialog, the same question after it.
        QSignalSpy asked(window.entityActions()->importAction(), &QAction::triggered);
        rejectNextModal();
        import->trigger();
        QCOMPARE(asked.count(), 1);
    }

    void newEntityIsSelectedInTheTree() {
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        QVERIFY(broker->createQueue(QStringLiteral("alpha"), {}));
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:alpha")).isValid());
        // A filter that would hide the new queue is cleared for it.
        window.findChild<QLineEdit*>(QStringLiteral("treeFilter"))->setText(QStringLiteral("alp"));
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test")));
        QCOMPARE(window.selectedPath(), QStringLiteral("test"));
        window.entityActions()->newQueueAction()->trigger();
        QPointer<EntityDialog> dialog =
            window.findChild<EntityDialog*>(QStringLiteral("entityDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isLoaded());
        dialog->findChild<QLineEdit*>(QStringLiteral("entityName"))
            ->setText(QStringLiteral("fresh"));
        auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("entityDialogOk"));
        QTRY_VERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_COMPARE(currentPath(window), QStringLiteral("test:fresh"));
        QCOMPARE(window.selectedPath(), QStringLiteral("test:fresh"));
        QVERIFY(window.findChild<QLineEdit*>(QStringLiteral("treeFilter"))->text().isEmpty());
    }

    void lastSelectionIsRestoredPerDatabase() {
        QTemporaryDir dir;
        {
            auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
            QVERIFY(broker->createQueue(QStringLiteral("alpha"), {}));
            QVERIFY(broker->createQueue(QStringLiteral("omega"), {}));
            MainWindow window;
            window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
            auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
            // The tree's own first choice, then the user's.
            QTRY_COMPARE(currentPath(window), QStringLiteral("test:alpha"));
            tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:omega")));
            QCOMPARE(window.selectedPath(), QStringLiteral("test:omega"));
        }
        // Another database leaves this one's choice alone.
        QTemporaryDir other;
        {
            MainWindow window;
            window.setClient(clientOn(other, QString()));
        }
        MainWindow window;
        window.setClient(clientOn(dir, QString()));
        QTRY_COMPARE(currentPath(window), QStringLiteral("test:omega"));
        QCOMPARE(window.selectedPath(), QStringLiteral("test:omega"));
    }

    void longTreeNamesAreElidedInTheMiddle() {
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        const QString name = QStringLiteral("orders-processing-pipeline-with-retries-eu-west");
        QVERIFY(broker->createQueue(name, {}));
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1000, 650);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QModelIndex row;
        QTRY_VERIFY((row = findPath(tree->model(), QStringLiteral("test:") + name)).isValid());
        // Too long for its column at this size: both ends stay, the middle gives way.
        const int textWidth = tree->fontMetrics().horizontalAdvance(name);
        QVERIFY(tree->columnWidth(NamespaceTreeModel::NameColumn) < textWidth);
        QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
        QVERIFY(row.data(Qt::ToolTipRole).toString().contains(name));
    }

    void statusMessagesAreElidedNotCutOff() {
        QTemporaryDir dir;
        const QString deep = QStringLiteral("a-directory-with-a-rather-long-name-for-databases/"
                                            "and-another-one-below-it-for-this-project");
        QVERIFY(QDir(dir.path()).mkpath(deep));
        QTemporaryDir nested(dir.filePath(deep + QStringLiteral("/XXXXXX")));
        MainWindow window;
        window.setClient(clientOn(nested));
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* label = window.findChild<QLabel*>(QStringLiteral("databaseLabel"));
        // The path is elided in its middle, whole in the tooltip.
        QVERIFY(label->width() < label->fontMetrics().horizontalAdvance(label->text()));
        QTRY_COMPARE(label->toolTip(), label->text());

        auto* bar = window.findChild<QStatusBar*>(QStringLiteral("statusBar"));
        QVERIFY(bar);
        QCOMPARE(bar, window.statusBar());
        const QString message =
            QStringLiteral("Moved 25 messages from test:orders-processing-pipeline-eu-west to "
                           "test:orders-processing-pipeline-eu-west-retry; 3 were not moved "
                           "because another receiver holds their locks until they expire");
        bar->showMessage(message);
        QTRY_COMPARE(bar->toolTip(), message);
        const QString shown = static_cast<ElidingStatusBar*>(bar)->shownMessage();
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
        // What is drawn ends before the database label starts.
        QVERIFY(6 + bar->fontMetrics().horizontalAdvance(shown) <= label->x());
        // A short one fits and needs no tooltip.
        bar->showMessage(QStringLiteral("Deleted test:a"));
        QTRY_VERIFY(bar->toolTip().isEmpty());
        QCOMPARE(static_cast<ElidingStatusBar*>(bar)->shownMessage(),
                 QStringLiteral("Deleted test:a"));
    }

    // At 1024x700 with View > Connections open, the dock takes its share and the tabs and the
    // message detail (and its Routing tab) keep room to read in.
    void connectionsDockLeavesTheDetailRoomAt1024x700() {
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        QVERIFY(broker->createQueue(QStringLiteral("orders"), {}));
        QVERIFY(broker->send(QStringLiteral("orders"), OutgoingMessage{}));
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.serveAmqp();
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* toggle = window.findChild<QAction*>(QStringLiteral("connectionsAction"));
        toggle->trigger();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("connectionsDock"));
        QTRY_VERIFY(dock->isVisible());
        auto* detail = window.findChild<QTabWidget*>(QStringLiteral("detailTabs"));
        auto* tabs = window.workspace()->tabs();
        const int line = window.fontMetrics().lineSpacing();
        // A quarter of the height or less for the dock, and it still shows something.
        QTRY_VERIFY2(dock->height() <= 700 / 4,
                     qPrintable(QStringLiteral("dock %1 high").arg(dock->height())));
        QVERIFY(dock->height() >= 4 * line);
        // The detail: its tab bar and six lines at least; the list above it more.
        QVERIFY2(detail->height() >= detail->tabBar()->height() + 6 * line,
                 qPrintable(QStringLiteral("detail %1 high").arg(detail->height())));
        QVERIFY2(tabs->height() >= 10 * line,
                 qPrintable(QStringLiteral("tabs %1 high").arg(tabs->height())));
        QCOMPARE(window.size(), QSize(1024, 700));
    }

    void emptyDatabaseSaysHowToStart() {
        QTemporaryDir dir;
        MainWindow window;
        auto client = clientOn(dir, QString());
        const std::shared_ptr<Broker> broker = client->sharedBroker();
        window.setClient(std::move(client));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QWidget* state = nullptr;
        QTRY_VERIFY((state = window.findChild<QWidget*>(QStringLiteral("emptyDatabaseState"))) &&
                    state->isVisible());
        auto* headline = state->findChild<QLabel*>(QStringLiteral("emptyDatabaseHeadline"));
        QCOMPARE(headline->text(), QStringLiteral("This database is empty"));
        auto* newQueue = state->findChild<QPushButton*>(QStringLiteral("emptyNewQueue"));
        QVERIFY(!newQueue->isEnabled()); // no namespace to put it in
        // Each button does what it says.
        QTest::mouseClick(state->findChild<QPushButton*>(QStringLiteral("emptyNewNamespace")),
                          Qt::LeftButton);
        QPointer<QDialog> dialog = window.findChild<QDialog*>(QStringLiteral("namespaceDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        dialog->reject();
        QSignalSpy asked(window.entityActions()->importAction(), &QAction::triggered);
        rejectNextModal();
        QTest::mouseClick(state->findChild<QPushButton*>(QStringLiteral("emptyImportConfig")),
                          Qt::LeftButton);
        QCOMPARE(asked.count(), 1);

        // A namespace without entities: a queue goes into it.
        QVERIFY(broker->createNamespace({QStringLiteral("shop"), Tier::Standard}));
        QTRY_COMPARE(headline->text(),
                     QStringLiteral("Namespace 'shop' has no queue or topic yet"));
        QVERIFY(state->isVisible());
        QVERIFY(newQueue->isEnabled());
        QTest::mouseClick(newQueue, Qt::LeftButton);
        QPointer<EntityDialog> entity =
            window.findChild<EntityDialog*>(QStringLiteral("entityDialog"));
        QVERIFY(entity);
        QCOMPARE(window.selectedPath(), QStringLiteral("shop"));
        entity->reject();

        // The first entity brings the workspace back.
        QVERIFY(broker->createQueue(QStringLiteral("shop:orders"), {}));
        QTRY_VERIFY(!state->isVisible());
        QVERIFY(window.workspace()->isVisible());
    }
};

QTEST_MAIN(TestUiWindowLayout)
#include "tst_ui_window_layout.moc"
