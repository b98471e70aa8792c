// Sending and scheduling (service-bus-rules.md L1, L2, L11, L13, T1, T2, T4): the checks, the
// message's number and row, activation and cancelling. Where a message goes once it arrives (a
// topic's fan-out, forwarding) is Router.cpp.
#include "BrokerWrite.h"

#include "hourglass/PropertyTypes.h"

#include <QDateTime>
#include <QScopeGuard>
#include <QUuid>

#include <optional>

namespace hourglass {

namespace {
constexpr int kMaxMessageIdLength = 128;
} // namespace

Millis BrokerImpl::effectiveTtl(const Entity& entity, std::optional<Millis> own) const {
    const Millis entityDefault = entity.properties.defaultMessageTimeToLive;
    Millis ttl = own ? std::min(*own, entityDefault) : entityDefault; // T3
    if (entity.topic)
        ttl = std::min(ttl, entity.topic->properties.defaultMessageTimeToLive); // T4
    if (tierOf(entity.namespaceName) == Tier::Basic)
        ttl = std::min(ttl, days(14)); // E3: Basic caps every TTL
    return ttl;
}

Result<void> BrokerImpl::checkSendable(const Entity& entity, const OutgoingMessage& message,
                                       qint64 extraBytes) const {
    if (message.timeToLive && *message.timeToLive <= 0)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("TimeToLive must be positive; got %1 ms.").arg(*message.timeToLive));
    if (message.sessionId.size() > kMaxSessionIdLength)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("SessionId is %1 characters long; at most %2 are allowed.")
                             .arg(message.sessionId.size())
                             .arg(kMaxSessionIdLength));
    if (message.messageId.size() > kMaxMessageIdLength)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("MessageId is %1 characters long; at most %2 are allowed.")
                             .arg(message.messageId.size())
                             .arg(kMaxMessageIdLength));
    for (auto it = message.applicationProperties.cbegin();
         it != message.applicationProperties.cend(); ++it) {
        if (it.key().isEmpty())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("An application property needs a name."));
        if (!propertyTypeOf(it.value()))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The application property '%1' has a type (%2) that "
                                            "Service Bus cannot carry.")
                                 .arg(it.key(), QString::fromLatin1(it.value().typeName())));
    }
    const qint64 size = messageSize(message);
    const qint64 limit = qint64(entity.properties.maxMessageSizeInKilobytes) * 1024;
    if (size > limit)
        return makeError(ErrorCode::MessageSizeExceeded,
                         QStringLiteral("The message is %1 bytes; '%2' accepts at most %3 bytes "
                                        "(MaxMessageSizeInKilobytes=%4).")
                             .arg(size)
                             .arg(entity.path)
                             .arg(limit)
                             .arg(entity.properties.maxMessageSizeInKilobytes));
    // Quota (MaxSizeInMegabytes): a topic counts the copies held by its subscriptions.
    qint64 used = entity.main.counts().sizeInBytes + entity.deadLetter.counts().sizeInBytes;
    for (const Entity* subscription : entity.subscriptions)
        used +=
            subscription->main.counts().sizeInBytes + subscription->deadLetter.counts().sizeInBytes;
    const qint64 quota = qint64(entity.properties.maxSizeInMegabytes) * 1024 * 1024;
    if (used + extraBytes + size > quota)
        return makeError(ErrorCode::QuotaExceeded,
                         QStringLiteral("'%1' holds %2 bytes; this message would exceed its "
                                        "MaxSizeInMegabytes of %3. Receive or purge messages, "
                                        "then retry.")
                             .arg(entity.path)
                             .arg(used + extraBytes)
                             .arg(entity.properties.maxSizeInMegabytes));
    return {};
}

Result<void> BrokerImpl::checkMessageSession(const Entity& entity, const OutgoingMessage& message) {
    if (entity.hasSessions() && message.sessionId.isEmpty())
        return makeWrongEntityKindError(QStringLiteral("'%1' requires sessions: the message "
                                                       "needs a SessionId.")
                                            .arg(entity.path));
    return {};
}

