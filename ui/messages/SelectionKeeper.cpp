#include "messages/SelectionKeeper.h"

#include "messages/MessageListModel.h"

#include <QItemSelectionModel>
#include <QTableView>

#include <algorithm>
#include <utility>

namespace hourglass::ui {

SelectionKeeper::SelectionKeeper(QTableView& view, MessageListModel& model)
    : QObject(&view)
    , m_view(view)
    , m_model(model) {
    connect(&model, &MessageListModel::rowsAboutToShift, this, &SelectionKeeper::capture);
    connect(&model, &MessageListModel::rowsShifted, this, &SelectionKeeper::restore);
}

void SelectionKeeper::capture(int firstRow) {
    m_captured = false;
    m_selected.clear();
    m_firstDropped = -1;
    m_currentRow = -1;
    m_current.reset();
    QItemSelectionModel* selection = m_view.selectionModel();
    if (m_view.model() != &m_model || !selection)
        return;
    m_captured = true;
    auto messageAt = [this](int row) -> std::optional<qint64> {
        if (!m_model.isRowLoaded(row))
            return std::nullopt; // reading it would ask for its page
        const QVariant seq =
            m_model.index(row, MessageListModel::SequenceNumberColumn).data(Qt::UserRole);
        return seq.isValid() ? std::optional<qint64>(seq.toLongLong()) : std::nullopt;
    };
    const int pageSize = MessageListModel::kPageSize;
    for (const QItemSelectionRange& range : selection->selection()) {
        if (range.bottom() < firstRow)
            continue;
        const int top = std::max(range.top(), firstRow);
        m_firstDropped = m_firstDropped < 0 ? top : std::min(m_firstDropped, top);
        for (int row = top; row <= range.bottom(); ++row) {
            if (!m_model.isRowLoaded(row)) {
                row = (row / pageSize + 1) * pageSize - 1; // a page not in hand: skip it
                continue;
            }
            if (const auto seq = messageAt(row))
                m_selected.append(*seq);
        }
    }
    const QModelIndex current = selection->currentIndex();
    if (current.isValid() && current.row() >= firstRow) {
        m_currentRow = current.row();
        m_currentColumn = current.column();
        m_current = messageAt(current.row());
    }
}

void SelectionKeeper::restore(int firstRow) {
    if (!std::exchange(m_captured, false))
        return;
    QItemSelectionModel* selection = m_view.selectionModel();
    if (m_view.model() != &m_model || !selection)
        return;
    const int lastColumn = m_model.columnCount() - 1;
    auto rowRange = [this, lastColumn](int top, int bottom) {
        return QItemSelectionRange(m_model.index(top, 0), m_model.index(bottom, lastColumn));
    };
    // The rows before the first shifted one hold what they held.
    QItemSelection kept;
    for (const QItemSelectionRange& range : selection->selection())
        if (range.top() < firstRow)
            kept.append(rowRange(range.top(), std::min(range.bottom(), firstRow - 1)));
    // The messages picked after it, where they are now (consecutive rows as one range).
    const QHash<qint64, int> rows = m_model.loadedRows();
    QList<int> found;
    for (qint64 seq : std::as_const(m_selected))
        if (const auto row = rows.constFind(seq); row != rows.constEnd())
            found.append(*row);
    std::sort(found.begin(), found.end());
    for (qsizetype i = 0; i < found.size();) {
        qsizetype j = i;
        while (j + 1 < found.size() && found[j + 1] == found[j] + 1)
            ++j;
        kept.append(rowRange(found[i], found[j]));
        i = j + 1;
    }
    if (kept != selection->selection())
        selection->select(kept, QItemSelectionModel::ClearAndSelect);

    if (m_currentRow < 0 || m_model.rowCount() == 0)
        return;
    int row = std::min(m_firstDropped >= 0 ? m_firstDropped : m_currentRow, m_currentRow);
    bool followed = false;
    if (m_current)
        if (const auto moved = rows.constFind(*m_current); moved != rows.constEnd()) {
            row = *moved;
            followed = true;
        }
    row = std::min(row, m_model.rowCount() - 1);
    const QModelIndex target = m_model.index(row, m_currentColumn);
    if (target == selection->currentIndex())
        return;
    // A current row following its message must not scroll the list away from where the user
    // reads (the view scrolls to a new current row by itself); the neighbour of messages that
    // left is shown.
    const bool autoScroll = m_view.hasAutoScroll();
    m_view.setAutoScroll(false);
    selection->setCurrentIndex(target, QItemSelectionModel::NoUpdate);
    m_view.setAutoScroll(autoScroll);
    if (!followed)
        m_view.scrollTo(target);
}

} // namespace hourglass::ui
