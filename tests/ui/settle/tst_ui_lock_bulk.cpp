// The Lock panel's bulk settlement: a multi-selection of held locks completes
// or dead-letters as a background job in chunks, with progress, and stops part-way on Cancel.

#include "LockPanelFixture.h"
#include "common/BulkJob.h"

#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>

using namespace hourglass;
using namespace hourglass::ui;
using Fixture = testing::LockPanelFixture;

class LockBulkTest : public QObject {
    Q_OBJECT
private slots:
    void bulkCompleteWithProgress();
    void bulkDeadLetter();
    void cancelBulkPartWay();
};

void LockBulkTest::bulkCompleteWithProgress() {
    testing::LocksTestEnv env(minutes(5));
    env.sendMany(250);
    Fixture f(env);
    f.receive(250, QStringLiteral("alice"));
    QCOMPARE(env.counts().locked, 250);
    f.panel.view()->selectAll();
    f.trigger("lockComplete");
    auto* job = f.panel.findChild<BulkJob*>();
    QVERIFY(job);
    QCOMPARE(job->total(), 250);
    QSignalSpy progress(job, &BulkJob::progress);
    QTRY_COMPARE(f.locks().rowCount(), 0);
    QTRY_VERIFY(f.status().contains(QStringLiteral("Completed: 250 of 250")));
    QVERIFY(progress.size() >= 2); // chunks of 100: progress in steps
    QCOMPARE(progress.last().at(0).toInt(), 250);
    QCOMPARE(f.find<QProgressBar>("bulkProgress")->maximum(), 250);
    QCOMPARE(env.counts().active + env.counts().locked, 0);
}

void LockBulkTest::bulkDeadLetter() {
    testing::LocksTestEnv env;
    for (int i = 0; i < 3; ++i)
        env.send(QStringLiteral("m%1").arg(i));
    Fixture f(env);
    f.receive(3, QStringLiteral("alice"));
    f.select({1, 3});
    f.trigger("lockDeadLetter");
    SettleDialog* d = f.dialog();
    d->findChild<QLineEdit*>(QStringLiteral("deadLetterReason"))->setText(QStringLiteral("Bulk"));
    f.accept(d);
    QTRY_COMPARE(f.locks().rowCount(), 1);
    QVERIFY(f.locks().contains(2));
    QCOMPARE(env.counts().deadLettered, 2);
    QCOMPARE(env.message(3, QStringLiteral("q/$deadletterqueue"))->deadLetterReason,
             QStringLiteral("Bulk"));
}

void LockBulkTest::cancelBulkPartWay() {
    testing::LocksTestEnv env(minutes(5));
    env.sendMany(250);
    Fixture f(env);
    f.receive(250, QStringLiteral("alice"));
    f.panel.view()->selectAll();
    f.trigger("lockComplete");
    auto* job = f.panel.findChild<BulkJob*>();
    QVERIFY(job);
    QSignalSpy finished(job, &BulkJob::finished);
    QTest::mouseClick(f.find<QPushButton>("bulkCancel"), Qt::LeftButton);
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(finished.first().at(2).toBool());
    const int left = f.locks().rowCount();
    QVERIFY2(left > 0 && left < 250, qPrintable(QString::number(left)));
    QCOMPARE(env.counts().locked, left);
    QVERIFY(f.status().contains(QStringLiteral("cancelled")));
}

QTEST_MAIN(LockBulkTest)
#include "tst_ui_lock_bulk.moc"
