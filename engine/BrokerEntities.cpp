// Namespaces, entities and rules (service-bus-rules.md E1-E5, A1-A3).
#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hourglass {

namespace {

// R5: at most 2,000 SQL filters and 100,000 correlation filters over a topic's subscriptions.
constexpr int kMaxSqlFiltersPerTopic = 2000;
constexpr int kMaxCorrelationFiltersPerTopic = 100000;

// The topic's filters with `added` and without `replaced` (a rule being replaced), against R5.
Result<void> checkRuleQuota(const Entity& topic, const QList<Rule>& added,
                            const Rule* replaced = nullptr) {
    int sql = 0;
    int correlation = 0;
    const auto count = [&](const Rule& rule) {
        sql += rule.filterType == FilterType::Sql;
        correlation += rule.filterType == FilterType::Correlation;
    };
    for (const Entity* subscription : topic.subscriptions)
        for (const Rule& rule : subscription->rules)
            if (&rule != replaced)
                count(rule);
    for (const Rule& rule : added)
        count(rule);
    const bool addsSql = std::any_of(added.cbegin(), added.cend(), [](const Rule& rule) {
        return rule.filterType == FilterType::Sql;
    });
    const bool addsCorrelation = std::any_of(added.cbegin(), added.cend(), [](const Rule& rule) {
        return rule.filterType == FilterType::Correlation;
    });
    if (addsSql && sql > kMaxSqlFiltersPerTopic)
        return makeError(ErrorCode::QuotaExceeded,
                         QStringLiteral("The topic '%1' would have %2 SQL filters; the limit is "
                                        "%3 per topic.")
                             .arg(topic.path)
                             .arg(sql)
                             .arg(kMaxSqlFiltersPerTopic));
    if (addsCorrelation && correlation > kMaxCorrelationFiltersPerTopic)
        return makeError(ErrorCode::QuotaExceeded,
                         QStringLiteral("The topic '%1' would have %2 correlation filters; the "
                                        "limit is %3 per topic.")
                             .arg(topic.path)
                             .arg(correlation)
                             .arg(kMaxCorrelationFiltersPerTopic));
    return {};
}

Error notFound(const QString& what) {
    return makeError(ErrorCode::MessagingEntityNotFound, what);
}
Error invalid(const QString& what) {
    return makeError(ErrorCode::InvalidArgument, what);
}
} // namespace

// ---- Namespaces

Result<void> EmbeddedBroker::createNamespace(const NamespaceInfo& info) {
    auto& d = *m_impl;
    if (auto ok = validateNamespaceName(info.name); !ok)
        return ok.error();
    BrokerWrite write(d);
    for (const auto& ns : d.m_namespaces) {
        if (ns.name.compare(info.name, Qt::CaseInsensitive) == 0)
            return makeError(ErrorCode::MessagingEntityAlreadyExists,
                             QStringLiteral("The namespace '%1' already exists.").arg(ns.name));
    }
    d.m_namespaces.push_back(info);
    d.m_store->log(op::UpsertNamespace{info.name, info.tier, d.m_nextNamespaceOrdinal++});
    d.m_feed->markNamespaces();
    return write.commit();
}

Result<void> EmbeddedBroker::deleteNamespace(const QString& name) {
    auto& d = *m_impl;
    BrokerWrite write(d);
    auto it = std::find_if(d.m_namespaces.begin(), d.m_namespaces.end(), [&](const auto& ns) {
        return ns.name.compare(name, Qt::CaseInsensitive) == 0;
    });
    if (it == d.m_namespaces.end())
        return notFound(QStringLiteral("The namespace '%1' does not exist.").arg(name));
    std::vector<Entity*> doomed;
    for (auto& [id, entity] : d.m_registry.all()) {
        if (entity->namespaceName == it->name && entity->kind != EntityKind::Subscription)
            doomed.push_back(entity.get());
    }
    for (Entity* entity : doomed)
        d.eraseEntity(entity);
    d.m_store->log(op::DeleteNamespace{it->name});
    d.m_namespaces.erase(it);
    d.m_resolved.clear();
    d.m_feed->markNamespaces();
    return write.commit();
}

