// Settlement and what follows a lock: complete, abandon, dead-letter, defer, renew, lock loss,
// max delivery count and expiry (service-bus-rules.md L5-L10, L6, T6, T7).
#include "BrokerWrite.h"

namespace hourglass {

namespace {
Error lockLost(const QString& why) {
    return makeError(ErrorCode::MessageLockLost,
                     QStringLiteral("The lock supplied is invalid: %1").arg(why));
}
} // namespace

Result<LockLocation> BrokerImpl::checkMessageLock(const LockRef& ref, Instant now) const {
    auto target = resolve(ref.entityPath);
    if (!target)
        return target.error();
    if (ref.lockToken.isNull())
        return lockLost(QStringLiteral("no lock token was given."));
    const LockLocation* found = m_locks.find(ref.lockToken);
    if (!found && m_locks.lostWithSession(ref.lockToken))
        return makeError(ErrorCode::SessionLockLost,
                         QStringLiteral("The lock supplied was lost with its session's lock: it "
                                        "ran out, was released, or was lost (an update of the "
                                        "entity or the holder's connection broke)."));
    // A token of an earlier run: the restart ended the session it was taken under (S5).
    if (!found && target->entity->hasSessions() && target->subQueue == SubQueue::Main &&
        !m_locks.issuedHere(ref.lockToken))
        return makeError(ErrorCode::SessionLockLost,
                         QStringLiteral("The lock supplied was lost with its session's lock: "
                                        "the broker restarted since the message was received, "
                                        "and a restart ends every session."));
    if (!found)
        return lockLost(QStringLiteral("it expired, the message was already settled, or the lock "
                                       "was lost (an update of the entity or a restart)."));
    const LockLocation location = *found;
    if (location.entityId != target->entity->id || location.subQueue != target->subQueue)
        return lockLost(
            QStringLiteral("it belongs to another entity than '%1'.").arg(ref.entityPath));
    const LockInfo* lock = target->entity->index(location.subQueue).lockOf(location.seq);
    if (!lock || lock->token != ref.lockToken)
        return lockLost(QStringLiteral("the message no longer holds this lock."));
    if (lock->receiver != ref.receiver)
        return lockLost(
            QStringLiteral("it belongs to another receiver ('%1').").arg(lock->receiver));
    if (lock->lockedUntil <= now)
        return lockLost(QStringLiteral("it expired at %1.").arg(formatInstant(lock->lockedUntil)));
    return location;
}

Result<void> BrokerImpl::settle(const LockRef& ref, Settle action,
                                const DeadLetterOptions& options) {
    BrokerWrite write(*this);
    const Instant now = m_clock->now();
    processDue(now);
    if (auto settled = settleOne(ref, action, options, now); !settled)
        return settled;
    m_sessionLocks.serveWaits(now); // an abandoned message may free a session (S3)
    return write.commit();
}

QList<Result<void>> BrokerImpl::settleBatch(const QList<LockRef>& locks, Settle action) {
    QList<Result<void>> results;
    BrokerWrite write(*this);
    const Instant now = m_clock->now();
    processDue(now);
    for (const LockRef& ref : locks)
        results.append(settleOne(ref, action, {}, now));
    m_sessionLocks.serveWaits(now);
    return write.commitEach(std::move(results));
}

Result<void> BrokerImpl::settleOne(const LockRef& ref, Settle action,
                                   const DeadLetterOptions& options, Instant now) {
    {
        auto location = checkMessageLock(ref, now);
        if (!location)
            return location.error();
        Entity& entity = *m_registry.byId(location->entityId);
        const SubQueue subQueue = location->subQueue;
        const qint64 seq = location->seq;
        MessageIndex& index = entity.index(subQueue);
        if (action == Settle::DeadLetter && subQueue == SubQueue::DeadLetter)
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("A message in a dead-letter queue cannot be "
                                            "dead-lettered again; complete or abandon it."));
        if (!options.propertiesToModify.isEmpty()) {
            if (auto modified = modifyProperties(entity, subQueue, seq, options.propertiesToModify);
                !modified)
                return modified.error();
        }
        touch(entity, now); // settling is part of receiving (A2)
        switch (action) {
        case Settle::Complete:
            removeMessage(entity, subQueue, seq); // L5
            ++entity.flow.completed;
            break;
        case Settle::Abandon:
            releaseMessageLock(entity, subQueue, seq, now); // L5, then L6 / T6
            break;
        case Settle::DeadLetter:
            endMessageLock(entity, subQueue, seq, LockEnd::MessageStays);
            moveToDeadLetter(entity, seq, options.reason, options.description, now); // L7
            break;
        case Settle::Defer:
            endMessageLock(entity, subQueue, seq, LockEnd::MessageStays);
            if (index.find(seq)->state != MessageState::Deferred) {
                index.setState(seq, MessageState::Deferred); // L8
                m_store->log(op::SetState{entity.id, subQueue, seq, MessageState::Deferred});
            }
            break;
        }
        m_feed->markRemoved(subQueue == SubQueue::Main ? entity.qualified()
                                                       : entity.qualifiedDeadLetter());
        m_feed->markCounts(entity.qualified());
    }
    return {};
}

