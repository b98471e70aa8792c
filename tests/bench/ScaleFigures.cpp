// Figures 4-7 on one large database: expiring a tenth of it into the dead-letter queue, the cost
// of an idle clock tick, reopening, and resident memory per stored message.

#include "BenchFigures.h"
#include "RawSqliteStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>

#include <sqlite3.h>

#include <cstdio>

namespace hourglass::bench {

namespace {

const QString kQueuePath = QString::fromLatin1(kQueue);
constexpr Millis kShortTtl = minutes(1);
constexpr Millis kLongTtl = days(1);

// Every tenth message has the short TTL, spread evenly through the queue (and the file).
std::optional<Millis> ttlOf(qint64 ordinal) {
    return ordinal % 10 == 0 ? kShortTtl : kLongTtl;
}
qint64 shortTtlCount(qint64 messages) {
    return (messages + 9) / 10;
}

std::shared_ptr<VirtualClock> pausedClock() {
    return std::make_shared<VirtualClock>(kClockStart);
}

// Figure 7 runs in a fresh process: in this one, memory freed by earlier figures stays mapped
// by malloc and would hide part of what opening the database takes.
struct OpenMeasurement {
    qint64 rssBefore = 0;
    qint64 rssAfter = 0;
    double seconds = 0;
    qint64 messages = 0;
};

OpenMeasurement measureOpenInChild(const QString& databasePath) {
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--measure-open"), databasePath});
    if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit ||
        child.exitCode() != 0)
        die(QStringLiteral("the figure 7 process failed"));
    const QList<QByteArray> parts = child.readAllStandardOutput().trimmed().split(' ');
    if (parts.size() != 5 || parts[0] != "OPENED")
        die(QStringLiteral("unexpected output from the figure 7 process"));
    return {parts[1].toLongLong(), parts[2].toLongLong(), parts[3].toDouble(),
            parts[4].toLongLong()};
}

// Sequence numbers of `count` main sub-queue messages spread through the queue (every k-th),
// read with SQLite directly (not timed) for the raw baseline of figure 4.
std::vector<qint64> spreadMainSequenceNumbers(const QString& path, qint64* entityId, qint64 count) {
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    std::vector<qint64> all;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT m.entity_id, m.seq FROM messages m JOIN entities e ON "
                           "e.id = m.entity_id WHERE e.path = ?1 AND m.sub_queue = 0 "
                           "ORDER BY m.seq",
                           -1, &statement, nullptr) != SQLITE_OK)
        die(QStringLiteral("cannot list sequence numbers: %1")
                .arg(QString::fromUtf8(sqlite3_errmsg(db))));
    sqlite3_bind_text(statement, 1, kQueue, -1, SQLITE_STATIC);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        *entityId = sqlite3_column_int64(statement, 0);
        all.push_back(sqlite3_column_int64(statement, 1));
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    if (qint64(all.size()) < count)
        die(QStringLiteral("only %1 main messages for the raw baseline").arg(all.size()));
    std::vector<qint64> spread;
    const qint64 step = qint64(all.size()) / count;
    for (qint64 i = 0; i < count; ++i)
        spread.push_back(all[size_t(i * step)]);
    return spread;
}

} // namespace

int measureOpenInThisProcess(const QString& databasePath) {
    const qint64 before = residentBytes();
    const Stopwatch watch;
    auto broker = openBroker(databasePath, Durability::PowerSafe, pausedClock());
    const double seconds = watch.seconds();
    const qint64 after = residentBytes();
    const auto counts = orDie(broker->counts(kQueuePath), "counts");
    std::printf("OPENED %lld %lld %.6f %lld\n", static_cast<long long>(before),
                static_cast<long long>(after), seconds,
                static_cast<long long>(counts.active + counts.deadLettered + counts.locked +
                                       counts.scheduled + counts.deferred));
    return 0;
}

