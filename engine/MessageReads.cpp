// The reads (MessageReads.h): paged message lists and peek, one message, counts, flow,
// dead-letter reasons, the routing preview. They take no lock and change nothing; only a peek
// counts as activity (A2).
#include "MessageReads.h"

#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

#include <QUuid>

namespace hourglass {

namespace {
// What memory knows of a message at the moment of the read: state, delivery count, lock.
struct Overlay {
    qint64 seq;
    MessageMeta meta;
    std::optional<LockInfo> lock;
};

void applyOverlay(MessageView& view, const Overlay& overlay, Instant now) {
    view.state = overlay.meta.state;
    view.deliveryCount = overlay.meta.deliveryCount;
    if (overlay.meta.state != MessageState::Scheduled)
        view.expiresAt = overlay.meta.activatesOrExpiresAt;
    view.expired = view.subQueue == SubQueue::Main && view.state != MessageState::Scheduled &&
                   view.expiresAt <= now;
    if (overlay.lock) {
        view.locked = true;
        view.lockHolder = overlay.lock->receiver;
        view.lockedUntil = overlay.lock->lockedUntil;
    }
}

Overlay overlayOf(const MessageIndex& index, qint64 seq, const MessageMeta& meta) {
    Overlay overlay{seq, meta, std::nullopt};
    if (const LockInfo* lock = index.lockOf(seq))
        overlay.lock = *lock;
    return overlay;
}
} // namespace

MessageView viewFromRow(const StoredMessage& row, const QString& entityPath, Instant now) {
    MessageView v;
    v.entityPath = entityPath;
    v.subQueue = row.subQueue;
    v.sequenceNumber = row.sequenceNumber;
    v.state = row.state;
    v.systemProperties() = row.systemProperties();
    v.effectiveTimeToLive = row.effectiveTimeToLive;
    v.scheduledEnqueueTime = row.scheduledAt;
    v.enqueuedTime = row.enqueuedAt;
    v.expiresAt = row.expiresAt;
    v.expiryDerived = !row.timeToLive.has_value(); // T9
    v.expired = row.subQueue == SubQueue::Main && row.state != MessageState::Scheduled &&
                row.expiresAt <= now;
    v.deliveryCount = row.deliveryCount;
    v.deadLetterReason = row.deadLetterReason;
    v.deadLetterErrorDescription = row.deadLetterDescription;
    v.deadLetterSource = row.deadLetterSource;
    v.applicationProperties = decodeProperties(row.applicationProperties);
    // L7: the reason and description are application properties of the dead-lettered message.
    if (!row.deadLetterReason.isEmpty())
        v.applicationProperties.insert(QStringLiteral("DeadLetterReason"), row.deadLetterReason);
    if (!row.deadLetterDescription.isEmpty())
        v.applicationProperties.insert(QStringLiteral("DeadLetterErrorDescription"),
                                       row.deadLetterDescription);
    v.sizeInBytes = row.size;
    v.body = row.body;
    v.wireExtras = row.wireExtras;
    v.hasBody = row.hasBody;
    return v;
}

Result<QList<MessageView>> MessageReads::list(const QString& path, qint64 fromSeq, int maxCount,
                                              bool bodies) {
    return listMessages(path, fromSeq, maxCount, bodies, Read::Explorer, nullptr);
}

Result<QList<MessageView>> MessageReads::peek(const QString& path, qint64 fromSeq, int maxCount,
                                              const QString* sessionId) {
    if (auto ok = BrokerImpl::checkBatchSize(maxCount); !ok)
        return ok.error();
    return listMessages(path, fromSeq, maxCount, true, Read::Peek, sessionId);
}

Result<QList<MessageView>> MessageReads::listMessages(const QString& path, qint64 fromSeq,
                                                      int maxCount, bool bodies, Read read,
                                                      const QString* sessionId) {
    if (maxCount < 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("maxCount must be at least 1; got %1.").arg(maxCount));
    if (sessionId && (sessionId->isEmpty() || sessionId->size() > kMaxSessionIdLength))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A session id is 1 to %1 characters long; got %2.")
                             .arg(kMaxSessionIdLength)
                             .arg(sessionId->size()));
    std::vector<Overlay> overlays;
    qint64 entityId;
    SubQueue subQueue;
    QString entityPath;
    Instant now;
    BrokerWrite write(m_broker);
    auto target = m_broker.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (read == Read::Peek && entity.kind == EntityKind::Topic)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A topic cannot be peeked; peek its subscriptions."));
    if (sessionId && (target->subQueue != SubQueue::Main || !entity.hasSessions()))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("'%1' has no sessions: only a queue or subscription "
                                        "that requires sessions has them.")
                             .arg(entity.path)); // its own path: never the "ns:" form
    entityId = entity.id;
    subQueue = target->subQueue;
    entityPath = entity.path;
    if (read == Read::Peek)
        m_broker.touch(entity, now); // A2: a peek is activity, stored before it returns (D2)
    const MessageIndex& index = entity.index(subQueue);
    const auto& messages = index.messages();
    const auto full = [&] { return static_cast<int>(overlays.size()) >= maxCount; };
    if (sessionId) {
        // The session's own numbers: a peek inside a session never walks the others.
        if (const SessionRecord* session = entity.sessions.find(*sessionId)) {
            for (auto seq = session->messages.lower_bound(std::max<qint64>(fromSeq, 0));
                 seq != session->messages.end() && !full(); ++seq) {
                if (const auto it = messages.find(*seq); it != messages.end())
                    overlays.push_back(overlayOf(index, it->first, it->second));
            }
        }
    } else {
        for (auto it = messages.lower_bound(std::max<qint64>(fromSeq, 0));
             it != messages.end() && !full(); ++it)
            overlays.push_back(overlayOf(index, it->first, it->second));
    }
    // The rows of what memory listed are committed once the writes logged before are; only a
    // peek waits for what it logged itself.
    const Logged logged = read == Read::Peek ? write.release() : write.releaseRead();
    if (auto durable = logged.durable(); !durable)
        return durable.error();
    QList<MessageView> out;
    if (overlays.empty())
        return out;
    std::vector<qint64> seqs;
    seqs.reserve(overlays.size());
    for (const Overlay& overlay : overlays)
        seqs.push_back(overlay.seq);
    auto rows = m_broker.m_store->readMany(entityId, subQueue, seqs, bodies);
    if (!rows)
        return rows.error();
    // Rows come back in the order asked for; one settled meanwhile is simply missing.
    std::size_t next = 0;
    for (const StoredMessage& row : *rows) {
        while (next < overlays.size() && overlays[next].seq != row.sequenceNumber)
            ++next;
        if (next == overlays.size())
            break;
        MessageView view = viewFromRow(row, entityPath, now);
        applyOverlay(view, overlays[next], now);
        out.append(view);
    }
    return out;
}

