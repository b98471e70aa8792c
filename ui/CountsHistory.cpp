#include "CountsHistory.h"

#include "BrokerClient.h"

namespace hourglass::ui {

namespace {
constexpr int kPollMs = 250; // real time between looks at the engine clock

struct CountsRead {
    Instant at = 0;
    Result<EntityCounts> counts;
};
} // namespace

CountsHistory::CountsHistory(BrokerClient& client, QObject* parent)
    : QObject(parent)
    , m_client(client) {
    m_timer.setInterval(kPollMs);
    connect(&m_timer, &QTimer::timeout, this, &CountsHistory::poll);
}

qint64 CountsHistory::mainTotal(const EntityCounts& counts) {
    return counts.active + counts.scheduled + counts.deferred + counts.locked;
}

void CountsHistory::setPath(const QString& path) {
    ++m_generation;
    m_path = path;
    m_samples.clear();
    m_rates.clear();
    m_inFlight = false;
    m_reportedError = false;
    emit sampled();
    if (m_path.isEmpty()) {
        m_timer.stop();
        return;
    }
    m_timer.start();
    poll();
}

void CountsHistory::poll() {
    if (m_path.isEmpty() || m_inFlight)
        return;
    if (!m_samples.isEmpty() && m_client.clock().now() - m_samples.last().at < m_interval)
        return;
    m_inFlight = true;
    const quint64 generation = m_generation;
    const QString path = m_path;
    m_client.call(
        this,
        [path](Broker& broker) {
            // The instant is read next to the counts, so the point sits where the engine was.
            CountsRead read{broker.clock().now(), broker.counts(path)};
            return read;
        },
        [this, generation](CountsRead read) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            if (!read.counts) {
                if (!m_reportedError)
                    emit failed(read.counts.error());
                m_reportedError = true;
                return;
            }
            m_reportedError = false;
            record(read.at, *read.counts);
        });
}

void CountsHistory::record(Instant at, const EntityCounts& counts) {
    if (!m_samples.isEmpty()) {
        const Sample& previous = m_samples.last();
        if (at <= previous.at)
            return; // the clock did not move (or a late reply): keep one point per instant
        const double seconds = double(at - previous.at) / 1000.0;
        const qint64 mainDelta = mainTotal(counts) - mainTotal(previous.counts);
        const qint64 deadDelta = counts.deadLettered - previous.counts.deadLettered;
        Rate rate;
        rate.at = at;
        rate.netIn = mainDelta > 0 ? double(mainDelta) / seconds : 0.0;
        rate.netOut = mainDelta < 0 ? double(-mainDelta) / seconds : 0.0;
        rate.netDeadLettered = deadDelta > 0 ? double(deadDelta) / seconds : 0.0;
        m_rates.append(rate);
    }
    m_samples.append({at, counts});
    if (m_samples.size() > kCapacity)
        m_samples.removeFirst();
    if (m_rates.size() > kCapacity - 1)
        m_rates.removeFirst();
    emit sampled();
}

} // namespace hourglass::ui
