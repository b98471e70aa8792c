// The dead-letter panel on a namespace without a sequence index (IndexlessBroker: peek is all a
// remote namespace has): resubmit all and purge read every dead letter's sequence number page by
// page, and reach every one of them.

#include "DeadLetterTestEnv.h"
#include "common/BulkJob.h"
#include "deadletter/DeadLetterPanel.h"

#include <QAction>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;

namespace {
constexpr int kLetters = 700; // more than one page of the gather's reads
} // namespace

class TestUiDeadLetterIndexless : public QObject {
    Q_OBJECT
private slots:
    void resubmitAllReachesEveryDeadLetter();
    void purgeReachesEveryDeadLetter();
};

void TestUiDeadLetterIndexless::resubmitAllReachesEveryDeadLetter() {
    Env env(true);
    env.expire(kLetters);
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.total(), kLetters);

    panel.resubmitAllAction()->trigger();
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Resubmitted 700 messages to orders"));
    QCOMPARE(env.counts(kQueue).active, kLetters);
    QCOMPARE(env.counts(kQueue).deadLettered, 0);
    QCOMPARE(env.indexless->indexRequests(), 0);
}

void TestUiDeadLetterIndexless::purgeReachesEveryDeadLetter() {
    Env env(true);
    env.expire(kLetters);
    DeadLetterPanel panel(*env.client);
    panel.show();
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.total(), kLetters);

    QTest::mouseClick(child<QToolButton>(panel, "purgeDeadLetters"), Qt::LeftButton);
    QMessageBox* confirm = nullptr;
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmPurge"))));
    QVERIFY2(confirm->text().contains(QStringLiteral("700")), qPrintable(confirm->text()));
    confirm->button(QMessageBox::Ok)->click();
    QTRY_VERIFY(!status.isEmpty() &&
                status.last().first().toString().startsWith(QStringLiteral("Purged")));
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Purged the dead-letter queue of 'orders': deleted 700 messages"));
    QCOMPARE(env.counts(kQueue).deadLettered, 0);
    QCOMPARE(env.indexless->indexRequests(), 0);
}

QTEST_MAIN(TestUiDeadLetterIndexless)
#include "tst_ui_deadletter_indexless.moc"
