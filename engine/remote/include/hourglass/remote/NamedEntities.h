#pragma once
// The entities a user names for a key that cannot list its namespace. The administration API
// answers 401 to a key without the Manage right (a Listen- or Send-only key, or a signature
// scoped to one entity), yet that key still peeks, receives or sends on the entities it covers:
// the window browses the ones named, one per line of a short text the user writes:
//
//     orders                        a queue
//     topic events                  a topic (its kind said first: a path alone reads as a queue)
//     events/subscriptions/audit    a subscription (its topic is shown too)
//
// "queue" and "subscription" may be written first as well. Blank lines and lines starting with
// '#' are skipped.

#include "hourglass/Broker.h"
#include "hourglass/Status.h"

#include <QList>
#include <QString>

namespace hourglass::remote {

struct NamedEntity {
    QString path;
    EntityKind kind = EntityKind::Queue;

    bool operator==(const NamedEntity&) const = default;
};

// The entities of `text`, in its order, each once (a later line naming a path again wins).
// InvalidArgument naming the line when a line's path is not an entity path or its kind word
// contradicts it (a subscription path named a queue).
Result<QList<NamedEntity>> parseNamedEntities(const QString& text);
// One line per entity, as parseNamedEntities reads it back.
QString namedEntitiesText(const QList<NamedEntity>& entities);
// The entity a connection string's EntityPath names: a subscription when it is a subscription's
// path, else a queue (the string does not say whether it is a topic).
NamedEntity namedEntityOf(const QString& entityPath);

// What the window lists for `named`: each entity with its kind, name and topic, its counts
// unknown (EntityInfo::countsKnown false), and the topic of each subscription named (once, as
// a topic) when it is not named itself; queues and topics first, then subscriptions, each in
// path order. `namespaceName` goes in every one.
QList<EntityInfo> namedEntityInfos(const QList<NamedEntity>& named, const QString& namespaceName);

} // namespace hourglass::remote
