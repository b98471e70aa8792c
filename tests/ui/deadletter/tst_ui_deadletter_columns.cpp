// The dead-letter table's columns (the reason right after the message id, in view at 1280x800,
// remembered when hidden; a long description ends in view, elided, with its tooltip), Move to… from
// the dead-letter queue, and the empty queue's hint about moving messages.
#include "ColumnsTestEnv.h"
#include "deadletter/DeadLetterPanel.h"
#include "messages/MessageListModel.h"
#include "messages/MessageViewModel.h"

#include <QLabel>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::DeadLetterPanel;
using hourglass::ui::MessageListModel;
using hourglass::ui::MessageViewModel;
using Kind = hourglass::ui::NamespaceTreeModel::NodeKind;

namespace {
struct ShownDeadLetters {
    DeadLetterPanel panel;
    explicit ShownDeadLetters(TransferEnv& env)
        : panel(*env.client) {
        panel.resize(kWorkspaceWidth, kPanelHeight);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    }
    QHeaderView* header() { return panel.view()->horizontalHeader(); }
};
} // namespace

class TestUiDeadLetterColumns : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }
    void init() { forgetColumns(); }

    void reasonSitsNextToTheIdInView() {
        TransferEnv env;
        env.deadLetter(kQueue, 1, QStringLiteral("MaxDeliveryCountExceeded"), QStringLiteral("x"));
        ShownDeadLetters list(env);
        QTRY_COMPARE(list.panel.view()->model()->rowCount(), 1);
        QHeaderView* header = list.header();
        QCOMPARE(header->visualIndex(MessageViewModel::DeadLetterReasonColumn),
                 header->visualIndex(MessageListModel::MessageIdColumn) + 1);
        QVERIFY(columnInView(header, MessageViewModel::DeadLetterReasonColumn));
        // A dead-lettered message holds no lock: the lock columns start hidden, in the menu.
        QVERIFY(header->isSectionHidden(MessageListModel::LockColumn));
        QAction* lock = columnToggle(header, MessageListModel::LockColumn);
        QVERIFY(lock && !lock->isChecked());
        lock->trigger();
        QVERIFY(!header->isSectionHidden(MessageListModel::LockColumn));
        columnToggle(header, MessageListModel::SubjectColumn)->trigger();
        ShownDeadLetters again(env);
        QVERIFY(!again.header()->isSectionHidden(MessageListModel::LockColumn));
        QVERIFY(again.header()->isSectionHidden(MessageListModel::SubjectColumn));
    }

    // In the narrow dead-letter list of a 1024-wide window, a long description ends in view,
    // elided, with the whole text in its tooltip; the reason gives it the room (its tooltip too).
    void longDescriptionEndsInViewWithItsTooltip() {
        TransferEnv env;
        const QString reason = QStringLiteral("PaymentDeclinedByTheUpstreamProvider");
        const QString description =
            QStringLiteral("The payment provider declined the card after three attempts; the "
                           "order stays open until the customer chooses another way to pay");
        env.deadLetter(kQueue, 1, reason, description);
        DeadLetterPanel panel(*env.client);
        panel.resize(620, kPanelHeight);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
        QTableView* view = panel.view();
        QTRY_COMPARE(view->model()->rowCount(), 1);
        QHeaderView* header = view->horizontalHeader();
        QTRY_VERIFY(columnInView(header, MessageViewModel::DeadLetterDescriptionColumn));
        QVERIFY(columnInView(header, MessageViewModel::DeadLetterReasonColumn));
        // Narrower than its text: elided, whole in the tooltip.
        QVERIFY(header->sectionSize(MessageViewModel::DeadLetterDescriptionColumn) <
                view->fontMetrics().horizontalAdvance(description));
        const QModelIndex row = view->model()->index(0, 0);
        QCOMPARE(row.siblingAtColumn(MessageViewModel::DeadLetterDescriptionColumn)
                     .data(Qt::ToolTipRole)
                     .toString(),
                 description);
        QCOMPARE(
            row.siblingAtColumn(MessageViewModel::DeadLetterReasonColumn).data(Qt::ToolTipRole),
            QVariant(reason));
    }

    void moveToTakesDeadLettersElsewhere() {
        TransferEnv env;
        env.deadLetter(kQueue, 2, QStringLiteral("Poison"), QStringLiteral("bad"));
        ShownDeadLetters list(env);
        QTRY_COMPARE(list.panel.view()->model()->rowCount(), 2);
        list.panel.view()->selectAll();
        QAction* move = contextCommand(list.panel.view(), QStringLiteral("moveMessagesAction"));
        QVERIFY(move && move->isEnabled());
        QString status;
        connect(&list.panel, &DeadLetterPanel::statusMessage,
                [&status](const QString& text) { status = text; });
        move->trigger();
        QVERIFY(pickEntity(list.panel, kTarget));
        QTRY_COMPARE(env.counts(kTarget).active, 2);
        QCOMPARE(env.counts(kQueue).deadLettered, 0);
        QTRY_COMPARE(status, QStringLiteral("Moved 2 messages to 'b'."));
    }

    void copyToFromTheOwnerResubmitsACopy() {
        TransferEnv env;
        env.deadLetter(kQueue, 1, QStringLiteral("Poison"), QStringLiteral("bad"));
        ShownDeadLetters list(env);
        QTRY_COMPARE(list.panel.view()->model()->rowCount(), 1);
        list.panel.view()->selectAll();
        QAction* copy = contextCommand(list.panel.view(), QStringLiteral("copyMessagesAction"));
        QVERIFY(copy);
        copy->trigger();
        QVERIFY(pickEntity(list.panel, QStringLiteral("orders (resubmit)")));
        QTRY_COMPARE(env.counts(kQueue).active, 1);
    }

    void emptyQueueHintsAtMovingMessages() {
        TransferEnv env;
        ShownDeadLetters list(env);
        auto* hint = list.panel.findChild<QLabel*>(QStringLiteral("deadLetterHint"));
        QVERIFY(hint);
        QTRY_VERIFY(hint->isVisible());
        QVERIFY(hint->text().contains(QStringLiteral("Drag messages onto an entity to move them")));
        env.deadLetter(kQueue, 1, QStringLiteral("Poison"), QStringLiteral("bad"));
        QTRY_VERIFY(!hint->isVisible());
        // Where there is no dead-letter queue, the hint would mislead.
        list.panel.setEntity(QStringLiteral("test:t"), Kind::Topic);
        QVERIFY(!hint->isVisible());
    }
};

QTEST_MAIN(TestUiDeadLetterColumns)
#include "tst_ui_deadletter_columns.moc"
