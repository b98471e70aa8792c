#include "messages/MessageListModel.h"

#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "common/MessagePaging.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageColumns.h"

#include <QDateTime>

#include <algorithm>
#include <limits>

namespace hourglass::ui {

namespace {

const QString kPlaceholder = QStringLiteral("…");

} // namespace

// What one background refresh read: the index and the pages the window held.
struct MessageListModel::Snapshot {
    bool ok = false;
    QString error;
    qint64 total = 0;
    QList<qint64> anchors;
    Millis lockDuration = 0;
    bool requiresSession = false;
    QHash<int, QList<MessageView>> pages;
    // Forward paging: how many rows the pages hold, and whether another page may follow.
    int rows = 0;
    bool more = false;
};

namespace {

// The entity's lock duration and whether it requires sessions, when it can be read.
void readEntity(const Broker& broker, const QString& path, Millis& lockDuration,
                bool& requiresSession) {
    if (auto info = broker.entity(EntityPath::of(path).owner().toString())) {
        lockDuration = info->properties.lockDuration;
        requiresSession = info->properties.requiresSession;
    }
}

} // namespace

MessageListModel::MessageListModel(BrokerClient& client, QObject* parent)
    : QAbstractTableModel(parent)
    , m_client(client) {
    connect(&m_client, &BrokerClient::changed, this, &MessageListModel::onChanged);
}

void MessageListModel::setPath(const QString& qualifiedPath) {
    beginResetModel();
    m_path = qualifiedPath;
    ++m_pathGeneration;
    ++m_generation;
    m_indexLoaded = false;
    m_total = 0;
    m_anchors.clear();
    m_lockDuration = 0;
    m_requiresSession = false;
    m_forward = !m_client.capabilities().hostsDatabase;
    m_more = false;
    m_forwardRows = 0;
    m_lastError.clear();
    m_pages.clear();
    m_pageUse.clear();
    m_pageRequests.clear();
    m_ahead = {};
    m_refresh.reset();
    endResetModel();
    emit indexRefreshed();
    refresh();
}

void MessageListModel::refresh() {
    if (m_path.isEmpty())
        return;
    if (!m_refresh.start())
        return;
    const QString path = m_path;
    if (m_forward) {
        // Every page read so far (at least the first), from the start again.
        const int pages = std::max(1, int(m_pages.size()));
        m_client.call(
            this,
            [path, pages](Broker& broker) {
                Snapshot s;
                auto total = listedMessageCount(broker, path);
                if (!total) {
                    s.error = total.error().toString();
                    return s;
                }
                s.ok = true;
                s.total = *total;
                readEntity(broker, path, s.lockDuration, s.requiresSession);
                qint64 from = 0;
                for (int page = 0; page < pages; ++page) {
                    auto rows = readMessagesForward(broker, path, from, kPageSize);
                    if (!rows) {
                        if (page == 0) {
                            s.ok = false;
                            s.error = rows.error().toString();
                        }
                        break; // the pages read stay; fetchMore goes on from them
                    }
                    s.more = rows->size() == kPageSize;
                    if (rows->isEmpty())
                        break;
                    s.anchors.append(rows->first().sequenceNumber);
                    from = rows->last().sequenceNumber + 1;
                    s.rows += int(rows->size());
                    s.pages.insert(page, std::move(rows).value());
                    if (!s.more)
                        break;
                }
                // The counts may lag behind the messages (a remote poll's): never fewer than
                // read, and exactly what was read once the end was reached.
                s.total = s.more ? std::max<qint64>(s.total, s.rows) : s.rows;
                return s;
            },
            [this, generation = m_pathGeneration](Snapshot snapshot) {
                if (generation == m_pathGeneration)
                    applySnapshot(std::move(snapshot));
            });
        return;
    }
    const QList<int> pages = m_pages.keys();
    m_client.call(
        this,
        [path, pages](Broker& broker) {
            Snapshot s;
            auto index = broker.sequenceIndex(path, kPageSize);
            if (!index) {
                s.error = index.error().toString();
                return s;
            }
            s.ok = true;
            s.total = index->total;
            s.anchors = index->anchors;
            readEntity(broker, path, s.lockDuration, s.requiresSession);
            for (int page : pages) {
                if (page >= s.anchors.size())
                    continue;
                auto rows = broker.listMessages(path, s.anchors[page], kPageSize);
                if (rows)
                    s.pages.insert(page, std::move(rows).value());
            }
            return s;
        },
        [this, generation = m_pathGeneration](Snapshot snapshot) {
            if (generation == m_pathGeneration)
                applySnapshot(std::move(snapshot));
        });
}

int MessageListModel::rowsOf(const Snapshot& snapshot) const {
    if (!snapshot.ok)
        return 0;
    if (m_forward)
        return snapshot.rows;
    return int(std::min<qint64>(snapshot.total, std::numeric_limits<int>::max()));
}

void MessageListModel::applySnapshot(Snapshot snapshot) {
    m_refresh.finish();
    ++m_generation; // page replies asked under the old index may hold shifted rows
    m_pageRequests.clear();
    m_ahead = {};

    const int oldRows = rowCount();
    const int shifted = firstShiftedRow(snapshot);
    if (shifted < oldRows)
        emit rowsAboutToShift(shifted);
    const qint64 newTotal = snapshot.ok ? snapshot.total : 0;
    const int newRows = rowsOf(snapshot);
    auto adopt = [&] {
        m_forwardRows = m_forward ? newRows : 0;
        m_more = m_forward && snapshot.ok && snapshot.more;
        m_indexLoaded = true;
        m_total = newTotal;
        m_anchors = snapshot.ok ? snapshot.anchors : QList<qint64>{};
        m_lockDuration = snapshot.lockDuration;
        m_requiresSession = snapshot.requiresSession;
        m_lastError = snapshot.error;
        m_pages = std::move(snapshot.pages);
        m_pageUse.removeIf([this](int page) { return !m_pages.contains(page); });
    };
    if (newRows > oldRows) {
        beginInsertRows({}, oldRows, newRows - 1);
        adopt();
        endInsertRows();
    } else if (newRows < oldRows) {
        beginRemoveRows({}, newRows, oldRows - 1);
        adopt();
        endRemoveRows();
    } else {
        adopt();
    }
    // Rows that stayed may now hold other messages or states.
    const int kept = std::min(oldRows, newRows);
    if (kept > 0)
        emit dataChanged(index(0, 0), index(kept - 1, ColumnCount - 1));
    if (shifted < oldRows)
        emit rowsShifted(shifted);
    emit indexRefreshed();

    startReadAhead();
    if (m_refresh.takeQueued())
        refresh();
}

int MessageListModel::firstShiftedRow(const Snapshot& snapshot) const {
    const int oldRows = rowCount();
    if (!snapshot.ok)
        return 0;
    const int newRows = rowsOf(snapshot);
    const int common = std::min(oldRows, newRows);
    // anchors[p] is the message of row p * kPageSize. Up to the first anchor that differs, those
    // rows kept their messages; a change lies after the last equal anchor.
    const qsizetype anchors = std::min(m_anchors.size(), snapshot.anchors.size());
    qsizetype equal = 0;
    while (equal < anchors && m_anchors[equal] == snapshot.anchors[equal])
        ++equal;
    if (equal == 0)
        return 0;
    // The page of the last equal anchor: where its rows were seen before and read again, compare
    // them; a page not in hand on both sides may have changed anywhere after its anchor. Past
    // it, the next anchor differs (or there is none).
    const int page = int(equal) - 1;
    const int first = page * kPageSize;
    const auto before = m_pages.constFind(page);
    const auto after = snapshot.pages.constFind(page);
    if (before == m_pages.constEnd() || after == snapshot.pages.constEnd())
        return std::min(first + 1, common);
    const qsizetype rows = std::min(before->size(), after->size());
    for (qsizetype offset = 1; offset < rows; ++offset)
        if (before->at(offset).sequenceNumber != after->at(offset).sequenceNumber)
            return std::min(first + int(offset), common);
    return std::min(first + int(rows), common);
}

QHash<qint64, int> MessageListModel::loadedRows() const {
    QHash<qint64, int> rows;
    for (auto page = m_pages.constBegin(); page != m_pages.constEnd(); ++page)
        for (qsizetype offset = 0; offset < page->size(); ++offset)
            rows.insert(page->at(offset).sequenceNumber, page.key() * kPageSize + int(offset));
    return rows;
}

void MessageListModel::onChanged(const ChangeBatch& batch) {
    if (m_path.isEmpty())
        return;
    // A dead-letter queue's counts and properties are its entity's.
    const EntityPath path = EntityPath::of(m_path);
    if (path.messagesChangedIn(batch) || path.entityChangedIn(batch))
        refresh();
}

void MessageListModel::requestPage(int page) const {
    // Forward paging holds every row it counts: pages come only through fetchMore.
    if (m_forward || m_pageRequests.contains(page) || page < 0 || page >= m_anchors.size())
        return;
    m_pageRequests.insert(page);
    // data() is const, but loading a page on demand is what it is for.
    auto* self = const_cast<MessageListModel*>(this);
    const QString path = m_path;
    const qint64 anchor = m_anchors[page];
    m_client.call(
        self,
        [path, anchor](Broker& broker) { return broker.listMessages(path, anchor, kPageSize); },
        [self, page, generation = m_generation](Result<QList<MessageView>> rows) {
            if (generation != self->m_generation)
                return;
            self->m_pageRequests.remove(page);
            if (rows)
                self->applyPage(page, std::move(rows).value());
        });
}

bool MessageListModel::canFetchMore(const QModelIndex& parent) const {
    return m_forward && !parent.isValid() && m_indexLoaded && m_more && m_lastError.isEmpty();
}

void MessageListModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent))
        return;
    const int page = int(m_pages.size());
    if (m_pageRequests.contains(page))
        return;
    m_pageRequests.insert(page);
    const qint64 from = nextForwardSequenceNumber();
    if (m_ahead.page == page && m_ahead.from == from) {
        if (m_ahead.rows) {
            auto rows = std::move(*m_ahead.rows);
            m_ahead = {};
            appendPage(page, from, std::move(rows));
        }
        // Else it is on its way: its answer appends it (startReadAhead).
        return;
    }
    m_client.call(
        this,
        [path = m_path, from](Broker& broker) {
            return readMessagesForward(broker, path, from, kPageSize);
        },
        [this, page, from, generation = m_generation](Result<QList<MessageView>> rows) {
            if (generation == m_generation)
                appendPage(page, from, std::move(rows));
        });
}

