// The message list's actions on a selection: shortcuts, cancelling a scheduled
// message, deleting after a non-blocking confirmation through a cancellable bulk job (in the
// windowed list and among search matches), and exporting.

#include "ListToolsFixture.h"

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::listtools;

class TestUiListActions : public QObject {
    Q_OBJECT
private slots:
    void shortcutsWorkWhileThePanelHasFocus();
    void cancelScheduledFromTheList();
    void deleteSelectionAfterConfirmation();
    void deleteMatchesInTheFilteredList();
    void exportSelected();
};

void TestUiListActions::shortcutsWorkWhileThePanelHasFocus() {
    Env env(3, orderMessage);
    Ui ui(*env.client);
    ui.panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&ui.panel));
    QTRY_VERIFY(ui.panel.model()->isRowLoaded(2));
    ui.table->setFocus();
    QTest::keyClick(ui.table, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(ui.filter->hasFocus());
    // Delete inside the filter edits the text; it does not delete messages.
    QTest::keyClicks(ui.filter, QStringLiteral("ab"));
    QTest::keyClick(ui.filter, Qt::Key_Home);
    QTest::keyClick(ui.filter, Qt::Key_Delete);
    QCOMPARE(ui.filter->text(), QStringLiteral("b"));
    QVERIFY(!ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages")));
    // Delete on the table asks to delete the selection.
    QTest::mouseClick(ui.panel.findChild<QToolButton*>(QStringLiteral("messageFilterClear")),
                      Qt::LeftButton);
    QVERIFY(!ui.panel.isFiltered());
    ui.selectRows(0, 1);
    ui.table->setFocus();
    QTest::keyClick(ui.table, Qt::Key_Delete);
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages"))));
    QVERIFY(box->text().contains(QStringLiteral("2 messages")));
    box->reject();
    // The main window gets every action for its menus.
    QStringList names;
    for (QAction* action : ui.panel.actions())
        names.append(action->objectName());
    for (const char* name : {"findMessagesAction", "cancelScheduledAction", "deleteMessagesAction",
                             "exportMessagesAction", "copyMessageIdAction"})
        QVERIFY2(names.contains(QLatin1String(name)), name);
}

void TestUiListActions::cancelScheduledFromTheList() {
    Env env(2, orderMessage);
    const auto scheduled = env.call([](Broker& b) {
        return b.schedule(QStringLiteral("q"), orderMessage(7), testing::kTestStart + hours(1));
    });
    QVERIFY(scheduled.ok());
    Ui ui(*env.client);
    QTRY_COMPARE(ui.panel.model()->rowCount(), 3);
    QTRY_VERIFY(ui.panel.model()->isRowLoaded(2));
    QCOMPARE(cell(ui.table->model(), 2, Column::StateColumn), QStringLiteral("Scheduled"));

    QAction* cancel = ui.action("cancelScheduledAction");
    QVERIFY(cancel);
    QVERIFY(ui.table->actions().contains(cancel)); // in the context menu
    ui.selectRows(0, 0);
    QVERIFY(!cancel->isEnabled()); // an active message
    ui.selectRows(2, 2);
    QVERIFY(cancel->isEnabled());
    cancel->trigger();
    QTRY_COMPARE(ui.panel.model()->rowCount(), 2);
    QCOMPARE(env.call([](Broker& b) { return b.counts(QStringLiteral("q")); })->scheduled, 0);
    QCOMPARE(env.call([seq = scheduled->sequenceNumber](Broker& b) {
                    return b.message(QStringLiteral("q"), seq);
                })
                 .ok(),
             false);
}

void TestUiListActions::deleteSelectionAfterConfirmation() {
    Env env(1200, orderMessage);
    Ui ui(*env.client);
    ui.panel.listActions()->setChunkSizes(100, 100);
    QTRY_COMPARE(ui.panel.model()->rowCount(), 1200);
    // Rows 0..799: most of their pages were never loaded, so the panel reads their numbers.
    ui.selectRows(0, 799);
    QVERIFY(!ui.panel.model()->isRowLoaded(799));
    QCOMPARE(ui.panel.selectedRowCount(), 800);
    QAction* remove = ui.action("deleteMessagesAction");
    QVERIFY(remove && remove->isEnabled());
    QCOMPARE(remove->shortcut(), QKeySequence(QKeySequence::Delete));

    // Cancel keeps them.
    remove->trigger();
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages"))));
    QVERIFY(box->text().contains(QStringLiteral("800 messages")));
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages")));
    env.client->waitForIdle();
    QCOMPARE(env.total(), 1200);

    // Accepted: a bulk job deletes them chunk by chunk behind a progress bar.
    remove->trigger();
    QTRY_VERIFY((box = ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages"))));
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    BulkJob* job = ui.panel.listActions()->job();
    QVERIFY(job);
    QSignalSpy progress(job, &BulkJob::progress);
    auto* bar = ui.panel.findChild<QProgressBar*>(QStringLiteral("bulkProgress"));
    QVERIFY(bar && bar->isVisible());
    QTRY_VERIFY(!job->running());
    QCOMPARE(job->done(), 800);
    QVERIFY2(progress.count() >= 7, qPrintable(QString::number(progress.count())));
    QCOMPARE(env.total(), 400);
    QTRY_COMPARE(ui.panel.model()->rowCount(), 400);
    QTRY_VERIFY(ui.panel.model()->isRowLoaded(0));
    QCOMPARE(cell(ui.table->model(), 0, Column::MessageIdColumn), QStringLiteral("id-800"));
}

void TestUiListActions::deleteMatchesInTheFilteredList() {
    Env env(900, orderMessage);
    Ui ui(*env.client);
    ui.panel.listActions()->setChunkSizes(100, 100); // more than the panel removes row by row
    ui.search(QStringLiteral("region=eu"));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.table->model()->rowCount(), 300);
    ui.table->selectAll();
    ui.action("deleteMessagesAction")->trigger();
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = ui.panel.findChild<QMessageBox*>(QStringLiteral("confirmDeleteMessages"))));
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    // Cancelled from the strip after the first chunk: what was done stays done.
    BulkJob* job = ui.panel.listActions()->job();
    QTest::mouseClick(ui.panel.findChild<QPushButton*>(QStringLiteral("bulkCancel")),
                      Qt::LeftButton);
    QTRY_VERIFY(!job->running());
    QVERIFY(job->done() > 0 && job->done() < 300);
    const int left = 300 - job->done();
    QCOMPARE(ui.table->model()->rowCount(), left);
    QCOMPARE(env.total(), 900 - job->done());
    QVERIFY(ui.status->text().startsWith(QStringLiteral("%1 matches").arg(left)));
}

void TestUiListActions::exportSelected() {
    Env env(50, orderMessage);
    Ui ui(*env.client);
    ui.search(QStringLiteral("needle"));
    ui.bodies->setChecked(true);
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.table->model()->rowCount(), 5);
    ui.selectRows(1, 3);
    QCOMPARE(ui.action("exportMessagesAction")->shortcut(),
             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QTemporaryDir out;
    ui.panel.exportSelectedTo(out.path());
    QTRY_VERIFY(ui.panel.listActions()->job() && !ui.panel.listActions()->job()->running());
    const QStringList files = QDir(out.path()).entryList({QStringLiteral("*.json")}, QDir::Files);
    QCOMPARE(files.size(), 3);
    QFile first(QDir(out.path()).filePath(files.first()));
    QVERIFY(first.open(QIODevice::ReadOnly));
    const QByteArray json = first.readAll();
    QVERIFY(json.contains("Needle inside")); // read with its body
    QVERIFY(json.contains("\"id-10\"") || json.contains("\"id-20\"") || json.contains("\"id-30\""));
}

QTEST_MAIN(TestUiListActions)
#include "tst_ui_listactions.moc"
