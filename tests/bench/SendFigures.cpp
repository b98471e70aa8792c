// Figures 1 and 2: durable sends, and the raw SQLite ceiling for the same rows, measured in
// alternating chunks (BenchSupport.h alternate()).

#include "BenchFigures.h"
#include "RawSqliteStore.h"

#include <QDir>

#include <thread>
#include <vector>

namespace hourglass::bench {

namespace {

double rate(qint64 operations, double seconds) {
    return seconds > 0 ? operations / seconds : 0;
}

} // namespace

void measureSends(const BenchOptions& options, BenchReport& report) {
    const QString queue = QString::fromLatin1(kQueue);
    const QDir dir(options.directory);
    // Throughput does not depend on time: the system clock, as in production.
    auto broker = openBroker(dir.filePath(QStringLiteral("sends.db")), Durability::PowerSafe, {});
    createBenchQueue(*broker, EntityProperties::defaults(Tier::Standard));
    // The same rows through SQLite alone, on a database of its own.
    RawSqliteStore raw(dir.filePath(QStringLiteral("raw-sends.db")), Durability::PowerSafe,
                       RawSqliteStore::Open::CreateFresh);

    // Both sides number their messages the same way; the engine's sequence numbers start at 1.
    qint64 ordinal = 0;
    fillQueue(*broker, ordinal, 200, options.batchSize()); // warm-up, not measured
    raw.insertMessages(ordinal + 1, 200, options.batchSize());
    ordinal += 200;

    const int singleChunk = options.singleSends() / kRounds;
    const PairedSeconds singles = alternate(
        [&](int round) {
            const Stopwatch watch;
            for (qint64 i = 0; i < singleChunk; ++i)
                (void)orDie(broker->send(queue, benchMessage(ordinal + round * singleChunk + i)),
                            "send");
            return watch.seconds();
        },
        [&](int round) {
            return raw.insertMessages(ordinal + round * singleChunk + 1, singleChunk, 1);
        });
    ordinal += options.singleSends();

    const int batchChunk = options.batchedSends() / kRounds;
    const PairedSeconds batches = alternate(
        [&](int round) {
            const Stopwatch watch;
            fillQueue(*broker, ordinal + round * batchChunk, batchChunk, options.batchSize());
            return watch.seconds();
        },
        [&](int round) {
            return raw.insertMessages(ordinal + round * batchChunk + 1, batchChunk,
                                      options.batchSize());
        });
    ordinal += options.batchedSends();

    const int threads = options.threads();
    const int threadChunk = options.threadedSends() / kRounds;
    const int perThread = threadChunk / threads;
    const PairedSeconds group = alternate(
        [&](int round) {
            std::vector<std::thread> senders;
            const Stopwatch watch;
            for (int t = 0; t < threads; ++t) {
                const qint64 first = ordinal + round * threadChunk + qint64(t) * perThread;
                senders.emplace_back([&broker, &queue, first, perThread] {
                    for (qint64 i = first; i < first + perThread; ++i)
                        (void)orDie(broker->send(queue, benchMessage(i)), "send (threads)");
                });
            }
            for (auto& sender : senders)
                sender.join();
            return watch.seconds();
        },
        [&](int round) {
            return raw.insertMessages(ordinal + round * threadChunk + 1, threadChunk, threads);
        });

    const double singleRate = rate(options.singleSends(), singles.engine);
    const double rawSingle = rate(options.singleSends(), singles.baseline);
    const double batchRate = rate(options.batchedSends(), batches.engine);
    const double rawBatch = rate(options.batchedSends(), batches.baseline);
    const double threadRate = rate(qint64(perThread) * threads * kRounds, group.engine);
    const double rawGroup = rate(qint64(threadChunk) * kRounds, group.baseline);

    const QString perSecond = QStringLiteral("msg/s");
    Figure single(QStringLiteral("1a"), QStringLiteral("durable send(), one at a time"), singleRate,
                  perSecond);
    single.baseline = rawSingle;
    single.baselineName = QStringLiteral("raw SQLite, 1 row (+ body) per transaction");
    report.add(single);

    Figure batch(QStringLiteral("1b"),
                 QStringLiteral("durable sendBatch(%1)").arg(options.batchSize()), batchRate,
                 perSecond);
    batch.baseline = rawBatch;
    batch.baselineName =
        QStringLiteral("raw SQLite, %1 rows (+ bodies) per transaction").arg(options.batchSize());
    batch.target = 0.5;
    batch.targetIsRatio = true;
    report.add(batch);

    Figure concurrent(QStringLiteral("1c"),
                      QStringLiteral("durable send(), %1 threads at once").arg(threads), threadRate,
                      perSecond);
    concurrent.baseline = rawGroup;
    concurrent.baselineName = QStringLiteral("raw SQLite, %1 rows per transaction (ideal group "
                                             "commit of %1 senders)")
                                  .arg(threads);
    concurrent.target = 0.5;
    concurrent.targetIsRatio = true;
    report.add(concurrent);

    report.add(Figure(QStringLiteral("2a"),
                      QStringLiteral("raw SQLite ceiling, 1 row per transaction"), rawSingle,
                      perSecond));
    report.add(Figure(
        QStringLiteral("2b"),
        QStringLiteral("raw SQLite ceiling, %1 rows per transaction").arg(options.batchSize()),
        rawBatch, perSecond));
    report.add(Figure(QStringLiteral("2c"),
                      QStringLiteral("raw SQLite ceiling, %1 rows per transaction").arg(threads),
                      rawGroup, perSecond));
}

} // namespace hourglass::bench
