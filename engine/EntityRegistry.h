#pragma once
// An entity as the broker keeps it in memory (a queue, topic or subscription): its properties and
// rules, its sub-queues' indexes and sessions, its counters and duplicate detection history; and
// the entity registry, which owns every entity and finds it by id or by namespace and path.
// Start here for "where does the broker keep a queue" and "how is a path found".
//
// Guarded by the broker's mutex: the registry and every Entity are reached only through
// BrokerImpl::m_registry, which is GUARDED_BY(BrokerImpl::m_mutex); neither has a lock of its own.
// Paths are resolved (namespace, dead-letter suffix, the resolution cache) by the broker
// (Broker.cpp), which asks the registry for the entity.

#include "MessageIndex.h"
#include "SessionIndex.h"
#include "hourglass/Broker.h"
#include "hourglass/EntityPath.h"

#include <QHash>

#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hourglass {

struct Entity {
    qint64 id = 0;
    QString namespaceName;
    QString path;
    EntityKind kind = EntityKind::Queue;
    EntityProperties properties;
    QList<Rule> rules;                  // subscriptions
    Entity* topic = nullptr;            // subscriptions: their topic
    std::vector<Entity*> subscriptions; // topics: in creation order
    Instant createdAt = 0;
    Instant updatedAt = 0;
    Instant lastActivity = 0;
    qint64 nextSeq = 1;
    MessageIndex main;
    MessageIndex deadLetter;
    // S1-S6: the sessions of the main sub-queue's messages (empty unless hasSessions()).
    SessionIndex sessions;
    EntityFlow flow; // in memory only: counted since the broker opened
    // A topic keeps its scheduled messages whole: activation fans them out by rules (R1).
    QHash<qint64, OutgoingMessage> scheduledTopicMessages;
    // Duplicate detection history (L13): message id -> when it was seen, oldest first in order.
    QHash<QString, Instant> seenIds;
    std::deque<std::pair<Instant, QString>> seenOrder;
    // The due instant of the one pending AutoDelete timer event (kNever when none).
    Instant autoDeleteEventAt = kNever;

    // "ns:path" and "ns:path/$deadletterqueue", built once: change notifications use them on
    // every message.
    void cacheNames() {
        m_qualified = qualifiedPath(namespaceName, path);
        m_qualifiedDeadLetter = m_qualified + kDeadLetterSuffix;
    }
    const QString& qualified() const { return m_qualified; }
    const QString& qualifiedDeadLetter() const { return m_qualifiedDeadLetter; }
    MessageIndex& index(SubQueue q) { return q == SubQueue::Main ? main : deadLetter; }
    const MessageIndex& index(SubQueue q) const { return q == SubQueue::Main ? main : deadLetter; }
    bool receives() const { return kind != EntityKind::Topic; }
    // RequiresSession (S1): messages need a SessionId and go out through session locks only.
    bool hasSessions() const { return kind != EntityKind::Topic && properties.requiresSession; }

private:
    QString m_qualified;
    QString m_qualifiedDeadLetter;
};

// Whether an entity's status lets messages in (E3 Status).
inline bool acceptsSends(const Entity& entity) {
    return entity.properties.status != EntityStatus::Disabled &&
           entity.properties.status != EntityStatus::SendDisabled;
}

class EntityRegistry {
public:
    using Entities = std::unordered_map<qint64, std::unique_ptr<Entity>>;

    // Null when no entity has the id (any more).
    Entity* byId(qint64 id) const;
    // The entity at `path` in the namespace `namespaceName` (both case-insensitive); null when
    // none.
    Entity* find(const QString& namespaceName, const QString& path) const;
    // Every entity, by id (no order).
    const Entities& all() const { return m_entities; }

    // The id of a new entity.
    qint64 takeId() { return m_nextId++; }
    // An entity read from the store keeps its id: later ones are numbered above it.
    void noteId(qint64 id) { m_nextId = std::max(m_nextId, id + 1); }
    // Owns `entity` from now on, found by its id, namespace and path.
    Entity& add(std::unique_ptr<Entity> entity);
    // Destroys `entity` (its subscriptions and its topic's list are the broker's to update).
    void remove(const Entity& entity);
    // Forgets every entity (a reload from the store), ids start again from 1.
    void clear();

private:
    static QString keyOf(const QString& namespaceName, const QString& path);

    Entities m_entities;
    QHash<QString, Entity*> m_byKey; // keyOf(namespace, path) -> entity
    qint64 m_nextId = 1;
};

} // namespace hourglass
