// PUT and DELETE: create (201), update with If-Match (200), delete (200), for queues, topics,
// subscriptions and rules (AdminHandlers.h). A refused request changes nothing: the body is read
// whole before the one Broker call that makes the change.

#include "AdminErrors.h"
#include "AdminHandlers.h"
#include "AtomReader.h"

namespace hourglass::admin {

namespace {
EntityKind entityKindOf(DescriptionKind kind) {
    switch (kind) {
    case DescriptionKind::Queue:
        return EntityKind::Queue;
    case DescriptionKind::Topic:
        return EntityKind::Topic;
    default:
        return EntityKind::Subscription;
    }
}

AdminResponse wrongDescription(const QString& expected) {
    return errorResponse(400, QStringLiteral("This path takes a %1.").arg(expected));
}

// The entity as it is now (counts included), in an entry.
AdminResponse entityReply(const CallContext& call, int status, const QString& path) {
    const auto entity = call.broker.entity(call.qualified(path));
    if (!entity)
        return errorResponse(entity.error());
    const int subscriptions = entity->kind == EntityKind::Topic
                                  ? subscriptionCounts(call).value(entity->path.toLower())
                                  : 0;
    return atomResponse(status, entityEntry(call.reply, *entity, subscriptions));
}

AdminResponse putEntity(const CallContext& call, const Route& route, const Description& description,
                        bool update) {
    const bool subscriptionRoute = route.kind == RouteKind::Subscription;
    if (subscriptionRoute && description.kind != DescriptionKind::Subscription)
        return wrongDescription(QStringLiteral("SubscriptionDescription"));
    if (!subscriptionRoute && description.kind != DescriptionKind::Queue &&
        description.kind != DescriptionKind::Topic)
        return wrongDescription(QStringLiteral("QueueDescription or TopicDescription"));
    const EntityKind kind = entityKindOf(description.kind);
    const QString path = call.qualified(route.enginePath());

    if (update) {
        const auto existing = call.broker.entity(path);
        if (!existing)
            return errorResponse(existing.error());
        if (existing->kind != kind)
            return errorResponse(400, QStringLiteral("'%1' is a %2, not a %3.")
                                          .arg(existing->path, entityKindName(existing->kind),
                                               entityKindName(kind)));
        const auto properties = readProperties(description.element, kind, existing->properties);
        if (!properties)
            return errorResponse(properties.error());
        if (auto updated = call.broker.updateEntity(path, *properties); !updated)
            return errorResponse(updated.error());
        return entityReply(call, 200, route.enginePath());
    }

    const auto properties =
        readProperties(description.element, kind, EntityProperties::defaults(call.space.tier));
    if (!properties)
        return errorResponse(properties.error());
    Result<EntityInfo> created = makeError(ErrorCode::GeneralError, QString());
    if (kind == EntityKind::Queue) {
        created = call.broker.createQueue(path, *properties);
    } else if (kind == EntityKind::Topic) {
        created = call.broker.createTopic(path, *properties);
    } else {
        const auto rule = readDefaultRule(description.element);
        if (!rule)
            return errorResponse(rule.error());
        created = call.broker.createSubscription(path, *properties,
                                                 *rule ? QList<Rule>{**rule} : QList<Rule>{});
    }
    if (!created)
        return errorResponse(created.error());
    return entityReply(call, 201, route.enginePath());
}

AdminResponse putRule(const CallContext& call, const Route& route, const Description& description,
                      bool update) {
    if (description.kind != DescriptionKind::Rule)
        return wrongDescription(QStringLiteral("RuleDescription"));
    const auto rule = readRule(description.element, route.ruleName);
    if (!rule)
        return errorResponse(rule.error());
    const QString subscription = call.qualified(route.enginePath());
    const Result<void> done = update ? call.broker.replaceRule(subscription, route.ruleName, *rule)
                                     : call.broker.addRule(subscription, *rule);
    if (!done)
        return errorResponse(done.error());
    const auto entity = call.broker.entity(subscription);
    if (!entity)
        return errorResponse(entity.error());
    for (const Rule& kept : entity->rules)
        if (kept.name.compare(route.ruleName, Qt::CaseInsensitive) == 0)
            return atomResponse(update ? 200 : 201, ruleEntry(call.reply, *entity, kept));
    return errorResponse(500, QStringLiteral("The rule was stored but cannot be read back."));
}
} // namespace

AdminResponse handlePut(const CallContext& call, const Route& route, const AdminRequest& request) {
    if (route.kind != RouteKind::Entity && route.kind != RouteKind::Subscription &&
        route.kind != RouteKind::Rule)
        return methodNotAllowed(route);
    const auto description = readDescription(request.body);
    if (!description)
        return errorResponse(description.error());
    // The SDKs update with "If-Match: *"; any If-Match asks for an update of what exists.
    const bool update = !headerValue(request.headers, "If-Match").isEmpty();
    if (route.kind == RouteKind::Rule)
        return putRule(call, route, *description, update);
    return putEntity(call, route, *description, update);
}

AdminResponse handleDelete(const CallContext& call, const Route& route) {
    Result<void> done;
    if (route.kind == RouteKind::Entity || route.kind == RouteKind::Subscription) {
        // A subscription's path deletes only a subscription, a queue's or topic's only those.
        const auto entity = call.broker.entity(call.qualified(route.enginePath()));
        if (!entity)
            return errorResponse(entity.error());
        if ((route.kind == RouteKind::Subscription) != (entity->kind == EntityKind::Subscription))
            return errorResponse(404, QStringLiteral("The messaging entity '%1' could not be "
                                                     "found.")
                                          .arg(entity->path));
        done = call.broker.deleteEntity(call.qualified(route.enginePath()));
    } else if (route.kind == RouteKind::Rule) {
        done = call.broker.removeRule(call.qualified(route.enginePath()), route.ruleName);
    } else {
        return methodNotAllowed(route);
    }
    if (!done)
        return errorResponse(done.error());
    AdminResponse response;
    response.status = 200;
    return response;
}

} // namespace hourglass::admin
