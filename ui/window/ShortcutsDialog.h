#pragma once
// Help > Keyboard shortcuts: every action of the window that has a shortcut, grouped by where it
// works (menus work everywhere; a panel's work while the panel has focus), read from the actions
// themselves so that the list can never drift from what the keys do.
//
// Object names for tests: "shortcutsDialog", "shortcutsTable".

#include <QDialog>
#include <QList>
#include <QPair>

class QAction;
class QTableView;

namespace hourglass::ui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    // Groups of (where, actions); actions without a shortcut are left out.
    using Groups = QList<QPair<QString, QList<QAction*>>>;
    explicit ShortcutsDialog(const Groups& groups, QWidget* parent = nullptr);

private:
    void sizeToTable(QTableView* table, QWidget* parent);
};

} // namespace hourglass::ui