QList<NamespaceInfo> EmbeddedBroker::namespaces() const {
    BrokerRead read(*m_impl);
    return QList<NamespaceInfo>(m_impl->m_namespaces.begin(), m_impl->m_namespaces.end());
}

// ---- Settings

QString EmbeddedBroker::setting(const QString& name) const {
    BrokerRead read(*m_impl);
    return m_impl->m_settings.value(name);
}

Result<void> EmbeddedBroker::setSetting(const QString& name, const QString& value) {
    auto& d = *m_impl;
    if (name.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("A setting needs a name."));
    BrokerWrite write(d);
    if (value.isEmpty())
        d.m_settings.remove(name);
    else
        d.m_settings.insert(name, value);
    d.m_store->log(op::SetSetting{name, value});
    return write.commit();
}

// ---- Entities

Result<void> BrokerImpl::validateForwarding(const QString& namespaceName, const QString& selfPath,
                                            const EntityProperties& properties) const {
    for (const QString* target :
         {&properties.forwardTo, &properties.forwardDeadLetteredMessagesTo}) {
        if (target->isEmpty())
            continue;
        if (target->compare(selfPath, Qt::CaseInsensitive) == 0)
            return invalid(
                QStringLiteral("The entity '%1' cannot forward to itself.").arg(selfPath));
        auto parsed = parseEntityPath(*target);
        if (!parsed)
            return parsed.error();
        if (parsed->isSubscription || parsed->deadLetter || !parsed->namespaceName.isEmpty())
            return invalid(QStringLiteral("Forwarding must name a queue or topic of the same "
                                          "namespace, not '%1'.")
                               .arg(*target));
        Entity* entity = m_registry.find(namespaceName, *target);
        if (!entity)
            return notFound(QStringLiteral("The forwarding destination '%1' does not exist in "
                                           "namespace '%2'.")
                                .arg(*target, namespaceName));
    }
    return {};
}

Result<EntityInfo> BrokerImpl::createEntity(EntityKind kind, const QString& path,
                                            const EntityProperties& properties,
                                            const QList<Rule>& givenRules) {
    auto parsed = parseEntityPath(path);
    if (!parsed)
        return parsed.error();
    if (parsed->deadLetter)
        return invalid(QStringLiteral("A dead-letter queue exists with its entity; it cannot be "
                                      "created on its own."));
    if ((kind == EntityKind::Subscription) != parsed->isSubscription)
        return invalid(kind == EntityKind::Subscription
                           ? QStringLiteral("A subscription path has the form "
                                            "'topic/Subscriptions/name', not '%1'.")
                                 .arg(path)
                           : QStringLiteral("'%1' is a subscription path.").arg(path));
    QList<Rule> rules = givenRules;
    if (kind == EntityKind::Subscription && rules.isEmpty())
        rules.append(Rule::trueRule()); // E4
    for (int i = 0; i < rules.size(); ++i) {
        if (auto ok = rules[i].validate(); !ok)
            return ok.error();
        for (int j = 0; j < i; ++j) {
            if (rules[j].name.compare(rules[i].name, Qt::CaseInsensitive) == 0)
                return makeError(
                    ErrorCode::MessagingEntityAlreadyExists,
                    QStringLiteral("The rule '%1' is listed twice.").arg(rules[i].name));
        }
    }

    EntityInfo info;
    BrokerWrite write(*this);
    const Instant now = m_clock->now();
    processDue(now);
    auto ns = namespaceOf(*parsed);
    if (!ns)
        return ns.error();
    if (auto ok = properties.validate(kind, tierOf(*ns)); !ok)
        return ok.error();
    if (auto ok = validateForwarding(*ns, parsed->entityPath, properties); !ok)
        return ok.error();
    if (Entity* existing = m_registry.find(*ns, parsed->entityPath))
        return makeError(
            ErrorCode::MessagingEntityAlreadyExists,
            QStringLiteral("The messaging entity '%1' already exists.").arg(existing->path));
    Entity* topic = nullptr;
    if (kind == EntityKind::Subscription) {
        topic = m_registry.find(*ns, parsed->topicPath);
        if (!topic || topic->kind != EntityKind::Topic)
            return notFound(QStringLiteral("The topic '%1' does not exist in namespace '%2'.")
                                .arg(parsed->topicPath, *ns));
        if (auto ok = checkRuleQuota(*topic, rules); !ok)
            return ok.error();
    }
    auto entity = std::make_unique<Entity>();
    entity->id = m_registry.takeId();
    entity->namespaceName = *ns;
    entity->path = parsed->entityPath;
    entity->cacheNames();
    entity->kind = kind;
    entity->properties = properties;
    entity->rules = rules;
    entity->createdAt = entity->updatedAt = entity->lastActivity = now;
    entity->topic = topic;
    Entity* raw = &m_registry.add(std::move(entity));
    m_resolved.clear();
    m_store->log(op::InsertEntity{storedOf(*raw)});
    if (topic) {
        topic->subscriptions.push_back(raw);
        touch(*topic, now);
    }
    scheduleAutoDelete(*raw);
    info = infoOf(*raw);
    m_feed->markCreated(raw->qualified());
    return write.commit(info);
}

