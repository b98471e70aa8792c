#include "demo/CountsHistory.h"

#include <optional>

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
        thinOlderHalf();
    emit sampled();
}

void CountsHistory::thinOlderHalf() {
    // The rate ending at each sample, when there is one (none at the first sample, nor after a
    // jump back).
    QList<std::optional<Rate>> rateAt(m_samples.size());
    qsizetype r = 0;
    for (qsizetype i = 0; i < m_samples.size() && r < m_rates.size(); ++i) {
        if (m_rates[r].at == m_samples[i].at)
            rateAt[i] = m_rates[r++];
    }
    QList<Sample> samples;
    QList<Rate> rates;
    const qsizetype older = m_samples.size() / 2;
    for (qsizetype i = 0; i < m_samples.size(); ++i) {
        const bool dropped = i % 2 == 1 && i < older && i + 1 < m_samples.size();
        if (dropped) {
            // The next sample's rate now covers both intervals: their average over the time,
            // or nothing when either side has none (a jump back in between).
            std::optional<Rate>& next = rateAt[i + 1];
            if (next && rateAt[i]) {
                const double a = double(m_samples[i].at - m_samples[i - 1].at);
                const double b = double(m_samples[i + 1].at - m_samples[i].at);
                const auto mix = [a, b](double x, double y) { return (x * a + y * b) / (a + b); };
                const Rate& first = *rateAt[i];
                next->sent = mix(first.sent, next->sent);
                next->received = mix(first.received, next->received);
                next->completed = mix(first.completed, next->completed);
                next->expired = mix(first.expired, next->expired);
                next->deadLettered = mix(first.deadLettered, next->deadLettered);
            } else {
                next.reset();
            }
            continue;
        }
        samples.append(m_samples[i]);
        if (rateAt[i])
            rates.append(*rateAt[i]);
    }
    m_samples = std::move(samples);
    m_rates = std::move(rates);
}

void CountsHistory::recordError(const Error& error) {
    if (m_reportedError)
        return;
    m_reportedError = true;
    emit failed(error);
}

} // namespace hourglass::ui
