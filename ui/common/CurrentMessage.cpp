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

QList<QMetaObject::Connection> watchCurrentRow(const QAbstractItemView& view, QObject* context,
                                               const std::function<void()>& changed) {
    QList<QMetaObject::Connection> made;
    if (QItemSelectionModel* selection = view.selectionModel()) {
        made << QObject::connect(selection, &QItemSelectionModel::currentRowChanged, context,
                                 changed);
        made << QObject::connect(selection, &QItemSelectionModel::selectionChanged, context,
                                 changed);
    }
    QAbstractItemModel* model = view.model();
    if (!model)
        return made;
    made << QObject::connect(model, &QAbstractItemModel::rowsRemoved, context, changed);
    made << QObject::connect(model, &QAbstractItemModel::rowsInserted, context, changed);
    made << QObject::connect(model, &QAbstractItemModel::modelReset, context, changed);
    made << QObject::connect(model, &QAbstractItemModel::layoutChanged, context, changed);
    made << QObject::connect(model, &QAbstractItemModel::dataChanged, context, changed);
    return made;
}

} // namespace hourglass::ui
