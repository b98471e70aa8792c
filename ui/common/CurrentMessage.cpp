#include "common/CurrentMessage.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>

namespace hourglass::ui {

QModelIndex selectedCurrentIndex(const QAbstractItemView& view) {
    const QItemSelectionModel* selection = view.selectionModel();
    if (!selection)
        return {};
    const QModelIndex current = selection->currentIndex();
    if (!current.isValid() || !selection->isRowSelected(current.row(), current.parent()))
        return {};
    return current;
}

void watchCurrentRow(const QAbstractItemView& view, QObject* context,
                     const std::function<void()>& changed) {
    if (QItemSelectionModel* selection = view.selectionModel()) {
        QObject::connect(selection, &QItemSelectionModel::currentRowChanged, context, changed);
        QObject::connect(selection, &QItemSelectionModel::selectionChanged, context, changed);
    }
    QAbstractItemModel* model = view.model();
    if (!model)
        return;
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, context, changed);
    QObject::connect(model, &QAbstractItemModel::rowsInserted, context, changed);
    QObject::connect(model, &QAbstractItemModel::modelReset, context, changed);
    QObject::connect(model, &QAbstractItemModel::layoutChanged, context, changed);
    QObject::connect(model, &QAbstractItemModel::dataChanged, context, changed);
}

} // namespace hourglass::ui
