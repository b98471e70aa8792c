// Receiving: peek-lock, receive-and-delete, deferred messages, peek (service-bus-rules.md L3-L6,
// L8, L12, T5, T8, D2).
//
// A hand-out is durable before the message leaves (D2): the delivery it counts (one delivery
// journal row per receive, StoreSchema.h) and the activity it marks are committed, with group
// commit, before receive() returns, so a receiver that crashes the process on a poison message
// still drives it to MaxDeliveryCount.
#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

namespace hourglass {

namespace {
constexpr int kMaxBatch = 10000;

// S1: a session entity hands its messages out through session locks only.
Result<void> checkWithoutSession(const Entity& entity, SubQueue subQueue) {
    if (subQueue == SubQueue::Main && entity.hasSessions())
        return makeWrongEntityKindError(QStringLiteral("'%1' requires sessions: accept a "
                                                       "session and receive through it.")
                                            .arg(entity.path));
    return {};
}

// A topic hands its messages to its subscriptions, which are received from.
Result<void> checkNotTopic(const Entity& entity) {
    if (entity.kind == EntityKind::Topic)
        return makeWrongEntityKindError(QStringLiteral("Messages are received from the "
                                                       "subscriptions of '%1', not from the "
                                                       "topic.")
                                            .arg(entity.path));
    return {};
}
} // namespace

Result<void> EmbeddedBroker::checkReceiver(const QString& path) const {
    auto& d = *m_impl;
    auto checked = d.readTarget(path, [](const BrokerImpl::Target& target) -> Result<void> {
        if (auto ok = checkNotTopic(*target.entity); !ok)
            return ok;
        return checkWithoutSession(*target.entity, target.subQueue);
    });
    if (!checked)
        return checked.error();
    return *checked;
}

Result<void> BrokerImpl::checkBatchSize(int maxCount) {
    if (maxCount < 1 || maxCount > kMaxBatch)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("maxCount must be between 1 and %1; got %2.")
                             .arg(kMaxBatch)
                             .arg(maxCount));
    return {};
}

Result<void> BrokerImpl::checkReceivable(const Entity& entity) {
    if (auto ok = checkNotTopic(entity); !ok)
        return ok;
    const EntityStatus status = entity.properties.status;
    if (status == EntityStatus::Disabled || status == EntityStatus::ReceiveDisabled)
        return makeError(ErrorCode::MessagingEntityDisabled,
                         QStringLiteral("'%1' is %2: nothing can be received from it.")
                             .arg(entity.path, entityStatusName(status)));
    if (entity.topic && entity.topic->properties.status == EntityStatus::Disabled)
        return makeError(ErrorCode::MessagingEntityDisabled,
                         QStringLiteral("The topic '%1' is Disabled: its subscriptions hand out "
                                        "nothing.")
                             .arg(entity.topic->path)); // E5
    return {};
}

bool BrokerImpl::keepDeliverable(Entity& entity, SubQueue subQueue, qint64 seq, Instant now,
                                 Moment moment) {
    const MessageMeta* meta = entity.index(subQueue).find(seq);
    if (!meta)
        return false;
    if (subQueue != SubQueue::Main)
        return true; // no MaxDeliveryCount and no expiry inside a dead-letter queue (L7, T8)
    if (meta->deliveryCount >= quint32(entity.properties.maxDeliveryCount)) {
        moveToDeadLetter(entity, seq, QStringLiteral("MaxDeliveryCountExceeded"),
                         QStringLiteral("The message was delivered %1 times, the entity's "
                                        "MaxDeliveryCount.")
                             .arg(meta->deliveryCount),
                         now); // L6
        return false;
    }
    // T5 and T8 at a hand-out (a deferred message is checked when it is asked for); T6 at a
    // release, where a deferred message stays as it is (T8).
    const bool expires = meta->state == MessageState::Active ||
                         (moment == Moment::HandOut && meta->state == MessageState::Deferred);
    if (expires && meta->expiresAt() <= now) {
        expire(entity, seq, now);
        return false;
    }
    return true;
}

