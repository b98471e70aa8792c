#include "RemoteCountsPoll.h"

#include "hourglass/Clock.h"
#include "hourglass/EntityPath.h"

namespace hourglass::remote {

CountsPoll::CountsPoll(Lister list, ChangeFeed& feed, std::chrono::milliseconds interval,
                       QString pathPrefix)
    : m_list(std::move(list))
    , m_feed(feed)
    , m_prefix(std::move(pathPrefix))
    , m_interval(interval)
    , m_thread([this] { run(); }) {}

CountsPoll::~CountsPoll() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

std::chrono::milliseconds CountsPoll::interval() const {
    std::lock_guard lock(m_mutex);
    return m_interval;
}

void CountsPoll::setInterval(std::chrono::milliseconds interval) {
    {
        std::lock_guard lock(m_mutex);
        m_interval = std::max(interval, std::chrono::milliseconds(1));
    }
    m_wake.notify_all();
}

Instant CountsPoll::lastPollAt() const {
    std::lock_guard lock(m_mutex);
    return m_lastPollAt;
}

void CountsPoll::remember(const EntityInfo& entity) {
    std::lock_guard lock(m_mutex);
    m_known.insert(entity.path, Known{entity.counts, entity.properties});
    m_touched.insert(entity.path);
}

void CountsPoll::forget(const QString& path) {
    std::lock_guard lock(m_mutex);
    const QString under = path + QLatin1Char('/');
    for (auto it = m_known.begin(); it != m_known.end();) {
        if (it.key() == path || it.key().startsWith(under)) {
            m_touched.insert(it.key());
            it = m_known.erase(it);
        } else {
            ++it;
        }
    }
    m_touched.insert(path);
}

void CountsPoll::run() {
    using Clock = std::chrono::steady_clock;
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        const auto began = Clock::now();
        m_touched.clear();
        lock.unlock();
        pollOnce();
        lock.lock();
        // Woken by a new interval, the wait starts over from the same beginning.
        while (!m_stop && Clock::now() < began + m_interval)
            m_wake.wait_until(lock, began + m_interval);
    }
}

void CountsPoll::pollOnce() {
    const auto listed = m_list();
    if (!listed)
        return; // the lister keeps the error; the next poll tries again
    compare(*listed);
}

void CountsPoll::compare(const QList<EntityInfo>& listed) {
    std::lock_guard lock(m_mutex);
    const bool baseline = !m_baseline;
    m_baseline = true;
    QSet<QString> seen;
    for (const EntityInfo& entity : listed) {
        seen.insert(entity.path);
        if (m_touched.contains(entity.path))
            continue;
        const auto known = m_known.constFind(entity.path);
        if (known == m_known.constEnd()) {
            m_known.insert(entity.path, Known{entity.counts, entity.properties});
            if (!baseline)
                m_feed.markCreated(m_prefix + entity.path);
            continue;
        }
        const EntityCounts was = known->counts;
        const EntityCounts& now = entity.counts;
        if (known->properties != entity.properties)
            m_feed.markUpdated(m_prefix + entity.path);
        if (was != now) {
            m_feed.markCounts(m_prefix + entity.path);
            if (now.active > was.active || now.scheduled > was.scheduled)
                m_feed.markAdded(m_prefix + entity.path);
            if (now.active < was.active || now.scheduled < was.scheduled)
                m_feed.markRemoved(m_prefix + entity.path);
            if (now.deadLettered > was.deadLettered)
                m_feed.markAdded(m_prefix + entity.path + kDeadLetterSuffix);
            if (now.deadLettered < was.deadLettered)
                m_feed.markRemoved(m_prefix + entity.path + kDeadLetterSuffix);
        }
        m_known.insert(entity.path, Known{entity.counts, entity.properties});
    }
    for (auto it = m_known.begin(); it != m_known.end();) {
        if (seen.contains(it.key()) || m_touched.contains(it.key())) {
            ++it;
            continue;
        }
        m_feed.markDeleted(m_prefix + it.key());
        it = m_known.erase(it);
    }
    m_lastPollAt = VirtualClock::realNow();
}

} // namespace hourglass::remote
