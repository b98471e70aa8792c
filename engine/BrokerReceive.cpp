// Receiving: peek-lock, receive-and-delete, deferred messages, peek (SEMANTICS.md L3-L6, L8,
// L12, T5, T8).
#include "BrokerImpl.h"

namespace hourglass {

namespace {
constexpr int kMaxBatch = 10000;

Result<void> checkReceivable(const Entity& entity) {
    if (entity.kind == EntityKind::Topic)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Messages are received from the subscriptions of '%1', "
                                        "not from the topic.")
                             .arg(entity.path));
    const EntityStatus status = entity.properties.status;
    if (status == EntityStatus::Disabled || status == EntityStatus::ReceiveDisabled)
        return makeError(ErrorCode::MessagingEntityDisabled,
                         QStringLiteral("'%1' is %2: nothing can be received from it.")
                             .arg(entity.path, entityStatusName(status)));
    return {};
}

// What a receive took, captured under the Broker mutex and turned into a view after the store
// caught up.
struct Taken {
    qint64 seq;
    quint32 deliveryCount;
    std::optional<LockInfo> lock;
};
} // namespace

Result<QList<MessageView>> BrokerImpl::receive(const QString& path, const ReceiveOptions& options) {
    if (options.maxCount < 1 || options.maxCount > kMaxBatch)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("maxCount must be between 1 and %1; got %2.")
                             .arg(kMaxBatch)
                             .arg(options.maxCount));
    const bool peekLock = options.mode == ReceiveMode::PeekLock;
    std::vector<Taken> taken;
    qint64 entityId;
    SubQueue subQueue;
    QString entityPath;
    Instant now;
    quint64 ticket;
    {
        std::lock_guard lock(m_mutex);
        auto target = enterLocked(path, now);
        if (!target)
            return target.error();
        Entity& entity = *target->entity;
        if (auto ok = checkReceivable(entity); !ok)
            return ok.error();
        entityId = entity.id;
        subQueue = target->subQueue;
        entityPath = entity.path;
        // The rows handed out were written by earlier operations: those must be readable. The
        // delivery counts and activity logged below are stored with the next commit rather than
        // waited for (a crash may forget a delivery count increment, never a message).
        ticket = m_store->readTicket();
        touchLocked(entity, now); // A2: a receive is activity
        MessageIndex& index = entity.index(subQueue);
        const bool main = subQueue == SubQueue::Main;
        while (static_cast<int>(taken.size()) < options.maxCount) {
            const auto next = index.firstAvailable();
            if (!next)
                break;
            const qint64 seq = *next;
            MessageMeta* meta = index.find(seq);
            if (main && meta->expiresAt() <= now) {
                expireLocked(entity, seq, now); // T5: never hand out an expired message
                continue;
            }
            if (main && meta->deliveryCount >= quint32(entity.properties.maxDeliveryCount)) {
                deadLetterLocked(entity, seq, QStringLiteral("MaxDeliveryCountExceeded"),
                                 QStringLiteral("The message was delivered %1 times, the "
                                                "entity's MaxDeliveryCount.")
                                     .arg(meta->deliveryCount),
                                 now);
                continue;
            }
            ++meta->deliveryCount;
            ++entity.flow.received;
            Taken item{seq, meta->deliveryCount, std::nullopt};
            if (peekLock) {
                LockInfo info{QUuid::createUuid(), options.receiver,
                              addSaturating(now, entity.properties.lockDuration)};
                index.lock(seq, info);
                m_lockTokens.insert(info.token, {entity.id, subQueue, seq});
                m_timers.push({info.lockedUntil, seq, static_cast<quint32>(entity.id),
                               TimerKind::LockExpire, static_cast<quint8>(subQueue)});
                m_store->log(op::SetDeliveryCount{entity.id, subQueue, seq, meta->deliveryCount});
                item.lock = info;
            } else {
                // L3: consumed now. The row is deleted once it has been read back below.
                index.remove(seq);
            }
            taken.push_back(item);
        }
        if (!taken.empty()) {
            m_feed->markRemoved(subQueue == SubQueue::Main ? entity.qualified()
                                                           : entity.qualifiedDeadLetter());
            m_feed->markCounts(entity.qualified());
        }
        // Expiry and dead-lettering done on the way are stored lazily too: they follow from
        // the stored state and the clock, so after a crash they simply happen again.
    }
    if (auto durable = m_store->waitDurable(ticket); !durable)
        return durable.error();

    QList<MessageView> out;
    for (const Taken& item : taken) {
        auto row = m_store->readOne(entityId, subQueue, item.seq, true);
        if (!row)
            return row.error();
        if (!*row)
            continue; // removed meanwhile (its entity was deleted)
        MessageView view = viewFromRow(**row, entityPath, now);
        view.deliveryCount = item.deliveryCount;
        if (item.lock) {
            view.locked = true;
            view.lockToken = item.lock->token;
            view.lockHolder = item.lock->receiver;
            view.lockedUntil = item.lock->lockedUntil;
        }
        out.append(view);
    }
    if (!peekLock && !taken.empty()) {
        {
            std::lock_guard lock(m_mutex);
            for (const Taken& item : taken)
                m_store->log(op::DeleteMessage{entityId, subQueue, item.seq});
            ticket = m_store->ticket();
        }
        if (auto durable = m_store->waitDurable(ticket); !durable)
            return durable.error();
    }
    return out;
}