Result<MessageView> EmbeddedBroker::message(const QString& path, qint64 sequenceNumber,
                                            Bodies bodies) const {
    auto& d = *m_impl;
    std::optional<Overlay> overlay;
    qint64 entityId;
    SubQueue subQueue;
    QString entityPath;
    Instant now;
    BrokerRead read(d);
    auto target = d.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    const Entity& entity = *target->entity;
    entityId = entity.id;
    subQueue = target->subQueue;
    entityPath = entity.path;
    const MessageIndex& index = entity.index(subQueue);
    if (const MessageMeta* meta = index.find(sequenceNumber))
        overlay = overlayOf(index, sequenceNumber, *meta);
    const Logged readable = read.release();
    if (!overlay)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("No message with sequence number %1 in '%2'.")
                             .arg(sequenceNumber)
                             .arg(subQueue == SubQueue::DeadLetter ? entityPath + kDeadLetterSuffix
                                                                   : entityPath));
    if (auto durable = readable.durable(); !durable)
        return durable.error();
    auto row = d.m_store->readOne(entityId, subQueue, sequenceNumber, bodies == Bodies::With);
    if (!row)
        return row.error();
    if (!*row)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("The message %1 is gone.").arg(sequenceNumber));
    MessageView view = viewFromRow(**row, entityPath, now);
    applyOverlay(view, *overlay, now);
    return view;
}

Result<Broker::SequenceIndex> EmbeddedBroker::sequenceIndex(const QString& path, int stride) const {
    if (stride < 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("stride must be at least 1; got %1.").arg(stride));
    return m_impl->readTarget(path, [stride](const BrokerImpl::Target& target) {
        const auto& messages = target.entity->index(target.subQueue).messages();
        SequenceIndex index;
        index.stride = stride;
        index.total = static_cast<qint64>(messages.size());
        index.anchors.reserve(index.total / stride + 1);
        qint64 position = 0;
        for (const auto& [seq, meta] : messages) {
            if (position++ % stride == 0)
                index.anchors.append(seq);
        }
        return index;
    });
}

Result<EntityCounts> EmbeddedBroker::counts(const QString& path) const {
    return m_impl->readTarget(path, [](const BrokerImpl::Target& target) {
        return BrokerImpl::countsOf(*target.entity, target.subQueue);
    });
}

