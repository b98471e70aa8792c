#include "settle/HeldSessions.h"

#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "common/LockHolderText.h"
#include "messages/MessageListModel.h"

#include <QDateTime>
#include <QPalette>

namespace hourglass::ui {

HeldSessions::HeldSessions(BrokerClient& client, QObject* parent)
    : QAbstractTableModel(parent)
    , m_client(client) {}

void HeldSessions::add(const AcceptedSession& session) {
    const int row = rowOf(session.receiver);
    if (row >= 0) {
        m_rows[row] = Row{session, false, {}, QDateTime::currentMSecsSinceEpoch()};
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
    m_rows.append(Row{session, false, {}, QDateTime::currentMSecsSinceEpoch()});
    endInsertRows();
}

void HeldSessions::clear() {
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void HeldSessions::remove(const QString& receiver) {
    const int row = rowOf(receiver);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

int HeldSessions::rowOf(const QString& receiver) const {
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).session.receiver == receiver)
            return row;
    return -1;
}

std::optional<SessionRef> HeldSessions::heldBy(const QString& receiver) const {
    const int row = rowOf(receiver);
    if (row < 0 || m_rows.at(row).lost)
        return std::nullopt;
    return SessionRef::of(m_rows.at(row).session);
}

std::optional<QString> HeldSessions::sessionOf(const QString& receiver) const {
    const int row = rowOf(receiver);
    if (row < 0)
        return std::nullopt;
    return m_rows.at(row).session.sessionId;
}

bool HeldSessions::isLost(const QString& receiver) const {
    const int row = rowOf(receiver);
    return row >= 0 && m_rows.at(row).lost;
}

Instant HeldSessions::lockedUntil(const QString& receiver) const {
    const int row = rowOf(receiver);
    return row < 0 ? 0 : m_rows.at(row).session.lockedUntil;
}

void HeldSessions::setLockedUntil(const QString& receiver, Instant lockedUntil) {
    const int row = rowOf(receiver);
    if (row < 0)
        return;
    m_rows[row].session.lockedUntil = lockedUntil;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void HeldSessions::markLost(const QString& receiver, const QString& reason) {
    const int row = rowOf(receiver);
    if (row < 0 || m_rows.at(row).lost)
        return;
    m_rows[row].lost = true;
    m_rows[row].lostReason = reason;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit lost(receiver, reason);
}

void HeldSessions::loseTakenBefore(qint64 brokeAtMs, const QString& reason) {
    QStringList broken;
    for (const Row& row : std::as_const(m_rows))
        if (!row.lost && row.takenAt <= brokeAtMs)
            broken.append(row.session.receiver);
    for (const QString& receiver : broken)
        markLost(receiver, reason);
}

void HeldSessions::sweep() {
    const Instant now = m_client.clock().now();
    QStringList ranOut;
    for (const Row& row : std::as_const(m_rows))
        if (!row.lost && row.session.lockedUntil <= now)
            ranOut.append(row.session.receiver);
    for (const QString& receiver : ranOut)
        markLost(receiver, tr("The session lock ran out."));
}

void HeldSessions::refreshCountdowns() {
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, SessionLockColumn), index(rowCount() - 1, SessionLockColumn),
                         {Qt::DisplayRole, MessageListModel::CountdownRole});
}

int HeldSessions::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HeldSessions::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HeldSessions::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = m_rows.at(index.row());
    const int column = index.column();
    Countdown countdown =
        lockCountdown(true, row.session.lockedUntil, m_lockDuration, m_client.clock().now());
    if (row.lost) {
        countdown.kind = Countdown::Kind::Expired;
        countdown.text = tr("Session lost");
    }
    switch (role) {
    case Qt::DisplayRole:
        if (column == ReceiverColumn)
            return lockHolderText(row.session.receiver);
        if (column == SessionColumn)
            return row.session.sessionId;
        if (column == SessionLockColumn)
            return countdown.text;
        return {};
    case MessageListModel::CountdownRole:
        return column == SessionLockColumn ? QVariant::fromValue(countdown) : QVariant();
    case Qt::ForegroundRole:
        if (row.lost)
            return QPalette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::ToolTipRole:
        if (row.lost)
            return row.lostReason;
        return tr("%1 holds session %2 until %3")
            .arg(row.session.receiver, row.session.sessionId,
                 formatInstant(row.session.lockedUntil));
    default:
        return {};
    }
}

QVariant HeldSessions::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ReceiverColumn:
        return tr("Receiver");
    case SessionColumn:
        return tr("Session");
    case SessionLockColumn:
        return tr("Session lock");
    default:
        return {};
    }
}

} // namespace hourglass::ui
