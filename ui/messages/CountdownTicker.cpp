#include "messages/CountdownTicker.h"

#include <QAbstractItemModel>
#include <QTableView>

namespace hourglass::ui {

CountdownTicker::CountdownTicker(QTableView* view, int intervalMs, QObject* parent)
    : QObject(parent)
    , m_view(view) {
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &CountdownTicker::tick);
}

std::pair<int, int> CountdownTicker::visibleRows(const QTableView& view) {
    const QAbstractItemModel* model = view.model();
    const int rows = model ? model->rowCount() : 0;
    if (rows == 0)
        return {0, -1};
    const int top = view.rowAt(0);
    if (top < 0)
        return {0, -1};
    const int bottom = view.rowAt(view.viewport()->height() - 1);
    // Past the last row the viewport shows empty space: the last row is the bottom one.
    return {top, bottom < 0 ? rows - 1 : bottom};
}

void CountdownTicker::tick() {
    // A hidden view repaints nothing, so it needs no updates.
    if (!m_view || !m_view->isVisible())
        return;
    const auto [first, last] = visibleRows(*m_view);
    if (first <= last)
        emit visibleRowsDue(first, last);
}

} // namespace hourglass::ui