EntityCounts BrokerImpl::countsOf(const Entity& entity, SubQueue subQueue) {
    const IndexCounts& main = entity.main.counts();
    const IndexCounts& dead = entity.deadLetter.counts();
    EntityCounts counts;
    if (subQueue == SubQueue::DeadLetter) {
        // The dead-letter queue as its receivers see it: what it holds and can hand out.
        counts.active = dead.receivable;
        counts.scheduled = dead.scheduled;
        counts.deferred = dead.deferred;
        counts.locked = dead.locked;
        counts.sizeInBytes = dead.sizeInBytes;
        return counts;
    }
    counts.active = main.receivable;
    counts.scheduled = main.scheduled;
    counts.deferred = main.deferred;
    counts.locked = main.locked;
    counts.deadLettered = dead.total();
    counts.sizeInBytes = main.sizeInBytes + dead.sizeInBytes;
    return counts;
}

Result<EntityFlow> EmbeddedBroker::flow(const QString& path) const {
    return m_impl->readTarget(path,
                              [](const BrokerImpl::Target& target) { return target.entity->flow; });
}

Result<QMap<QString, qint64>> EmbeddedBroker::deadLetterReasons(const QString& path) const {
    auto& d = *m_impl;
    qint64 entityId;
    std::vector<qint64> seqs;
    BrokerRead read(d);
    Instant now;
    auto target = d.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    if (target->entity->kind == EntityKind::Topic)
        return QMap<QString, qint64>();
    entityId = target->entity->id;
    // The dead-letter queue's own sequence numbers: reading just those rows costs what the
    // queue holds, not what the entity holds (a scan of the entity's rows would read a
    // million-message queue to count three dead letters).
    const auto& held = target->entity->deadLetter.messages();
    seqs.reserve(held.size());
    for (const auto& [seq, meta] : held)
        seqs.push_back(seq);
    const Logged readable = read.release();
    QMap<QString, qint64> reasons;
    if (seqs.empty())
        return reasons;
    if (auto durable = readable.durable(); !durable)
        return durable.error();
    constexpr std::size_t kChunk = 1000;
    for (std::size_t first = 0; first < seqs.size(); first += kChunk) {
        const std::vector<qint64> chunk(seqs.begin() + qsizetype(first),
                                        seqs.begin() +
                                            qsizetype(std::min(seqs.size(), first + kChunk)));
        auto rows = d.m_store->readMany(entityId, SubQueue::DeadLetter, chunk, false);
        if (!rows)
            return rows.error();
        for (const StoredMessage& row : *rows)
            ++reasons[row.deadLetterReason];
    }
    return reasons;
}

Result<RoutingPreview>
EmbeddedBroker::previewRouting(const QString& topicPath, const OutgoingMessage& original,
                               const std::optional<SqlBrokerFields>& assigned) const {
    auto& d = *m_impl;
    BrokerRead read(d);
    Instant now;
    auto target = d.fireDueAndResolve(topicPath, now);
    if (!target)
        return target.error();
    const Entity& topic = *target->entity;
    if (topic.kind != EntityKind::Topic || target->subQueue != SubQueue::Main)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("Routing goes through a topic; '%1' is not one.").arg(topicPath));
    OutgoingMessage message = original;
    RoutingPreview result = startRoutingPreview(topic.path, topic.properties.status, message, now);
    // seenBefore without remembering: an id seen at or after the window's start.
    if (topic.properties.requiresDuplicateDetection && !result.messageIdGenerated) {
        const auto seen = topic.seenIds.constFind(message.messageId);
        result.duplicate = seen != topic.seenIds.constEnd() &&
                           *seen >= now - topic.properties.duplicateDetectionHistoryTimeWindow;
    }
    SqlBrokerFields fields;
    if (assigned) {
        fields = *assigned;
    } else {
        fields.sequenceNumber = topic.nextSeq;
        fields.enqueuedTime = result.scheduledFor ? *result.scheduledFor : now;
        fields.deliveryCount = 0;
        fields.size = messageSize(message);
    }
    QList<SubscriptionRules> subscriptions;
    for (const Entity* subscription : topic.subscriptions) {
        SubscriptionRules rules{
            subscription->path, subscription->properties, subscription->rules, {}, {}};
        const EntityProperties& p = subscription->properties;
        if (!p.forwardTo.isEmpty())
            rules.forwardToFailure = d.m_router.forwardingFailure(topic.namespaceName, p.forwardTo);
        if (!p.forwardDeadLetteredMessagesTo.isEmpty())
            rules.deadLetterForwardFailure =
                d.m_router.forwardingFailure(topic.namespaceName, p.forwardDeadLetteredMessagesTo);
        subscriptions.append(rules);
    }
    std::sort(subscriptions.begin(), subscriptions.end(),
              [](const SubscriptionRules& a, const SubscriptionRules& b) {
                  return a.path.compare(b.path, Qt::CaseInsensitive) < 0;
              });
    result.subscriptions = hourglass::previewRouting(subscriptions, message, fields);
    return result;
}

} // namespace hourglass
