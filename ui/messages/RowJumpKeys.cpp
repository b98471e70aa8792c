#include "messages/RowJumpKeys.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QTableView>

namespace hourglass::ui {

RowJumpKeys::RowJumpKeys(QTableView* view)
    : QObject(view)
    , m_view(view) {
    view->installEventFilter(this);
}

bool RowJumpKeys::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_view || event->type() != QEvent::KeyPress)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const Qt::KeyboardModifiers modifiers =
        key->modifiers() & ~Qt::KeyboardModifiers(Qt::KeypadModifier); // the keypad's too
    if (key->key() != Qt::Key_Home && key->key() != Qt::Key_End)
        return false;
    if (modifiers != Qt::ControlModifier && modifiers != (Qt::ControlModifier | Qt::ShiftModifier))
        return false;
    jump(key->key() == Qt::Key_End, modifiers.testFlag(Qt::ShiftModifier));
    return true;
}

void RowJumpKeys::jump(bool toLast, bool extend) {
    QAbstractItemModel* model = m_view->model();
    QItemSelectionModel* selection = m_view->selectionModel();
    if (!model || !selection || model->rowCount() == 0)
        return;
    const QModelIndex current = selection->currentIndex();
    // The column the user is in; with none, the first one shown.
    int column = current.isValid() ? current.column() : -1;
    const QHeaderView* header = m_view->horizontalHeader();
    for (int visual = 0; (column < 0 || m_view->isColumnHidden(column)) && visual < header->count();
         ++visual)
        column = header->logicalIndex(visual);
    const int row = toLast ? model->rowCount() - 1 : 0;
    const QModelIndex target = model->index(row, std::max(column, 0));
    const auto rows = QItemSelectionModel::Rows;
    if (extend && current.isValid()) {
        const int from = current.row();
        const QItemSelection span(model->index(std::min(from, row), 0),
                                  model->index(std::max(from, row), model->columnCount() - 1));
        selection->setCurrentIndex(target, QItemSelectionModel::NoUpdate);
        selection->select(span, QItemSelectionModel::ClearAndSelect | rows);
    } else {
        selection->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect | rows);
    }
    m_view->scrollTo(target);
}

} // namespace hourglass::ui