Result<Instant> BrokerImpl::renewLock(const LockRef& ref) {
    Instant lockedUntil;
    BrokerWrite write(*this);
    const Instant now = m_clock->now();
    processDue(now);
    auto location = checkMessageLock(ref, now);
    if (!location)
        return location.error();
    Entity& entity = *m_registry.byId(location->entityId);
    LockInfo* info = entity.index(location->subQueue).lockOf(location->seq);
    info->lockedUntil = addSaturating(now, entity.properties.lockDuration); // L10
    lockedUntil = info->lockedUntil;
    m_timers.push({lockedUntil, location->seq, static_cast<quint32>(entity.id),
                   TimerKind::LockExpire, static_cast<quint8>(location->subQueue)});
    touch(entity, now);
    // Locks are volatile (L9) and not stored; the activity is (D2).
    return write.commit(lockedUntil);
}

void BrokerImpl::releaseMessageLock(Entity& entity, SubQueue subQueue, qint64 seq, Instant now) {
    endMessageLock(entity, subQueue, seq, LockEnd::MessageStays);
    if (!entity.index(subQueue).find(seq))
        return;
    m_feed->markCounts(entity.qualified());
    m_feed->markAdded(subQueue == SubQueue::Main ? entity.qualified()
                                                 : entity.qualifiedDeadLetter());
    keepDeliverable(entity, subQueue, seq, now, Moment::Release); // L6, T6
}

void BrokerImpl::expire(Entity& entity, qint64 seq, Instant now) {
    ++entity.flow.expired;
    if (entity.properties.deadLetteringOnMessageExpiration)
        moveToDeadLetter(entity, seq, QStringLiteral("TTLExpiredException"),
                         QStringLiteral("The message expired and was dead lettered."), now);
    else
        removeMessage(entity, SubQueue::Main, seq); // T7: dropped
}

void BrokerImpl::moveToDeadLetter(Entity& entity, qint64 seq, const QString& reason,
                                  const QString& description, Instant now) {
    const MessageMeta* found = entity.main.find(seq);
    if (!found)
        return;
    endMessageLock(entity, SubQueue::Main, seq, LockEnd::MessageStays);
    ++entity.flow.deadLettered;
    if (Entity* target = m_router.deadLetterDestination(entity)) {
        if (const auto whole = loadWhole(entity, seq)) {
            removeMessage(entity, SubQueue::Main, seq);
            m_router.forwardDeadLetter(*target, outgoingFromStored(*whole),
                                       {reason, description, entity.path}, now, 1);
            return;
        }
    }
    MessageMeta moved = *found;
    moved.state = MessageState::Active;
    entity.main.remove(seq);
    entity.sessions.removeMessage(seq); // a dead-letter queue has no sessions
    entity.deadLetter.insert(seq, moved);
    m_store->log(op::MoveToDeadLetter{entity.id, seq, reason, description});
    m_feed->markRemoved(entity.qualified());
    m_feed->markAdded(entity.qualifiedDeadLetter());
    m_feed->markCounts(entity.qualified());
}

std::optional<StoredMessage> BrokerImpl::loadWhole(const Entity& entity, qint64 seq) {
    auto row = m_store->readLatest(entity.id, seq);
    if (!row)
        return std::nullopt;
    return *row;
}

Result<void> BrokerImpl::modifyProperties(Entity& entity, SubQueue subQueue, qint64 seq,
                                          const QVariantMap& changes) {
    const auto whole = loadWhole(entity, seq);
    if (!whole)
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("The message %1 could not be read to modify its "
                                        "properties.")
                             .arg(seq));
    OutgoingMessage probe = outgoingFromStored(*whole);
    for (auto it = changes.cbegin(); it != changes.cend(); ++it)
        probe.applicationProperties.insert(it.key(), it.value());
    const qint64 oldSize = whole->size;
    if (auto ok = checkSendable(entity, probe, -oldSize);
        !ok && ok.error().code != ErrorCode::QuotaExceeded)
        return ok.error();
    // The quota counts the message at its new size.
    const qint64 newSize = messageSize(probe);
    entity.index(subQueue).resize(seq, static_cast<quint32>(newSize));
    m_store->log(op::SetApplicationProperties{
        entity.id, subQueue, seq, encodeProperties(probe.applicationProperties), newSize});
    return {};
}

} // namespace hourglass
