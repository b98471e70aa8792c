#pragma once
// For the column and Move to… / Copy to… tests of every folder: the dead-letter Env ("orders",
// topic "t" with "s1" and "s2") plus an empty queue "b" to move messages to, settings kept out
// of the user's (and emptied of remembered columns), and the steps a user takes: a header menu
// command, a context menu command, a pick in the entity picker.

#include "DeadLetterTestEnv.h"
#include "DragDropTestEnv.h"
#include "common/ColumnLayout.h"
#include "common/EntityPickerDialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

namespace hourglass::testing::columns {

using namespace hourglass::testing::deadletter;

using dragdrop::kTarget;

// The workspace's share of a 1280x800 window (the splitter starts at 500 | 780), less the
// tab's frame; and the tree's.
constexpr int kWorkspaceWidth = 760;
constexpr int kTreeWidth = 500;
constexpr int kPanelHeight = 500;

// Settings in a test location, and no remembered columns from an earlier test. The settings
// file is named after the test program (the application name): ctest -j runs programs side
// by side, and one's forgetColumns() must not wipe what another just remembered.
inline void isolateSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
}
inline void forgetColumns() {
    QSettings().remove(QStringLiteral("columns"));
}

// Moves and copies go to the drag-and-drop tests' queue "b", with their way to fill a queue.
using TransferEnv = dragdrop::DropEnv;

// The header menu's command (ColumnLayout), checked to be on the header's context menu.
inline QAction* headerCommand(QHeaderView* header, const QString& name) {
    for (QAction* action : header->actions())
        if (action->objectName() == name)
            return action;
    return nullptr;
}
inline QAction* columnToggle(QHeaderView* header, int column) {
    return headerCommand(header, QStringLiteral("showColumn%1").arg(column));
}

// A command of a view's context menu.
inline QAction* contextCommand(QAbstractItemView* view, const QString& name) {
    if (view->contextMenuPolicy() != Qt::ActionsContextMenu)
        return nullptr;
    for (QAction* action : view->actions())
        if (action->objectName() == name)
            return action;
    return nullptr;
}

// Whether a column is wholly in the view's viewport (no scrolling needed to read it).
inline bool columnInView(QHeaderView* header, int column) {
    const int left = header->sectionViewportPosition(column);
    return !header->isSectionHidden(column) && left >= 0 &&
           left + header->sectionSize(column) <= header->viewport()->width();
}

// In the entity picker `panel` opened: clicks the row of `name` (a queue or topic path), then
// the Move or Copy button.
inline bool pickEntity(QWidget& panel, const QString& name) {
    ui::EntityPickerDialog* picker = nullptr;
    if (!QTest::qWaitFor([&] {
            picker = panel.findChild<ui::EntityPickerDialog*>(QStringLiteral("entityPicker"));
            return picker && picker->isVisible();
        }))
        return false;
    auto* list = picker->findChild<QTreeWidget*>(QStringLiteral("entityPickerList"));
    QTreeWidgetItem* item = nullptr;
    if (!QTest::qWaitFor([&] {
            const auto found = list->findItems(name, Qt::MatchExactly | Qt::MatchRecursive);
            item = found.isEmpty() ? nullptr : found.first();
            return item != nullptr;
        }))
        return false;
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
    auto* accept = picker->findChild<QPushButton*>(QStringLiteral("entityPickerAccept"));
    if (!accept->isEnabled())
        return false;
    QTest::mouseClick(accept, Qt::LeftButton);
    return true;
}

} // namespace hourglass::testing::columns
