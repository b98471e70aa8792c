// The message list's selection in the real window, as a user works with it: after a move (Move
// to… or a drag onto the tree) nothing the user did not pick stays selected; when messages before
// the selected rows leave, the selection stays on the messages picked; the status bar counts the
// selected messages; Ctrl+End and Ctrl+Home go to the last and first row without reading the
// rows in between; Purge… of a queue (tree context menu) and of a subscription (the list's
// action) asks with the entity and the count, runs as a bulk job and reports exact counts.
#include "ColumnsTestEnv.h"
#include "common/BulkJob.h"
#include "common/MessagePurge.h"
#include "messages/MessageDragSource.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "tree/NamespaceTreePanel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::MainWindow;
using hourglass::ui::NamespaceTreeModel;

namespace {

// The window over the test environment's broker, on the Messages tab of `path`.
struct Window {
    TransferEnv env;
    ui::BrokerClient* client = nullptr;
    MainWindow window;
    QTreeView* tree = nullptr;
    QTableView* list = nullptr;

    explicit Window(int messages, const QString& path = kQueue) {
        // In batches: the engine limits a batch by its size.
        for (int sent = 0; sent < messages; sent += 500)
            env.sendTo(path == kQueue ? kQueue : QStringLiteral("t"),
                       std::min(500, messages - sent));
        std::unique_ptr<ui::BrokerClient> owned = std::move(env.client);
        client = owned.get();
        window.resize(1280, 800);
        window.setClient(std::move(owned));
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("window not exposed");
        tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    }

    bool open(const QString& path, int rows) {
        const QString qualified = QStringLiteral("test:") + path;
        if (!QTest::qWaitFor([&] { return treeRow(qualified).isValid(); }))
            return false;
        tree->setCurrentIndex(treeRow(qualified));
        return QTest::qWaitFor([&] {
            return list->model()->rowCount() == rows &&
                   list->model()->index(0, 0).data(Qt::UserRole).isValid();
        });
    }

    QModelIndex treeRow(const QString& qualified) const {
        const QModelIndexList found =
            tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                                 qualified, 1, Qt::MatchExactly | Qt::MatchRecursive);
        return found.isEmpty() ? QModelIndex() : found.first();
    }

    qint64 active(const QString& path) {
        return hourglass::testing::callAndWait(*client,
                                               [path](Broker& b) { return b.counts(path); })
            ->active;
    }

    qint64 seqAt(int row) const {
        return list->model()
            ->index(row, ui::MessageListModel::SequenceNumberColumn)
            .data(Qt::UserRole)
            .toLongLong();
    }

    QList<int> selectedRows() const {
        QList<int> rows;
        for (const QModelIndex& index : list->selectionModel()->selectedRows())
            rows.append(index.row());
        std::sort(rows.begin(), rows.end());
        return rows;
    }

    void selectRows(int top, int bottom) {
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualRect(list->model()->index(0, 1)).center());
        list->selectionModel()->select(
            QItemSelection(list->model()->index(top, 0),
                           list->model()->index(bottom, list->model()->columnCount() - 1)),
            QItemSelectionModel::ClearAndSelect);
        list->selectionModel()->setCurrentIndex(list->model()->index(bottom, 1),
                                                QItemSelectionModel::NoUpdate);
    }

    QLabel* selectionCount() const {
        return window.findChild<QLabel*>(QStringLiteral("selectionCount"));
    }

    ui::MessageListPanel* panel() const { return window.workspace()->messages(); }

    QMessageBox* confirmation() {
        QMessageBox* box = nullptr;
        const bool shown = QTest::qWaitFor([&] {
            box = window.findChild<QMessageBox*>(QStringLiteral("confirmPurge"));
            return box && box->isVisible();
        });
        return shown ? box : nullptr;
    }
};

QAction* namedAction(const QWidget* widget, const QString& name) {
    for (QAction* action : widget->actions())
        if (action->objectName() == name)
            return action;
    return nullptr;
}

} // namespace

class TestUiSelection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void moveLeavesNothingUnpickedSelected() {
        // Three pages of rows picked, most of them never loaded; the rest stays in the queue.
        Window w(1000);
        QVERIFY(w.open(kQueue, 1000));
        w.selectRows(0, 599);
        QCOMPARE(w.panel()->selectedRowCount(), 600);

        QAction* move = contextCommand(w.list, QStringLiteral("moveMessagesAction"));
        QVERIFY(move && move->isEnabled());
        move->trigger();
        QVERIFY(pickEntity(w.window, kTarget));
        QTRY_COMPARE(w.active(kTarget), 600);
        QTRY_COMPARE(w.list->model()->rowCount(), 400);
        QTRY_VERIFY(w.window.statusBar()->currentMessage().contains(QStringLiteral("Moved 600")));

