#pragma once
// Small helpers shared by the benchmark's figures: options, the message every figure sends,
// opening a broker, timing, and resident memory. The benchmark stops at the first engine error
// (a figure measured around a failure would be meaningless).

#include "hourglass/Broker.h"

#include <QString>

#include <chrono>
#include <memory>

namespace hourglass::bench {

inline constexpr int kBodyBytes = 1024;
inline constexpr char kQueue[] = "bench";
// Every virtual clock in the benchmark starts here (2026-01-01T00:00:00Z), paused.
inline constexpr Instant kClockStart = 1767225600000;

struct BenchOptions {
    qint64 messages = 1000000; // the size of the large database (figures 4-7)
    bool quick = false;
    QString directory; // where every database of the run goes

    // Derived sizes: how many operations each throughput figure measures (multiples of
    // kRounds * threads()).
    int singleSends() const { return quick ? 300 : 3000; }
    int batchedSends() const { return quick ? 5000 : 50000; }
    int threadedSends() const { return quick ? 800 : 8000; }
    int settleMessages() const { return quick ? 5000 : 50000; }
    int batchSize() const { return 100; }
    int threads() const { return 4; }
    int runDueCalls() const { return quick ? 20000 : 200000; }
};

[[noreturn]] void die(const QString& what);

template <typename T> T orDie(Result<T> result, const char* what) {
    if (!result)
        die(QStringLiteral("%1: %2").arg(QLatin1String(what), result.error().toString()));
    return std::move(result).value();
}
void orDie(const Result<void>& result, const char* what);

std::unique_ptr<Broker> openBroker(const QString& path, Durability durability,
                                   std::shared_ptr<Clock> clock);
// A namespace "bench" and the queue kQueue with these properties.
void createBenchQueue(Broker& broker, const EntityProperties& properties);
QString durabilityName(Durability durability);

// Message number `ordinal` of a run: id "bench-<ordinal>", a 1 KB body, no properties.
QString benchMessageId(qint64 ordinal);
QByteArray benchBody();
OutgoingMessage benchMessage(qint64 ordinal);

// Sends `count` messages numbered from `firstOrdinal` in batches of `batchSize`; `ttlOf` gives
// each message's own TimeToLive (nullopt: none).
void fillQueue(Broker& broker, qint64 firstOrdinal, qint64 count, int batchSize,
               std::optional<Millis> (*ttlOf)(qint64 ordinal) = nullptr);

// Engine and baseline take turns in chunks (the engine first in even rounds, the baseline first
// in odd ones) so that both see the same machine: on a shared machine the latency of a disk sync
// drifts by several times within a minute, which would skew a ratio of two separate runs.
inline constexpr int kRounds = 10;

struct PairedSeconds {
    double engine = 0;
    double baseline = 0;
};

// Each chunk function gets the round number and returns the seconds its chunk took.
template <typename EngineChunk, typename BaselineChunk>
PairedSeconds alternate(EngineChunk&& engineChunk, BaselineChunk&& baselineChunk) {
    PairedSeconds total;
    for (int round = 0; round < kRounds; ++round) {
        if (round % 2 == 0) {
            total.engine += engineChunk(round);
            total.baseline += baselineChunk(round);
        } else {
            total.baseline += baselineChunk(round);
            total.engine += engineChunk(round);
        }
    }
    return total;
}

class Stopwatch {
public:
    Stopwatch()
        : m_start(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

// VmRSS of this process in bytes, from /proc/self/status.
qint64 residentBytes();

} // namespace hourglass::bench
