#include "demo/CountsHistory.h"

#include "common/BrokerClient.h"

namespace hourglass::ui {

namespace {
constexpr int kPollMs = 250; // real time between looks at the engine clock

struct CountsRead {
    Instant at = 0;
    Result<EntityCounts> counts;
    Result<EntityFlow> flow;
};

// Messages per second between two readings of one counter; a counter that went down started
// again from zero in between.
double perSecond(qint64 previous, qint64 current, double seconds) {
    const qint64 delta = current >= previous ? current - previous : current;
    return double(delta) / seconds;
}
} // namespace

CountsHistory::CountsHistory(BrokerClient& client, QObject* parent)
    : QObject(parent)
    , m_client(client) {
    m_timer.setInterval(kPollMs);
    connect(&m_timer, &QTimer::timeout, this, &CountsHistory::poll);
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
            CountsRead read{broker.clock().now(), broker.counts(path), broker.flow(path)};
            return read;
        },
        [this, generation](CountsRead read) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            if (!read.counts || !read.flow) {
                if (!m_reportedError)
                    emit failed(!read.counts ? read.counts.error() : read.flow.error());
                m_reportedError = true;
                return;
            }
            m_reportedError = false;
            record(read.at, *read.counts, *read.flow);
        });
}

void CountsHistory::record(Instant at, const EntityCounts& counts, const EntityFlow& flow) {
    if (!m_samples.isEmpty()) {
        const Sample& previous = m_samples.last();
        if (at <= previous.at)
            return; // the clock did not move (or a late reply): keep one point per instant
        const double seconds = double(at - previous.at) / 1000.0;
        const EntityFlow& before = previous.flow;
        Rate rate;
        rate.at = at;
        rate.sent = perSecond(before.sent, flow.sent, seconds);
        rate.received = perSecond(before.received, flow.received, seconds);
        rate.completed = perSecond(before.completed, flow.completed, seconds);
        rate.expired = perSecond(before.expired, flow.expired, seconds);
        rate.deadLettered = perSecond(before.deadLettered, flow.deadLettered, seconds);
        m_rates.append(rate);
    }
    m_samples.append({at, counts, flow});
    if (m_samples.size() > kCapacity)
        m_samples.removeFirst();
    if (m_rates.size() > kCapacity - 1)
        m_rates.removeFirst();
    emit sampled();
}

} // namespace hourglass::ui