Result<QList<SendResult>> BrokerImpl::sendBatch(const QString& path,
                                                const QList<OutgoingMessage>& batch) {
    BrokerWrite write(*this);
    auto results = enqueueBatch(path, batch);
    if (!results)
        return results.error();
    return write.commit(std::move(*results));
}

QList<Result<SendResult>> BrokerImpl::sendEach(const QString& path,
                                               const QList<OutgoingMessage>& messages,
                                               const std::function<void()>& taken) {
    QList<Result<SendResult>> results;
    BrokerWrite write(*this);
    for (const OutgoingMessage& message : messages) {
        auto sent = enqueueBatch(path, {message});
        results.append(sent ? Result<SendResult>(sent->front()) : Result<SendResult>(sent.error()));
    }
    // One disk sync for all of them (L2); should it fail, none of them is acknowledged.
    return write.commitEach(std::move(results), taken);
}

Result<QList<SendResult>> BrokerImpl::enqueueBatch(const QString& path,
                                                   const QList<OutgoingMessage>& batch) {
    QList<SendResult> results;
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (target->subQueue == SubQueue::DeadLetter)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Messages cannot be sent to a dead-letter queue; "
                                        "resubmit them to '%1' instead.")
                             .arg(entity.path));
    if (entity.kind == EntityKind::Subscription)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Messages are sent to the topic '%1', not to its "
                                        "subscription.")
                             .arg(entity.topic ? entity.topic->path : entity.path));
    if (!acceptsSends(entity))
        return makeError(ErrorCode::MessagingEntityDisabled,
                         QStringLiteral("'%1' is %2: it accepts no messages.")
                             .arg(entity.path, entityStatusName(entity.properties.status)));
    // All or nothing: check every message before storing any.
    qint64 batchBytes = 0;
    for (const OutgoingMessage& message : batch) {
        if (auto ok = checkMessageSession(entity, message); !ok)
            return ok.error();
        if (auto ok = checkSendable(entity, message, batchBytes); !ok)
            return ok.error();
        batchBytes += messageSize(message);
    }

    touch(entity, now); // A2: a send (or a schedule) is activity
    for (OutgoingMessage message : batch) {
        if (message.messageId.isEmpty())
            message.messageId = QUuid::createUuid().toString(QUuid::Id128);
        if (seenBefore(entity, message.messageId, now)) {
            SendResult duplicate;
            duplicate.messageId = message.messageId;
            duplicate.duplicate = true; // L13: acknowledged and dropped
            results.append(duplicate);
            continue;
        }
        results.append(scheduleOrDeliver(entity, std::move(message), now));
    }
    logProgress(entity);
    m_sessionLocks.serveWaits(now); // S3: a session may have messages now
    return results;
}

bool BrokerImpl::seenBefore(Entity& entity, const QString& messageId, Instant now) {
    if (!entity.properties.requiresDuplicateDetection)
        return false;
    // Forget what left the window first (oldest first in seenOrder).
    const Instant horizon = now - entity.properties.duplicateDetectionHistoryTimeWindow;
    bool forgot = false;
    while (!entity.seenOrder.empty() && entity.seenOrder.front().first < horizon) {
        const auto& [seenAt, id] = entity.seenOrder.front();
        auto it = entity.seenIds.find(id);
        if (it != entity.seenIds.end() && it.value() == seenAt)
            entity.seenIds.erase(it);
        entity.seenOrder.pop_front();
        forgot = true;
    }
    if (forgot)
        m_store->log(op::ForgetMessageIds{entity.id, horizon});
    if (entity.seenIds.contains(messageId))
        return true;
    entity.seenIds.insert(messageId, now);
    entity.seenOrder.emplace_back(now, messageId);
    m_store->log(op::RememberMessageId{entity.id, messageId, now});
    return false;
}

