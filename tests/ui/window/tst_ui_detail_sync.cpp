// The message detail below the tabs shows the row that is selected in the visible tab, or its
// calm empty state. Before, completing a message in Receive & settle left
// "Message 6 is not in sample:orders (any more)" with a raw MessageNotFound under another
// selected row, and a hidden tab's list could put an unrelated message there.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "messages/MessageDetailPanel.h"
#include "messages/MessageListModel.h"
#include "settle/LockPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QLabel>
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
using hourglass::testing::callAndWait;

namespace {

const QString kQueue = QStringLiteral("test:orders");

QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

struct Env {
    Env() {
        auto broker = testing::openUiTestBroker(dir, clock);
        if (!broker->createQueue(kQueue, {}))
            qFatal("createQueue failed");
        for (int n = 1; n <= 4; ++n)
            if (!broker->send(kQueue,
                              testing::TestBroker::message(QStringLiteral("order-%1").arg(n))))
                qFatal("send failed");
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1280, 800);
        window.show();
    }
    bool selectQueue() {
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        if (!QTest::qWaitFor([&] { return findPath(tree->model(), kQueue).isValid(); }))
            return false;
        tree->setCurrentIndex(findPath(tree->model(), kQueue));
        return true;
    }
    QTabWidget* tabs() { return window.findChild<QTabWidget*>(QStringLiteral("entityTabs")); }
    QTableView* table(const char* name) {
        return window.findChild<QTableView*>(QLatin1String(name));
    }
    QAction* action(const char* name) { return window.findChild<QAction*>(QLatin1String(name)); }
    // The MessageId row of the detail's system properties; empty when the detail shows none.
    QString detailMessageId() {
        auto* pages = window.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
        if (!pages || !pages->isVisible())
            return {};
        for (int row = 0; row < pages->rowCount(); ++row)
            if (pages->item(row, 0) && pages->item(row, 0)->text() == QStringLiteral("MessageId"))
                return pages->item(row, 1)->text();
        return {};
    }
    QLabel* detailEmpty() { return window.findChild<QLabel*>(QStringLiteral("detailEmpty")); }
    // Clicks the row of `view` whose MessageId is `id`, as a user would, once it shows.
    bool clickRow(QTableView* view, const QString& id) {
        QModelIndex cell;
        const auto find = [&] {
            QAbstractItemModel* model = view->model();
            for (int row = 0; row < model->rowCount(); ++row)
                if (model->index(row, MessageListModel::MessageIdColumn).data().toString() == id) {
                    cell = model->index(row, MessageListModel::MessageIdColumn);
                    return true;
                }
            return false;
        };
        if (!QTest::qWaitFor(find))
            return false;
        view->scrollTo(cell);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
        return true;
    }

    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    MainWindow window;
};

} // namespace

class TestUiDetailSync : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void completingALockLeavesTheDetailOnTheSelectionNotOnAnError() {
        Env env;
        QVERIFY(env.selectQueue());
        env.tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        env.window.findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(4);
        env.action("lockReceive")->trigger();
        QTableView* locks = env.table("lockList");
        QTRY_COMPARE(locks->model()->rowCount(), 4);

        QVERIFY(env.clickRow(locks, QStringLiteral("order-2")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-2"));

        env.action("lockComplete")->trigger();
        QTRY_COMPARE(locks->model()->rowCount(), 3);
        // Nothing is selected any more: the calm empty state, never the completed message's
        // MessageNotFound, and never a message the user did not pick.
        QTRY_VERIFY(env.detailEmpty()->isVisible());
        QTRY_COMPARE(env.detailEmpty()->text(), QStringLiteral("Select a message"));
        QVERIFY(env.detailMessageId().isEmpty());

        // Picking another row shows it.
        QVERIFY(env.clickRow(locks, QStringLiteral("order-4")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-4"));
    }

    void aHiddenTabNeverReplacesTheDetail() {
        Env env;
        QVERIFY(env.selectQueue());
        QTableView* list = env.table("messageList");
        QTRY_COMPARE(list->model()->rowCount(), 4);
        QTRY_VERIFY(list->model()
                        ->index(0, MessageListModel::MessageIdColumn)
                        .data()
                        .toString()
                        .startsWith(QStringLiteral("order-")));
        QVERIFY(env.clickRow(list, QStringLiteral("order-1")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-1"));

        env.tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        // The Receive & settle tab has nothing selected: its empty state.
        QTRY_COMPARE(env.detailEmpty()->text(), QStringLiteral("Select a message"));
        env.action("lockReceive")->trigger();
        QTableView* locks = env.table("lockList");
        QTRY_COMPARE(locks->model()->rowCount(), 1);
        QVERIFY(env.clickRow(locks, QStringLiteral("order-1")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-1"));

        // The Messages list (hidden) refreshes its rows as messages arrive and go: the detail
        // stays on the Receive tab's selection.
        const auto sent = callAndWait(*env.window.client(), [](Broker& b) {
            return b.send(kQueue, testing::TestBroker::message(QStringLiteral("order-5")));
        });
        QVERIFY(sent.ok());
        QTRY_COMPARE(list->model()->rowCount(), 5);
        QCoreApplication::processEvents();
        QCOMPARE(env.detailMessageId(), QStringLiteral("order-1"));

        // Back on Messages, the detail shows that tab's selection again.
        env.tabs()->setCurrentIndex(EntityWorkspace::MessagesTab);
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-1"));
        QVERIFY(env.clickRow(list, QStringLiteral("order-3")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-3"));
        env.tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-1"));
    }

    void theChartsTabGivesTheDetailsRoomToTheCharts() {
        Env env;
        QVERIFY(env.selectQueue());
        auto* detail = env.window.findChild<QWidget*>(QStringLiteral("messageDetail"));
        QTRY_VERIFY(detail->isVisible());
        env.tabs()->setCurrentIndex(EntityWorkspace::ChartsTab);
        QVERIFY(!detail->isVisible());
        env.tabs()->setCurrentIndex(EntityWorkspace::MessagesTab);
        QVERIFY(detail->isVisible());
    }

    void theWindowedListsRowChangingUnderTheSelectionIsFollowed() {
        // When an earlier message goes, the selection stays on its message (now one row up,
        // SelectionKeeper), and the detail shows what the selected row shows.
        Env env;
        QVERIFY(env.selectQueue());
        QTableView* list = env.table("messageList");
        QTRY_COMPARE(list->model()->rowCount(), 4);
        QVERIFY(env.clickRow(list, QStringLiteral("order-2")));
        QTRY_COMPARE(env.detailMessageId(), QStringLiteral("order-2"));
        const int row = list->currentIndex().row();

        const auto taken = callAndWait(*env.window.client(), [](Broker& b) {
            return b.receive(kQueue, ReceiveOptions{ReceiveMode::ReceiveAndDelete, 1, {}});
        });
        QVERIFY(taken.ok() && taken->size() == 1);
        QTRY_COMPARE(list->model()->rowCount(), 3);
        QTRY_COMPARE(list->currentIndex().row(), row - 1);
        QVERIFY(list->selectionModel()->isRowSelected(row - 1, {}));
        const QString shownInRow =
            list->model()->index(row - 1, MessageListModel::MessageIdColumn).data().toString();
        QCOMPARE(shownInRow, QStringLiteral("order-2"));
        QTRY_COMPARE(env.detailMessageId(), shownInRow);
    }
};

QTEST_MAIN(TestUiDetailSync)
#include "tst_ui_detail_sync.moc"