Result<EntityInfo> BrokerImpl::updateEntity(const QString& path,
                                            const EntityProperties& properties) {
    EntityInfo info;
    BrokerWrite write(*this);
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    if (target->subQueue == SubQueue::DeadLetter)
        return invalid(QStringLiteral("A dead-letter queue has no properties of its own; "
                                      "update its entity."));
    Entity& entity = *target->entity;
    if (auto ok = properties.validate(entity.kind, tierOf(entity.namespaceName)); !ok)
        return ok.error();
    if (auto ok = validateForwarding(entity.namespaceName, entity.path, properties); !ok)
        return ok.error();
    if (properties.requiresDuplicateDetection != entity.properties.requiresDuplicateDetection)
        return invalid(QStringLiteral("RequiresDuplicateDetection is fixed when '%1' is "
                                      "created; create a new entity to change it.")
                           .arg(entity.path));
    if (properties.requiresSession != entity.properties.requiresSession)
        return invalid(QStringLiteral("RequiresSession is fixed when '%1' is created; create "
                                      "a new entity to change it.")
                           .arg(entity.path));
    entity.properties = properties;
    entity.updatedAt = now;
    touch(entity, now); // A2: an update is activity
    // E5, L9: every lock held on the entity is lost; an update of a topic is an update of
    // each of its subscriptions for this purpose.
    dropMessageLocks(entity, now);
    for (Entity* subscription : entity.subscriptions)
        dropMessageLocks(*subscription, now);
    m_sessionLocks.serveWaits(now); // the sessions whose locks were lost are available again
    const StoredEntity stored = storedOf(entity);
    m_store->log(op::UpdateEntity{entity.id, stored.propertiesJson, stored.rulesJson, now});
    scheduleAutoDelete(entity);
    info = infoOf(entity);
    m_feed->markUpdated(entity.qualified());
    m_feed->markCounts(entity.qualified());
    return write.commit(info);
}

Result<void> BrokerImpl::deleteEntity(const QString& path) {
    BrokerWrite write(*this);
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    if (target->subQueue == SubQueue::DeadLetter)
        return invalid(QStringLiteral("A dead-letter queue is deleted with its entity."));
    if (Entity* topic = target->entity->topic)
        touch(*topic, now);
    eraseEntity(target->entity);
    return write.commit();
}

void BrokerImpl::eraseEntity(Entity* entity) {
    const std::vector<Entity*> subscriptions = entity->subscriptions;
    for (Entity* subscription : subscriptions)
        eraseEntity(subscription);
    if (Entity* topic = entity->topic)
        std::erase(topic->subscriptions, entity);
    for (SubQueue q : {SubQueue::Main, SubQueue::DeadLetter}) {
        for (const auto& [seq, lock] : entity->index(q).locks()) {
            m_locks.remove(lock.token);
            // The entity's journal rows go with it (op::DeleteEntity).
            m_locks.dropRecord(lock.deliveryRecord);
        }
    }
    m_sessionLocks.failWaits(entity->id, entity->path);
    m_store->log(op::DeleteEntity{entity->id});
    m_resolved.clear();
    m_feed->markDeleted(entity->qualified());
    m_registry.remove(*entity);
}