qint64 BrokerImpl::takeSequenceNumber(Entity& entity) {
    if (entity.kind != EntityKind::Subscription || !entity.topic)
        return entity.nextSeq++;
    Entity& topic = *entity.topic;
    topic.nextSeq = std::max(topic.nextSeq, entity.nextSeq);
    const qint64 seq = topic.nextSeq++;
    entity.nextSeq = seq + 1;
    logProgress(topic);
    return seq;
}

SendResult BrokerImpl::scheduleOrDeliver(Entity& entity, OutgoingMessage message, Instant now) {
    SendResult result;
    result.messageId = message.messageId;
    ++entity.flow.sent; // a scheduled message counts when it is sent, not when it activates
    if (message.scheduledEnqueueTime && *message.scheduledEnqueueTime > now) {
        result.sequenceNumber = takeSequenceNumber(entity);
        result.scheduled = true;
        insertMessage(entity, SubQueue::Main, result.sequenceNumber, message, now,
                      MessageState::Scheduled, *message.scheduledEnqueueTime, {});
        return result;
    }
    message.scheduledEnqueueTime.reset();
    const qint64 before = entity.nextSeq;
    m_router.route(entity, message, now, {}, 0);
    // 0 when the entity forwarded it on (ForwardTo) without numbering it itself. A topic's
    // message has the first number it took: a subscription's dead-lettered copy
    // (ForwardingFailed) may take the next one from the topic's counter.
    if (entity.kind == EntityKind::Topic)
        result.sequenceNumber = before;
    else if (entity.nextSeq > before)
        result.sequenceNumber = entity.nextSeq - 1;
    return result;
}

void BrokerImpl::insertMessage(Entity& entity, SubQueue subQueue, qint64 seq,
                               const OutgoingMessage& message, Instant now, MessageState state,
                               Instant scheduledAt, const DeliveryExtras& extras) {
    const Millis effective = effectiveTtl(entity, message.timeToLive);
    const bool scheduled = state == MessageState::Scheduled;
    const Instant enqueuedAt = scheduled ? scheduledAt : now;       // T2
    const Instant expiresAt = addSaturating(enqueuedAt, effective); // T1

    StoredMessage row;
    row.entityId = entity.id;
    row.subQueue = subQueue;
    row.sequenceNumber = seq;
    row.state = state;
    row.enqueuedAt = enqueuedAt;
    row.scheduledAt = scheduled ? scheduledAt : 0;
    row.expiresAt = expiresAt;
    row.systemProperties() = message.systemProperties();
    row.effectiveTimeToLive = effective;
    row.size = messageSize(message);
    row.applicationProperties = encodeProperties(message.applicationProperties);
    row.deadLetterReason = extras.deadLetterReason;
    row.deadLetterDescription = extras.deadLetterDescription;
    row.deadLetterSource = extras.deadLetterSource;
    row.body = message.body;
    row.wireExtras = message.wireExtras;

    MessageMeta meta;
    meta.state = state;
    meta.activatesOrExpiresAt = scheduled ? scheduledAt : expiresAt;
    meta.ownTtl = message.timeToLive.value_or(-1);
    meta.size = static_cast<quint32>(row.size);
    entity.index(subQueue).insert(seq, meta);
    if (subQueue == SubQueue::Main && entity.hasSessions() && !message.sessionId.isEmpty())
        entity.sessions.addMessage(message.sessionId, seq); // S2
    m_store->log(op::InsertMessage{std::move(row)});

    const auto id = static_cast<quint32>(entity.id);
    if (scheduled) {
        m_timers.push({scheduledAt, seq, id, TimerKind::Activate, 0});
        if (entity.kind == EntityKind::Topic)
            entity.scheduledTopicMessages.insert(seq, message);
    } else if (subQueue == SubQueue::Main && expiresAt != kNever) {
        m_timers.push({expiresAt, seq, id, TimerKind::Expire, 0});
    }
    m_feed->markAdded(subQueue == SubQueue::Main ? entity.qualified()
                                                 : entity.qualifiedDeadLetter());
    m_feed->markCounts(entity.qualified());
}

