// The Receive & settle table's columns: the lock countdown right after the message id and in
// view at 1280x800, wide enough for "Lock lost", hidden and reordered columns remembered; and
// Copy to… for the messages in hand.
#include "ColumnsTestEnv.h"
#include "messages/MessageListModel.h"
#include "settle/HeldLocks.h"
#include "settle/LockPanel.h"

#include <QComboBox>
#include <QSpinBox>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::LockPanel;
using hourglass::ui::MessageListModel;

namespace {
struct ShownLocks {
    LockPanel panel;
    explicit ShownLocks(TransferEnv& env)
        : panel(*env.client) {
        panel.resize(kWorkspaceWidth, kPanelHeight);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), LockPanel::NodeKind::Queue);
    }
    QHeaderView* header() { return panel.view()->horizontalHeader(); }
    void receive(int count) {
        panel.findChild<QComboBox*>(QStringLiteral("lockReceiver"))
            ->setEditText(QStringLiteral("worker"));
        panel.findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(count);
        panel.findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
        QTRY_COMPARE(panel.locks()->rowCount(), count);
    }
};
} // namespace

class TestUiLockColumns : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }
    void init() { forgetColumns(); }

    void lockCountdownSitsNextToTheIdInView() {
        TransferEnv env;
        env.sendTo(kQueue, 2);
        ShownLocks locks(env);
        locks.receive(2);
        QHeaderView* header = locks.header();
        QCOMPARE(header->visualIndex(MessageListModel::LockColumn),
                 header->visualIndex(MessageListModel::MessageIdColumn) + 1);
        QVERIFY(columnInView(header, MessageListModel::LockColumn));
        QVERIFY(columnInView(header, MessageListModel::StateColumn));
        // A lost lock reads "Lock lost" in bold in the Lock and State columns: never cut.
        QFont bold = locks.panel.view()->font();
        bold.setBold(true);
        const int lockLost = QFontMetrics(bold).horizontalAdvance(QStringLiteral("Lock lost"));
        QVERIFY(header->sectionSize(MessageListModel::LockColumn) > lockLost + 12);
        QVERIFY(header->sectionSize(MessageListModel::StateColumn) > lockLost);
    }

    void hiddenAndMovedColumnsAreRemembered() {
        TransferEnv env;
        {
            ShownLocks locks(env);
            QAction* subject = columnToggle(locks.header(), MessageListModel::SubjectColumn);
            QVERIFY(subject && subject->isChecked());
            subject->trigger();
            QHeaderView* header = locks.header();
            header->moveSection(header->visualIndex(MessageListModel::DeliveryCountColumn), 0);
        }
        ShownLocks again(env);
        QVERIFY(again.header()->isSectionHidden(MessageListModel::SubjectColumn));
        QCOMPARE(again.header()->visualIndex(MessageListModel::DeliveryCountColumn), 0);
        // Another view's columns are its own.
        QVERIFY(!again.header()->isSectionHidden(MessageListModel::StateColumn));
    }

    void copyToCopiesTheMessagesInHand() {
        TransferEnv env;
        env.sendTo(kQueue, 2);
        ShownLocks locks(env);
        locks.receive(2);
        QVERIFY(!contextCommand(locks.panel.view(), QStringLiteral("moveMessagesAction")));
        QAction* copy = contextCommand(locks.panel.view(), QStringLiteral("copyMessagesAction"));
        QVERIFY(copy);
        QVERIFY(!copy->isEnabled());
        locks.panel.view()->selectAll();
        QVERIFY(copy->isEnabled());
        copy->trigger();
        QVERIFY(pickEntity(locks.panel, kTarget));
        QTRY_COMPARE(env.counts(kTarget).active, 2);
        QCOMPARE(env.counts(kQueue).locked, 2); // still in hand
    }
};

QTEST_MAIN(TestUiLockColumns)
#include "tst_ui_lock_columns.moc"
