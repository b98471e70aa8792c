#include "Broker.h"

#include "BrokerImpl.h"

#include <QCborMap>
#include <QCborValue>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hourglass {

// ---- Helpers shared by the Broker*.cpp files

qint64 messageSize(const OutgoingMessage& m) {
    qint64 size = m.body.size();
    for (const QString* s : {&m.messageId, &m.correlationId, &m.sessionId, &m.replyTo,
                             &m.replyToSessionId, &m.to, &m.subject, &m.contentType})
        size += s->toUtf8().size();
    if (!m.applicationProperties.isEmpty())
        size += encodeProperties(m.applicationProperties).size();
    return size;
}

OutgoingMessage outgoingFromStored(const StoredMessage& row) {
    OutgoingMessage m;
    m.body = row.body;
    m.messageId = row.messageId;
    m.correlationId = row.correlationId;
    m.sessionId = row.sessionId;
    m.replyTo = row.replyTo;
    m.replyToSessionId = row.replyToSessionId;
    m.to = row.to;
    m.subject = row.subject;
    m.contentType = row.contentType;
    m.timeToLive = row.timeToLive;
    m.applicationProperties = decodeProperties(row.applicationProperties);
    return m;
}

LockRef LockRef::of(const MessageView& message) {
    LockRef ref;
    ref.entityPath = message.subQueue == SubQueue::DeadLetter
                         ? message.entityPath + kDeadLetterSuffix
                         : message.entityPath;
    ref.lockToken = message.lockToken;
    ref.receiver = message.lockHolder;
    return ref;
}

// ---- BrokerImpl: construction, loading, resolution

BrokerImpl::BrokerImpl(std::unique_ptr<Store> store, std::shared_ptr<Clock> clock)
    : m_store(std::move(store))
    , m_clock(std::move(clock))
    , m_feed(std::make_unique<ChangeFeed>()) {}

QString BrokerImpl::keyOf(const QString& namespaceName, const QString& path) {
    return namespaceName.toLower() + u':' + path.toLower();
}

