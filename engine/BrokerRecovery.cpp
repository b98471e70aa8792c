// A failed write: SQLite rolled the batch back, so the broker's memory (indexes, counts, locks,
// the change notifications already sent) is ahead of the database. The broker rebuilds its
// memory from the database, as opening it would, so that nothing the store did not keep is
// shown, counted or handed out; every caller whose writes were discarded gets the failure.
#include "BrokerWrite.h"

#include <QSet>

namespace hourglass {

void BrokerImpl::recoverFromFailedWrite() {
    // Memory changes and nothing is committed: the store answers the writes it discarded.
    BrokerWrite write(*this);
    // The first waiter to find the failure does this; the others find nothing left to do.
    if (!m_store->resetAfterFailure())
        return;
    reloadFromStore();
}

void BrokerImpl::reloadFromStore() {
    // What survives a reload: the flow counts (in memory only, by entity), and what the window
    // was told exists, to tell it what changed.
    std::unordered_map<qint64, EntityFlow> flows;
    QSet<QString> before;
    for (const auto& [id, entity] : m_registry.all()) {
        flows.emplace(id, entity->flow);
        before.insert(entity->qualified());
    }
    // Locks are not stored: like a restart, the reload ends them (their deliveries counted, D2).
    m_namespaces.clear();
    m_settings.clear();
    m_nextNamespaceOrdinal = 1;
    m_resolved.clear();
    m_registry.clear();
    m_locks.clear();
    m_timers.clear();
    if (auto loaded = load(); !loaded) {
        // The database cannot be read back: refuse every write rather than act on half a state.
        m_store->markFailed(loaded.error());
        return;
    }
    QSet<QString> after;
    for (const auto& [id, entity] : m_registry.all()) {
        if (auto flow = flows.find(id); flow != flows.end())
            entity->flow = flow->second;
        const QString& path = entity->qualified();
        after.insert(path);
        if (!before.contains(path)) {
            m_feed->markCreated(path);
            continue;
        }
        m_feed->markUpdated(path);
        m_feed->markCounts(path);
        m_feed->markSessions(path);
        for (const QString& queue : {path, entity->qualifiedDeadLetter()}) {
            m_feed->markAdded(queue);
            m_feed->markRemoved(queue);
        }
    }
    for (const QString& path : before) {
        if (!after.contains(path))
            m_feed->markDeleted(path);
    }
    m_feed->markNamespaces();
    // Session waits on entities that are gone end; the others may be served now.
    m_sessionLocks.failWaitsOfGoneEntities();
    m_sessionLocks.serveWaits(m_clock->now());
}

} // namespace hourglass
