#pragma once
// What a request's target names: the namespace, a list (queues, topics, a topic's subscriptions,
// a subscription's rules), one entity or one rule, with the list's paging ($skip, $top). Names
// are checked here, before anything reaches the broker: an encoded '/' or '\', a '.' or '..'
// segment, control characters, characters no entity name has, or a name past the service's
// lengths are refused, quoting at most a short prefix.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass::admin {

enum class RouteKind {
    NamespaceInfo, // $namespaceinfo
    Queues,        // $Resources/Queues
    Topics,        // $Resources/Topics
    Entity,        // a queue or a topic: <path>
    Subscriptions, // <topic>/Subscriptions/
    Subscription,  // <topic>/Subscriptions/<name>
    Rules,         // <topic>/Subscriptions/<name>/Rules/
    Rule,          // <topic>/Subscriptions/<name>/Rules/<rule>
};

inline constexpr int kDefaultPageSize = 100;
inline constexpr int kMaxPageSize = 1000;

struct Route {
    RouteKind kind = RouteKind::NamespaceInfo;
    QString entityPath;       // Entity: the queue or topic; Subscription(s)/Rule(s): the topic
    QString subscriptionName; // Subscription, Rules, Rule
    QString ruleName;         // Rule
    // The decoded path's segments as the client wrote them (the scope a token must cover).
    QStringList segments;
    int skip = 0;
    int top = kDefaultPageSize;

    bool isList() const;
    // The engine path of the entity the route acts on: the queue or topic for Entity and
    // Subscriptions, the subscription for Subscription, Rules and Rule.
    QString enginePath() const;
};

struct RouteResult {
    std::optional<Route> route;
    QString error; // why the target was refused (400)
};

RouteResult parseRoute(const QByteArray& target);

// The path part of a target, without the query: "/orders?api-version=1" -> "/orders".
QByteArray targetPath(const QByteArray& target);

} // namespace hourglass::admin