Result<void> BrokerImpl::load() {
    auto loaded = m_store->loadNamespaces([&](const NamespaceInfo& info, int ordinal) {
        m_namespaces.push_back(info);
        m_nextNamespaceOrdinal = std::max(m_nextNamespaceOrdinal, ordinal + 1);
    });
    if (!loaded)
        return loaded;

    QString bad;
    loaded = m_store->loadEntities([&](const StoredEntity& row) {
        auto entity = std::make_unique<Entity>();
        entity->id = row.id;
        entity->namespaceName = row.namespaceName;
        entity->path = row.path;
        entity->cacheNames();
        entity->kind = row.kind;
        const auto json = QJsonDocument::fromJson(row.propertiesJson).object();
        auto properties = EntityProperties::fromJson(
            json, EntityProperties::defaults(tierOfLocked(row.namespaceName)));
        if (!properties) {
            bad = QStringLiteral("entity %1: %2").arg(row.path, properties.error().description);
            return;
        }
        entity->properties = *properties;
        const auto rules = QJsonDocument::fromJson(row.rulesJson).array();
        for (const auto& value : rules) {
            QJsonObject json = value.toObject();
            const QJsonObject types =
                json.take(QStringLiteral("HourglassPropertyTypes")).toObject();
            auto rule = Rule::fromJson(json);
            if (!rule) {
                bad = QStringLiteral("entity %1: %2").arg(row.path, rule.error().description);
                return;
            }
            // Give each correlation property back the type it was created with.
            QVariantMap& properties = rule->correlation.properties;
            for (auto it = properties.begin(); it != properties.end(); ++it) {
                const QMetaType type =
                    QMetaType::fromName(types.value(it.key()).toString().toLatin1());
                if (type.isValid() && it.value().metaType() != type)
                    it.value().convert(type);
            }
            entity->rules.append(*rule);
        }
        entity->createdAt = row.createdAt;
        entity->updatedAt = row.updatedAt;
        entity->lastActivity = row.lastActivity;
        entity->nextSeq = row.nextSequenceNumber;
        m_nextEntityId = std::max(m_nextEntityId, row.id + 1);
        m_byKey.insert(keyOf(row.namespaceName, row.path), entity.get());
        m_entities.emplace(row.id, std::move(entity));
    });
    if (!loaded)
        return loaded;
    if (!bad.isEmpty())
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("%1: %2").arg(m_store->path(), bad));
    // Link subscriptions to their topics, in creation (id) order.
    std::vector<Entity*> ordered;
    for (auto& [id, entity] : m_entities)
        ordered.push_back(entity.get());
    std::sort(ordered.begin(), ordered.end(), [](Entity* a, Entity* b) { return a->id < b->id; });
    for (Entity* entity : ordered) {
        if (entity->kind != EntityKind::Subscription)
            continue;
        auto parsed = parseEntityPath(entity->path);
        Entity* topic = parsed ? findLocked(entity->namespaceName, parsed->topicPath) : nullptr;
        if (!topic)
            return makeError(ErrorCode::GeneralError,
                             QStringLiteral("%1: subscription %2 has no topic")
                                 .arg(m_store->path(), entity->path));
        entity->topic = topic;
        topic->subscriptions.push_back(entity);
    }

    // D2: deliveries recorded by journal rows that their messages have not folded yet.
    QHash<std::pair<qint64, qint64>, std::vector<qint64>> journal; // (entity, seq) -> row ids
    std::vector<qint64> journalRows;
    loaded = m_store->loadDeliveries([&](const Store::DeliveryRecord& record) {
        journalRows.push_back(record.id);
        for (qint64 seq : record.seqs)
            journal[{record.entityId, seq}].push_back(record.id);
    });
    if (!loaded)
        return loaded;
    qint64 highestRecord = 0;
    for (qint64 id : journalRows)
        highestRecord = std::max(highestRecord, id);
    std::vector<op::SetDeliveryCount> folds;

    std::vector<TimerEvent> events;
    Entity* current = nullptr;
    loaded = m_store->loadMessageKeys([&](const Store::MessageKey& key) {
        if (!current || current->id != key.entityId)
            current = entityByIdLocked(key.entityId);
        if (!current)
            return;
        MessageMeta meta;
        meta.state = key.state;
        meta.instant = key.state == MessageState::Scheduled ? key.scheduledAt : key.expiresAt;
        meta.ownTtl = key.timeToLive.value_or(-1);
        meta.deliveryCount = key.deliveryCount;
        highestRecord = std::max(highestRecord, key.deliveryRecord);
        if (const auto it = journal.constFind({key.entityId, key.seq}); it != journal.cend()) {
            qint64 folded = key.deliveryRecord;
            for (qint64 record : *it) {
                if (record > key.deliveryRecord) {
                    ++meta.deliveryCount; // handed out, then the process died
                    folded = std::max(folded, record);
                }
            }
            if (folded != key.deliveryRecord)
                folds.push_back({key.entityId, key.subQueue, key.seq, meta.deliveryCount, folded});
        }
        meta.size = static_cast<quint32>(key.size);
        current->index(key.subQueue).insert(key.seq, meta);
        // The stored counter may lag its messages: a crash can come between a batch that
        // stored a message and the one that stores the counter. Number after every message.
        current->nextSeq = std::max(current->nextSeq, key.seq + 1);
        const auto id = static_cast<quint32>(key.entityId);
        if (key.subQueue == SubQueue::Main && key.state == MessageState::Scheduled)
            events.push_back({meta.instant, key.seq, id, TimerKind::Activate, 0});
        else if (key.subQueue == SubQueue::Main && key.state == MessageState::Active &&
                 meta.instant != kNever)
            events.push_back({meta.instant, key.seq, id, TimerKind::Expire, 0});
    });
    if (!loaded)
        return loaded;
    m_timers.assign(std::move(events));
    // A topic numbers its subscriptions' messages too (takeSequenceNumberLocked): it goes on
    // after the highest number any of them holds.
    for (auto& [id, entity] : m_entities) {
        if (entity->kind == EntityKind::Subscription && entity->topic)
            entity->topic->nextSeq = std::max(entity->topic->nextSeq, entity->nextSeq);
    }

    // Topics keep scheduled messages whole (they fan out when they become active).
    for (auto& [id, entity] : m_entities) {
        if (entity->kind != EntityKind::Topic || entity->main.messages().empty())
            continue;
        std::vector<qint64> seqs;
        for (const auto& [seq, meta] : entity->main.messages())
            seqs.push_back(seq);
        auto rows = m_store->readMany(entity->id, SubQueue::Main, seqs, true);
        if (!rows)
            return rows.error();
        for (const StoredMessage& row : *rows)
            entity->scheduledTopicMessages.insert(row.sequenceNumber, outgoingFromStored(row));
    }

    loaded = m_store->loadMessageIds([&](qint64 entityId, const QString& messageId, Instant at) {
        if (Entity* entity = entityByIdLocked(entityId)) {
            entity->seenIds.insert(messageId, at);
            entity->seenOrder.emplace_back(at, messageId);
        }
    });
    if (!loaded)
        return loaded;
    for (auto& [id, entity] : m_entities)
        scheduleAutoDeleteLocked(*entity);
    m_timerCompactionMark = std::max<std::size_t>(4096, 2 * m_timers.size());

    // The journal's deliveries are now in the counts: store them there and forget the rows
    // (folds first, so a crash in between never loses a delivery). Broker::open waits for it.
    for (const op::SetDeliveryCount& fold : folds)
        m_store->log(fold);
    for (qint64 id : journalRows)
        m_store->log(op::ForgetDeliveries{id});
    m_nextDeliveryRecord = highestRecord + 1;
    return {};
}

