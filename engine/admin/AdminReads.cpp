// GET: the namespace, lists with paging, one entity or rule (AdminHandlers.h).

#include "AdminErrors.h"
#include "AdminHandlers.h"

#include <algorithm>

namespace hourglass::admin {

namespace {
bool samePath(const QString& a, const QString& b) {
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

template <typename T> QList<T> pageOf(const QList<T>& all, const Route& route, FeedPage& page) {
    page.skip = route.skip;
    page.top = route.top;
    const qsizetype from = std::min<qsizetype>(route.skip, all.size());
    page.more = from + route.top < all.size();
    return all.mid(from, route.top);
}

AdminResponse namespaceInfo(const CallContext& call) {
    // The store keeps no date for a namespace: it is as old as its oldest entity and changed
    // when an entity last did (now, while it has none).
    Instant created = call.reply.now;
    Instant modified = 0;
    for (const EntityInfo& entity : call.broker.entities(call.space.name)) {
        created = std::min(created, entity.createdAt);
        modified = std::max(modified, entity.updatedAt);
    }
    return atomResponse(
        200, namespaceEntry(call.reply, call.space, created, std::max(created, modified)));
}

AdminResponse listEntities(const CallContext& call, const Route& route, EntityKind kind) {
    QList<EntityInfo> all;
    for (EntityInfo& entity : call.broker.entities(call.space.name))
        if (entity.kind == kind)
            all.append(std::move(entity));
    FeedPage page;
    page.path = kind == EntityKind::Queue ? QStringLiteral("$Resources/Queues")
                                          : QStringLiteral("$Resources/Topics");
    page.title = kind == EntityKind::Queue ? QStringLiteral("Queues") : QStringLiteral("Topics");
    const QList<EntityInfo> shown = pageOf(all, route, page);
    // Only topics have subscriptions to count (a second pass over the namespace).
    const QHash<QString, int> counts =
        kind == EntityKind::Topic ? subscriptionCounts(call) : QHash<QString, int>();
    return atomResponse(200, entityFeed(call.reply, page, shown, counts), true);
}

AdminResponse listSubscriptions(const CallContext& call, const Route& route) {
    const auto topic = call.broker.entity(call.qualified(route.entityPath));
    if (!topic)
        return errorResponse(topic.error());
    if (topic->kind != EntityKind::Topic)
        return errorResponse(404,
                             QStringLiteral("The entity '%1' is not a topic.").arg(topic->path));
    QList<EntityInfo> all;
    for (EntityInfo& entity : call.broker.entities(call.space.name))
        if (entity.kind == EntityKind::Subscription && samePath(entity.topicPath, topic->path))
            all.append(std::move(entity));
    FeedPage page;
    page.path = topic->path + QStringLiteral("/Subscriptions");
    page.title = QStringLiteral("Subscriptions");
    const QList<EntityInfo> shown = pageOf(all, route, page);
    return atomResponse(200, entityFeed(call.reply, page, shown), true);
}

Result<EntityInfo> subscriptionOf(const CallContext& call, const Route& route) {
    auto subscription = call.broker.entity(call.qualified(route.enginePath()));
    if (subscription && subscription->kind != EntityKind::Subscription)
        return makeError(ErrorCode::MessagingEntityNotFound,
                         QStringLiteral("'%1' is not a subscription.").arg(subscription->path));
    return subscription;
}

AdminResponse listRules(const CallContext& call, const Route& route) {
    const auto subscription = subscriptionOf(call, route);
    if (!subscription)
        return errorResponse(subscription.error());
    FeedPage page;
    page.path = subscription->path + QStringLiteral("/Rules");
    page.title = QStringLiteral("Rules");
    const QList<Rule> shown = pageOf(subscription->rules, route, page);
    return atomResponse(200, ruleFeed(call.reply, page, *subscription, shown), true);
}

AdminResponse oneRule(const CallContext& call, const Route& route) {
    const auto subscription = subscriptionOf(call, route);
    if (!subscription)
        return errorResponse(subscription.error());
    for (const Rule& rule : subscription->rules)
        if (samePath(rule.name, route.ruleName))
            return atomResponse(200, ruleEntry(call.reply, *subscription, rule));
    return errorResponse(makeError(ErrorCode::MessagingEntityNotFound,
                                   QStringLiteral("The rule '%1' does not exist on '%2'.")
                                       .arg(route.ruleName, subscription->path)));
}

AdminResponse oneEntity(const CallContext& call, const Route& route) {
    const auto entity = call.broker.entity(call.qualified(route.enginePath()));
    if (!entity)
        return errorResponse(entity.error());
    const bool subscriptionRoute = route.kind == RouteKind::Subscription;
    if (subscriptionRoute != (entity->kind == EntityKind::Subscription))
        return errorResponse(
            404, QStringLiteral("The messaging entity '%1' could not be found.").arg(entity->path));
    const int subscriptions = entity->kind == EntityKind::Topic
                                  ? subscriptionCounts(call).value(entity->path.toLower())
                                  : 0;
    return atomResponse(200, entityEntry(call.reply, *entity, subscriptions));
}
} // namespace

AdminResponse handleGet(const CallContext& call, const Route& route) {
    switch (route.kind) {
    case RouteKind::NamespaceInfo:
        return namespaceInfo(call);
    case RouteKind::Queues:
        return listEntities(call, route, EntityKind::Queue);
    case RouteKind::Topics:
        return listEntities(call, route, EntityKind::Topic);
    case RouteKind::Subscriptions:
        return listSubscriptions(call, route);
    case RouteKind::Rules:
        return listRules(call, route);
    case RouteKind::Rule:
        return oneRule(call, route);
    case RouteKind::Entity:
    case RouteKind::Subscription:
        break;
    }
    return oneEntity(call, route);
}

} // namespace hourglass::admin
