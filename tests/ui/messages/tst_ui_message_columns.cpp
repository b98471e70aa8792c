// The Messages and Peek tables' columns (ordered for browsing, sized to their content, hidden,
// shown and reordered by the user and remembered), their Move to… and Copy to… commands, and
// the empty list's hint about moving messages.
#include "ColumnsTestEnv.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "messages/PeekPanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::MessageListModel;
using hourglass::ui::MessageListPanel;
using hourglass::ui::PeekPanel;

namespace {
struct ShownList {
    MessageListPanel panel;
    explicit ShownList(TransferEnv& env, const QString& path = QStringLiteral("test:orders"))
        : panel(*env.client) {
        panel.resize(kWorkspaceWidth, kPanelHeight);
        panel.show();
        panel.setPath(path);
    }
    QHeaderView* header() { return panel.view()->horizontalHeader(); }
};

void selectAll(QTableView* view) {
    view->setFocus();
    QTest::keyClick(view, Qt::Key_A, Qt::ControlModifier);
}
} // namespace

class TestUiMessageColumns : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }
    void init() { forgetColumns(); }

    void listPutsTimeToLiveNextToTheIdInView() {
        TransferEnv env;
        env.sendTo(kQueue, 1);
        ShownList list(env);
        QTRY_COMPARE(list.panel.model()->total(), 1);
        QHeaderView* header = list.header();
        QCOMPARE(header->visualIndex(MessageListModel::TimeToLiveColumn),
                 header->visualIndex(MessageListModel::MessageIdColumn) + 1);
        QVERIFY(columnInView(header, MessageListModel::TimeToLiveColumn));
        QVERIFY(columnInView(header, MessageListModel::StateColumn));
        // "expired, held by lock" is drawn bold after the lock glyph: never cut.
        QFont bold = list.panel.view()->font();
        bold.setBold(true);
        QVERIFY(header->sectionSize(MessageListModel::TimeToLiveColumn) >
                QFontMetrics(bold).horizontalAdvance(QStringLiteral("expired, held by lock")) + 18);
    }

    void hiddenColumnStaysHiddenInANewPanelAndAfterFiltering() {
        TransferEnv env;
        {
            ShownList list(env);
            QAction* subject = columnToggle(list.header(), MessageListModel::SubjectColumn);
            QVERIFY(subject);
            QVERIFY(subject->isChecked());
            subject->trigger(); // unchecks: hides the column
            QVERIFY(list.header()->isSectionHidden(MessageListModel::SubjectColumn));
        }
        ShownList again(env);
        QVERIFY(again.header()->isSectionHidden(MessageListModel::SubjectColumn));
        QVERIFY(!columnToggle(again.header(), MessageListModel::SubjectColumn)->isChecked());
        // The filtered mode's model resets the header: the choice holds there too.
        auto* filter = again.panel.findChild<QLineEdit*>(QStringLiteral("messageFilter"));
        filter->setText(QStringLiteral("*"));
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY(again.panel.isFiltered());
        QVERIFY(again.header()->isSectionHidden(MessageListModel::SubjectColumn));
        QVERIFY(!again.header()->isSectionHidden(MessageListModel::StateColumn));

        headerCommand(again.header(), QStringLiteral("resetColumns"))->trigger();
        QVERIFY(!again.header()->isSectionHidden(MessageListModel::SubjectColumn));
        ShownList reset(env);
        QVERIFY(!reset.header()->isSectionHidden(MessageListModel::SubjectColumn));
    }

    void movedColumnKeepsItsPlaceInANewPanel() {
        TransferEnv env;
        {
            ShownList list(env);
            QHeaderView* header = list.header();
            QVERIFY(header->sectionsMovable());
            // What dragging the Enqueued header to the front does.
            header->moveSection(header->visualIndex(MessageListModel::EnqueuedColumn), 0);
        }
        ShownList again(env);
        QCOMPARE(again.header()->visualIndex(MessageListModel::EnqueuedColumn), 0);
        QCOMPARE(again.header()->visualIndex(MessageListModel::SequenceNumberColumn), 1);
    }

    void moveToFromTheContextMenuMovesTheSelection() {
        TransferEnv env;
        env.sendTo(kQueue, 3);
        ShownList list(env);
        QTRY_COMPARE(list.panel.model()->total(), 3);
        QAction* move = contextCommand(list.panel.view(), QStringLiteral("moveMessagesAction"));
        QVERIFY(move);
        QVERIFY(!move->isEnabled()); // nothing selected
        QTRY_VERIFY(list.panel.model()->isRowLoaded(2));
        selectAll(list.panel.view());
        QTRY_VERIFY(move->isEnabled());
        QString status;
        connect(&list.panel, &MessageListPanel::statusMessage,
                [&status](const QString& text) { status = text; });
        move->trigger();
        QVERIFY(pickEntity(list.panel, kTarget));
        QTRY_COMPARE(env.counts(kTarget).active, 3);
        QCOMPARE(env.counts(kQueue).active, 0);
        QTRY_COMPARE(status, QStringLiteral("Moved 3 messages to 'b'."));
    }

    void copyToFromTheContextMenuCopiesTheSelection() {
        TransferEnv env;
        env.sendTo(kQueue, 2);
        ShownList list(env);
        QTRY_COMPARE(list.panel.model()->total(), 2);
        QTRY_VERIFY(list.panel.model()->isRowLoaded(1));
        selectAll(list.panel.view());
        QAction* copy = contextCommand(list.panel.view(), QStringLiteral("copyMessagesAction"));
        QVERIFY(copy);
        QTRY_VERIFY(copy->isEnabled());
        copy->trigger();
        QVERIFY(pickEntity(list.panel, kTarget));
        QTRY_COMPARE(env.counts(kTarget).active, 2);
        QCOMPARE(env.counts(kQueue).active, 2);
    }

    void pickerMarksTheSourceEntity() {
        TransferEnv env;
        env.sendTo(kQueue, 1);
        ShownList list(env);
        QTRY_VERIFY(list.panel.model()->isRowLoaded(0));
        selectAll(list.panel.view());
        QAction* move = contextCommand(list.panel.view(), QStringLiteral("moveMessagesAction"));
        QVERIFY(move);
        move->trigger();
        ui::EntityPickerDialog* picker = nullptr;
        QTRY_VERIFY((picker = list.panel.findChild<ui::EntityPickerDialog*>(
                         QStringLiteral("entityPicker"))));
        auto* entities = picker->findChild<QTreeWidget*>(QStringLiteral("entityPickerList"));
        QTRY_VERIFY(
            !entities->findItems(QStringLiteral("orders (here)"), Qt::MatchExactly).isEmpty());
        QVERIFY(!picker->select(QStringLiteral("test:orders")));
        QVERIFY(picker->select(QStringLiteral("test:b")));
        picker->reject();
    }

    void peekMovesTheSelectionToo() {
        TransferEnv env;
        env.sendTo(kQueue, 2);
        PeekPanel panel(*env.client);
        panel.resize(kWorkspaceWidth, kPanelHeight);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), PeekPanel::NodeKind::Queue);
        QTRY_COMPARE(panel.view()->model()->rowCount(), 2);
        QHeaderView* header = panel.view()->horizontalHeader();
        QCOMPARE(header->visualIndex(MessageListModel::TimeToLiveColumn),
                 header->visualIndex(MessageListModel::MessageIdColumn) + 1);
        selectAll(panel.view());
        QAction* move = contextCommand(panel.view(), QStringLiteral("moveMessagesAction"));
        QVERIFY(move && move->isEnabled());
        move->trigger();
        QVERIFY(pickEntity(panel, kTarget));
        QTRY_COMPARE(env.counts(kTarget).active, 2);
        QCOMPARE(env.counts(kQueue).active, 0);
    }

    void emptyListHintsAtMovingMessages() {
        TransferEnv env;
        ShownList list(env);
        auto* hint = list.panel.findChild<QLabel*>(QStringLiteral("messageListHint"));
        QVERIFY(hint);
        QTRY_VERIFY(hint->isVisible());
        QVERIFY(hint->text().contains(QStringLiteral("Drag messages onto an entity to move them")));
        QVERIFY(hint->text().contains(QStringLiteral("Ctrl to copy")));
        env.sendTo(kQueue, 1);
        QTRY_VERIFY(!hint->isVisible());
        QVERIFY(list.panel.view()->isVisible());
    }
};

QTEST_MAIN(TestUiMessageColumns)
#include "tst_ui_message_columns.moc"