BrokerImpl::Taken BrokerImpl::handOutMessage(Entity& entity, SubQueue subQueue, qint64 seq,
                                             const QString* lockHolder, Instant now,
                                             qint64 record) {
    MessageIndex& index = entity.index(subQueue);
    MessageMeta* meta = index.find(seq);
    ++entity.flow.received;
    // The receiver sees this delivery counted, whatever the mode.
    Taken taken{seq, meta->deliveryCount + 1, std::nullopt};
    if (!lockHolder) {
        // L3: consumed now. The row is deleted once it has been read back.
        index.remove(seq);
        if (subQueue == SubQueue::Main)
            entity.sessions.removeMessage(seq);
        return taken;
    }
    // L4: deliveries under lock. The journal row `record` stores this one (D2).
    meta->deliveryCount = taken.deliveryCount;
    LockInfo info{m_locks.newToken(), *lockHolder,
                  addSaturating(now, entity.properties.lockDuration), record};
    index.lock(seq, info);
    m_locks.add(info.token, {entity.id, subQueue, seq});
    m_timers.push({info.lockedUntil, seq, static_cast<quint32>(entity.id), TimerKind::LockExpire,
                   static_cast<quint8>(subQueue)});
    taken.lock = info;
    return taken;
}

void BrokerImpl::recordDeliveries(const Entity& entity, SubQueue subQueue,
                                  const std::vector<Taken>& taken, qint64 record) {
    if (taken.empty())
        return;
    std::vector<qint64> seqs;
    seqs.reserve(taken.size());
    for (const Taken& item : taken)
        seqs.push_back(item.seq);
    m_locks.openRecord(record, static_cast<int>(taken.size()));
    m_store->log(op::RecordDeliveries{record, entity.id, subQueue, std::move(seqs)});
}

void BrokerImpl::endMessageLock(Entity& entity, SubQueue subQueue, qint64 seq, LockEnd end) {
    MessageIndex& index = entity.index(subQueue);
    const LockInfo* lock = index.lockOf(seq);
    if (!lock)
        return;
    const qint64 record = lock->deliveryRecord;
    m_locks.remove(lock->token);
    index.unlock(seq);
    if (end == LockEnd::MessageStays) {
        if (const MessageMeta* meta = index.find(seq))
            m_store->log(
                op::SetDeliveryCount{entity.id, subQueue, seq, meta->deliveryCount, record});
        settleDeliveryRecord(record);
    }
    // A message that goes settles its row after its removal is logged (removeMessage).
}

void BrokerImpl::settleDeliveryRecord(qint64 record) {
    if (m_locks.settleRecord(record))
        m_store->log(op::ForgetDeliveries{record});
}

Result<QList<MessageView>> BrokerImpl::handedOut(const HandOut& handOut) {
    QList<MessageView> out;
    if (handOut.taken.empty())
        return out;
    std::vector<qint64> seqs;
    seqs.reserve(handOut.taken.size());
    for (const Taken& item : handOut.taken)
        seqs.push_back(item.seq);
    auto rows = m_store->readMany(handOut.entityId, handOut.subQueue, seqs, true);
    if (!rows)
        return rows.error();
    // Rows come back in the order asked for; one whose entity was deleted meanwhile is missing.
    std::size_t next = 0;
    for (const StoredMessage& row : *rows) {
        while (next < handOut.taken.size() && handOut.taken[next].seq != row.sequenceNumber)
            ++next;
        if (next == handOut.taken.size())
            break;
        const Taken& item = handOut.taken[next];
        MessageView view = viewFromRow(row, handOut.entityPath, handOut.now);
        view.deliveryCount = item.deliveryCount;
        if (item.lock) {
            view.locked = true;
            view.lockToken = item.lock->token;
            view.lockHolder = item.lock->receiver;
            view.lockedUntil = item.lock->lockedUntil;
        }
        out.append(view);
    }
    return out;
}

Result<QList<MessageView>> BrokerImpl::finishHandOut(const HandOut& handOut, const Logged& logged,
                                                     ReceiveMode mode) {
    if (auto durable = logged.durable(); !durable)
        return durable.error();
    auto out = handedOut(handOut);
    if (!out || mode == ReceiveMode::PeekLock || handOut.taken.empty())
        return out;
    // Receive-and-delete: the rows go once they have been read.
    BrokerWrite write(*this);
    for (const Taken& item : handOut.taken)
        m_store->log(op::DeleteMessage{handOut.entityId, handOut.subQueue, item.seq});
    return write.commit(*out);
}

void BrokerImpl::beginHandOut(Entity& entity, SubQueue subQueue, HandOut& handOut) {
    handOut.entityId = entity.id;
    handOut.subQueue = subQueue;
    handOut.entityPath = entity.path;
    touch(entity, handOut.now); // A2: a receive is activity, an empty one too (a polled queue)
}

