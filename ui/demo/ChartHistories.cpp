#include "demo/ChartHistories.h"

#include "common/BrokerClient.h"
#include "demo/CountsHistory.h"
#include "hourglass/ChangeFeed.h"

#include <QPointer>

#include <utility>
#include <vector>

namespace hourglass::ui {

namespace {
constexpr int kPollMs = 250; // real time between looks at the engine clock

// One entity's reading in the sampling job; `history` is where it goes (null once dropped).
struct Reading {
    QPointer<CountsHistory> history;
    Instant at = 0;
    Result<EntityCounts> counts;
    Result<EntityFlow> flow;
};
} // namespace

ChartHistories& ChartHistories::of(BrokerClient& client) {
    auto* found = client.findChild<ChartHistories*>(QString(), Qt::FindDirectChildrenOnly);
    return found ? *found : *new ChartHistories(client);
}

ChartHistories::ChartHistories(BrokerClient& client)
    : QObject(&client)
    , m_client(client) {
    m_timer.setInterval(kPollMs);
    connect(&m_timer, &QTimer::timeout, this, &ChartHistories::poll);
    connect(&m_client, &BrokerClient::changed, this, &ChartHistories::onChanged);
}

CountsHistory* ChartHistories::show(QObject* viewer, const QString& path) {
    if (!m_viewers.contains(viewer))
        connect(viewer, &QObject::destroyed, this, [this, viewer] { m_viewers.remove(viewer); });
    m_viewers.insert(viewer, path);
    if (path.isEmpty())
        return nullptr;
    if (CountsHistory* kept = find(path)) {
        m_recent.move(m_recent.indexOf(kept), 0);
        return kept;
    }
    auto* history = new CountsHistory(path, kInterval, this);
    m_recent.prepend(history);
    trim();
    m_timer.start();
    // Its first sample at once, not a poll later (or as soon as the job in flight is back).
    if (m_inFlight)
        m_pollAgain = true;
    else
        poll();
    return history;
}

CountsHistory* ChartHistories::find(const QString& path) const {
    for (CountsHistory* history : m_recent) {
        if (history->path() == path)
            return history;
    }
    return nullptr;
}

QStringList ChartHistories::paths() const {
    QStringList paths;
    for (const CountsHistory* history : m_recent)
        paths.append(history->path());
    return paths;
}

bool ChartHistories::isShown(const QString& path) const {
    for (const QString& shown : m_viewers) {
        if (shown == path)
            return true;
    }
    return false;
}

void ChartHistories::drop(const QString& path) {
    CountsHistory* history = find(path);
    if (!history)
        return;
    m_recent.removeOne(history);
    // Later: this may run while the history is emitting (a view's slot that shows another
    // entity); the views hold it by QPointer.
    history->deleteLater();
    if (m_recent.isEmpty())
        m_timer.stop();
}

void ChartHistories::trim() {
    for (qsizetype i = m_recent.size() - 1; i >= 0 && m_recent.size() > kKept; --i) {
        if (!isShown(m_recent[i]->path()))
            drop(m_recent[i]->path());
    }
}

void ChartHistories::poll() {
    if (m_inFlight || m_recent.isEmpty())
        return;
    const Instant now = m_client.clock().now();
    bool due = false;
    for (const CountsHistory* history : std::as_const(m_recent))
        due = due || history->isDue(now);
    if (!due)
        return;
    QList<QPointer<CountsHistory>> histories;
    QStringList paths;
    for (CountsHistory* history : std::as_const(m_recent)) {
        histories.append(history);
        paths.append(history->path());
    }
    m_inFlight = true;
    m_client.call(
        this,
        [histories, paths](Broker& broker) {
            std::vector<Reading> readings;
            readings.reserve(size_t(paths.size()));
            // A remote namespace counts what it holds, not what went through it: its histories
            // have counts only (the Charts tab hides the throughput chart there).
            const bool flows = broker.capabilities().hostsDatabase;
            for (qsizetype i = 0; i < paths.size(); ++i) {
                // The instant is read next to the counts, so the point sits where the engine was.
                const Instant at = broker.clock().now();
                readings.push_back(
                    {histories[i], at, broker.counts(paths[i]),
                     flows ? broker.flow(paths[i]) : Result<EntityFlow>(EntityFlow{})});
            }
            return readings;
        },
        [this](const std::vector<Reading>& readings) {
            m_inFlight = false;
            for (const Reading& reading : readings) {
                CountsHistory* history = reading.history;
                if (!history || !m_recent.contains(history))
                    continue; // dropped meanwhile (deleted, or no longer kept)
                if (reading.counts && reading.flow) {
                    history->record(reading.at, *reading.counts, *reading.flow);
                    continue;
                }
                const Error error = !reading.counts ? reading.counts.error() : reading.flow.error();
                // Deleted before the change feed said so, or never created: keep it only for a
                // view that waits for it to be created (presentation mode does).
                if (error.code == ErrorCode::MessagingEntityNotFound && !isShown(history->path()))
                    drop(history->path());
                else
                    history->recordError(error);
            }
            if (std::exchange(m_pollAgain, false))
                poll();
        });
}

void ChartHistories::onChanged(const ChangeBatch& batch) {
    for (const QString& path : batch.deleted)
        drop(path);
}

} // namespace hourglass::ui
