#include "BenchSupport.h"

#include <QFile>

#include <cstdio>
#include <cstdlib>

namespace hourglass::bench {

void die(const QString& what) {
    std::fprintf(stderr, "engine_bench: %s\n", qPrintable(what));
    std::exit(1);
}

void orDie(const Result<void>& result, const char* what) {
    if (!result)
        die(QStringLiteral("%1: %2").arg(QLatin1String(what), result.error().toString()));
}

std::unique_ptr<Broker> openBroker(const QString& path, Durability durability,
                                   std::shared_ptr<Clock> clock) {
    BrokerOptions options;
    options.databasePath = path;
    options.durability = durability;
    options.clock = std::move(clock);
    return orDie(Broker::open(options), "Broker::open");
}

void createBenchQueue(Broker& broker, const EntityProperties& properties) {
    orDie(broker.createNamespace({QStringLiteral("bench"), Tier::Standard}), "createNamespace");
    orDie(broker.createQueue(QString::fromLatin1(kQueue), properties), "createQueue");
}

QString durabilityName(Durability durability) {
    return durability == Durability::PowerSafe ? QStringLiteral("PowerSafe")
                                               : QStringLiteral("ProcessCrashSafe");
}

QString benchMessageId(qint64 ordinal) {
    return QStringLiteral("bench-%1").arg(ordinal, 9, 10, QLatin1Char('0'));
}

QByteArray benchBody() {
    // Not compressible to nothing, the same for every message: the body is not what is measured.
    QByteArray body(kBodyBytes, Qt::Uninitialized);
    for (int i = 0; i < kBodyBytes; ++i)
        body[i] = char('a' + (i * 7) % 26);
    return body;
}

OutgoingMessage benchMessage(qint64 ordinal) {
    static const QByteArray body = benchBody();
    OutgoingMessage message;
    message.messageId = benchMessageId(ordinal);
    message.body = body;
    return message;
}

void fillQueue(Broker& broker, qint64 firstOrdinal, qint64 count, int batchSize,
               std::optional<Millis> (*ttlOf)(qint64 ordinal)) {
    const QString queue = QString::fromLatin1(kQueue);
    for (qint64 first = firstOrdinal; first < firstOrdinal + count; first += batchSize) {
        QList<OutgoingMessage> batch;
        batch.reserve(batchSize);
        for (qint64 i = first; i < std::min(firstOrdinal + count, first + batchSize); ++i) {
            batch.append(benchMessage(i));
            if (ttlOf)
                batch.last().timeToLive = ttlOf(i);
        }
        (void)orDie(broker.sendBatch(queue, batch), "sendBatch (fill)");
    }
}

qint64 residentBytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly | QIODevice::Text))
        die(QStringLiteral("cannot read /proc/self/status"));
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine()) {
        if (line.startsWith("VmRSS:")) {
            // "VmRSS:	  123456 kB"
            const QList<QByteArray> parts = line.mid(6).simplified().split(' ');
            return parts.value(0).toLongLong() * 1024;
        }
    }
    die(QStringLiteral("no VmRSS in /proc/self/status"));
}

} // namespace hourglass::bench
