#pragma once
// One entity's message counts over ENGINE time, for the charts: a bounded ring of the newest
// samples. It does not read the engine itself: ChartHistories samples every kept entity in one
// background job and hands each reading to record(), so the Charts tab and presentation mode
// draw the same history and it keeps growing while the entity is off screen.
//
// Throughput comes from the engine's flow counters (Broker::flow: how many messages were sent
// to, received from, completed, expired and dead-lettered in the entity since the broker
// opened), read in the same job as the counts: the difference between two samples, per engine
// second, is exact. A send and a completion inside one interval both show, which a difference
// of counts could not tell. A counter that went down (the broker reopened, the entity was
// created again) is taken as counted from zero in that interval.
//
// A jump of the clock BACK (the time toolbar's "Real time" after a fast-forward) makes every
// sample later than the new instant a reading of a time the engine has not reached (again):
// those samples are dropped, so that the time axis ends at the engine's now and the line never
// doubles back over itself. The samples before the new instant stay. No rate is computed across
// the jump: the flow counters went on counting through the future that was dropped, so a rate
// from the last kept sample would show a spike that never happened; the throughput line resumes
// with the next interval.
//
// The whole story stays: past kCapacity samples, the older half is thinned to every other sample
// (two rates merging into one over their joint interval, so throughput stays exact on average),
// rather than the oldest samples being dropped. Old history grows coarser, never shorter.

#include "hourglass/Broker.h"
#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QList>
#include <QObject>
#include <QString>

namespace hourglass::ui {

class CountsHistory : public QObject {
    Q_OBJECT
public:
    static constexpr int kCapacity = 600;

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

    // The history of `path` ("ns:orders"), sampled every `engineInterval` engine milliseconds.
    CountsHistory(const QString& path, Millis engineInterval, QObject* parent = nullptr);

    QString path() const { return m_path; }
    Millis interval() const { return m_interval; }

    const QList<Sample>& samples() const { return m_samples; }
    // One rate per pair of consecutive samples on the same side of every backward jump
    // (rates().last() ends at samples().last() once two samples follow each other).
    const QList<Rate>& rates() const { return m_rates; }

    // True when a reading at engine time `now` is wanted: none yet, a full interval since the
    // last one, or the clock went back before it.
    bool isDue(Instant now) const;
    // Adds a reading taken at engine time `at` (see the header comment for a backward jump).
    void record(Instant at, const EntityCounts& counts, const EntityFlow& flow);
    // A reading failed: says so once (failed), until a reading succeeds again.
    void recordError(const hourglass::Error& error);

signals:
    void sampled();
    void failed(const hourglass::Error& error);

private:
    // Drops what was recorded after `at`; true when anything was.
    bool dropAfter(Instant at);
    // Halves the samples of the older half (see the header comment).
    void thinOlderHalf();

    const QString m_path;
    const Millis m_interval;
    QList<Sample> m_samples;
    QList<Rate> m_rates;
    bool m_reportedError = false; // one error until the next good reading, not one per poll
};

} // namespace hourglass::ui
