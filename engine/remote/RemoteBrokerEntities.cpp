// RemoteBroker's entities (RemoteBroker.h): listing with runtime counts, create, update, delete
// and rules through the administration API, and the routing preview from the rules it returns.
#include "RemoteBrokerState.h"

#include "hourglass/EntityPath.h"
#include "hourglass/RoutingPreview.h"

#include <algorithm>

namespace hourglass::remote {

namespace {

void sortByPath(QList<EntityInfo>& entities) {
    std::sort(entities.begin(), entities.end(), [](const EntityInfo& a, const EntityInfo& b) {
        return a.path.compare(b.path, Qt::CaseInsensitive) < 0;
    });
}

// "<entity>/$deadletterqueue" without its suffix, and whether it had one.
std::pair<QString, bool> withoutDeadLetterSuffix(const QString& path) {
    if (path.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive))
        return {path.chopped(kDeadLetterSuffix.size()), true};
    return {path, false};
}

} // namespace

Result<QList<EntityInfo>> RemoteBroker::State::listEntities() {
    auto listed = [&]() -> Result<QList<EntityInfo>> {
        auto queues = admin.queues();
        if (!queues)
            return queues.error();
        auto topics = admin.topics();
        if (!topics)
            return topics.error();
        QList<EntityInfo> entities = *queues + *topics;
        sortByPath(entities);
        QList<EntityInfo> subscriptions;
        for (const EntityInfo& topic : *topics) {
            auto ofTopic = admin.subscriptions(topic.path);
            if (!ofTopic)
                return ofTopic.error();
            subscriptions += *ofTopic;
        }
        sortByPath(subscriptions);
        entities += subscriptions;
        for (EntityInfo& entity : entities)
            entity.namespaceName = namespaceName();
        return entities;
    }();
    namedOnly = false;
    if (!listed && listed.error().code == ErrorCode::Unauthorized) {
        // A key without the Manage right: the AMQP side says whether it is a key at all.
        if (auto proven = amqp->connect(); !proven) {
            listed = proven.error();
        } else if (options.namedEntities.isEmpty()) {
            listed = makeError(ErrorCode::Unauthorized,
                               QStringLiteral("This key cannot list the namespace (listing "
                                              "needs the Manage right); name the entities to "
                                              "browse."));
        } else {
            // A key scoped to an entity may still read that entity: its counts where it can.
            QList<EntityInfo> named = namedEntityInfos(options.namedEntities, namespaceName());
            for (EntityInfo& entity : named) {
                if (auto read = admin.entity(entity.path)) {
                    entity = *std::move(read);
                    entity.namespaceName = namespaceName();
                }
            }
            listed = std::move(named);
            namedOnly = true;
        }
    }
    std::lock_guard lock(listErrorMutex);
    listError = listed ? QString() : listed.error().toString();
    if (listed)
        lastListed = *listed;
    return listed;
}

QList<EntityInfo> RemoteBroker::entities(const QString& namespaceName) const {
    if (!namespaceName.isEmpty() && namespaceName != m_state->namespaceName())
        return {};
    auto listed = m_state->listEntities();
    if (listed)
        return *listed;
    std::lock_guard lock(m_state->listErrorMutex);
    return m_state->lastListed.value_or(QList<EntityInfo>{});
}

Result<EntityInfo> RemoteBroker::State::describe(const QString& path) {
    auto found = admin.entity(path);
    if (found) {
        found->namespaceName = namespaceName();
        return found;
    }
    if (found.error().code != ErrorCode::Unauthorized)
        return found;
    for (const EntityInfo& named : namedEntityInfos(options.namedEntities, namespaceName()))
        if (named.path.compare(path, Qt::CaseInsensitive) == 0)
            return named;
    return found;
}

Result<EntityInfo> RemoteBroker::entity(const QString& pathIn) const {
    return m_state->describe(unqualified(pathIn));
}

Result<EntityCounts> RemoteBroker::counts(const QString& pathIn) const {
    const QString path = unqualified(pathIn);
    const auto [entityPath, deadLetter] = withoutDeadLetterSuffix(path);
    const auto found = m_state->describe(entityPath);
    if (!found)
        return found.error();
    if (!deadLetter)
        return found->counts;
    EntityCounts counts;
    counts.active = found->counts.deadLettered;
    return counts;
}

Result<void> RemoteBroker::checkReceiver(const QString& pathIn) const {
    const QString path = unqualified(pathIn);
    const auto [entityPath, deadLetter] = withoutDeadLetterSuffix(path);
    const auto found = m_state->describe(entityPath);
    if (!found)
        return found.error();
    if (found->kind == EntityKind::Topic)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("'%1' is a topic: receive from one of its subscriptions.")
                             .arg(entityPath));
    if (!deadLetter && found->properties.requiresSession)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("'%1' requires sessions: accept a session to receive.").arg(entityPath));
    return {};
}