void BrokerImpl::endHandOut(Entity& entity, const HandOut& handOut, const QString* lockHolder,
                            qint64 record) {
    if (lockHolder)
        recordDeliveries(entity, handOut.subQueue, handOut.taken, record);
    if (handOut.taken.empty())
        return;
    m_feed->markRemoved(handOut.subQueue == SubQueue::Main ? entity.qualified()
                                                           : entity.qualifiedDeadLetter());
    m_feed->markCounts(entity.qualified());
}

Result<Entity*> BrokerImpl::beginReceive(const QString& path, HandOut& handOut) {
    auto target = fireDueAndResolve(path, handOut.now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (auto ok = checkReceivable(entity); !ok)
        return ok.error();
    if (auto ok = checkWithoutSession(entity, target->subQueue); !ok)
        return ok.error();
    beginHandOut(entity, target->subQueue, handOut);
    return &entity;
}

Result<QList<MessageView>> BrokerImpl::receive(const QString& path, const ReceiveOptions& options) {
    if (auto ok = checkBatchSize(options.maxCount); !ok)
        return ok.error();
    const QString* lockHolder = options.mode == ReceiveMode::PeekLock ? &options.receiver : nullptr;
    HandOut handOut;
    BrokerWrite write(*this);
    auto begun = beginReceive(path, handOut);
    if (!begun)
        return begun.error();
    Entity& entity = **begun;
    const Instant now = handOut.now;
    MessageIndex& index = entity.index(handOut.subQueue);
    const qint64 record = m_locks.takeRecordId();
    while (static_cast<int>(handOut.taken.size()) < options.maxCount) {
        const auto next = index.firstReceivable();
        if (!next)
            break;
        if (!keepDeliverable(entity, handOut.subQueue, *next, now, Moment::HandOut))
            continue;
        handOut.taken.push_back(
            handOutMessage(entity, handOut.subQueue, *next, lockHolder, now, record));
    }
    endHandOut(entity, handOut, lockHolder, record);
    // Everything logged so far: the rows handed out, their delivery counts, the activity,
    // and what expired or was dead-lettered on the way.
    const Logged logged = write.release();
    if (options.taken)
        options.taken();
    return finishHandOut(handOut, logged, options.mode);
}

std::optional<Error> BrokerImpl::takeDeferred(Entity& entity, SubQueue subQueue, qint64 seq,
                                              const QString& receiver, HandOut& handOut) {
    const MessageMeta* meta = entity.index(subQueue).find(seq);
    if (!meta || meta->state != MessageState::Deferred)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("No deferred message with sequence number %1 in '%2'.")
                             .arg(seq)
                             .arg(subQueue == SubQueue::DeadLetter ? entity.path + kDeadLetterSuffix
                                                                   : entity.path));
    if (meta->locked)
        return makeError(
            ErrorCode::MessageNotFound,
            QStringLiteral("The deferred message %1 is locked by another receiver.").arg(seq));
    if (!keepDeliverable(entity, subQueue, seq, handOut.now, Moment::HandOut))
        // T8 (expired when asked for) or L6.
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("The deferred message %1 had expired or reached "
                                        "MaxDeliveryCount; it is no longer deferred.")
                             .arg(seq));
    const qint64 record = m_locks.takeRecordId();
    handOut.taken.push_back(handOutMessage(entity, subQueue, seq, &receiver, handOut.now, record));
    recordDeliveries(entity, subQueue, handOut.taken, record);
    m_feed->markCounts(entity.qualified());
    return std::nullopt;
}

Result<MessageView> BrokerImpl::receiveDeferred(const QString& path, qint64 seq,
                                                const QString& receiver) {
    HandOut handOut;
    BrokerWrite write(*this);
    auto begun = beginReceive(path, handOut);
    if (!begun)
        return begun.error();
    const auto failure = takeDeferred(**begun, handOut.subQueue, seq, receiver, handOut);
    return finishDeferredHandOut(handOut, write.release(), failure, seq);
}

Result<MessageView> BrokerImpl::finishDeferredHandOut(const HandOut& handOut, const Logged& logged,
                                                      const std::optional<Error>& failure,
                                                      qint64 seq) {
    if (auto durable = logged.durable(); !durable)
        return durable.error();
    if (failure)
        return *failure;
    auto out = handedOut(handOut);
    if (!out)
        return out.error();
    if (out->isEmpty())
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("The message %1 is gone.").arg(seq));
    return out->first();
}

} // namespace hourglass
