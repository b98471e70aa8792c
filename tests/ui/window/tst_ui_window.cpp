// The real main window, driven by objectName as a user would: pick a queue in the tree, see its
// messages with their countdowns, pick a message and read it, watch a countdown move with the
// virtual clock, and see an engine error inline in the message bar instead of a crash.

#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "messages/MessageListModel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QHash>
#include <QPlainTextEdit>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
// Finds the tree row whose PathRole is `path`, anywhere in the (proxied) tree.
QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}
} // namespace

class TestUiWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Keep the user's settings (window layout, recent databases) out of the test.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void window_showsMessagesAndCountdownFollowsClock() {
        QTemporaryDir dir;
        auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
        BrokerOptions options;
        options.databasePath = dir.filePath(QStringLiteral("window.db"));
        options.clock = clock;
        auto broker = std::move(Broker::open(options)).value();
        QVERIFY(broker->createNamespace({QStringLiteral("test"), Tier::Standard}));
        QVERIFY(broker->createQueue(QStringLiteral("jobs"), {}));
        OutgoingMessage message;
        message.messageId = QStringLiteral("job-1");
        message.subject = QStringLiteral("render");
        message.timeToLive = minutes(10);
        message.contentType = QStringLiteral("application/json");
        message.body = R"({"job":1})";
        QVERIFY(broker->send(QStringLiteral("jobs"), message));

        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QVERIFY(tree);
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:jobs")).isValid());
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:jobs")));

        auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
        QVERIFY(list);
        QTRY_VERIFY(list->isVisible());
        QAbstractItemModel* rows = list->model();
        QTRY_COMPARE(rows->rowCount(), 1);
        const QModelIndex id = rows->index(0, MessageListModel::MessageIdColumn);
        QTRY_COMPARE(rows->data(id).toString(), QStringLiteral("job-1"));
        const QModelIndex ttl = rows->index(0, MessageListModel::TimeToLiveColumn);
        QTRY_COMPARE(rows->data(ttl).toString(), QStringLiteral("10m 00s"));

        // Picking the row shows the whole message below the list, body pretty-printed.
        list->setCurrentIndex(rows->index(0, MessageListModel::MessageIdColumn));
        auto* body = window.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"));
        QVERIFY(body);
        QTRY_VERIFY(body->toPlainText().contains(QStringLiteral("\"job\": 1")));

        clock->advance(minutes(1) + seconds(30));
        QTRY_COMPARE(rows->data(ttl).toString(), QStringLiteral("8m 30s"));

        // Past its expiry the message is dropped (no dead-lettering on this queue): the list
        // empties once the engine's timer has fired.
        clock->advance(minutes(9));
        QTRY_COMPARE(rows->rowCount(), 0);
    }

    void window_corruptDatabaseShowsInlineError() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("corrupt.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();

        MainWindow window;
        window.show();
        QSignalSpy failed(&window, &MainWindow::databaseFailed);
        window.openDatabase(path);
        QTRY_COMPARE(failed.count(), 1);
        auto* bar = window.findChild<MessageBar*>(QStringLiteral("messageBar"));
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->text().contains(QStringLiteral("GeneralError")));
        QVERIFY(bar->text().contains(QStringLiteral("not an Hourglass database")));
        QCOMPARE(window.client(), nullptr);
        // The file is left as it was.
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray(4096, 'x'));
    }

    void window_openingADatabaseHeldElsewhereKeepsTheCurrentOne() {
        QTemporaryDir dir;
        const QString current = dir.filePath(QStringLiteral("current.db"));
        const QString held = dir.filePath(QStringLiteral("held.db"));
        {
            auto seeded = Broker::open(BrokerOptions{current, Durability::PowerSafe, {}, {}});
            QVERIFY(seeded);
            QVERIFY((*seeded)->createNamespace({QStringLiteral("test"), Tier::Standard}));
            QVERIFY((*seeded)->createQueue(QStringLiteral("jobs"), {}));
        }
        // Another program (here: this test, as serve would) has the second database open.
        BrokerOptions holderOptions;
        holderOptions.databasePath = held;
        holderOptions.owner = QStringLiteral("hourglass serve");
        auto holder = Broker::open(holderOptions);
        QVERIFY(holder);
        (*holder)->describeOwner(QStringLiteral("AMQP on 127.0.0.1:5999"));

        MainWindow window;
        window.show();
        QSignalSpy opened(&window, &MainWindow::databaseOpened);
        QSignalSpy failed(&window, &MainWindow::databaseFailed);
        window.openDatabase(current);
        QTRY_COMPARE(opened.count(), 1);
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:jobs")).isValid());

        // File > Open (or Open recent) of the held database: refused, named, nothing closes.
        window.openDatabase(held);
        QTRY_COMPARE(failed.count(), 1);
        auto* bar = window.findChild<MessageBar*>(QStringLiteral("messageBar"));
        QVERIFY(bar->showsError());
        QVERIFY2(bar->text().contains(QStringLiteral("DatabaseInUse")), qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(QStringLiteral("is open in hourglass serve (pid %1, AMQP on "
                                                     "127.0.0.1:5999)")
                                          .arg(QCoreApplication::applicationPid())),
                 qPrintable(bar->text()));
        QVERIFY(window.client());
        QCOMPARE(window.client()->databasePath(), current);
        tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QVERIFY(findPath(tree->model(), QStringLiteral("test:jobs")).isValid());

        // Its own database again: it stays open, no error of its own lock.
        window.openDatabase(current);
        QCoreApplication::processEvents();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(window.client()->databasePath(), current);

        // Once the other program lets go, the window opens it.
        holder->reset();
        window.openDatabase(held);
        QTRY_COMPARE(opened.count(), 2);
        QCOMPARE(window.client()->databasePath(), held);
    }

    void window_anErrorBannerGoesWithTheNextSuccessOfItsActionOrANewSelection() {
        QTemporaryDir dir;
        auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
        auto broker = testing::openUiTestBroker(dir, clock);
        QVERIFY(broker->createQueue(QStringLiteral("jobs"), {}));
        QVERIFY(broker->createQueue(QStringLiteral("other"), {}));
        QVERIFY(broker->send(QStringLiteral("jobs"),
                             testing::TestBroker::message(QStringLiteral("job-1"))));
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1280, 800);
        window.show();
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("test:jobs")).isValid());
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:jobs")));
        window.findChild<QTabWidget*>(QStringLiteral("entityTabs"))
            ->setCurrentIndex(EntityWorkspace::ReceiveTab);
        auto* bar = window.findChild<MessageBar*>(QStringLiteral("messageBar"));

        // Receiving a deferred message that does not exist fails: the banner says so.
        window.findChild<QSpinBox*>(QStringLiteral("deferredSeq"))->setValue(999);
        window.findChild<QAction*>(QStringLiteral("receiveDeferred"))->trigger();
        QTRY_VERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(QStringLiteral("MessageNotFound")), qPrintable(bar->text()));

        // A success of another kind (the tree's) leaves it readable ...
        window.messageBar()->sourceSucceeded(QStringLiteral("tree"));
        QVERIFY(bar->isVisible());
        // ... the next receive that works takes it down.
        window.findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
        auto* locks = window.findChild<QTableView*>(QStringLiteral("lockList"));
        QTRY_COMPARE(locks->model()->rowCount(), 1);
        QTRY_VERIFY(!bar->isVisible());

        // Fails again; picking another entity in the tree takes it down too.
        window.findChild<QAction*>(QStringLiteral("receiveDeferred"))->trigger();
        QTRY_VERIFY(bar->isVisible());
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:other")));
        QTRY_VERIFY(!bar->isVisible());
    }

    void window_theTreesOwnFirstSelectionLeavesAnErrorReadable() {
        // An error raised while a database opens (the sample namespace, say) is not taken down
        // by the tree selecting its first queue on its own: the user has not moved on yet.
        QTemporaryDir dir;
        auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
        auto broker = testing::openUiTestBroker(dir, clock);
        QVERIFY(broker->createQueue(QStringLiteral("jobs"), {}));
        MainWindow window;
        window.show();
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.messageBar()->showError(makeError(ErrorCode::GeneralError, QStringLiteral("boom")),
                                       QStringLiteral("The sample namespace"));
        QTRY_COMPARE(window.selectedPath(), QStringLiteral("test:jobs"));
        QVERIFY(window.messageBar()->isVisible());
    }

    void window_opensDatabaseOffTheGuiThread() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fresh.db"));
        MainWindow window;
        window.show();
        QSignalSpy opened(&window, &MainWindow::databaseOpened);
        window.openDatabase(path);
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(window.client());
        QCOMPARE(window.client()->databasePath(), path);
        // The change feed arrives on the GUI thread: a namespace created through the client
        // shows up in the tree.
        window.client()->call(
            &window,
            [](Broker& broker) { return broker.createNamespace({QStringLiteral("fresh")}); },
            [](const Result<void>&) {});
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QVERIFY(tree);
        QTRY_VERIFY(findPath(tree->model(), QStringLiteral("fresh")).isValid());
    }

    void window_shortcutsListNamesTheKeysOfMenusAndPanels() {
        QTemporaryDir dir;
        auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(testing::openUiTestBroker(dir, clock)));
        window.show();
        QDialog* dialog = window.openShortcutsDialog();
        QVERIFY(dialog);
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
        QVERIFY(table);
        QHash<QString, QString> keys; // action -> keys
        for (int row = 0; row < table->rowCount(); ++row)
            keys.insert(table->item(row, 1)->text(), table->item(row, 2)->text());
        // One from each kind of place: a menu, the tree's entity commands, a panel.
        QCOMPARE(keys.value(QStringLiteral("Send message")),
                 QKeySequence(Qt::CTRL | Qt::Key_M).toString(QKeySequence::NativeText));
        QVERIFY2(keys.contains(QStringLiteral("Complete")), qPrintable(keys.keys().join(u',')));
        QCOMPARE(keys.value(QStringLiteral("Complete")),
                 QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText));
        // Every listed shortcut is one a key press can reach: none is listed twice in one place.
        QSet<QString> seen;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString where = table->item(row, 0)->text() + table->item(row, 2)->text();
            QVERIFY2(!seen.contains(where), qPrintable(where));
            seen.insert(where);
        }
    }

    void window_darkThemeAppliesAndIsRemembered() {
        MainWindow window;
        window.show();
        auto* dark = window.findChild<QAction*>(QStringLiteral("theme-dark"));
        auto* light = window.findChild<QAction*>(QStringLiteral("theme-light"));
        QVERIFY(dark && light);
        dark->trigger();
        QVERIFY(paletteIsDark());
        QCOMPARE(savedTheme(), ThemeChoice::Dark);
        light->trigger();
        QVERIFY(!paletteIsDark());
        QCOMPARE(savedTheme(), ThemeChoice::Light);
        applyTheme(ThemeChoice::System);
        saveTheme(ThemeChoice::System);
    }
};

QTEST_MAIN(TestUiWindow)
#include "tst_ui_window.moc"