Result<EntityInfo> RemoteBroker::createQueue(const QString& pathIn,
                                             const EntityProperties& properties) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto created = m_state->admin.createQueue(path, properties);
    if (created)
        m_state->changed(*created, true);
    return created;
}

Result<EntityInfo> RemoteBroker::createTopic(const QString& pathIn,
                                             const EntityProperties& properties) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto created = m_state->admin.createTopic(path, properties);
    if (created)
        m_state->changed(*created, true);
    return created;
}

Result<EntityInfo> RemoteBroker::createSubscription(const QString& pathIn,
                                                    const EntityProperties& properties,
                                                    const QList<Rule>& rules) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto created = m_state->admin.createSubscription(path, properties, rules);
    if (created)
        m_state->changed(*created, true);
    return created;
}

Result<EntityInfo> RemoteBroker::updateEntity(const QString& pathIn,
                                              const EntityProperties& properties) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto updated = m_state->admin.updateEntity(path, properties);
    if (updated)
        m_state->changed(*updated, false);
    return updated;
}

Result<void> RemoteBroker::deleteEntity(const QString& pathIn) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto deleted = m_state->admin.deleteEntity(path);
    if (deleted)
        m_state->deleted(path);
    return deleted;
}

Result<void> RemoteBroker::addRule(const QString& subscriptionPathIn, const Rule& rule) {
    const QString subscriptionPath = unqualified(subscriptionPathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto added = m_state->admin.addRule(subscriptionPath, rule);
    if (added)
        m_state->feed.markUpdated(m_state->qualified(subscriptionPath));
    return added;
}

Result<void> RemoteBroker::removeRule(const QString& subscriptionPathIn, const QString& ruleName) {
    const QString subscriptionPath = unqualified(subscriptionPathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto removed = m_state->admin.removeRule(subscriptionPath, ruleName);
    if (removed)
        m_state->feed.markUpdated(m_state->qualified(subscriptionPath));
    return removed;
}

Result<void> RemoteBroker::replaceRule(const QString& subscriptionPathIn, const QString& ruleName,
                                       const Rule& rule) {
    const QString subscriptionPath = unqualified(subscriptionPathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto replaced = m_state->admin.replaceRule(subscriptionPath, ruleName, rule);
    if (replaced)
        m_state->feed.markUpdated(m_state->qualified(subscriptionPath));
    return replaced;
}

Result<RoutingPreview>
RemoteBroker::previewRouting(const QString& topicPathIn, const OutgoingMessage& original,
                             const std::optional<SqlBrokerFields>& assigned) const {
    const QString topicPath = unqualified(topicPathIn);
    AdminClient& admin = m_state->admin;
    const auto topic = admin.entity(topicPath);
    if (!topic)
        return topic.error();
    if (topic->kind != EntityKind::Topic)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("Routing goes through a topic; '%1' is not one.").arg(topicPath));
    const Instant now = m_state->clock.now();
    OutgoingMessage message = original;
    RoutingPreview result =
        startRoutingPreview(topic->path, topic->properties.status, message, now);
    SqlBrokerFields fields;
    if (assigned) {
        fields = *assigned;
    } else {
        // The service does not tell the topic's next sequence number: it reads as missing.
        fields.enqueuedTime = result.scheduledFor ? *result.scheduledFor : now;
        fields.deliveryCount = 0;
        fields.size = messageSize(message);
    }
    const auto listed = admin.subscriptions(topic->path);
    if (!listed)
        return listed.error();
    // What a forward would find at a destination, asked once per destination.
    QHash<QString, QString> failures;
    auto failureAt = [&](const QString& forwardTo) -> Result<QString> {
        if (forwardTo.isEmpty())
            return QString();
        if (const auto known = failures.constFind(forwardTo); known != failures.constEnd())
            return *known;
        const auto target = admin.entity(forwardTo);
        if (!target && target.error().code != ErrorCode::MessagingEntityNotFound)
            return target.error();
        const QString failure = forwardingFailureText(
            forwardTo, target ? std::optional(target->properties.status) : std::nullopt);
        failures.insert(forwardTo, failure);
        return failure;
    };
    QList<SubscriptionRules> subscriptions;
    for (const EntityInfo& subscription : *listed) {
        const auto rules = admin.rules(subscription.path);
        if (!rules)
            return rules.error();
        const auto forwardFailure = failureAt(subscription.properties.forwardTo);
        if (!forwardFailure)
            return forwardFailure.error();
        const auto deadLetterFailure =
            failureAt(subscription.properties.forwardDeadLetteredMessagesTo);
        if (!deadLetterFailure)
            return deadLetterFailure.error();
        subscriptions.append({subscription.path, subscription.properties, *rules, *forwardFailure,
                              *deadLetterFailure});
    }
    std::sort(subscriptions.begin(), subscriptions.end(),
              [](const SubscriptionRules& a, const SubscriptionRules& b) {
                  return a.path.compare(b.path, Qt::CaseInsensitive) < 0;
              });
    result.subscriptions = hourglass::previewRouting(subscriptions, message, fields);
    return result;
}

} // namespace hourglass::remote
