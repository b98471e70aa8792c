#pragma once
// Entity paths (service-bus-rules.md E1, E2): "queue", "topic", "topic/Subscriptions/sub", each
// with an optional "/$deadletterqueue" suffix, optionally qualified with a namespace as "ns:path".
//
// Code outside the engine handles paths through the EntityPath value below, never by building
// or cutting the dead-letter suffix itself (a ctest check, entity_path_suffix_outside_core,
// fails otherwise). The free functions under it are the engine's own checks.

#include "hourglass/Status.h"

#include <QSet>
#include <QString>

namespace hourglass {

struct ChangeBatch;

// One path as a value: its namespace, its entity, and whether it names the entity's dead-letter
// queue. Compares as Service Bus does, without regard to case.
class EntityPath {
public:
    EntityPath() = default;

    // Parses and checks E2 (as every Broker call does); a bad path is an InvalidArgument naming
    // what is wrong. A subscription's "Subscriptions" segment comes back in that spelling.
    static Result<EntityPath> parse(const QString& text);
    // Splits a path without checking it: for paths that are already the engine's (a tree row,
    // a change notification, the path a panel was given). toString() gives the text back, with
    // the dead-letter suffix in the engine's spelling.
    static EntityPath of(const QString& text);
    // The entity `entity` ("q", "t/Subscriptions/s") of the namespace `namespaceName`.
    static EntityPath of(const QString& namespaceName, const QString& entity);

    bool isEmpty() const { return m_entity.isEmpty() && !m_deadLetter; }
    // Empty when the path names no namespace (Broker calls then take the first one).
    const QString& namespaceName() const { return m_namespace; }
    bool isQualified() const { return m_qualified; }
    // The entity's path without namespace and without dead-letter suffix: "q", "t/Subscriptions/s".
    const QString& entity() const { return m_entity; }
    bool isDeadLetterQueue() const { return m_deadLetter; }
    bool isSubscription() const;
    // Subscriptions: the topic ("ns:t" for "ns:t/Subscriptions/s") and the subscription's name.
    // For any other path, an empty path and an empty name.
    EntityPath topic() const;
    QString subscriptionName() const;

    // The same entity's dead-letter queue ("ns:q" -> "ns:q/$deadletterqueue"; itself if it is one).
    EntityPath deadLetterQueue() const;
    // The entity a path belongs to: itself, or the entity whose dead-letter queue it names.
    EntityPath owner() const;

    // Without namespace: "q", "q/$deadletterqueue".
    QString path() const;
    // "ns:q", "ns:q/$deadletterqueue"; `defaultNamespace` qualifies a path that names none.
    QString qualifiedName(const QString& defaultNamespace = {}) const;
    // The path as written: qualified if it named a namespace, else path().
    QString toString() const;

    // The same path, compared without regard to case. An unqualified path is not the same as a
    // qualified one.
    bool sameAs(const EntityPath& other) const;
    // Whether a path of the change feed (always qualified, "ns:path") names this one. An
    // unqualified path stands for the first namespace, which the caller did not name: it
    // matches that path in any namespace.
    bool isNamedBy(const QString& feedPath) const;
    bool isNamedIn(const QSet<QString>& feedPaths) const;
    // Whether a change batch says that this path's messages changed (added or removed), or that
    // its entity was created or deleted (a dead-letter queue comes and goes with its entity).
    bool messagesChangedIn(const ChangeBatch& batch) const;
    // Whether a change batch names this path's entity as created, updated, deleted or with new
    // counts.
    bool entityChangedIn(const ChangeBatch& batch) const;

private:
    QString m_namespace;
    QString m_entity;
    bool m_qualified = false;
    bool m_deadLetter = false;
};

struct ParsedPath {
    QString namespaceName; // empty: the default namespace
    QString entityPath;    // without the dead-letter suffix
    bool deadLetter = false;
    bool isSubscription = false;
    QString topicPath;        // subscriptions: the topic's path
    QString subscriptionName; // subscriptions: the last segment
};

// The last segment of a dead-letter queue's path, as the tree names its row.
inline const QString kDeadLetterQueueName = QStringLiteral("$deadletterqueue");
inline const QString kDeadLetterSuffix = QStringLiteral("/$deadletterqueue");
inline const QString kSubscriptionsSegment = QStringLiteral("Subscriptions");

// Parses and checks E2; a bad path is an InvalidArgument naming what is wrong.
Result<ParsedPath> parseEntityPath(const QString& text);
// E2 for queue and topic paths: 1-260 characters of letters, digits, '.', '-', '_', '/', no
// leading or trailing '/', no empty segment, no "Subscriptions" segment (it would be ambiguous).
Result<void> validateQueueOrTopicPath(const QString& path);
// E2 for subscription and rule names: 1-50 characters of letters, digits, '.', '-', '_'.
Result<void> validateSubscriptionName(const QString& name);
// Namespace names: 1-50 characters of letters, digits and '-'.
Result<void> validateNamespaceName(const QString& name);

// "ns:path" as used by change notifications and accepted by every Broker call.
inline QString qualifiedPath(const QString& namespaceName, const QString& path) {
    return namespaceName + u':' + path;
}

} // namespace hourglass
