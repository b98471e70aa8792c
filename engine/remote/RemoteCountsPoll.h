#pragma once
// The change feed of a remote namespace (RemoteBroker::changes): a poll on an interval lists
// the entities with their runtime counts and marks what changed since the previous poll. It
// runs on a thread of its own, so a slow or silent service never blocks a caller; the broker's
// own changes, marked by the broker at once, are remembered here so that the poll does not
// report them a second time.

#include "hourglass/Broker.h"
#include "hourglass/ChangeFeed.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace hourglass::remote {

class CountsPoll {
public:
    // Lists every entity with its counts (blocking; a failure skips that poll).
    using Lister = std::function<Result<QList<EntityInfo>>()>;

    // Starts the thread; the first poll, at once, only learns what is there. Every path it marks
    // is prefixed with `pathPrefix` (the namespace's "name:", as the window names paths).
    CountsPoll(Lister list, ChangeFeed& feed, std::chrono::milliseconds interval,
               QString pathPrefix = {});
    // Stops the thread, after the listing in flight if there is one.
    ~CountsPoll();
    CountsPoll(const CountsPoll&) = delete;
    CountsPoll& operator=(const CountsPoll&) = delete;

    std::chrono::milliseconds interval() const;
    // The next poll is due one new interval after the last one began.
    void setInterval(std::chrono::milliseconds interval);

    // When the last poll that listed the entities finished (system time); 0 before the first.
    Instant lastPollAt() const;

    // An own change the caller has marked: the poll takes it as known.
    void remember(const EntityInfo& entity);
    // An own deletion: the path and everything under it (a topic's subscriptions).
    void forget(const QString& path);

private:
    struct Known {
        EntityCounts counts;
        EntityProperties properties;
    };

    void run();
    void pollOnce();
    void compare(const QList<EntityInfo>& listed);

    Lister m_list;
    ChangeFeed& m_feed;
    QString m_prefix;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::chrono::milliseconds m_interval; // guarded by m_mutex
    bool m_stop = false;                  // guarded by m_mutex
    bool m_baseline = false;              // guarded by m_mutex: a poll has listed once
    Instant m_lastPollAt = 0;             // guarded by m_mutex
    QHash<QString, Known> m_known;        // guarded by m_mutex
    // Paths an own change touched while a listing was in flight: that listing may predate the
    // change, so it says nothing about them. Guarded by m_mutex.
    QSet<QString> m_touched;
    std::thread m_thread; // last: started once everything above is ready
};

} // namespace hourglass::remote
