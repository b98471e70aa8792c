#include "sessions/SessionListModel.h"

#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "common/LockHolderText.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageColumns.h"
#include "messages/MessageListModel.h"

#include <QLocale>

#include <algorithm>

namespace hourglass::ui {

namespace {

// The feed names paths qualified ("ns:path"); ours may be unqualified (first namespace).
bool names(const QSet<QString>& paths, const QString& ours) {
    return EntityPath::of(ours).isNamedIn(paths);
}

bool lessById(const SessionInfo& a, const SessionInfo& b) {
    return a.sessionId < b.sessionId;
}

QString sizeText(qint64 bytes) {
    return bytes == 1 ? QObject::tr("1 byte") : QObject::tr("%1 bytes").arg(bytes);
}

} // namespace

// What one background refresh read.
struct SessionListModel::Snapshot {
    Availability availability = Availability::Unknown;
    QString error;
    qint64 total = 0;
    Millis lockDuration = 0;
    QList<SessionInfo> sessions;
};

SessionListModel::SessionListModel(BrokerClient& client, QObject* parent, int maxSessions)
    : QAbstractTableModel(parent)
    , m_client(client)
    , m_maxSessions(maxSessions) {
    connect(&m_client, &BrokerClient::changed, this, &SessionListModel::onChanged);
}

void SessionListModel::setPath(const QString& qualifiedPath) {
    beginResetModel();
    m_path = qualifiedPath;
    ++m_generation;
    m_availability = Availability::Unknown;
    m_total = 0;
    m_lockDuration = 0;
    m_lastError.clear();
    m_sessions.clear();
    m_refresh.reset();
    endResetModel();
    emit refreshed();
    refresh();
}

int SessionListModel::rowOf(const QString& sessionId) const {
    SessionInfo probe;
    probe.sessionId = sessionId;
    const auto found = std::lower_bound(m_sessions.cbegin(), m_sessions.cend(), probe, lessById);
    if (found == m_sessions.cend() || found->sessionId != sessionId)
        return -1;
    return int(found - m_sessions.cbegin());
}

void SessionListModel::refresh() {
    if (m_path.isEmpty() || !m_refresh.start())
        return;
    const QString path = m_path;
    m_client.call(
        this,
        [path, max = m_maxSessions](Broker& broker) {
            Snapshot s;
            auto entity = broker.entity(path);
            if (!entity) {
                s.availability = Availability::NoEntity;
                s.error = entity.error().toString();
                return s;
            }
            s.lockDuration = entity->properties.lockDuration;
            if (entity->kind == EntityKind::Topic || !entity->properties.requiresSession) {
                s.availability = Availability::NotSessionful;
                return s;
            }
            s.availability = Availability::Sessionful;
            auto pages = broker.sessionPages(path, max);
            auto sessions = broker.listSessions(path, QString(), max);
            if (!pages || !sessions) {
                s.error = (!pages ? pages.error() : sessions.error()).toString();
                return s;
            }
            s.total = pages->total;
            s.sessions = std::move(sessions).value();
            return s;
        },
        [this, generation = m_generation](Snapshot snapshot) {
            if (generation == m_generation)
                applySnapshot(std::move(snapshot));
        });
}

void SessionListModel::applySnapshot(Snapshot snapshot) {
    m_refresh.finish();
    m_availability = snapshot.availability;
    m_lastError = snapshot.error;
    m_total = snapshot.total;
    m_lockDuration = snapshot.lockDuration;
    std::sort(snapshot.sessions.begin(), snapshot.sessions.end(), lessById);
    applySessions(std::move(snapshot.sessions));
    emit refreshed();
    if (m_refresh.takeQueued())
        refresh();
}

void SessionListModel::applySessions(QList<SessionInfo> sessions) {
    // Both lists are in id order: rows that went are removed, rows that came are inserted where
    // they belong, rows that stayed are updated in place (a selection on them survives).
    for (int row = int(m_sessions.size()) - 1; row >= 0; --row) {
        const auto found =
            std::lower_bound(sessions.cbegin(), sessions.cend(), m_sessions.at(row), lessById);
        if (found != sessions.cend() && found->sessionId == m_sessions.at(row).sessionId)
            continue;
        beginRemoveRows({}, row, row);
        m_sessions.removeAt(row);
        endRemoveRows();
    }
    for (int row = 0; row < sessions.size(); ++row) {
        SessionInfo& incoming = sessions[row];
        if (row < m_sessions.size() && m_sessions.at(row).sessionId == incoming.sessionId) {
            m_sessions[row] = std::move(incoming);
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            continue;
        }
        beginInsertRows({}, row, row);
        m_sessions.insert(row, std::move(incoming));
        endInsertRows();
    }
}

void SessionListModel::onChanged(const ChangeBatch& batch) {
    if (m_path.isEmpty())
        return;
    if (names(batch.sessionsChanged, m_path) || names(batch.countsChanged, m_path) ||
        names(batch.messagesAdded, m_path) || names(batch.messagesRemoved, m_path) ||
        names(batch.updated, m_path) || names(batch.created, m_path) ||
        names(batch.deleted, m_path))
        refresh();
}

void SessionListModel::refreshCountdowns(int firstRow, int lastRow) {
    firstRow = std::max(firstRow, 0);
    lastRow = std::min(lastRow, rowCount() - 1);
    if (firstRow > lastRow)
        return;
    emit dataChanged(index(firstRow, SessionLockColumn), index(lastRow, SessionLockColumn),
                     {Qt::DisplayRole, Qt::UserRole, MessageListModel::CountdownRole});
}

int SessionListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_sessions.size());
}

int SessionListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::raw(const SessionInfo& s, int column) const {
    switch (column) {
    case SessionIdColumn:
        return s.sessionId;
    case ActiveColumn:
        return s.active;
    case DeferredColumn:
        return s.deferred;
    case ScheduledColumn:
        return s.scheduled;
    case LockedColumn:
        return s.locked;
    case HolderColumn:
        return s.lockedBy;
    case SessionLockColumn:
        // Unlocked sessions sort before every running lock.
        return s.lockedBy.isEmpty() ? qint64(-1)
                                    : std::max<qint64>(0, s.lockedUntil - m_client.clock().now());
    case StateColumn:
        return s.hasState ? s.stateSize : qint64(-1);
    case StateSetColumn:
        return s.hasState ? s.stateSetAt : qint64(0);
    default:
        return {};
    }
}

QVariant SessionListModel::display(const SessionInfo& s, int column) const {
    switch (column) {
    case HolderColumn:
        return s.lockedBy.isEmpty() ? tr("available") : lockHolderText(s.lockedBy);
    case SessionLockColumn:
        return lockCountdown(!s.lockedBy.isEmpty(), s.lockedUntil, m_lockDuration,
                             m_client.clock().now())
            .text;
    case StateColumn:
        return s.hasState ? sizeText(s.stateSize) : tr("none");
    case StateSetColumn:
        return s.hasState ? columns::localTime(s.stateSetAt) : QString();
    default:
        return raw(s, column);
    }
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const SessionInfo& s = m_sessions.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(s, column);
    case Qt::UserRole:
        return raw(s, column);
    case SessionIdRole:
        return s.sessionId;
    case FilterTextRole:
        return s.lockedBy.isEmpty() ? s.sessionId : s.sessionId + QLatin1Char('\n') + s.lockedBy;
    case MessageListModel::CountdownRole:
        if (column != SessionLockColumn)
            return {};
        return QVariant::fromValue(lockCountdown(!s.lockedBy.isEmpty(), s.lockedUntil,
                                                 m_lockDuration, m_client.clock().now()));
    case Qt::TextAlignmentRole:
        if (column >= ActiveColumn && column <= LockedColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == HolderColumn && !s.lockedBy.isEmpty())
            return tr("Session lock held by %1 until %2")
                .arg(s.lockedBy, columns::localTime(s.lockedUntil));
        if (column == StateColumn)
            return s.hasState ? tr("Session state: %1, set %2")
                                    .arg(sizeText(s.stateSize), columns::localTime(s.stateSetAt))
                              : tr("No session state");
        return {};
    default:
        return {};
    }
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section == ActiveColumn)
        return tr("Messages its holder can receive now");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SessionIdColumn:
        return tr("Session");
    case ActiveColumn:
        return tr("Active");
    case DeferredColumn:
        return tr("Deferred");
    case ScheduledColumn:
        return tr("Scheduled");
    case LockedColumn:
        return tr("Locked");
    case HolderColumn:
        return tr("Holder");
    case SessionLockColumn:
        return tr("Session lock");
    case StateColumn:
        return tr("State");
    case StateSetColumn:
        return tr("State set");
    default:
        return {};
    }
}

} // namespace hourglass::ui
