#include "messages/MessageColumnLayouts.h"

#include "messages/MessageListModel.h"
#include "messages/MessageViewModel.h"

#include <QHeaderView>
#include <QTableView>

namespace hourglass::ui {

namespace {
using Column = ColumnLayout::Column;
using Shown = ColumnLayout::Shown;
using SampleFont = ColumnLayout::SampleFont;
using L = MessageListModel;
using V = MessageViewModel;

// Besides its text, a countdown cell draws margins around its bar and, in the time-to-live
// column, the lock glyph (CountdownDelegate).
constexpr int kCountdownMargins = 12;
constexpr int kLockGlyph = 18;

// Each column with the widest text it usually holds.
Column column(int logical, Shown shown) {
    switch (logical) {
    case L::SequenceNumberColumn:
        return {logical, shown, QStringLiteral("1234567890")};
    case L::MessageIdColumn: // longer ids are elided; the detail panel shows them whole
        return {logical, shown, QStringLiteral("7f3c9a1e2b4d4c0f9e8a")};
    case L::SubjectColumn:
        return {logical, shown, QStringLiteral("order-created-0000")};
    case L::StateColumn: // "Lock lost" is the held locks' state
        return {logical, shown, QStringLiteral("Scheduled")};
    case L::TimeToLiveColumn:
        return {logical, shown, QStringLiteral("expired, held by lock"), SampleFont::Bold,
                kCountdownMargins + kLockGlyph};
    case L::ExpiresAtColumn:
    case L::EnqueuedColumn:
        return {logical, shown, QStringLiteral("2026-01-01 00:00:00")};
    case L::DeliveryCountColumn:
        return {logical, shown, QStringLiteral("999")};
    case L::LockHolderColumn:
        return {logical, shown, QStringLiteral("receiver-0000")};
    case L::LockColumn: // a lost lock reads "Lock lost" in bold on its hatched bar
        return {logical, shown, QStringLiteral("Lock lost"), SampleFont::Bold, kCountdownMargins};
    case L::SessionIdColumn:
        return {logical, shown, QStringLiteral("customer-0000")};
    case V::DeadLetterReasonColumn:
        return {logical, shown, QStringLiteral("MaxDeliveryCountExceeded")};
    case V::DeadLetterDescriptionColumn:
        return {logical, shown, QStringLiteral("Message could not be consumed")};
    case V::DeadLetterSourceColumn:
        return {logical, shown, QStringLiteral("orders/Subscriptions/audit")};
    default:
        return {logical, shown, {}};
    }
}

QList<Column> defaults(MessageTableKind kind) {
    const Shown on = Shown::ByDefault;
    const Shown off = Shown::NotByDefault;
    const Shown always = Shown::Always;
    switch (kind) {
    case MessageTableKind::List:
    case MessageTableKind::Peek:
        // Browsing: how long each message has left, then what it is, starting with its session
        // (on a session entity, what orders and groups the messages: S1).
        return {column(L::SequenceNumberColumn, on),
                column(L::MessageIdColumn, always),
                column(L::TimeToLiveColumn, on),
                column(L::SessionIdColumn, on),
                column(L::StateColumn, on),
                column(L::SubjectColumn, on),
                column(L::DeliveryCountColumn, on),
                column(L::EnqueuedColumn, on),
                column(L::ExpiresAtColumn, on),
                column(L::LockColumn, on),
                column(L::LockHolderColumn, on),
                column(V::DeadLetterReasonColumn, on),
                column(V::DeadLetterDescriptionColumn, on),
                column(V::DeadLetterSourceColumn, on)};
    case MessageTableKind::HeldLocks:
        // Settling: how long each lock has left, then whose it is and what the message is.
        return {column(L::SequenceNumberColumn, on),
                column(L::MessageIdColumn, always),
                column(L::LockColumn, on),
                column(L::SessionIdColumn, on),
                column(L::StateColumn, on),
                column(L::SubjectColumn, on),
                column(L::DeliveryCountColumn, on),
                column(L::LockHolderColumn, on),
                column(L::TimeToLiveColumn, on),
                column(L::EnqueuedColumn, off),
                column(L::ExpiresAtColumn, off),
                column(V::DeadLetterReasonColumn, on),
                column(V::DeadLetterDescriptionColumn, on),
                column(V::DeadLetterSourceColumn, off)};
    case MessageTableKind::DeadLetters:
        // Triage: why each message is here, then what it is and where it came from. A
        // dead-lettered message holds no lock and does not expire.
        return {column(L::SequenceNumberColumn, on),
                column(L::MessageIdColumn, always),
                column(V::DeadLetterReasonColumn, on),
                column(V::DeadLetterDescriptionColumn, on),
                column(L::SubjectColumn, on),
                column(L::DeliveryCountColumn, on),
                column(L::EnqueuedColumn, on),
                column(V::DeadLetterSourceColumn, on),
                column(L::StateColumn, off),
                column(L::TimeToLiveColumn, off),
                column(L::ExpiresAtColumn, off),
                column(L::LockHolderColumn, off),
                column(L::LockColumn, off),
                column(L::SessionIdColumn, off)};
    }
    return {};
}
} // namespace

QString messageTableName(MessageTableKind kind) {
    switch (kind) {
    case MessageTableKind::List:
        return QStringLiteral("messages");
    case MessageTableKind::Peek:
        return QStringLiteral("peek");
    case MessageTableKind::HeldLocks:
        return QStringLiteral("heldLocks");
    case MessageTableKind::DeadLetters:
        return QStringLiteral("deadLetters");
    }
    return {};
}

ColumnLayout* arrangeMessageColumns(QTableView* view, MessageTableKind kind) {
    return new ColumnLayout(view->horizontalHeader(), messageTableName(kind), defaults(kind));
}

QSet<int> sessionColumns() {
    return {L::SessionIdColumn};
}

QSet<int> deadLetterColumns() {
    return {V::DeadLetterReasonColumn, V::DeadLetterDescriptionColumn, V::DeadLetterSourceColumn};
}

} // namespace hourglass::ui
