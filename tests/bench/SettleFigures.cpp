// Figure 3: peek-lock + complete, and receive-and-delete, with raw SQLite doing the same writes.

#include "BenchFigures.h"
#include "RawSqliteStore.h"

#include <QDir>

#include <atomic>
#include <thread>
#include <vector>

namespace hourglass::bench {

namespace {

const QString kQueuePath = QString::fromLatin1(kQueue);

QList<MessageView> receiveBatch(Broker& broker, ReceiveMode mode, int maxCount,
                                const QString& receiver) {
    ReceiveOptions options;
    options.mode = mode;
    options.maxCount = maxCount;
    options.receiver = receiver;
    return orDie(broker.receive(kQueuePath, options), "receive");
}

enum class Settlement { EachOnItsOwn, Batched };

void completeAll(Broker& broker, const QList<MessageView>& messages, Settlement settlement) {
    if (settlement == Settlement::EachOnItsOwn) {
        for (const MessageView& message : messages)
            orDie(broker.complete(LockRef::of(message)), "complete");
        return;
    }
    QList<LockRef> locks;
    locks.reserve(messages.size());
    for (const MessageView& message : messages)
        locks.append(LockRef::of(message));
    for (const auto& result : broker.completeBatch(locks))
        orDie(result, "completeBatch");
}

// One receiver: receive `batch` under peek-lock and complete them (one disk sync per settlement,
// or one per batch), until `count` are completed. Returns the seconds taken.
double peekLockAndComplete(Broker& broker, qint64 count, int batch, Settlement settlement) {
    const QString receiver = QStringLiteral("single");
    const Stopwatch watch;
    for (qint64 done = 0; done < count;) {
        const auto messages = receiveBatch(broker, ReceiveMode::PeekLock,
                                           int(std::min<qint64>(batch, count - done)), receiver);
        if (messages.isEmpty())
            die(QStringLiteral("peek-lock receive found the queue empty after %1").arg(done));
        completeAll(broker, messages, settlement);
        done += messages.size();
    }
    return watch.seconds();
}

// `threads` competing receivers doing the same, until `count` are completed between them.
double peekLockAndCompleteConcurrently(Broker& broker, qint64 count, int batch, int threads) {
    std::atomic<qint64> claimed{0};
    std::vector<std::thread> receivers;
    const Stopwatch watch;
    for (int t = 0; t < threads; ++t) {
        receivers.emplace_back([&, t] {
            const QString receiver = QStringLiteral("receiver-%1").arg(t);
            for (;;) {
                // Claim a share first so that the receivers stop at exactly `count`.
                const qint64 first = claimed.fetch_add(batch);
                if (first >= count)
                    return;
                const int want = int(std::min<qint64>(batch, count - first));
                int got = 0;
                while (got < want) {
                    const auto messages =
                        receiveBatch(broker, ReceiveMode::PeekLock, want - got, receiver);
                    if (messages.isEmpty())
                        die(QStringLiteral("competing receive found the queue empty"));
                    completeAll(broker, messages, Settlement::Batched);
                    got += int(messages.size());
                }
            }
        });
    }
    for (auto& receiver : receivers)
        receiver.join();
    return watch.seconds();
}

double receiveAndDelete(Broker& broker, qint64 count, int batch) {
    const QString receiver = QStringLiteral("deleter");
    const Stopwatch watch;
    for (qint64 done = 0; done < count;) {
        const auto messages = receiveBatch(broker, ReceiveMode::ReceiveAndDelete,
                                           int(std::min<qint64>(batch, count - done)), receiver);
        if (messages.isEmpty())
            die(QStringLiteral("receive-and-delete found the queue empty after %1").arg(done));
        done += messages.size();
    }
    return watch.seconds();
}

// Peek-lock + complete from one thread against raw SQLite doing the same writes, in
// alternating chunks, on fresh databases of the given durability.
PairedSeconds completeAgainstRaw(const QString& directory, Durability durability, qint64 count,
                                 int batch, Settlement settlement) {
    const QDir dir(directory);
    const QString suffix =
        durabilityName(durability) +
        (settlement == Settlement::Batched ? QStringLiteral("-batched") : QStringLiteral("-each"));
    auto broker =
        openBroker(dir.filePath(QStringLiteral("complete-%1.db").arg(suffix)), durability, {});
    createBenchQueue(*broker, EntityProperties::defaults(Tier::Standard));
    fillQueue(*broker, 0, count, 1000);
    RawSqliteStore raw(dir.filePath(QStringLiteral("raw-complete-%1.db").arg(suffix)), durability,
                       RawSqliteStore::Open::CreateFresh);
    raw.insertMessages(1, count, 1000);
    const qint64 chunk = count / kRounds;
    return alternate([&](int) { return peekLockAndComplete(*broker, chunk, batch, settlement); },
                     [&](int round) {
                         return settlement == Settlement::Batched
                                    ? raw.peekLockCompleteBatchWrites(1 + round * chunk, chunk,
                                                                      batch)
                                    : raw.peekLockCompleteWrites(1 + round * chunk, chunk, batch);
                     });
}

} // namespace

void measureSettlement(const BenchOptions& options, BenchReport& report) {
    const QDir dir(options.directory);
    const qint64 count = options.settleMessages();
    const qint64 chunk = count / kRounds;
    const int batch = options.batchSize();
    const int threads = options.threads();

    const PairedSeconds complete = completeAgainstRaw(options.directory, Durability::PowerSafe,
                                                      count, batch, Settlement::Batched);
    // One disk sync per settlement costs what the disk's sync costs; shown for comparison on a
    // smaller count.
    const qint64 eachCount = std::max<qint64>(kRounds * batch, count / 10);
    const PairedSeconds completeEach = completeAgainstRaw(
        options.directory, Durability::PowerSafe, eachCount, batch, Settlement::EachOnItsOwn);

    // Competing receivers and receive-and-delete, one block of messages each.
    auto broker = openBroker(dir.filePath(QStringLiteral("settle.db")), Durability::PowerSafe, {});
    createBenchQueue(*broker, EntityProperties::defaults(Tier::Standard));
    fillQueue(*broker, 0, 2 * count, 1000);
    const double concurrent =
        count / peekLockAndCompleteConcurrently(*broker, count, batch, threads);
    RawSqliteStore raw(dir.filePath(QStringLiteral("raw-settle.db")), Durability::PowerSafe,
                       RawSqliteStore::Open::CreateFresh);
    raw.insertMessages(1, count, 1000);
    const PairedSeconds deleted = alternate(
        [&](int) { return receiveAndDelete(*broker, chunk, batch); },
        [&](int round) { return raw.receiveAndDeleteWrites(1 + round * chunk, chunk, batch); });
    const auto left = orDie(broker->counts(kQueuePath), "counts");
    if (left.active != 0 || left.locked != 0)
        die(QStringLiteral("settlement left %1 active and %2 locked messages")
                .arg(left.active)
                .arg(left.locked));
    broker.reset();

    const QString perSecond = QStringLiteral("msg/s");
    const QString sameWrites =
        QStringLiteral("raw SQLite, the same writes: 1 transaction recording "
                       "%1 deliveries, then 1 transaction per delete")
            .arg(batch);
    Figure a(QStringLiteral("3a"),
             QStringLiteral("peek-lock receive(%1) + completeBatch, 1 thread").arg(batch),
             count / complete.engine, perSecond);
    a.baseline = count / complete.baseline;
    a.baselineName = QStringLiteral("raw SQLite, the same writes: 1 transaction recording %1 "
                                    "deliveries (committed before the hand-out, D2), 1 deleting "
                                    "the rows")
                         .arg(batch);
    a.target = 30000;
    report.add(a);

    Figure b(QStringLiteral("3b"),
             QStringLiteral("peek-lock receive(%1) + completeBatch, %2 receivers")
                 .arg(batch)
                 .arg(threads),
             concurrent, perSecond);
    b.target = 30000;
    report.add(b);

    Figure c(QStringLiteral("3c"), QStringLiteral("receive-and-delete(%1)").arg(batch),
             count / deleted.engine, perSecond);
    c.baseline = count / deleted.baseline;
    c.baselineName = QStringLiteral("raw SQLite, %1 deletes (+ bodies) per transaction").arg(batch);
    report.add(c);

    Figure d(QStringLiteral("3d"),
             QStringLiteral("peek-lock receive(%1) + complete() each (1 sync each)").arg(batch),
             eachCount / completeEach.engine, perSecond);
    d.baseline = eachCount / completeEach.baseline;
    d.baselineName = sameWrites;
    report.add(d);
}

} // namespace hourglass::bench
