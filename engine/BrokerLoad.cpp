// Opening a database: the in-memory state rebuilt from the store, one step per function, in the
// order load() runs them (D2: everything but locks is as it was).
#include "BrokerImpl.h"

#include "hourglass/PropertyTypes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hourglass {

namespace {
Error corrupt(const QString& databasePath, const QString& what) {
    return makeError(ErrorCode::GeneralError, QStringLiteral("%1: %2").arg(databasePath, what));
}

// A stored rule. A rule's JSON names the type of each correlation property that plain JSON
// cannot say (PropertyJson.h); databases written before that kept the types beside the rule, by
// Qt's names ("int", "qlonglong"), which are read here so that an int stays an int (D2).
Result<Rule> ruleFromStored(QJsonObject json) {
    const QJsonObject types = json.take(QStringLiteral("HourglassPropertyTypes")).toObject();
    auto rule = Rule::fromJson(json);
    if (!rule)
        return rule.error();
    QVariantMap& properties = rule->correlation.properties;
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QMetaType type = QMetaType::fromName(types.value(it.key()).toString().toLatin1());
        if (!type.isValid())
            continue;
        const QVariant stored = QVariant(type);
        const auto kind = propertyTypeOf(stored);
        if (!kind)
            continue;
        // Numbers convert; a DateTime or Guid was kept as its ISO or GUID text, which only the
        // text form of the type reads.
        auto typed = convertProperty(it.value(), *kind);
        if (!typed && it.value().typeId() == QMetaType::QString)
            typed = propertyFromText(*kind, it.value().toString());
        if (typed)
            it.value() = *typed;
    }
    return rule;
}
} // namespace

Result<void> BrokerImpl::load() {
    auto loaded =
        m_store->loadNamespaces([&](const NamespaceInfo& info, int ordinal) REQUIRES(m_mutex) {
            m_namespaces.push_back(info);
            m_nextNamespaceOrdinal = std::max(m_nextNamespaceOrdinal, ordinal + 1);
        });
    if (loaded)
        loaded = m_store->loadSettings([&](const QString& name, const QString& value)
                                           REQUIRES(m_mutex) { m_settings.insert(name, value); });
    if (loaded)
        loaded = loadEntities();
    if (loaded)
        loaded = linkSubscriptions();
    DeliveryJournal journal;
    if (loaded)
        loaded = loadDeliveryJournal(journal);
    if (loaded)
        loaded = loadMessages(journal);
    if (loaded)
        loaded = loadScheduledTopicMessages();
    if (loaded)
        loaded = loadSessions();
    if (loaded)
        loaded = m_store->loadMessageIds([&](qint64 entityId, const QString& id, Instant at)
                                             REQUIRES(m_mutex) {
                                                 if (Entity* entity = m_registry.byId(entityId)) {
                                                     entity->seenIds.insert(id, at);
                                                     entity->seenOrder.emplace_back(at, id);
                                                 }
                                             });
    if (!loaded)
        return loaded;
    for (auto& [id, entity] : m_registry.all())
        scheduleAutoDelete(*entity);
    m_timers.markAllLive();
    foldDeliveryJournal(journal);
    return {};
}

Result<void> BrokerImpl::loadEntities() {
    QString bad;
    auto loaded = m_store->loadEntities([&](const StoredEntity& row) REQUIRES(m_mutex) {
        if (!bad.isEmpty())
            return;
        auto entity = std::make_unique<Entity>();
        entity->id = row.id;
        entity->namespaceName = row.namespaceName;
        entity->path = row.path;
        entity->cacheNames();
        entity->kind = row.kind;
        auto properties =
            EntityProperties::fromJson(QJsonDocument::fromJson(row.propertiesJson).object(),
                                       EntityProperties::defaults(tierOf(row.namespaceName)));
        if (!properties) {
            bad = QStringLiteral("entity %1: %2").arg(row.path, properties.error().description);
            return;
        }
        entity->properties = *properties;
        for (const auto& value : QJsonDocument::fromJson(row.rulesJson).array()) {
            auto rule = ruleFromStored(value.toObject());
            if (rule)
                if (auto ok = rule->validate(); !ok) // compiles SQL filters and actions again
                    rule = ok.error();
            if (!rule) {
                bad = QStringLiteral("entity %1: %2").arg(row.path, rule.error().description);
                return;
            }
            entity->rules.append(*rule);
        }
        entity->createdAt = row.createdAt;
        entity->updatedAt = row.updatedAt;
        entity->lastActivity = row.lastActivity;
        entity->nextSeq = row.nextSequenceNumber;
        m_registry.noteId(row.id);
        m_registry.add(std::move(entity));
    });
    if (!loaded)
        return loaded;
    if (!bad.isEmpty())
        return corrupt(m_store->path(), bad);
    return {};
}

Result<void> BrokerImpl::linkSubscriptions() {
    // In creation (id) order: a topic lists its subscriptions as they were created.
    std::vector<Entity*> ordered;
    for (auto& [id, entity] : m_registry.all())
        ordered.push_back(entity.get());
    std::sort(ordered.begin(), ordered.end(), [](Entity* a, Entity* b) { return a->id < b->id; });
    for (Entity* entity : ordered) {
        if (entity->kind != EntityKind::Subscription)
            continue;
        auto parsed = parseEntityPath(entity->path);
        Entity* topic =
            parsed ? m_registry.find(entity->namespaceName, parsed->topicPath) : nullptr;
        if (!topic)
            return corrupt(m_store->path(),
                           QStringLiteral("subscription %1 has no topic").arg(entity->path));
        entity->topic = topic;
        topic->subscriptions.push_back(entity);
    }
    return {};
}

