#include "RemoteSetup.h"

#include "BenchSupport.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace hourglass::bench {

namespace {

// Messages per sendBatch: one flight of about half a megabyte.
constexpr int kFillBatch = 500;
// Administration calls in flight at once while the entities are made.
constexpr int kCreators = 4;

void orStop(const Result<void>& result, const QString& what) {
    if (!result)
        die(QStringLiteral("%1: %2").arg(what, result.error().toString()));
}

} // namespace

double fillRemoteQueue(const remote::ConnectionString& where, qint64 messages) {
    remote::AdminClient admin(remote::AdminClientOptions::forConnection(where));
    EntityProperties properties;
    properties.maxSizeInMegabytes = 5120;
    const auto created = admin.createQueue(QLatin1String(kRemoteQueue), properties);
    if (!created)
        die(QStringLiteral("creating the queue: %1").arg(created.error().toString()));

    remote::AmqpClient amqp(where);
    orStop(amqp.connect(), QStringLiteral("connecting to fill the queue"));
    const QByteArray body(kRemoteBodyBytes, 'x');
    Stopwatch watch;
    for (qint64 first = 0; first < messages; first += kFillBatch) {
        QList<OutgoingMessage> batch;
        const qint64 last = std::min(messages, first + kFillBatch);
        batch.reserve(int(last - first));
        for (qint64 ordinal = first; ordinal < last; ++ordinal) {
            OutgoingMessage message;
            message.messageId = QStringLiteral("bench-%1").arg(ordinal);
            message.body = body;
            batch.append(std::move(message));
        }
        orStop(amqp.sendBatch(QLatin1String(kRemoteQueue), batch),
               QStringLiteral("filling the queue"));
    }
    return watch.seconds();
}

double wirePeekMs(const remote::ConnectionString& where, int count, int pageSize) {
    remote::AmqpClient amqp(where);
    orStop(amqp.connect(), QStringLiteral("connecting to peek"));
    // The $management link first, as the window's is by its first page.
    const auto first = amqp.peek(QLatin1String(kRemoteQueue), PeekOptions{0, 1, {}});
    if (!first)
        die(QStringLiteral("peeking: %1").arg(first.error().toString()));
    Stopwatch watch;
    qint64 from = 0;
    int read = 0;
    while (read < count) {
        const auto page = amqp.peek(QLatin1String(kRemoteQueue),
                                    PeekOptions{from, std::min(pageSize, count - read), {}});
        if (!page)
            die(QStringLiteral("peeking: %1").arg(page.error().toString()));
        if (page->isEmpty())
            die(QStringLiteral("peeking: the queue ended after %1 messages").arg(read));
        read += int(page->size());
        from = page->last().sequenceNumber + 1;
    }
    return watch.seconds() * 1000;
}

double createRemoteEntities(const remote::ConnectionString& where, int entities) {
    remote::AdminClient admin(remote::AdminClientOptions::forConnection(where));
    // Each topic counts twice (itself and its subscription).
    const int topics = entities / 10 / 2;
    const int queues = entities - 2 * topics;
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    QString failure;
    std::mutex failureMutex;
    auto creator = [&] {
        for (int job = next++; job < queues + topics && !failed; job = next++) {
            Result<EntityInfo> made =
                job < queues
                    ? admin.createQueue(QStringLiteral("q-%1").arg(job, 4, 10, QLatin1Char('0')),
                                        {})
                    : admin.createTopic(
                          QStringLiteral("t-%1").arg(job - queues, 4, 10, QLatin1Char('0')), {});
            if (made && job >= queues)
                made = admin.createSubscription(QStringLiteral("t-%1/Subscriptions/s")
                                                    .arg(job - queues, 4, 10, QLatin1Char('0')),
                                                {});
            if (!made) {
                std::lock_guard lock(failureMutex);
                failure = made.error().toString();
                failed = true;
            }
        }
    };
    Stopwatch watch;
    std::vector<std::thread> threads;
    for (int i = 0; i < kCreators; ++i)
        threads.emplace_back(creator);
    for (std::thread& thread : threads)
        thread.join();
    if (failed)
        die(QStringLiteral("creating the entities: %1").arg(failure));
    return watch.seconds();
}

} // namespace hourglass::bench
