#include "tree/EntityPanel.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>

namespace hourglass::ui {

qint64 EntityPanel::selectedRowCountOf(const QAbstractItemView& view) {
    const QItemSelectionModel* selection = view.selectionModel();
    return selection ? selection->selectedRows().size() : 0;
}

} // namespace hourglass::ui
