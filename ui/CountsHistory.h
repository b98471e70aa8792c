#pragma once
// One entity's message counts over ENGINE time, for the charts. A real-time timer looks at the
// engine's (possibly virtual) clock a few times a second; whenever a full sampling interval of
// engine time has passed since the last sample, it reads Broker::counts through the client and
// records the counts at the engine instant of that read. So at 60x speed it samples about 60
// times per real second, with a paused clock it stands still, and after a jump of the clock it
// records one sample at the new time (no made-up points in between). At most one read is in
// flight; the history is a bounded ring of the newest samples.
//
// Throughput is derived from count deltas between consecutive samples, per engine second.
// Why not from the ChangeFeed: a ChangeBatch only says WHICH paths gained or lost messages, not
// how many, so it cannot count sends, completions or expiries. A delta is a NET figure: a send
// and a completion inside one interval cancel out, so the series are named "net in", "net out"
// and "net dead-lettered" rather than sent/completed/expired, which cannot be told apart here.

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
    };
    // Net flows per engine second over the interval (previous sample, `at`].
    struct Rate {
        Instant at = 0;
        double netIn = 0;           // increase of the messages in the main queue
        double netOut = 0;          // decrease of the messages in the main queue
        double netDeadLettered = 0; // increase of the dead-letter queue
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

    // Messages held in the main queue (everything but the dead-letter sub-queue).
    static qint64 mainTotal(const EntityCounts& counts);

signals:
    void sampled();
    void failed(const hourglass::Error& error);

private:
    void poll();
    void record(Instant at, const EntityCounts& counts);

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