Entity* BrokerImpl::entityByIdLocked(qint64 id) const {
    auto it = m_entities.find(id);
    return it == m_entities.end() ? nullptr : it->second.get();
}

Entity* BrokerImpl::findLocked(const QString& namespaceName, const QString& path) const {
    return m_byKey.value(keyOf(namespaceName, path), nullptr);
}

Tier BrokerImpl::tierOfLocked(const QString& namespaceName) const {
    for (const auto& ns : m_namespaces) {
        if (ns.name.compare(namespaceName, Qt::CaseInsensitive) == 0)
            return ns.tier;
    }
    return Tier::Standard;
}

Result<QString> BrokerImpl::namespaceOfLocked(const ParsedPath& parsed) const {
    if (parsed.namespaceName.isEmpty()) {
        if (m_namespaces.empty())
            return makeError(ErrorCode::MessagingEntityNotFound,
                             QStringLiteral("There is no namespace yet; create one first."));
        return m_namespaces.front().name;
    }
    for (const auto& ns : m_namespaces) {
        if (ns.name.compare(parsed.namespaceName, Qt::CaseInsensitive) == 0)
            return ns.name;
    }
    return makeError(
        ErrorCode::MessagingEntityNotFound,
        QStringLiteral("The namespace '%1' does not exist.").arg(parsed.namespaceName));
}

Result<BrokerImpl::Target> BrokerImpl::resolveLocked(const QString& path) const {
    if (const auto it = m_resolved.constFind(path); it != m_resolved.cend())
        return it.value();
    auto target = resolveUncachedLocked(path);
    if (target) {
        if (m_resolved.size() > 4096)
            m_resolved.clear();
        m_resolved.insert(path, *target);
    }
    return target;
}

Result<BrokerImpl::Target> BrokerImpl::resolveUncachedLocked(const QString& path) const {
    auto parsed = parseEntityPath(path);
    if (!parsed)
        return parsed.error();
    auto ns = namespaceOfLocked(*parsed);
    if (!ns)
        return ns.error();
    Entity* entity = findLocked(*ns, parsed->entityPath);
    if (!entity)
        return makeError(ErrorCode::MessagingEntityNotFound,
                         QStringLiteral("The messaging entity '%1' could not be found in "
                                        "namespace '%2'.")
                             .arg(parsed->entityPath, *ns));
    if (parsed->deadLetter && entity->kind == EntityKind::Topic)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A topic has no dead-letter queue; its subscriptions do."));
    return Target{entity, parsed->deadLetter ? SubQueue::DeadLetter : SubQueue::Main};
}

Result<BrokerImpl::Target> BrokerImpl::enterLocked(const QString& path, Instant& now) {
    now = m_clock->now();
    processDueLocked(now);
    return resolveLocked(path);
}

// ---- Broker facade

// The constructor, and the operations an OperationObserver hears about: BrokerObserved.cpp.

Result<std::unique_ptr<Broker>> Broker::open(const BrokerOptions& options) {
    auto store = Store::open(options.databasePath, options.durability);
    if (!store)
        return store.error();
    std::shared_ptr<Clock> clock = options.clock;
    if (!clock)
        clock = std::make_shared<SystemClock>();
    auto impl = std::make_unique<BrokerImpl>(std::move(store).value(), std::move(clock));
    quint64 ticket;
    {
        std::lock_guard lock(impl->m_mutex);
        if (auto loaded = impl->load(); !loaded)
            return loaded.error();
        ticket = impl->m_store->ticket();
    }
    // What loading wrote (the delivery journal folded into the counts) is stored before the
    // broker serves anyone.
    if (auto durable = impl->m_store->waitDurable(ticket); !durable)
        return durable.error();
    return std::unique_ptr<Broker>(new Broker(std::move(impl)));
}

Result<QList<MessageView>> Broker::listMessages(const QString& path, qint64 fromSequenceNumber,
                                                int maxCount, Bodies bodies) const {
    return m_impl->listMessages(path, fromSequenceNumber, maxCount, bodies == Bodies::With,
                                BrokerImpl::Read::Explorer);
}

Clock& Broker::clock() const {
    return *m_impl->m_clock;
}

int Broker::runDue() {
    return m_impl->runDue();
}

ChangeFeed* Broker::changes() const {
    return m_impl->m_feed.get();
}

QString Broker::databasePath() const {
    return m_impl->m_store->path();
}

} // namespace hourglass
