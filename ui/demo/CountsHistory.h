#pragma once
// One entity's message counts over ENGINE time, for the charts. A real-time timer looks at the
// engine's (possibly virtual) clock a few times a second; whenever a full sampling interval of
// engine time has passed since the last sample, it reads Broker::counts through the client and
// records the counts at the engine instant of that read. So at 60x speed it samples about 60
// times per real second, with a paused clock it stands still, and after a jump of the clock it
// records one sample at the new time (no made-up points in between). At most one read is in
// flight; the history is a bounded ring of the newest samples.
//
// Throughput comes from the engine's flow counters (Broker::flow: how many messages were sent
// to, received from, completed, expired and dead-lettered in the entity since the broker
// opened), read in the same job as the counts: the difference between two samples, per engine
// second, is exact. A send and a completion inside one interval both show, which a difference
// of counts could not tell. A counter that went down (the broker reopened, the entity was
// created again) is taken as counted from zero in that interval.

#include "Broker.h"
#include "Status.h"
#include "Time.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace hourglass::ui {

class BrokerClient;

class CountsHistory : public QObject {
    Q_OBJECT
public:
    static constexpr int kCapacity = 600;
    static constexpr Millis kDefaultInterval = 1000; // engine milliseconds between samples

    struct Sample {
        Instant at = 0; // engine time of the read
        EntityCounts counts;
        EntityFlow flow; // cumulative, as the engine counts it
    };
    // Messages per engine second over the interval (previous sample, `at`] (EntityFlow).
    struct Rate {
        Instant at = 0;
        double sent = 0;
        double received = 0;
        double completed = 0;
        double expired = 0;
        double deadLettered = 0;
    };

    explicit CountsHistory(BrokerClient& client, QObject* parent = nullptr);

    // Starts a fresh history for this entity ("ns:orders"; empty stops sampling) and reads its
    // counts at once.
    void setPath(const QString& path);
    QString path() const { return m_path; }
    void setInterval(Millis engineInterval) { m_interval = engineInterval; }
    Millis interval() const { return m_interval; }

    const QList<Sample>& samples() const { return m_samples; }
    // One rate per sample after the first (rates()[i] ends at samples()[i + 1]).
    const QList<Rate>& rates() const { return m_rates; }

signals:
    void sampled();
    void failed(const hourglass::Error& error);

private:
    void poll();
    void record(Instant at, const EntityCounts& counts, const EntityFlow& flow);

    BrokerClient& m_client;
    QTimer m_timer;
    QString m_path;
    Millis m_interval = kDefaultInterval;
    QList<Sample> m_samples;
    QList<Rate> m_rates;
    quint64 m_generation = 0; // drops replies meant for a previous path
    bool m_inFlight = false;
    bool m_reportedError = false; // one error per path, not one per poll
};

} // namespace hourglass::ui
