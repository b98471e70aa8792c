#include "demo/CountsHistory.h"

namespace hourglass::ui {

namespace {
// Messages per second between two readings of one counter; a counter that went down started
// again from zero in between.
double perSecond(qint64 previous, qint64 current, double seconds) {
    const qint64 delta = current >= previous ? current - previous : current;
    return double(delta) / seconds;
}
} // namespace

CountsHistory::CountsHistory(const QString& path, Millis engineInterval, QObject* parent)
    : QObject(parent)
    , m_path(path)
    , m_interval(engineInterval) {}

bool CountsHistory::isDue(Instant now) const {
    if (m_samples.isEmpty())
        return true;
    const Instant last = m_samples.last().at;
    return now < last || now - last >= m_interval;
}

bool CountsHistory::dropAfter(Instant at) {
    const qsizetype samples = m_samples.size();
    while (!m_samples.isEmpty() && m_samples.last().at > at)
        m_samples.removeLast();
    while (!m_rates.isEmpty() && m_rates.last().at > at)
        m_rates.removeLast();
    return m_samples.size() != samples;
}

void CountsHistory::record(Instant at, const EntityCounts& counts, const EntityFlow& flow) {
    m_reportedError = false;
    const bool jumpedBack = dropAfter(at);
    if (!m_samples.isEmpty() && m_samples.last().at == at) {
        // The clock did not move since the last reading: keep one point per instant.
        if (jumpedBack)
            emit sampled();
        return;
    }
    if (!m_samples.isEmpty() && !jumpedBack) {
        const Sample& previous = m_samples.last();
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
    // A rate that ends at (or before) the oldest sample kept has lost its start.
    while (!m_rates.isEmpty() && m_rates.first().at <= m_samples.first().at)
        m_rates.removeFirst();
    emit sampled();
}

void CountsHistory::recordError(const Error& error) {
    if (m_reportedError)
        return;
    m_reportedError = true;
    emit failed(error);
}

} // namespace hourglass::ui
