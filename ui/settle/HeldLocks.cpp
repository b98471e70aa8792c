#include "settle/HeldLocks.h"

#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageListModel.h"
#include "messages/MessageViewModel.h"

#include <QBrush>
#include <QDateTime>
#include <QPalette>

#include <algorithm>

namespace hourglass::ui {

namespace {
QString statusText(HeldLocks::Status status) {
    return status == HeldLocks::Status::Lost ? QObject::tr("Lock lost") : QObject::tr("Received");
}
} // namespace

QString HeldLocks::numbersText(const QList<qint64>& sequenceNumbers) {
    constexpr int kShown = 8;
    QStringList parts;
    for (int i = 0; i < sequenceNumbers.size() && i < kShown; ++i)
        parts.append(QStringLiteral("#%1").arg(sequenceNumbers.at(i)));
    if (sequenceNumbers.size() <= kShown)
        return parts.join(QStringLiteral(", "));
    return tr("%1, … #%2 (%3 messages)")
        .arg(parts.join(QStringLiteral(", ")))
        .arg(sequenceNumbers.last())
        .arg(sequenceNumbers.size());
}

HeldLocks::HeldLocks(BrokerClient& client, QObject* parent)
    : QIdentityProxyModel(parent)
    , m_client(client)
    , m_messages(new MessageViewModel(client, this)) {
    setSourceModel(m_messages);
    connect(&m_client, &BrokerClient::changed, this, &HeldLocks::onChanged);
}

void HeldLocks::onChanged(const ChangeBatch& batch) {
    if (batch.deleted.isEmpty())
        return;
    // The feed names entities qualified ("ns:path"); a held path may be unqualified.
    auto gone = [&batch](const QString& path) {
        return EntityPath::of(path).owner().isNamedIn(batch.deleted);
    };
    QList<qint64> lost;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        if (it->status == Status::Held && gone(it->path))
            lost.append(it.key());
    for (qint64 sequenceNumber : lost)
        markLost(sequenceNumber, tr("The entity was deleted."));
}

void HeldLocks::setLockDuration(Millis lockDuration) {
    m_lockDuration = lockDuration;
    m_messages->setLockDuration(lockDuration);
}

void HeldLocks::add(const QString& qualifiedPath, const QString& receiver, ReceiveMode mode,
                    const QList<MessageView>& taken) {
    const Status status = mode == ReceiveMode::PeekLock ? Status::Held : Status::Received;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const MessageView& message : taken) {
        m_entries.insert(message.sequenceNumber, Entry{qualifiedPath, receiver, status, {}, now});
        m_messages->upsert(message);
    }
}

void HeldLocks::clear() {
    m_entries.clear();
    m_messages->clear();
}

void HeldLocks::remove(qint64 sequenceNumber) {
    m_entries.remove(sequenceNumber);
    m_messages->removeMessage(sequenceNumber);
}

int HeldLocks::clearFinished() {
    QList<qint64> finished;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        if (status(it.key()) != Status::Held)
            finished.append(it.key());
    for (qint64 sequenceNumber : finished)
        remove(sequenceNumber);
    return int(finished.size());
}

qint64 HeldLocks::sequenceNumberAt(int row) const {
    return m_messages->messageAt(row).sequenceNumber;
}

int HeldLocks::rowOf(qint64 sequenceNumber) const {
    return m_messages->rowOf(sequenceNumber);
}

HeldLocks::Status HeldLocks::status(qint64 sequenceNumber) const {
    const auto entry = m_entries.constFind(sequenceNumber);
    if (entry == m_entries.cend())
        return Status::Lost;
    if (entry->status == Status::Held && lockedUntil(sequenceNumber) <= m_client.clock().now())
        return Status::Lost;
    return entry->status;
}

QString HeldLocks::receiverOf(qint64 sequenceNumber) const {
    return m_entries.value(sequenceNumber).receiver;
}

LockRef HeldLocks::lockRef(qint64 sequenceNumber) const {
    const int row = rowOf(sequenceNumber);
    if (row < 0)
        return {};
    LockRef ref = LockRef::of(m_messages->messageAt(row));
    const Entry entry = m_entries.value(sequenceNumber);
    ref.entityPath = entry.path;
    ref.receiver = entry.receiver;
    return ref;
}

Instant HeldLocks::lockedUntil(qint64 sequenceNumber) const {
    const int row = rowOf(sequenceNumber);
    return row < 0 ? 0 : m_messages->messageAt(row).lockedUntil;
}

