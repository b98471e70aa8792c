#include "messages/MessageSelection.h"

#include "common/BrokerClient.h"
#include "common/SequenceGather.h"
#include "messages/MessageListModel.h"

#include <QItemSelectionModel>
#include <QSet>
#include <QTableView>

#include <algorithm>

namespace hourglass::ui {

MessageSelection::MessageSelection(const QTableView& view, const MessageListModel& windowed)
    : m_view(view)
    , m_windowed(windowed) {}

bool MessageSelection::showsWindowed() const {
    return m_view.model() == &m_windowed;
}

QList<SelectedMessage> MessageSelection::inHand() const {
    QList<SelectedMessage> out;
    QSet<qint64> seen;
    const QAbstractItemModel* model = m_view.model();
    const int pageSize = MessageListModel::kPageSize;
    for (const QItemSelectionRange& range : m_view.selectionModel()->selection()) {
        for (int row = range.top(); row <= range.bottom(); ++row) {
            if (showsWindowed() && !m_windowed.isRowLoaded(row)) {
                row = (row / pageSize + 1) * pageSize - 1; // skip the page: nothing in hand
                continue;
            }
            auto raw = [&](int column) { return model->index(row, column).data(Qt::UserRole); };
            const QVariant seq = raw(MessageListModel::SequenceNumberColumn);
            if (!seq.isValid() || seen.contains(seq.toLongLong()))
                continue;
            seen.insert(seq.toLongLong());
            out.append({seq.toLongLong(), raw(MessageListModel::MessageIdColumn).toString(),
                        raw(MessageListModel::StateColumn).toInt() ==
                            int(MessageListModel::RowState::Scheduled)});
        }
    }
    return out;
}

qint64 MessageSelection::selectedRows() const {
    qint64 count = 0;
    for (const QItemSelectionRange& range : m_view.selectionModel()->selection())
        count += range.height();
    return count;
}

bool MessageSelection::reachesPastLoaded() const {
    // Every row read is selected (select all) while more are still to be read.
    const int rows = m_windowed.rowCount();
    return showsWindowed() && m_windowed.pagesForward() && m_windowed.canFetchMore() && rows > 0 &&
           selectedRows() == rows;
}

qint64 MessageSelection::count() const {
    if (reachesPastLoaded())
        return std::max<qint64>(m_windowed.total(), m_windowed.rowCount());
    return selectedRows();
}

void MessageSelection::resolve(BrokerClient& client, QObject* context,
                               std::function<void(Result<QList<qint64>>)> done) const {
    const QList<SelectedMessage> rows = inHand();
    if (reachesPastLoaded()) {
        // Every message of the path, read page by page (a namespace without a sequence index).
        SequenceGather::start(client, context, m_windowed.path(), std::move(done));
        return;
    }
    if (!showsWindowed() || rows.size() == count()) {
        QList<qint64> sequenceNumbers;
        for (const SelectedMessage& row : rows)
            sequenceNumbers.append(row.sequenceNumber);
        done(sequenceNumbers);
        return;
    }
    // Rows the window has not loaded: read every sequence number of the path (memory only in the
    // engine) and take the selected rows, unless the list moved since the view last read it.
    QList<QPair<int, int>> ranges;
    for (const QItemSelectionRange& range : m_view.selectionModel()->selection())
        ranges.append({range.top(), range.bottom()});
    client.call(
        context,
        [path = m_windowed.path(), total = m_windowed.total(),
         ranges](Broker& broker) -> Result<QList<qint64>> {
            auto index = broker.sequenceIndex(path, 1);
            if (!index)
                return index.error();
            if (index->total != total)
                return makeError(ErrorCode::GeneralError,
                                 QStringLiteral("The list changed while the rows were selected; "
                                                "select them again"));
            QList<qint64> out;
            QSet<qint64> seen;
            for (const auto& [top, bottom] : ranges)
                for (int row = top; row <= bottom && row < index->anchors.size(); ++row)
                    if (!seen.contains(index->anchors[row])) {
                        seen.insert(index->anchors[row]);
                        out.append(index->anchors[row]);
                    }
            return out;
        },
        std::move(done));
}

} // namespace hourglass::ui