Result<MessageView> BrokerImpl::receiveDeferred(const QString& path, qint64 seq,
                                                const QString& receiver) {
    qint64 entityId;
    SubQueue subQueue;
    QString entityPath;
    Instant now;
    quint64 ticket;
    Taken item{seq, 0, std::nullopt};
    std::optional<Error> failure;
    {
        std::lock_guard lock(m_mutex);
        auto target = enterLocked(path, now);
        if (!target)
            return target.error();
        Entity& entity = *target->entity;
        if (auto ok = checkReceivable(entity); !ok)
            return ok.error();
        entityId = entity.id;
        subQueue = target->subQueue;
        entityPath = entity.path;
        ticket = m_store->readTicket(); // as in receive(): earlier writes must be readable
        touchLocked(entity, now);
        MessageIndex& index = entity.index(subQueue);
        MessageMeta* meta = index.find(seq);
        const bool main = subQueue == SubQueue::Main;
        if (!meta || meta->state != MessageState::Deferred) {
            failure = makeError(ErrorCode::MessageNotFound,
                                QStringLiteral("No deferred message with sequence number %1 in "
                                               "'%2'.")
                                    .arg(seq)
                                    .arg(path));
        } else if (meta->locked) {
            failure = makeError(ErrorCode::MessageNotFound,
                                QStringLiteral("The deferred message %1 is locked by another "
                                               "receiver.")
                                    .arg(seq));
        } else if (main && meta->expiresAt() <= now) {
            // T8: a deferred message expires only when asked for.
            expireLocked(entity, seq, now);
            failure = makeError(ErrorCode::MessageNotFound,
                                QStringLiteral("The deferred message %1 had expired.").arg(seq));
        } else if (main && meta->deliveryCount >= quint32(entity.properties.maxDeliveryCount)) {
            deadLetterLocked(entity, seq, QStringLiteral("MaxDeliveryCountExceeded"),
                             QStringLiteral("The message was delivered %1 times, the entity's "
                                            "MaxDeliveryCount.")
                                 .arg(meta->deliveryCount),
                             now);
            failure = makeError(ErrorCode::MessageNotFound,
                                QStringLiteral("The deferred message %1 reached MaxDeliveryCount "
                                               "and was dead-lettered.")
                                    .arg(seq));
        } else {
            ++meta->deliveryCount;
            ++entity.flow.received;
            LockInfo info{QUuid::createUuid(), receiver,
                          addSaturating(now, entity.properties.lockDuration)};
            index.lock(seq, info);
            m_lockTokens.insert(info.token, {entity.id, subQueue, seq});
            m_timers.push({info.lockedUntil, seq, static_cast<quint32>(entity.id),
                           TimerKind::LockExpire, static_cast<quint8>(subQueue)});
            m_store->log(op::SetDeliveryCount{entity.id, subQueue, seq, meta->deliveryCount});
            item.deliveryCount = meta->deliveryCount;
            item.lock = info;
            m_feed->markCounts(entity.qualified());
        }
    }
    if (auto durable = m_store->waitDurable(ticket); !durable)
        return durable.error();
    if (failure)
        return *failure;
    auto row = m_store->readOne(entityId, subQueue, seq, true);
    if (!row)
        return row.error();
    if (!*row)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("The message %1 is gone.").arg(seq));
    MessageView view = viewFromRow(**row, entityPath, now);
    view.deliveryCount = item.deliveryCount;
    view.locked = true;
    view.lockToken = item.lock->token;
    view.lockHolder = item.lock->receiver;
    view.lockedUntil = item.lock->lockedUntil;
    return view;
}

Result<QList<MessageView>> BrokerImpl::peek(const QString& path, qint64 fromSeq, int maxCount) {
    if (maxCount < 1 || maxCount > kMaxBatch)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("maxCount must be between 1 and %1; got %2.")
                             .arg(kMaxBatch)
                             .arg(maxCount));
    return listMessages(path, fromSeq, maxCount, true, true);
}

} // namespace hourglass