QList<qint64> HeldLocks::held() const {
    const Instant now = m_client.clock().now();
    QList<qint64> out;
    for (const MessageView& message : m_messages->messages()) {
        const auto entry = m_entries.constFind(message.sequenceNumber);
        if (entry != m_entries.cend() && entry->status == Status::Held && message.lockedUntil > now)
            out.append(message.sequenceNumber);
    }
    return out;
}

void HeldLocks::setLockedUntil(qint64 sequenceNumber, Instant lockedUntil) {
    const int row = rowOf(sequenceNumber);
    if (row < 0)
        return;
    MessageView message = m_messages->messageAt(row);
    message.lockedUntil = lockedUntil;
    m_messages->upsert(message);
    repaintRow(sequenceNumber);
}

void HeldLocks::lockFailed(qint64 sequenceNumber, const Error& error) {
    // S5: a session that went lost its message locks with it.
    if (error.code == ErrorCode::MessageLockLost || error.code == ErrorCode::SessionLockLost)
        markLost(sequenceNumber, error.description);
}

int HeldLocks::loseLocksOf(const QString& qualifiedPath, const QString& receiver,
                           const QString& reason) {
    QList<qint64> lost;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        if (it->status == Status::Held && it->receiver == receiver &&
            it->path.compare(qualifiedPath, Qt::CaseInsensitive) == 0)
            lost.append(it.key());
    for (qint64 sequenceNumber : lost)
        markLost(sequenceNumber, reason);
    return int(lost.size());
}

int HeldLocks::loseTakenBefore(qint64 brokeAtMs, const QString& reason) {
    QList<qint64> lost;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        if (it->status == Status::Held && it->takenAt <= brokeAtMs)
            lost.append(it.key());
    for (qint64 sequenceNumber : lost)
        markLost(sequenceNumber, reason);
    return int(lost.size());
}

void HeldLocks::sweep() {
    const Instant now = m_client.clock().now();
    QList<qint64> ranOut;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        if (it->status == Status::Held && lockedUntil(it.key()) <= now)
            ranOut.append(it.key());
    for (qint64 sequenceNumber : ranOut)
        markLost(sequenceNumber, tr("The lock ran out."));
}

void HeldLocks::markLost(qint64 sequenceNumber, const QString& reason) {
    const auto entry = m_entries.find(sequenceNumber);
    if (entry == m_entries.end() || entry->status != Status::Held)
        return;
    entry->status = Status::Lost;
    entry->lostReason = reason;
    repaintRow(sequenceNumber);
}

void HeldLocks::repaintRow(qint64 sequenceNumber) {
    const int row = rowOf(sequenceNumber);
    if (row >= 0)
        emit dataChanged(index(row, 0), index(row, columnCount() - 1));
}

QVariant HeldLocks::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this)
        return {};
    const qint64 sequenceNumber = sequenceNumberAt(index.row());
    const Status state = status(sequenceNumber);
    const Entry entry = m_entries.value(sequenceNumber);
    const int column = index.column();
    if (state != Status::Held) {
        if (role == Qt::ForegroundRole && state == Status::Lost)
            return QPalette().brush(QPalette::Disabled, QPalette::Text);
        const bool display = role == Qt::DisplayRole || role == Qt::UserRole;
        if (column == MessageListModel::StateColumn && display)
            return statusText(state);
        if (column == MessageListModel::LockHolderColumn && display)
            return entry.receiver;
        if (column == MessageListModel::LockColumn && state == Status::Lost) {
            if (display)
                return statusText(state);
            if (role == MessageListModel::CountdownRole) {
                Countdown lost;
                lost.kind = Countdown::Kind::Expired;
                lost.text = statusText(state);
                return QVariant::fromValue(lost);
            }
            if (role == Qt::ToolTipRole)
                return entry.lostReason.isEmpty() ? tr("The lock ran out.") : entry.lostReason;
        }
    }
    if (role == Qt::ToolTipRole && state != Status::Received &&
        (column == MessageListModel::LockHolderColumn || column == MessageListModel::LockColumn)) {
        return tr("Receiver %1\nLock token %2\nLocked until %3")
            .arg(entry.receiver, lockRef(sequenceNumber).lockToken.toString(QUuid::WithoutBraces),
                 formatInstant(lockedUntil(sequenceNumber)));
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace hourglass::ui
