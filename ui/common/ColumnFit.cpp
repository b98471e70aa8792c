#include "common/ColumnFit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace hourglass::ui {

ColumnFit::ColumnFit(QTableView* view, int logicalColumn, int minWidth, QList<int> givingWay)
    : QObject(view)
    , m_view(view)
    , m_column(logicalColumn)
    , m_minWidth(minWidth)
    , m_givingWay(std::move(givingWay)) {
    QHeaderView* header = view->horizontalHeader();
    view->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (m_fitting)
            return;
        // Only a drag of the header's handle is the user's choice.
        if (column == m_column && QGuiApplication::mouseButtons().testFlag(Qt::LeftButton))
            m_userSized = true;
        else
            QTimer::singleShot(0, this, &ColumnFit::fit); // a column before it changed
    });
    connect(header, &QHeaderView::sectionMoved, this, &ColumnFit::fit);
    if (QAbstractItemModel* model = view->model()) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ColumnFit::fit);
        connect(model, &QAbstractItemModel::modelReset, this, &ColumnFit::fit);
        connect(model, &QAbstractItemModel::layoutChanged, this, &ColumnFit::fit);
    }
}

bool ColumnFit::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fit();
    return false;
}

void ColumnFit::fit() {
    QHeaderView* header = m_view->horizontalHeader();
    if (m_userSized || header->isSectionHidden(m_column))
        return;
    m_fitting = true;
    // From where the column starts to the viewport's right edge.
    const auto room = [&] {
        return m_view->viewport()->width() - header->sectionPosition(m_column);
    };
    for (int giver : m_givingWay) {
        const int deficit = m_minWidth - room();
        if (deficit <= 0)
            break;
        if (header->isSectionHidden(giver) ||
            header->visualIndex(giver) > header->visualIndex(m_column))
            continue;
        const int size = header->sectionSize(giver);
        header->resizeSection(giver, std::max(m_minWidth, size - deficit));
    }
    // Its content when that is narrower than the room (QTableView hides what its base shows).
    const int content =
        std::max(m_minWidth, static_cast<QAbstractItemView*>(m_view)->sizeHintForColumn(m_column));
    const int width = std::max(m_minWidth, std::min(room(), content));
    if (width != header->sectionSize(m_column))
        header->resizeSection(m_column, width);
    m_fitting = false;
}

} // namespace hourglass::ui