void measureScale(const BenchOptions& options, BenchReport& report) {
    const QString path = QDir(options.directory).filePath(QStringLiteral("large.db"));
    const qint64 messages = options.messages;
    const qint64 expiring = shortTtlCount(messages);

    // Set-up only: ProcessCrashSafe and batches of 5000, since building the database is not
    // what is measured. Every figure below runs on a PowerSafe broker.
    EntityProperties properties = EntityProperties::defaults(Tier::Standard);
    properties.deadLetteringOnMessageExpiration = true;
    {
        const Stopwatch watch;
        auto broker = openBroker(path, Durability::ProcessCrashSafe, pausedClock());
        createBenchQueue(*broker, properties);
        fillQueue(*broker, 0, messages, 5000, ttlOf);
        broker.reset();
        report.note(QStringLiteral("set-up of figures 4-7: %1 messages (%2 with TTL %3, the rest "
                                   "%4) written with sendBatch(5000) under ProcessCrashSafe in "
                                   "%5 s; the figures themselves use PowerSafe")
                        .arg(messages)
                        .arg(expiring)
                        .arg(formatIsoDuration(kShortTtl), formatIsoDuration(kLongTtl))
                        .arg(watch.seconds(), 0, 'f', 1));
    }

    // 6 baseline: SQLite reading the same metadata columns the engine's open must read.
    qint64 scanned = 0;
    const double rawScan =
        RawSqliteStore(path, Durability::PowerSafe, RawSqliteStore::Open::Existing)
            .scanMessageKeys(&scanned);
    if (scanned != messages)
        die(QStringLiteral("the raw scan read %1 rows, not %2").arg(scanned).arg(messages));

    // 7, in a fresh process.
    const OpenMeasurement fresh = measureOpenInChild(path);
    if (fresh.messages != messages)
        die(QStringLiteral("the reopened broker counts %1 messages, not %2")
                .arg(fresh.messages)
                .arg(messages));

    // 6: destroy the broker (done above), time Broker::open.
    const Stopwatch openWatch;
    auto broker = openBroker(path, Durability::PowerSafe, pausedClock());
    const double reopenSeconds = openWatch.seconds();

    // 5: nothing is due until the short TTL runs out; the clock is paused.
    if (broker->nextDueAt() <= broker->clock().now())
        die(QStringLiteral("something is due right after the reopen"));
    const int calls = options.runDueCalls();
    qint64 fired = 0;
    const Stopwatch tickWatch;
    for (int i = 0; i < calls; ++i)
        fired += broker->runDue();
    const double tickMicros = tickWatch.seconds() * 1e6 / calls;
    if (fired != 0)
        die(QStringLiteral("an idle runDue() fired %1 events").arg(fired));

    // 4: move the clock past the short TTL; T7 moves those messages to the dead-letter queue.
    const Stopwatch expireWatch;
    orDie(broker->advanceClock(kShortTtl + seconds(1)), "advanceClock");
    const double expireSeconds = expireWatch.seconds();
    const auto after = orDie(broker->counts(kQueuePath), "counts");
    if (after.deadLettered != expiring || after.active != messages - expiring)
        die(QStringLiteral("after expiry: %1 dead-lettered (expected %2), %3 active (expected %4)")
                .arg(after.deadLettered)
                .arg(expiring)
                .arg(after.active)
                .arg(messages - expiring));
    // Expiry is not acknowledged to anybody, so the engine may still be writing it; the next
    // acknowledged operation waits for everything logged before it (group commit).
    const Stopwatch durableWatch;
    (void)orDie(broker->send(kQueuePath, benchMessage(messages)), "send after expiry");
    const double durableSeconds = durableWatch.seconds();
    report.note(QStringLiteral("figure 4: the first acknowledged send after the expiry took %1 s "
                               "(it waits until the expiry's writes are durable)")
                    .arg(durableSeconds, 0, 'f', 3));
    broker.reset();

    // 4 baseline: SQLite moving as many other rows, spread the same way, in one transaction.
    qint64 entityId = 0;
    const std::vector<qint64> others = spreadMainSequenceNumbers(path, &entityId, expiring);
    const double rawMove =
        RawSqliteStore(path, Durability::PowerSafe, RawSqliteStore::Open::Existing)
            .moveToDeadLetter(entityId, others);

    Figure expire{
        QStringLiteral("4"),
        QStringLiteral("expire %1 of %2 into the dead-letter queue").arg(expiring).arg(messages),
        expireSeconds, QStringLiteral("s"), Figure::Better::Lower};
    expire.baseline = rawMove;
    expire.baselineName = QStringLiteral("raw SQLite, the engine's dead-letter UPDATE on %1 other "
                                         "rows in one transaction")
                              .arg(expiring);
    expire.target = 2.0;
    report.add(expire);

    Figure tick{
        QStringLiteral("5"),
        QStringLiteral("idle runDue() with %1 live messages (avg of %2)").arg(messages).arg(calls),
        tickMicros, QStringLiteral("us"), Figure::Better::Lower};
    tick.target = 10.0;
    report.add(tick);

    Figure reopen{QStringLiteral("6"), QStringLiteral("Broker::open of %1 messages").arg(messages),
                  reopenSeconds, QStringLiteral("s"), Figure::Better::Lower};
    reopen.baseline = rawScan;
    reopen.baselineName = QStringLiteral("raw SQLite, reading the metadata columns of every "
                                         "message (what open must read)");
    reopen.target = 1.0;
    report.add(reopen);

    Figure memory{QStringLiteral("7"), QStringLiteral("resident memory per stored message"),
                  double(fresh.rssAfter - fresh.rssBefore) / double(messages),
                  QStringLiteral("B/msg"), Figure::Better::Lower};
    memory.target = 200.0;
    report.add(memory);
    report.note(QStringLiteral("figure 7: VmRSS %1 MB before and %2 MB after Broker::open in a "
                               "fresh process (open took %3 s there); bodies stay on disk")
                    .arg(fresh.rssBefore / 1048576.0, 0, 'f', 1)
                    .arg(fresh.rssAfter / 1048576.0, 0, 'f', 1)
                    .arg(fresh.seconds, 0, 'f', 3));
}

} // namespace hourglass::bench
