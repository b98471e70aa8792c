#pragma once
// Messages as senders write them and as receivers, peek and the explorer read them. The system
// properties a sender sets are one struct (SystemProperties.h) both derive from.

#include "hourglass/SystemProperties.h"
#include "hourglass/Time.h"

#include <QByteArray>
#include <QString>
#include <QUuid>
#include <QVariantMap>

#include <optional>

namespace hourglass {

// What a sender sets: the system properties (empty strings mean "not set") and what follows.
// An empty messageId is replaced by a fresh id at send time so that every stored message can be
// named (SendResult::messageId says which).
struct OutgoingMessage : SystemProperties {
    QByteArray body;
    // When set, the message is scheduled (T2, L11) and becomes active at this instant.
    std::optional<Instant> scheduledEnqueueTime;
    QVariantMap applicationProperties;
    // What a wire sender set that has no Service Bus property of its own (an AMQP value or
    // sequence body, message annotations, typed ids, the header's priority...), so that the
    // message reads back as sent. Opaque here: engine/amqpcodec WireExtras.h writes and reads it;
    // the engine stores it beside the body and carries it along when the message is forwarded.
    QByteArray wireExtras;

    bool operator==(const OutgoingMessage&) const = default;
};

// Bytes a message counts for (body, system properties, application properties) against
// MaxMessageSizeInKilobytes and MaxSizeInMegabytes, and what sys.Size reads before a send.
qint64 messageSize(const OutgoingMessage& message);

// What a copy or a move of a stored message sends to its target (Broker::transferMessages, on
// a hosted namespace and on a remote one alike): the message as its sender gave it, without the
// DeadLetterReason and DeadLetterErrorDescription application properties, scheduled for
// `scheduledAt` when given (a scheduled message stays scheduled for the same instant).
OutgoingMessage transferCopy(OutgoingMessage message,
                             std::optional<Instant> scheduledAt = std::nullopt);

// Where a message is: its entity's active sub-queue, or the entity's dead-letter queue.
enum class SubQueue { Main = 0, DeadLetter = 1 };

// A message's state as Service Bus names it. A locked message is Active with a lock.
enum class MessageState { Active = 0, Deferred = 1, Scheduled = 2 };
QString messageStateName(MessageState state);

// One stored message as seen by peek, the explorer's paging reads and receivers: the system
// properties as sent (timeToLive: the message's own, if the sender set one), and the broker's.
struct MessageView : SystemProperties {
    QString entityPath; // the entity that holds it (without "/$deadletterqueue")
    SubQueue subQueue = SubQueue::Main;
    qint64 sequenceNumber = 0;
    MessageState state = MessageState::Active;

    // The TTL in force: the message's own, lowered to the entity defaults (T3, T4).
    Millis effectiveTimeToLive = kInfinite;
    Instant scheduledEnqueueTime = 0; // 0 when never scheduled
    Instant enqueuedTime = 0;         // for a scheduled message: when it becomes active (T2)
    Instant expiresAt = kNever;
    // True when the message carries no TTL of its own and expiresAt comes from the entity (T9).
    bool expiryDerived = false;
    // True when expiresAt has passed but the message is still here (locked, deferred, or not yet
    // swept); the UI marks it (T5).
    bool expired = false;

    quint32 deliveryCount = 0;
    bool locked = false;
    QString lockHolder;      // the receiver name that holds the lock
    Instant lockedUntil = 0; // 0 when not locked
    QUuid lockToken;         // only filled for the receiver that took the lock

    QString deadLetterReason;
    QString deadLetterErrorDescription;
    QString deadLetterSource;

    // Application properties; for a dead-lettered message they include DeadLetterReason and
    // DeadLetterErrorDescription (L7).
    QVariantMap applicationProperties;
    qint64 sizeInBytes = 0;
    QByteArray body;       // empty unless the read asked for bodies
    QByteArray wireExtras; // loaded with the body (OutgoingMessage::wireExtras)
    bool hasBody = false;  // whether `body` was loaded

    // The message as its sender gave it (the body and wire extras as loaded): what a routing
    // preview of a stored message works on. Not scheduled; the application properties as read.
    OutgoingMessage asSent() const;
};

} // namespace hourglass