qint64 MessageListModel::nextForwardSequenceNumber() const {
    const auto last = m_pages.constFind(int(m_pages.size()) - 1);
    return last == m_pages.constEnd() || last->isEmpty() ? 0 : last->last().sequenceNumber + 1;
}

void MessageListModel::startReadAhead() {
    if (!m_forward || !m_more || !m_lastError.isEmpty() || m_path.isEmpty())
        return;
    const int page = int(m_pages.size());
    const qint64 from = nextForwardSequenceNumber();
    // Already asked for: by the view (fetchMore) or ahead.
    if (m_pageRequests.contains(page) || (m_ahead.page == page && m_ahead.from == from))
        return;
    m_ahead = {page, from, std::nullopt};
    m_client.call(
        this,
        [path = m_path, from](Broker& broker) {
            return readMessagesForward(broker, path, from, kPageSize);
        },
        [this, page, from, generation = m_generation](Result<QList<MessageView>> rows) {
            if (generation != m_generation || m_ahead.page != page || m_ahead.from != from)
                return;
            if (!m_pageRequests.contains(page)) {
                m_ahead.rows = std::move(rows); // the view has not asked yet
                return;
            }
            m_ahead = {}; // the view asked meanwhile and waits for it
            appendPage(page, from, std::move(rows));
        });
}