void BrokerImpl::activate(Entity& entity, qint64 seq, Instant at) {
    MessageMeta* meta = entity.main.find(seq);
    if (!meta || meta->state != MessageState::Scheduled)
        return;
    // A4: the entity was not idle while it held the message; its idle time starts now.
    touch(entity, at);
    const auto rearm = qScopeGuard([&]() REQUIRES(m_mutex) { scheduleAutoDelete(entity); });
    if (entity.kind == EntityKind::Topic) {
        const OutgoingMessage message = entity.scheduledTopicMessages.value(seq);
        removeMessage(entity, SubQueue::Main, seq);
        m_router.route(entity, message, at, {}, 0); // L11: a new sequence number, then R1
        return;
    }
    if (!entity.properties.forwardTo.isEmpty()) {
        const auto whole = loadWhole(entity, seq);
        removeMessage(entity, SubQueue::Main, seq);
        if (whole)
            m_router.route(entity, outgoingFromStored(*whole), at, {}, 0);
        return;
    }
    MessageMeta active = *meta;
    entity.main.remove(seq);
    const qint64 newSeq = takeSequenceNumber(entity);
    const Millis effective =
        effectiveTtl(entity, active.ownTtl < 0 ? std::nullopt : std::optional(active.ownTtl));
    active.state = MessageState::Active;
    active.activatesOrExpiresAt =
        addSaturating(at, effective); // T2: expires at scheduled time + TTL
    entity.main.insert(newSeq, active);
    entity.sessions.renumber(seq, newSeq);
    m_store->log(op::Activate{entity.id, seq, newSeq, at, active.activatesOrExpiresAt, effective});
    logProgress(entity);
    if (active.activatesOrExpiresAt != kNever)
        m_timers.push({active.activatesOrExpiresAt, newSeq, static_cast<quint32>(entity.id),
                       TimerKind::Expire, 0});
    m_feed->markAdded(entity.qualified());
    m_feed->markRemoved(entity.qualified());
    m_feed->markCounts(entity.qualified());
}

Result<void> BrokerImpl::cancelScheduled(const QString& path, qint64 seq) {
    BrokerWrite write(*this);
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    const MessageMeta* meta = target->subQueue == SubQueue::Main ? entity.main.find(seq) : nullptr;
    if (!meta || meta->state != MessageState::Scheduled)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("No scheduled message with sequence number %1 in '%2'.")
                             .arg(seq)
                             .arg(entity.path));
    removeMessage(entity, SubQueue::Main, seq);
    touch(entity, now);
    return write.commit();
}

void BrokerImpl::removeMessage(Entity& entity, SubQueue subQueue, qint64 seq) {
    MessageIndex& index = entity.index(subQueue);
    const LockInfo* lock = index.lockOf(seq);
    const qint64 record = lock ? lock->deliveryRecord : 0;
    endMessageLock(entity, subQueue, seq, LockEnd::MessageGoes);
    const auto removed = index.remove(seq);
    if (!removed)
        return;
    if (removed->state == MessageState::Scheduled)
        scheduleAutoDelete(entity); // A4: it may be idle again from its last activity
    if (subQueue == SubQueue::Main) {
        entity.scheduledTopicMessages.remove(seq);
        entity.sessions.removeMessage(seq);
    }
    m_store->log(op::DeleteMessage{entity.id, subQueue, seq});
    if (record != 0)
        settleDeliveryRecord(record); // after the removal, so a crash never loses both
    m_feed->markRemoved(subQueue == SubQueue::Main ? entity.qualified()
                                                   : entity.qualifiedDeadLetter());
    m_feed->markCounts(entity.qualified());
}

} // namespace hourglass
