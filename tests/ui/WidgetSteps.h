#pragma once
// What the window's flow tests do to widgets, found by object name: whether a control can be
// pressed, pressing it, the dialog a step opened (dialogs open non-blocking), and selecting
// table rows by what they show.

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QItemSelectionModel>
#include <QString>
#include <QTableView>

namespace hourglass::testing {

// Whether the control named `name` under `root` can be pressed now.
inline bool pressable(QObject* root, const QString& name) {
    if (auto* button = root->findChild<QAbstractButton*>(name))
        return button->isEnabled();
    if (auto* action = root->findChild<QAction*>(name))
        return action->isEnabled();
    return false;
}

// Presses the control named `name` under `root`: an action is triggered, a button clicked.
inline bool press(QObject* root, const QString& name) {
    if (auto* button = root->findChild<QAbstractButton*>(name); button && button->isEnabled()) {
        button->click();
        return true;
    }
    if (auto* action = root->findChild<QAction*>(name); action && action->isEnabled()) {
        action->trigger();
        return true;
    }
    return false;
}

// The visible top-level dialog with this object name.
inline QDialog* openDialog(const QString& name) {
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (auto* dialog = qobject_cast<QDialog*>(widget);
            dialog && dialog->objectName() == name && dialog->isVisible())
            return dialog;
    return nullptr;
}

// Selects every row of `view` whose model column `column` displays `text`.
inline void selectRowWith(QTableView* view, int column, const QString& text) {
    QAbstractItemModel* model = view->model();
    view->clearSelection();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->data(model->index(row, column)).toString() == text) {
            view->selectionModel()->select(model->index(row, 0),
                                           QItemSelectionModel::Select | QItemSelectionModel::Rows);
            view->selectionModel()->setCurrentIndex(model->index(row, 0),
                                                    QItemSelectionModel::NoUpdate);
        }
}

} // namespace hourglass::testing