void MessageListModel::appendPage(int page, qint64 from, Result<QList<MessageView>> rows) {
    // Asked for while the rows were changing (a view asks from inside the model's signals): it
    // no longer follows the last row. The view asks again for what follows now.
    if (page != m_pages.size() || from != nextForwardSequenceNumber()) {
        m_pageRequests.remove(page);
        return;
    }
    if (!rows) {
        m_pageRequests.remove(page);
        // Stop asking (the view would ask again at once); the next refresh starts over.
        m_more = false;
        m_lastError = rows.error().toString();
        emit indexRefreshed();
        return;
    }
    m_more = rows->size() == kPageSize;
    if (!rows->isEmpty()) {
        const int first = m_forwardRows;
        beginInsertRows({}, first, first + int(rows->size()) - 1);
        m_anchors.append(rows->first().sequenceNumber);
        m_forwardRows += int(rows->size());
        m_pages.insert(page, std::move(rows).value());
        m_pageUse.append(page);
        endInsertRows();
    }
    // Only now: a view asking for more from inside the insertion asks for the page after it.
    m_pageRequests.remove(page);
    m_total = m_more ? std::max<qint64>(m_total, m_forwardRows) : m_forwardRows;
    emit indexRefreshed();
    startReadAhead();
}

void MessageListModel::applyPage(int page, QList<MessageView> rows) {
    m_pages.insert(page, std::move(rows));
    touchPage(page);
    while (m_pages.size() > kMaxLoadedPages && !m_pageUse.isEmpty())
        m_pages.remove(m_pageUse.takeFirst());
    const int first = page * kPageSize;
    const int last = std::min(first + kPageSize, rowCount()) - 1;
    if (first <= last)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void MessageListModel::touchPage(int page) const {
    if (!m_pageUse.isEmpty() && m_pageUse.last() == page)
        return;
    m_pageUse.removeOne(page);
    m_pageUse.append(page);
}

const MessageView* MessageListModel::messageAt(int row) const {
    const int page = row / kPageSize;
    const auto found = m_pages.constFind(page);
    if (found == m_pages.constEnd()) {
        requestPage(page);
        return nullptr;
    }
    touchPage(page);
    const int offset = row % kPageSize;
    // Fewer rows than the index promised: messages left since; the next refresh catches up.
    return offset < found->size() ? &found->at(offset) : nullptr;
}

void MessageListModel::refreshCountdowns(int firstRow, int lastRow) {
    firstRow = std::max(firstRow, 0);
    lastRow = std::min(lastRow, rowCount() - 1);
    if (firstRow > lastRow)
        return;
    const QList<int> roles{Qt::DisplayRole, Qt::UserRole, CountdownRole};
    for (int column : {int(TimeToLiveColumn), int(LockColumn)})
        emit dataChanged(index(firstRow, column), index(lastRow, column), roles);
}

int MessageListModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid())
        return 0;
    if (m_forward)
        return m_forwardRows;
    return int(std::min<qint64>(m_total, std::numeric_limits<int>::max()));
}

int MessageListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MessageListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    const MessageView* m = messageAt(index.row());
    if (!m)
        return role == Qt::DisplayRole ? QVariant(kPlaceholder) : QVariant();
    const int column = index.column();
    const Instant now = m_client.clock().now();
    switch (role) {
    case Qt::DisplayRole:
        return columns::display(*m, column, now, m_lockDuration);
    case Qt::UserRole:
        return columns::raw(*m, column, now, m_lockDuration);
    case Qt::TextAlignmentRole:
        return columns::alignment(column);
    case Qt::ToolTipRole:
        return columns::toolTip(*m, column);
    case ExpiresAtRole:
        return m->expiresAt;
    case LockedUntilRole:
        return m->lockedUntil;
    case CountdownRole:
        return columns::countdown(*m, column, now, m_lockDuration);
    default:
        return {};
    }
}

QVariant MessageListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return columns::header(section);
}

} // namespace hourglass::ui