        // The 400 left were never picked: none of them is selected, and a second Move or Delete
        // has nothing to act on. The current row is the message after the moved ones.
        QVERIFY2(w.selectedRows().isEmpty(), qPrintable(QString::number(w.selectedRows().size())));
        QVERIFY(!w.panel()->listActions()->deleteAction()->isEnabled());
        QVERIFY(!move->isEnabled());
        QCOMPARE(w.list->currentIndex().row(), 0);
        QVERIFY(!w.selectionCount()->isVisible());
    }

    void dragMoveLeavesNothingUnpickedSelected() {
        Window w(20);
        QVERIFY(w.open(kQueue, 20));
        w.selectRows(2, 6);
        const qint64 after = w.seqAt(7);

        // The drag's own payload, dropped on queue "b" in the tree as a move.
        auto* source = w.list->findChild<ui::MessageDragSource*>();
        QVERIFY(source);
        std::unique_ptr<QMimeData> mime(source->createMimeData());
        QVERIFY(mime);
        NamespaceTreeModel* model = w.window.tree()->model();
        const QModelIndex target = hourglass::testing::dragdrop::rowOf(*model, "test:b");
        QVERIFY(model->dropMimeData(mime.get(), Qt::MoveAction, -1, -1, target));
        QTRY_COMPARE(w.active(kTarget), 5);
        QTRY_COMPARE(w.list->model()->rowCount(), 15);

        QVERIFY(w.selectedRows().isEmpty());
        QCOMPARE(w.list->currentIndex().row(), 2);
        QCOMPARE(w.seqAt(2), after);
    }

    void selectionStaysOnItsMessagesWhenOthersLeave() {
        Window w(10);
        QVERIFY(w.open(kQueue, 10));
        w.selectRows(5, 6);
        const QList<qint64> picked{w.seqAt(5), w.seqAt(6)};
        const qint64 first = w.seqAt(0);
        // Another application takes the first message away (a delete here).
        QVERIFY(hourglass::testing::callAndWait(
            *w.client, [first](Broker& b) { return b.deleteMessages(kQueue, {first}); }));
        QTRY_COMPARE(w.list->model()->rowCount(), 9);
        QTRY_COMPARE(w.selectedRows(), (QList<int>{4, 5}));
        QCOMPARE((QList<qint64>{w.seqAt(4), w.seqAt(5)}), picked);
        QCOMPARE(w.list->currentIndex().row(), 5); // it followed its message
    }

    void copyKeepsThePickedRowsSelected() {
        Window w(10);
        QVERIFY(w.open(kQueue, 10));
        w.selectRows(0, 2);
        contextCommand(w.list, QStringLiteral("copyMessagesAction"))->trigger();
        QVERIFY(pickEntity(w.window, kTarget));
        QTRY_COMPARE(w.active(kTarget), 3);
        QTRY_VERIFY(w.window.statusBar()->currentMessage().contains(QStringLiteral("Copied 3")));
        QCOMPARE(w.selectedRows(), (QList<int>{0, 1, 2}));
        QCOMPARE(w.list->model()->rowCount(), 10);
    }

    void statusBarCountsTheSelectedMessages() {
        Window w(5000);
        QVERIFY(w.open(kQueue, 5000));
        QLabel* count = w.selectionCount();
        QVERIFY(count);
        QVERIFY(!count->isVisible());
        w.list->setFocus();
        QTest::keyClick(w.list, Qt::Key_A, Qt::ControlModifier);
        QTRY_VERIFY(count->isVisible());
        QCOMPARE(count->text(), QStringLiteral("5,000 selected"));
        QTest::mouseClick(w.list->viewport(), Qt::LeftButton, {},
                          w.list->visualRect(w.list->model()->index(1, 1)).center());
        QTRY_COMPARE(count->text(), QStringLiteral("1 selected"));
        QTest::mouseClick(w.list->viewport(), Qt::LeftButton, Qt::ControlModifier,
                          w.list->visualRect(w.list->model()->index(1, 1)).center());
        QTRY_VERIFY(!count->isVisible());
    }

    void ctrlEndAndCtrlHomeGoToTheLastAndFirstRow() {
        Window w(20000); // 100 pages
        QVERIFY(w.open(kQueue, 20000));
        auto* model = w.panel()->model();
        QTest::mouseClick(w.list->viewport(), Qt::LeftButton, {},
                          w.list->visualRect(w.list->model()->index(0, 1)).center());
        QCOMPARE(w.list->currentIndex().column(), 1);

        QTest::keyClick(w.list, Qt::Key_End, Qt::ControlModifier);
        // At once, in the same column, selected.
        QCOMPARE(w.list->currentIndex().row(), 19999);
        QCOMPARE(w.list->currentIndex().column(), 1);
        QCOMPARE(w.selectedRows(), QList<int>{19999});
        // The last page arrives in the background and the row shows the last message; no page
        // in between was read (the first one or two, the last one or two).
        QTRY_VERIFY(w.list->currentIndex().data(Qt::UserRole).isValid());
        QVERIFY(w.list->viewport()->rect().intersects(w.list->visualRect(w.list->currentIndex())));
        QVERIFY2(model->loadedPageCount() <= 4,
                 qPrintable(QString::number(model->loadedPageCount())));
        QTRY_VERIFY(w.selectionCount()->isVisible());

        QTest::keyClick(w.list, Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(w.list->currentIndex().row(), 0);
        QCOMPARE(w.list->currentIndex().column(), 1);
        QCOMPARE(w.selectedRows(), QList<int>{0});

        // With Shift, the rows from the current one to the last.
        QTest::keyClick(w.list, Qt::Key_End, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.panel()->selectedRowCount(), 20000);
        QTRY_COMPARE(w.selectionCount()->text(), QStringLiteral("20,000 selected"));
    }

    void purgeAQueueFromTheTreeMenu() {
        Window w(1000);
        QVERIFY(w.open(kQueue, 1000));
        QAction* purge = namedAction(w.tree, QStringLiteral("purgeMessagesAction"));
        QVERIFY2(purge, "Purge… is on the tree's context menu");
        QVERIFY(purge->isEnabled());
        purge->trigger();
        QMessageBox* box = w.confirmation();
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("queue 'orders'")) &&
                     box->text().contains(QStringLiteral("1,000")),
                 qPrintable(box->text()));
        // Three messages leave while the question is open: the purge says so, exactly.
        const QList<qint64> gone{w.seqAt(0), w.seqAt(1), w.seqAt(2)};
        QVERIFY(hourglass::testing::callAndWait(
            *w.client, [gone](Broker& b) { return b.deleteMessages(kQueue, gone); }));
        QSignalSpy started(w.panel()->listActions()->purger(), &ui::MessagePurge::jobStarted);
        box->button(QMessageBox::Ok)->click();
        QTRY_COMPARE(started.size(), 1);
        QVERIFY(w.panel()->findChild<QProgressBar*>(QStringLiteral("bulkProgress"))->isVisible());
        QTRY_COMPARE(w.active(kQueue), 0);
        QTRY_COMPARE(w.window.statusBar()->currentMessage(),
                     QStringLiteral("Purged queue 'orders': deleted 997 messages (3 had already "
                                    "left)"));
        QTRY_COMPARE(w.list->model()->rowCount(), 0);
    }

    void purgeASubscriptionCancelledThenWhole() {
        Window w(2000, QStringLiteral("t/Subscriptions/s1"));
        QVERIFY(w.open(QStringLiteral("t/Subscriptions/s1"), 2000));
        ui::MessagePurge* purger = w.panel()->listActions()->purger();
        purger->setChunkSize(100);
        QAction* purge = w.panel()->listActions()->purgeAction();
        QVERIFY(contextCommand(w.list, QStringLiteral("purgeMessagesAction")) == purge);
        // Cancel with the strip's button once the first chunk is done.
        QMetaObject::Connection cancelOnce =
            connect(purger, &ui::MessagePurge::jobStarted, this, [&](ui::BulkJob* job) {
                connect(job, &ui::BulkJob::progress, job, [&, job](int done, int) {
                    if (done > 0 && !job->cancelRequested())
                        QTest::mouseClick(w.panel()->findChild<QPushButton*>("bulkCancel"),
                                          Qt::LeftButton);
                });
            });
        purge->trigger();
        QMessageBox* box = w.confirmation();
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("subscription 's1' of topic 't'")) &&
                     box->text().contains(QStringLiteral("2,000")),
                 qPrintable(box->text()));
        box->button(QMessageBox::Ok)->click();
        QTRY_VERIFY(w.window.statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
        disconnect(cancelOnce);
        const QString s1 = QStringLiteral("t/Subscriptions/s1");
        const qint64 left = w.active(s1);
        QVERIFY2(left > 0 && left < 2000, qPrintable(QString::number(left)));
        QCOMPARE(w.window.statusBar()->currentMessage(),
                 QStringLiteral("Purge of subscription 's1' of topic 't' cancelled: deleted %1 "
                                "of 2,000 messages")
                     .arg(QLocale().toString(2000 - left)));
        QCOMPARE(w.active(QStringLiteral("t/Subscriptions/s2")), 2000); // its sibling untouched

        QTRY_VERIFY(purge->isEnabled());
        purge->trigger();
        box = w.confirmation();
        QVERIFY(box && box->text().contains(QLocale().toString(left)));
        box->button(QMessageBox::Ok)->click();
        QTRY_COMPARE(w.active(s1), 0);
        QTRY_COMPARE(w.window.statusBar()->currentMessage(),
                     QStringLiteral("Purged subscription 's1' of topic 't': deleted %1 messages")
                         .arg(QLocale().toString(left)));
    }

    void aTopicCannotBePurged() {
        Window w(0);
        QVERIFY(QTest::qWaitFor([&] { return w.treeRow("test:t").isValid(); }));
        w.tree->setCurrentIndex(w.treeRow("test:t"));
        QAction* purge = namedAction(w.tree, QStringLiteral("purgeMessagesAction"));
        QVERIFY(purge);
        QTRY_VERIFY(!purge->isEnabled());
    }
};

QTEST_MAIN(TestUiSelection)
#include "tst_ui_selection.moc"
