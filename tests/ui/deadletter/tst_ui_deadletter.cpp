// The dead-letter panel over a real broker (service-bus-rules.md L6, L7, T7): reasons grouped and
// live, the reason filter, resubmit (one, all as a bulk job, to a subscription), delete and purge
// after confirmation (and a purge cancelled part-way), empty states.

#include "DeadLetterTestEnv.h"
#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "deadletter/DeadLetterPanel.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "messages/MessageExport.h"
#include "messages/MessageViewModel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;

namespace {

// Waits until the panel counts `count` messages with no job running.
bool waitForTotal(DeadLetterPanel& panel, qint64 count) {
    return QTest::qWaitFor([&] { return panel.total() == count && !panel.currentJob(); });
}

} // namespace

class TestUiDeadLetter : public QObject {
    Q_OBJECT
private slots:
    void l7_t7_reasonsAreGroupedAndShown();
    void reasonFiltersTheTable();
    void resubmitOneKeepsEverythingButTheReason();
    void resubmitAllRunsAsABulkJob();
    void purgeCancelledPartWayThenPurgeAll();
    void deleteSelectedAsksFirst();
    void subscriptionResubmitsToTheSubscription();
    void topicsAndEmptyQueuesSayWhy();
};

void TestUiDeadLetter::l7_t7_reasonsAreGroupedAndShown() {
    Env env;
    env.deadLetter(kQueue, 3, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    env.expire(2);
    QCOMPARE(env.counts(kQueue).deadLettered, 5);

    DeadLetterPanel panel(*env.client);
    panel.show();
    QAbstractItemModelTester reasonsTester(panel.reasonsModel());
    QAbstractItemModelTester proxyTester(panel.proxy());
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 5);
    QCOMPARE(panel.deadLetterPath(), QStringLiteral("test:orders/$deadletterqueue"));
    QVERIFY2(child<QLabel>(panel, "deadLetterTitle")->text().contains(QStringLiteral("5 messages")),
             qPrintable(child<QLabel>(panel, "deadLetterTitle")->text()));

    DeadLetterReasonsModel* reasons = panel.reasonsModel();
    QTRY_COMPARE(reasons->rowCount(), 3);
    QCOMPARE(reasons->index(0, 0).data().toString(), QStringLiteral("All reasons"));
    QCOMPARE(reasons->index(0, 1).data(Qt::UserRole).toLongLong(), 5);
    QCOMPARE(reasons->index(1, 0).data().toString(), QStringLiteral("BadOrder"));
    QCOMPARE(reasons->index(1, 1).data(Qt::UserRole).toLongLong(), 3);
    QCOMPARE(reasons->index(2, 0).data().toString(), QStringLiteral("TTLExpiredException"));
    QCOMPARE(reasons->index(2, 1).data(Qt::UserRole).toLongLong(), 2);

    // The table shows reason and description; the column order puts them right after the
    // message id (what a dead-letter list is read for).
    QAbstractItemModel* table = panel.proxy();
    const int row = panel.model()->rowOf(panel.model()->messages().first().sequenceNumber);
    const QModelIndex source = panel.model()->index(row, MessageViewModel::DeadLetterReasonColumn);
    QCOMPARE(source.data().toString(), QStringLiteral("BadOrder"));
    QCOMPARE(
        panel.model()->index(row, MessageViewModel::DeadLetterDescriptionColumn).data().toString(),
        QStringLiteral("Customer is missing"));
    QCOMPARE(
        panel.view()->horizontalHeader()->visualIndex(MessageViewModel::DeadLetterReasonColumn), 2);
    QVERIFY(panel.view()->isColumnHidden(MessageListModel::LockColumn));
    QCOMPARE(table->rowCount(), 5);

    // Live: one more dead-lettered message moves its reason's count.
    env.deadLetter(kQueue, 2, QStringLiteral("Poison"), QStringLiteral("Cannot parse"));
    QTRY_COMPARE(reasons->rowCount(), 4);
    QCOMPARE(reasons->index(1, 0).data().toString(), QStringLiteral("BadOrder"));
    QCOMPARE(reasons->index(0, 1).data(Qt::UserRole).toLongLong(), 7);
    QTRY_COMPARE(panel.model()->rowCount(), 7);
}
void TestUiDeadLetter::reasonFiltersTheTable() {
    Env env;
    env.deadLetter(kQueue, 2, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    env.expire(3);
    DeadLetterPanel panel(*env.client);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders/$deadletterqueue"), Kind::DeadLetterQueue);
    QCOMPARE(panel.entityPath(), QStringLiteral("test:orders"));
    QTRY_COMPARE(panel.model()->rowCount(), 5);
    QTRY_COMPARE(panel.reasonsModel()->rowCount(), 3);

    auto* reasonsView = child<QTableView>(panel, "deadLetterReasons");
    const int ttlRow = panel.reasonsModel()->rowOf(QStringLiteral("TTLExpiredException"));
    QCOMPARE(ttlRow, 1); // the most frequent first
    reasonsView->selectRow(ttlRow);
    QCOMPARE(panel.reasonFilter(), std::optional<QString>(QStringLiteral("TTLExpiredException")));
    QCOMPARE(panel.proxy()->rowCount(), 3);
    for (int r = 0; r < 3; ++r)
        QCOMPARE(
            panel.proxy()->index(r, MessageViewModel::DeadLetterReasonColumn).data().toString(),
            QStringLiteral("TTLExpiredException"));
    QVERIFY(child<QLabel>(panel, "deadLetterLoaded")->text().contains(QStringLiteral("3 shown")));

    reasonsView->selectRow(0); // All reasons
    QCOMPARE(panel.reasonFilter(), std::nullopt);
    QCOMPARE(panel.proxy()->rowCount(), 5);

    // Sorting goes by the raw value: sequence numbers descending.
    panel.view()->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::DescendingOrder);
    QVERIFY(panel.proxy()->index(0, 0).data(Qt::UserRole).toLongLong() >
            panel.proxy()->index(4, 0).data(Qt::UserRole).toLongLong());
}
void TestUiDeadLetter::resubmitOneKeepsEverythingButTheReason() {
    Env env;
    env.deadLetter(kQueue, 2, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 2);
    const MessageView chosen = panel.model()->messages().first();
    QVERIFY(!panel.resubmitSelectedAction()->isEnabled()); // nothing selected yet
    panel.selectSequenceNumbers({chosen.sequenceNumber});
    QVERIFY(panel.resubmitSelectedAction()->isEnabled());
    QCOMPARE(panel.resubmitSelectedAction()->shortcut(),
             QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    QTest::mouseClick(child<QToolButton>(panel, "resubmitSelected"), Qt::LeftButton);

    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(), QStringLiteral("Resubmitted 1 message to orders"));
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(env.counts(kQueue).deadLettered, 1);
    QCOMPARE(env.counts(kQueue).active, 1);

    auto back =
        env.call([](Broker& b) { return b.listMessages(kQueue, 0, 10, Broker::Bodies::With); });
    QVERIFY(back.ok());
    QCOMPARE(back->size(), 1);
    auto message = env.call([seq = back->first().sequenceNumber](Broker& b) {
        return b.message(kQueue, seq, Broker::Bodies::With);
    });
    QVERIFY(message.ok());
    QCOMPARE(message->messageId, chosen.messageId);
    QCOMPARE(message->correlationId, QStringLiteral("corr-") + chosen.messageId);
    QCOMPARE(message->subject, QStringLiteral("order"));
    QCOMPARE(message->body, QByteArray("{\"id\":\"" + chosen.messageId.toUtf8() + "\"}"));
    QCOMPARE(message->subQueue, SubQueue::Main);
    QVERIFY(message->deadLetterReason.isEmpty());
    QVERIFY(!message->applicationProperties.contains(QStringLiteral("DeadLetterReason")));
    QVERIFY(!message->applicationProperties.contains(QStringLiteral("DeadLetterErrorDescription")));
    QCOMPARE(message->applicationProperties.value(QStringLiteral("customer")),
             QVariant(QStringLiteral("acme")));
    QCOMPARE(message->applicationProperties.value(QStringLiteral("attempt")), QVariant(3));
    QTRY_COMPARE(panel.reasonsModel()->index(0, 1).data(Qt::UserRole).toLongLong(), 1);
}
void TestUiDeadLetter::resubmitAllRunsAsABulkJob() {
    Env env;
    env.expire(1200);
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.total(), 1200);
    // Paged: the first 500, then "Load more".
    QTRY_COMPARE(panel.model()->rowCount(), DeadLetterPanel::kPageSize);
    auto* more = child<QPushButton>(panel, "deadLetterMore");
    QVERIFY(more->isEnabled());
    QTest::mouseClick(more, Qt::LeftButton);
    QTRY_COMPARE(panel.model()->rowCount(), 2 * DeadLetterPanel::kPageSize);

    QList<int> progress;
    connect(&panel, &DeadLetterPanel::jobStarted, this, [&progress](BulkJob* job) {
        connect(job, &BulkJob::progress, job,
                [&progress](int done, int) { progress.append(done); });
    });
    panel.resubmitAllAction()->trigger();
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Resubmitted 1,200 messages to orders"));
    QVERIFY2(progress.size() >= 2, "progress is reported chunk by chunk");
    QCOMPARE(progress.last(), 1200);
    auto* bar = child<QProgressBar>(panel, "bulkProgress");
    QCOMPARE(bar->value(), bar->maximum());
    QCOMPARE(bar->maximum(), 1200);
    QCOMPARE(env.counts(kQueue).active, 1200);
    QCOMPARE(env.counts(kQueue).deadLettered, 0);
    QVERIFY(waitForTotal(panel, 0));
    QVERIFY(child<QLabel>(panel, "deadLetterEmpty")->isVisibleTo(&panel));
}
void TestUiDeadLetter::purgeCancelledPartWayThenPurgeAll() {
    Env env;
    env.expire(5000);
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.total(), 5000);

    // Cancel as soon as the first chunk is done, with the strip's own button.
    bool cancelled = false;
    QMetaObject::Connection started =
        connect(&panel, &DeadLetterPanel::jobStarted, this, [&](BulkJob* job) {
            connect(job, &BulkJob::progress, job, [&](int done, int) {
                if (!cancelled && done > 0) {
                    cancelled = true;
                    QTest::mouseClick(child<QPushButton>(panel, "bulkCancel"), Qt::LeftButton);
                }
            });
        });
    QTest::mouseClick(child<QToolButton>(panel, "purgeDeadLetters"), Qt::LeftButton);
    QMessageBox* confirm = nullptr;
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmPurge"))));
    QVERIFY2(confirm->text().contains(QStringLiteral("5,000")), qPrintable(confirm->text()));
    confirm->button(QMessageBox::Ok)->click();

    QTRY_VERIFY(!status.isEmpty());
    QVERIFY2(status.last().first().toString().contains(QStringLiteral("cancelled")),
             qPrintable(status.last().first().toString()));
    const qint64 remaining = env.counts(kQueue).deadLettered;
    QVERIFY2(remaining > 0 && remaining < 5000, qPrintable(QString::number(remaining)));
    auto* bar = child<QProgressBar>(panel, "bulkProgress");
    QCOMPARE(bar->value(), int(5000 - remaining));
    QVERIFY(bar->value() < bar->maximum());
    QVERIFY(waitForTotal(panel, remaining));
    disconnect(started);

    status.clear();
    QTest::mouseClick(child<QToolButton>(panel, "purgeDeadLetters"), Qt::LeftButton);
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmPurge"))));
    QVERIFY(confirm->text().contains(QLocale().toString(remaining)));
    confirm->button(QMessageBox::Ok)->click();
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Purged the dead-letter queue of 'orders': deleted %1 messages")
                 .arg(QLocale().toString(remaining)));
    QCOMPARE(env.counts(kQueue).deadLettered, 0);
    QCOMPARE(env.counts(kQueue).active, 0);
}
void TestUiDeadLetter::deleteSelectedAsksFirst() {
    Env env;
    env.deadLetter(kQueue, 3, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 3);
    const QList<qint64> two = {panel.model()->messageAt(0).sequenceNumber,
                               panel.model()->messageAt(2).sequenceNumber};
    panel.selectSequenceNumbers(two);
    QCOMPARE(panel.selectedSequenceNumbers(), two);
    QCOMPARE(panel.deleteSelectedAction()->shortcut(), QKeySequence(QKeySequence::Delete));

    // The Delete key asks; Cancel keeps them.
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.view()->setFocus();
    QTest::keyClick(panel.view(), Qt::Key_Delete);
    QMessageBox* confirm = nullptr;
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmDelete"))));
    QVERIFY2(confirm->text().contains(QStringLiteral("Delete 2 ")), qPrintable(confirm->text()));
    confirm->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!panel.findChild<QMessageBox*>(QStringLiteral("confirmDelete")));
    env.client->waitForIdle();
    QCOMPARE(env.counts(kQueue).deadLettered, 3);
    QVERIFY(status.isEmpty());

    // Accept deletes exactly the two.
    panel.deleteSelectedAction()->trigger();
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmDelete"))));
    confirm->accept();
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Deleted 2 dead-lettered messages of orders"));
    QCOMPARE(env.counts(kQueue).deadLettered, 1);
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(
        panel.model()->messageAt(0).sequenceNumber,
        env.call([](Broker& b) { return b.listMessages(kDlq, 0, 10); })->first().sequenceNumber);
}
void TestUiDeadLetter::subscriptionResubmitsToTheSubscription() {
    Env env;
    const QString s1 = QStringLiteral("t/Subscriptions/s1");
    env.deadLetter(s1, 2, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    QCOMPARE(env.counts(s1).deadLettered, 2);
    QCOMPARE(env.counts(QStringLiteral("t/Subscriptions/s2")).active, 2); // fanned out before
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:") + s1, Kind::Subscription);
    QTRY_COMPARE(panel.model()->rowCount(), 2);
    panel.resubmitAllAction()->trigger();
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Resubmitted 2 messages to t/Subscriptions/s1"));
    QCOMPARE(env.counts(s1).deadLettered, 0);
    QCOMPARE(env.counts(s1).active, 2);
    // Straight back to the subscription, not through the topic.
    QCOMPARE(env.counts(QStringLiteral("t/Subscriptions/s2")).active, 2);
}
void TestUiDeadLetter::topicsAndEmptyQueuesSayWhy() {
    Env env;
    DeadLetterPanel panel(*env.client);
    panel.show();
    auto* empty = child<QLabel>(panel, "deadLetterEmpty");
    panel.setEntity(QStringLiteral("test:t"), Kind::Topic);
    QVERIFY(empty->isVisible());
    QVERIFY2(empty->text().contains(QStringLiteral("Topics have no dead-letter queue")),
             qPrintable(empty->text()));
    QVERIFY(!panel.resubmitAllAction()->isEnabled());
    QVERIFY(!panel.purgeAction()->isEnabled());

    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_VERIFY(empty->text().contains(QStringLiteral("No dead-lettered messages")));
    QVERIFY(empty->isVisible());
    QVERIFY(empty->text().contains(QStringLiteral("maximum delivery count")));
    QTRY_VERIFY(
        child<QLabel>(panel, "deadLetterTitle")->text().contains(QStringLiteral("0 messages")));
    QVERIFY(!panel.purgeAction()->isEnabled());

    // Live: a message that expires into the queue replaces the empty state.
    env.expire(1);
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QVERIFY(panel.view()->isVisible());
    QVERIFY(panel.purgeAction()->isEnabled());

    panel.setEntity({}, Kind::Namespace);
    QVERIFY(empty->text().contains(QStringLiteral("No entity selected")));
}
QTEST_MAIN(TestUiDeadLetter)
#include "tst_ui_deadletter.moc"