Result<void> BrokerImpl::editRules(const QString& path,
                                   const std::function<Result<void>(Entity&)>& edit) {
    BrokerWrite write(*this);
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (entity.kind != EntityKind::Subscription || target->subQueue != SubQueue::Main)
        return invalid(
            QStringLiteral("Rules belong to subscriptions; '%1' is not one.").arg(entity.path));
    if (auto ok = edit(entity); !ok)
        return ok.error();
    entity.updatedAt = now;
    touch(entity, now); // A2: a rule added, changed or removed is activity
    const StoredEntity stored = storedOf(entity);
    m_store->log(op::UpdateEntity{entity.id, stored.propertiesJson, stored.rulesJson, now});
    m_feed->markUpdated(entity.qualified());
    return write.commit();
}

namespace {
bool sameRuleName(const QString& a, const QString& b) {
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

Error ruleExists(const QString& name, const QString& path) {
    return makeError(ErrorCode::MessagingEntityAlreadyExists,
                     QStringLiteral("The rule '%1' already exists on '%2'.").arg(name, path));
}

Error noSuchRule(const QString& name, const QString& path) {
    return notFound(QStringLiteral("The rule '%1' does not exist on '%2'.").arg(name, path));
}
} // namespace

Result<void> BrokerImpl::addRule(const QString& path, const Rule& rule) {
    if (auto ok = rule.validate(); !ok)
        return ok.error();
    return editRules(path, [&](Entity& entity) -> Result<void> {
        for (const Rule& existing : entity.rules) {
            if (sameRuleName(existing.name, rule.name))
                return ruleExists(existing.name, entity.path);
        }
        if (entity.topic)
            if (auto ok = checkRuleQuota(*entity.topic, {rule}); !ok)
                return ok.error();
        entity.rules.append(rule);
        return {};
    });
}

Result<void> BrokerImpl::removeRule(const QString& path, const QString& name) {
    return editRules(path, [&](Entity& entity) -> Result<void> {
        const auto removed =
            entity.rules.removeIf([&](const Rule& r) { return sameRuleName(r.name, name); });
        if (removed == 0)
            return noSuchRule(name, entity.path);
        return {};
    });
}

Result<void> BrokerImpl::replaceRule(const QString& path, const QString& name, const Rule& rule) {
    // Everything is checked before anything changes: a refusal leaves the old rule in place.
    if (auto ok = rule.validate(); !ok)
        return ok.error();
    return editRules(path, [&](Entity& entity) -> Result<void> {
        qsizetype at = -1;
        for (qsizetype i = 0; i < entity.rules.size(); ++i) {
            if (sameRuleName(entity.rules[i].name, name))
                at = i;
            else if (sameRuleName(entity.rules[i].name, rule.name))
                return ruleExists(entity.rules[i].name, entity.path);
        }
        if (at < 0)
            return noSuchRule(name, entity.path);
        if (entity.topic)
            if (auto ok = checkRuleQuota(*entity.topic, {rule}, &entity.rules[at]); !ok)
                return ok.error();
        entity.rules[at] = rule;
        return {};
    });
}

Result<EntityInfo> EmbeddedBroker::entity(const QString& path) const {
    auto& d = *m_impl;
    BrokerRead read(d);
    Instant now;
    auto target = d.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    return d.infoOf(*target->entity);
}

QList<EntityInfo> EmbeddedBroker::entities(const QString& namespaceName) const {
    auto& d = *m_impl;
    BrokerRead read(d);
    d.processDue(d.m_clock->now());
    QList<EntityInfo> out;
    for (const auto& [id, entity] : d.m_registry.all()) {
        if (namespaceName.isEmpty() ||
            entity->namespaceName.compare(namespaceName, Qt::CaseInsensitive) == 0)
            out.append(d.infoOf(*entity));
    }
    std::sort(out.begin(), out.end(), [](const EntityInfo& a, const EntityInfo& b) {
        const bool aSub = a.kind == EntityKind::Subscription;
        const bool bSub = b.kind == EntityKind::Subscription;
        if (a.namespaceName != b.namespaceName)
            return a.namespaceName < b.namespaceName;
        if (aSub != bSub)
            return !aSub;
        return a.path.compare(b.path, Qt::CaseInsensitive) < 0;
    });
    return out;
}

// ---- Entity helpers

EntityInfo BrokerImpl::infoOf(const Entity& entity) const {
    EntityInfo info;
    info.namespaceName = entity.namespaceName;
    info.path = entity.path;
    info.name = entity.path.section(u'/', -1);
    info.topicPath = entity.topic ? entity.topic->path : QString();
    info.kind = entity.kind;
    info.properties = entity.properties;
    info.counts = countsOf(entity, SubQueue::Main);
    info.rules = entity.rules;
    info.createdAt = entity.createdAt;
    info.updatedAt = entity.updatedAt;
    info.lastActivityAt = entity.lastActivity;
    info.autoDeleteAt = autoDeleteAt(entity);
    return info;
}

StoredEntity BrokerImpl::storedOf(const Entity& entity) const {
    StoredEntity row;
    row.id = entity.id;
    row.namespaceName = entity.namespaceName;
    row.path = entity.path;
    row.kind = entity.kind;
    row.propertiesJson =
        QJsonDocument(entity.properties.toJson(entity.kind)).toJson(QJsonDocument::Compact);
    QJsonArray rules;
    for (const Rule& rule : entity.rules) {
        // The rule's JSON names the types plain JSON cannot say (PropertyJson.h), so an Int32
        // stays an Int32 across a restart (D2).
        const QJsonObject json = rule.toJson();
        rules.append(json);
    }
    row.rulesJson = QJsonDocument(rules).toJson(QJsonDocument::Compact);
    row.createdAt = entity.createdAt;
    row.updatedAt = entity.updatedAt;
    row.lastActivity = entity.lastActivity;
    row.nextSequenceNumber = entity.nextSeq;
    return row;
}

Instant BrokerImpl::autoDeleteAt(const Entity& entity) const {
    if (entity.properties.autoDeleteOnIdle == kInfinite)
        return kNever;
    if (entity.receives() && !entity.properties.forwardTo.isEmpty())
        return kNever; // A3: forwarding counts as a receiver
    if (entity.main.counts().scheduled > 0)
        return kNever; // A4: it holds messages scheduled for the future
    return addSaturating(entity.lastActivity, entity.properties.autoDeleteOnIdle);
}

void BrokerImpl::scheduleAutoDelete(Entity& entity) {
    const Instant at = autoDeleteAt(entity);
    if (at == kNever)
        return;
    // One pending event per entity is enough: when it fires early (activity moved the instant),
    // it re-arms itself at the new instant.
    if (entity.autoDeleteEventAt != kNever && entity.autoDeleteEventAt <= at)
        return;
    entity.autoDeleteEventAt = at;
    m_timers.push({at, 0, static_cast<quint32>(entity.id), TimerKind::AutoDelete, 0});
}

void BrokerImpl::touch(Entity& entity, Instant now) {
    if (now > entity.lastActivity) {
        entity.lastActivity = now;
        logProgress(entity); // stored with the operation's commit (D2)
    }
    if (entity.topic)
        touch(*entity.topic, now);
}

void BrokerImpl::logProgress(const Entity& entity) {
    m_store->logEntityProgress(entity.id, entity.nextSeq, entity.lastActivity);
}

void BrokerImpl::dropMessageLocks(Entity& entity, Instant now) {
    m_sessionLocks.dropAll(entity, now); // S5, with the message locks held in the sessions
    for (SubQueue q : {SubQueue::Main, SubQueue::DeadLetter}) {
        std::vector<qint64> locked;
        for (const auto& [seq, lock] : entity.index(q).locks())
            locked.push_back(seq);
        for (qint64 seq : locked)
            releaseMessageLock(entity, q, seq, now);
    }
}

} // namespace hourglass
