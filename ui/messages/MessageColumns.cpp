#include "messages/MessageColumns.h"

#include "common/DurationText.h"
#include "common/LockHolderText.h"

#include <QCoreApplication>
#include <QDateTime>

namespace hourglass::ui::columns {

namespace {

// The dead-letter columns MessageViewModel adds after the list's own.
enum ExtraColumn {
    DeadLetterReason = MessageListModel::ColumnCount,
    DeadLetterDescription,
    DeadLetterSource,
};

QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::MessageColumns", text);
}

bool expiredAt(const MessageView& m, Instant now) {
    return m.expired || (m.expiresAt != kNever && m.expiresAt <= now);
}

// The columns whose text is the same as their raw value.
QVariant common(const MessageView& m, int column) {
    switch (column) {
    case MessageListModel::SequenceNumberColumn:
        return m.sequenceNumber;
    case MessageListModel::MessageIdColumn:
        return m.messageId;
    case MessageListModel::SubjectColumn:
        return m.subject;
    case MessageListModel::DeliveryCountColumn:
        return m.deliveryCount;
    case MessageListModel::LockHolderColumn:
        return m.locked ? lockHolderText(m.lockHolder) : QString();
    case MessageListModel::SessionIdColumn:
        return m.sessionId;
    case DeadLetterReason:
        return m.deadLetterReason;
    case DeadLetterDescription:
        return m.deadLetterErrorDescription;
    case DeadLetterSource:
        return m.deadLetterSource;
    default:
        return {};
    }
}

} // namespace

MessageListModel::RowState rowState(const MessageView& m, Instant now) {
    if (expiredAt(m, now))
        return MessageListModel::RowState::Expired;
    if (m.locked)
        return MessageListModel::RowState::Locked;
    switch (m.state) {
    case MessageState::Scheduled:
        return MessageListModel::RowState::Scheduled;
    case MessageState::Deferred:
        return MessageListModel::RowState::Deferred;
    case MessageState::Active:
        break;
    }
    return MessageListModel::RowState::Active;
}

QString rowStateName(MessageListModel::RowState state) {
    switch (state) {
    case MessageListModel::RowState::Active:
        return QStringLiteral("Active");
    case MessageListModel::RowState::Scheduled:
        return QStringLiteral("Scheduled");
    case MessageListModel::RowState::Deferred:
        return QStringLiteral("Deferred");
    case MessageListModel::RowState::Locked:
        return QStringLiteral("Locked");
    case MessageListModel::RowState::Expired:
        return QStringLiteral("Expired");
    }
    return {};
}

QString localTime(Instant instant) {
    return QDateTime::fromMSecsSinceEpoch(instant).toLocalTime().toString(
        QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QVariant display(const MessageView& m, int column, Instant now, Millis lockDuration) {
    switch (column) {
    case MessageListModel::StateColumn:
        return rowStateName(rowState(m, now));
    case MessageListModel::EnqueuedColumn:
        return localTime(m.enqueuedTime);
    case MessageListModel::ExpiresAtColumn:
        return m.expiresAt == kNever ? QStringLiteral("never") : localTime(m.expiresAt);
    case MessageListModel::TimeToLiveColumn:
        return ttlCountdown(m.expiresAt, m.effectiveTimeToLive, m.expired, m.locked, now).text;
    case MessageListModel::LockColumn:
        return lockCountdown(m.locked, m.lockedUntil, lockDuration, now).text;
    default:
        return common(m, column);
    }
}

QVariant raw(const MessageView& m, int column, Instant now, Millis lockDuration) {
    switch (column) {
    case MessageListModel::StateColumn:
        return int(rowState(m, now));
    case MessageListModel::EnqueuedColumn:
        return m.enqueuedTime;
    case MessageListModel::ExpiresAtColumn:
        return m.expiresAt;
    case MessageListModel::TimeToLiveColumn:
        return ttlCountdown(m.expiresAt, m.effectiveTimeToLive, m.expired, m.locked, now).remaining;
    case MessageListModel::LockColumn:
        return m.locked ? QVariant(lockCountdown(true, m.lockedUntil, lockDuration, now).remaining)
                        : QVariant();
    default:
        return common(m, column);
    }
}

QVariant toolTip(const MessageView& m, int column) {
    if (column == MessageListModel::ExpiresAtColumn && m.expiryDerived)
        return tr("%1\n(derived) from the entity's default message time to live")
            .arg(formatInstant(m.expiresAt));
    if (column == MessageListModel::TimeToLiveColumn && m.locked)
        return tr("Held by lock: a locked message does not expire until its lock ends");
    if (column == MessageListModel::TimeToLiveColumn && m.effectiveTimeToLive != kInfinite)
        return tr("Time to live %1").arg(formatIsoDuration(m.effectiveTimeToLive));
    if (column == DeadLetterDescription && !m.deadLetterErrorDescription.isEmpty())
        return m.deadLetterErrorDescription;
    // Reasons are elided in their narrow column too.
    if (column == DeadLetterReason && !m.deadLetterReason.isEmpty())
        return m.deadLetterReason;
    return {};
}

QVariant alignment(int column) {
    if (column == MessageListModel::SequenceNumberColumn ||
        column == MessageListModel::DeliveryCountColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant countdown(const MessageView& m, int column, Instant now, Millis lockDuration) {
    if (column == MessageListModel::TimeToLiveColumn)
        return QVariant::fromValue(
            ttlCountdown(m.expiresAt, m.effectiveTimeToLive, m.expired, m.locked, now));
    if (column == MessageListModel::LockColumn)
        return QVariant::fromValue(lockCountdown(m.locked, m.lockedUntil, lockDuration, now));
    return {};
}

QString header(int column) {
    switch (column) {
    case MessageListModel::SequenceNumberColumn:
        // Short: the numbers are narrow, and a long title alone would push the countdown next
        // to the id out of a narrow window.
        return tr("Sequence");
    case MessageListModel::MessageIdColumn:
        return tr("Message id");
    case MessageListModel::SubjectColumn:
        return tr("Subject");
    case MessageListModel::StateColumn:
        return tr("State");
    case MessageListModel::EnqueuedColumn:
        return tr("Enqueued");
    case MessageListModel::ExpiresAtColumn:
        return tr("Expires at");
    case MessageListModel::TimeToLiveColumn:
        return tr("Time to live");
    case MessageListModel::DeliveryCountColumn:
        return tr("Delivery count");
    case MessageListModel::LockHolderColumn:
        return tr("Lock holder");
    case MessageListModel::LockColumn:
        return tr("Lock");
    case MessageListModel::SessionIdColumn:
        return tr("Session");
    case DeadLetterReason:
        return tr("Dead-letter reason");
    case DeadLetterDescription:
        return tr("Description");
    case DeadLetterSource:
        return tr("Source");
    default:
        return {};
    }
}

} // namespace hourglass::ui::columns