Result<void> BrokerImpl::loadDeliveryJournal(DeliveryJournal& journal) {
    return m_store->loadDeliveries([&](const Store::DeliveryRecord& record) REQUIRES(m_mutex) {
        journal.rows.push_back(record.id);
        journal.highestId = std::max(journal.highestId, record.id);
        for (qint64 seq : record.seqs)
            journal.rowsNaming[{record.entityId, seq}].push_back(record.id);
    });
}

Result<void> BrokerImpl::loadMessages(DeliveryJournal& journal) {
    std::vector<TimerEvent> events;
    Entity* current = nullptr;
    auto loaded = m_store->loadMessageKeys([&](const Store::MessageKey& key) REQUIRES(m_mutex) {
        if (!current || current->id != key.entityId)
            current = m_registry.byId(key.entityId);
        if (!current)
            return;
        MessageMeta meta;
        meta.state = key.state;
        meta.activatesOrExpiresAt =
            key.state == MessageState::Scheduled ? key.scheduledAt : key.expiresAt;
        meta.ownTtl = key.timeToLive.value_or(-1);
        meta.deliveryCount = key.deliveryCount + journal.deliveriesNotFolded(key);
        meta.size = static_cast<quint32>(key.size);
        current->index(key.subQueue).insert(key.seq, meta);
        // The stored counter may lag its messages: a crash can come between a batch that
        // stored a message and the one that stores the counter. Number after every message.
        current->nextSeq = std::max(current->nextSeq, key.seq + 1);
        const auto id = static_cast<quint32>(key.entityId);
        if (key.subQueue == SubQueue::Main && key.state == MessageState::Scheduled)
            events.push_back({meta.activatesOrExpiresAt, key.seq, id, TimerKind::Activate, 0});
        else if (key.subQueue == SubQueue::Main && key.state == MessageState::Active &&
                 meta.activatesOrExpiresAt != kNever)
            events.push_back({meta.activatesOrExpiresAt, key.seq, id, TimerKind::Expire, 0});
    });
    if (!loaded)
        return loaded;
    m_timers.assign(std::move(events));
    // A topic numbers its subscriptions' messages too (takeSequenceNumber): it goes on
    // after the highest number any of them holds.
    for (auto& [id, entity] : m_registry.all()) {
        if (entity->kind == EntityKind::Subscription && entity->topic)
            entity->topic->nextSeq = std::max(entity->topic->nextSeq, entity->nextSeq);
    }
    return {};
}

Result<void> BrokerImpl::loadScheduledTopicMessages() {
    // Topics keep scheduled messages whole: they fan out by rules when they become active (R1).
    for (auto& [id, entity] : m_registry.all()) {
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
    return {};
}

Result<void> BrokerImpl::loadSessions() {
    // Which session each message belongs to: read for entities that require sessions only.
    for (auto& [id, entity] : m_registry.all()) {
        if (!entity->hasSessions())
            continue;
        Entity* raw = entity.get();
        auto loaded = m_store->loadSessionIds(id, [raw](qint64 seq, const QString& sessionId) {
            if (raw->main.find(seq))
                raw->sessions.addMessage(sessionId, seq);
        });
        if (!loaded)
            return loaded;
    }
    // S4: the states, without their bytes. A state of an entity that no longer requires
    // sessions cannot be (E5 fixes it), but is left alone rather than refused.
    return m_store->loadSessionStates([&](const Store::SessionStateKey& key) REQUIRES(m_mutex) {
        Entity* entity = m_registry.byId(key.entityId);
        if (!entity || !entity->hasSessions())
            return;
        SessionRecord& session = entity->sessions.obtain(key.sessionId);
        session.hasState = true;
        session.stateSize = key.size;
        session.stateSetAt = key.setAt;
    });
}

quint32 BrokerImpl::DeliveryJournal::deliveriesNotFolded(const Store::MessageKey& key) {
    highestId = std::max(highestId, key.deliveryRecord);
    const auto it = rowsNaming.constFind({key.entityId, key.seq});
    if (it == rowsNaming.cend())
        return 0;
    quint32 added = 0;
    qint64 folded = key.deliveryRecord;
    for (qint64 row : *it) {
        if (row > key.deliveryRecord) { // handed out under this row, then the process died
            ++added;
            folded = std::max(folded, row);
        }
    }
    if (added > 0)
        folds.push_back({key.entityId, key.subQueue, key.seq, key.deliveryCount + added, folded});
    return added;
}

void BrokerImpl::foldDeliveryJournal(const DeliveryJournal& journal) {
    // The journal's deliveries are in the counts now: store them there and forget the rows
    // (folds first, so a crash in between never loses a delivery). Broker::open waits for it.
    for (const op::SetDeliveryCount& fold : journal.folds)
        m_store->log(fold);
    for (qint64 id : journal.rows)
        m_store->log(op::ForgetDeliveries{id});
    // New rows number above every id a stored message names (StoreSchema.h).
    m_locks.startRecordsAfter(journal.highestId);
}

} // namespace hourglass
