// The explorer's paged reads (Broker::listMessages, Broker::message): paging by sequence number
// N at a time across 10,000 messages, bodies only on demand, dead-letter paths, no side effects;
// and several threads sending and receiving at once ending with consistent counts (L2).

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QSet>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
constexpr int kMessages = 10000;

QByteArray bodyOf(int i) {
    return QByteArray("body-") + QByteArray::number(i);
}

// Sends kMessages messages "m<i>" with bodies "body-<i>"; returns their sequence numbers.
QList<qint64> fill(TestBroker& tb, const QString& path) {
    QList<qint64> sequences;
    for (int start = 0; start < kMessages; start += 1000) {
        QList<OutgoingMessage> batch;
        for (int i = start; i < start + 1000; ++i)
            batch << TestBroker::message(QStringLiteral("m%1").arg(i), bodyOf(i));
        const auto sent = tb->sendBatch(path, batch);
        if (!sent)
            return {};
        for (const SendResult& r : *sent)
            sequences << r.sequenceNumber;
    }
    return sequences;
}
} // namespace

class TestEnginePaging : public QObject {
    Q_OBJECT

private slots:
    void paging_pagesBySequenceNumberAcrossTenThousand_data();
    void paging_pagesBySequenceNumberAcrossTenThousand();
    void paging_bodiesOnlyOnDemand();
    void paging_fromAnyStartingNumber();
    void paging_deadLetterQueuePaths();
    void paging_readsHaveNoSideEffects();
    void paging_concurrentSendersAndReceiversStayConsistent();
    void paging_sequenceIndexAnchorsEveryPage();
};

void TestEnginePaging::paging_pagesBySequenceNumberAcrossTenThousand_data() {
    QTest::addColumn<int>("pageSize");
    QTest::newRow("100 at a time") << 100;
    QTest::newRow("512 at a time") << 512;
    QTest::newRow("3333 at a time") << 3333;
}

void TestEnginePaging::paging_pagesBySequenceNumberAcrossTenThousand() {
    QFETCH(int, pageSize);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> sent = fill(tb, kQueue);
    QCOMPARE(sent.size(), kMessages);

    QList<qint64> seen;
    qint64 from = 0;
    const int pages = (kMessages + pageSize - 1) / pageSize;
    for (int page = 0; page <= pages; ++page) {
        const auto listed = tb->listMessages(kQueue, from, pageSize);
        HG_VERIFY_OK(listed);
        if (listed->isEmpty())
            break;
        QVERIFY(listed->size() <= pageSize);
        // Full pages until the last one.
        if (page < pages - 1)
            QCOMPARE(listed->size(), pageSize);
        for (const MessageView& m : *listed) {
            QVERIFY(m.sequenceNumber >= from);
            QVERIFY(!m.hasBody);
            QVERIFY(m.body.isEmpty());
            QVERIFY(m.sizeInBytes > 0);
            QCOMPARE(m.entityPath, kQueue);
            QCOMPARE(m.subQueue, SubQueue::Main);
            seen << m.sequenceNumber;
        }
        from = listed->last().sequenceNumber + 1;
    }
    QCOMPARE(seen.size(), kMessages);
    QCOMPARE(seen, sent);
    // Past the last one: an empty page, not an error.
    const auto after = tb->listMessages(kQueue, sent.last() + 1, pageSize);
    HG_VERIFY_OK(after);
    QVERIFY(after->isEmpty());
}

void TestEnginePaging::paging_bodiesOnlyOnDemand() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> sent = fill(tb, kQueue);
    QCOMPARE(sent.size(), kMessages);
    const auto withBodies = tb->listMessages(kQueue, sent[4000], 50, Broker::Bodies::With);
    HG_VERIFY_OK(withBodies);
    QCOMPARE(withBodies->size(), 50);
    for (int i = 0; i < 50; ++i) {
        QVERIFY(withBodies->at(i).hasBody);
        QCOMPARE(withBodies->at(i).body, bodyOf(4000 + i));
        QCOMPARE(withBodies->at(i).messageId, QStringLiteral("m%1").arg(4000 + i));
    }
    const auto one = tb->message(kQueue, sent[9999]);
    HG_VERIFY_OK(one);
    QVERIFY(one->hasBody);
    QCOMPARE(one->body, bodyOf(9999));
    QCOMPARE(one->sequenceNumber, sent[9999]);
    const auto bare = tb->message(kQueue, sent[9999], Broker::Bodies::Without);
    HG_VERIFY_OK(bare);
    QVERIFY(!bare->hasBody);
    QVERIFY(bare->body.isEmpty());
    QCOMPARE(bare->messageId, QStringLiteral("m9999"));
    QCOMPARE(bare->sizeInBytes, one->sizeInBytes);
}

void TestEnginePaging::paging_fromAnyStartingNumber() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    QList<qint64> sent;
    for (int i = 0; i < 20; ++i) {
        const auto r = tb->send(kQueue, TestBroker::message(QStringLiteral("m%1").arg(i)));
        HG_VERIFY_OK(r);
        sent << r->sequenceNumber;
    }
    // Remove m5..m9: a page starting inside the gap begins at the next message there is.
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r"), 10));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 10);
    for (int i = 5; i < 10; ++i)
        HG_VERIFY_OK(tb->complete(LockRef::of(got->at(i))));
    const auto page = tb->listMessages(kQueue, sent[6], 3);
    HG_VERIFY_OK(page);
    QCOMPARE(messageIds(*page),
             (QStringList{QStringLiteral("m10"), QStringLiteral("m11"), QStringLiteral("m12")}));
    // Locked messages are listed too, with their lock.
    const auto first = tb->listMessages(kQueue, 0, 2);
    HG_VERIFY_OK(first);
    QCOMPARE(messageIds(*first), (QStringList{QStringLiteral("m0"), QStringLiteral("m1")}));
    QVERIFY(first->at(0).locked);
    QVERIFY(first->at(0).lockToken.isNull());
    HG_VERIFY_ERROR(tb->message(kQueue, sent[7]), ErrorCode::MessageNotFound);
}

void TestEnginePaging::paging_deadLetterQueuePaths() {
    TestBroker tb;
    EntityProperties p;
    p.maxDeliveryCount = 1;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), p));
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 250; ++i)
        batch << TestBroker::message(QStringLiteral("d%1").arg(i), bodyOf(i));
    HG_VERIFY_OK(tb->sendBatch(kQueue, batch));
    HG_VERIFY_OK(tb->sendBatch(QStringLiteral("t"), batch.mid(0, 10)));
    for (const QString& path : {kQueue, QStringLiteral("t/Subscriptions/s")}) {
        const auto got = tb->receive(path, peekLock(QStringLiteral("r"), 250));
        HG_VERIFY_OK(got);
        for (const MessageView& m : *got)
            HG_VERIFY_OK(tb->abandon(LockRef::of(m))); // max delivery count 1: dead-lettered
    }

    const QString dead = QStringLiteral("q/$deadletterqueue");
    QStringList ids;
    qint64 from = 0;
    for (int page = 0; page < 5; ++page) {
        const auto listed = tb->listMessages(dead, from, 100);
        HG_VERIFY_OK(listed);
        if (listed->isEmpty())
            break;
        QCOMPARE(listed->size(), page < 2 ? 100 : 50);
        for (const MessageView& m : *listed) {
            QCOMPARE(m.subQueue, SubQueue::DeadLetter);
            QCOMPARE(m.entityPath, kQueue);
            QCOMPARE(m.deadLetterReason, QStringLiteral("MaxDeliveryCountExceeded"));
            ids << m.messageId;
        }
        from = listed->last().sequenceNumber + 1;
    }
    QCOMPARE(ids.size(), 250);
    QCOMPARE(ids.first(), QStringLiteral("d0"));
    QCOMPARE(ids.last(), QStringLiteral("d249"));
    const auto main = tb->listMessages(kQueue, 0, 1000);
    HG_VERIFY_OK(main);
    QVERIFY(main->isEmpty());

    const auto subDead = tb->listMessages(QStringLiteral("t/Subscriptions/s/$deadletterqueue"), 0,
                                          100, Broker::Bodies::With);
    HG_VERIFY_OK(subDead);
    QCOMPARE(subDead->size(), 10);
    QCOMPARE(subDead->first().entityPath, QStringLiteral("t/Subscriptions/s"));
    QCOMPARE(subDead->first().body, bodyOf(0));
    const auto single = tb->message(QStringLiteral("t/Subscriptions/s/$deadletterqueue"),
                                    subDead->at(3).sequenceNumber);
    HG_VERIFY_OK(single);
    QCOMPARE(single->messageId, QStringLiteral("d3"));
    QCOMPARE(single->subQueue, SubQueue::DeadLetter);
}

void TestEnginePaging::paging_readsHaveNoSideEffects() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    for (int i = 0; i < 5; ++i)
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m%1").arg(i))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r"), 2));
    HG_VERIFY_OK(got);
    const auto countsBefore = tb->counts(kQueue);
    const auto infoBefore = tb->entity(kQueue);
    HG_VERIFY_OK(countsBefore);
    HG_VERIFY_OK(infoBefore);
    tb.advance(seconds(1));
    for (int i = 0; i < 3; ++i) {
        HG_VERIFY_OK(tb->listMessages(kQueue, 0, 100, Broker::Bodies::With));
        HG_VERIFY_OK(tb->message(kQueue, got->first().sequenceNumber));
    }
    const auto countsAfter = tb->counts(kQueue);
    const auto infoAfter = tb->entity(kQueue);
    HG_VERIFY_OK(countsAfter);
    HG_VERIFY_OK(infoAfter);
    QCOMPARE(describe(*countsAfter), describe(*countsBefore));
    QCOMPARE(infoAfter->lastActivityAt, infoBefore->lastActivityAt);
    const auto listed = tb->listMessages(kQueue, 0, 100);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->at(2).deliveryCount, quint32(0));
    QCOMPARE(listed->at(0).deliveryCount, quint32(1));
    // Listing took no lock: the holder still settles, others still receive the rest.
    HG_VERIFY_OK(tb->complete(LockRef::of(got->first())));
    const auto rest = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(rest);
    QCOMPARE(rest->size(), 3);
}

void TestEnginePaging::paging_concurrentSendersAndReceiversStayConsistent() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    Broker& broker = tb.broker();
    constexpr int kSenders = 3;
    constexpr int kPerSender = 1000;
    constexpr int kTotal = kSenders * kPerSender;
    std::atomic<int> sent{0};
    std::atomic<int> received{0};
    std::atomic<int> failures{0};
    std::atomic<bool> readsOrdered{true};
    std::mutex idsMutex;
    QList<QString> receivedIds; // guarded by idsMutex

    std::vector<std::thread> threads;
    for (int s = 0; s < kSenders; ++s) {
        threads.emplace_back([&, s] {
            for (int i = 0; i < kPerSender; ++i) {
                if (broker.send(kQueue,
                                TestBroker::message(QStringLiteral("s%1-%2").arg(s).arg(i))))
                    ++sent;
                else
                    ++failures;
            }
        });
    }
    // Two peek-lock receivers that complete, one receive-and-delete receiver.
    for (int r = 0; r < 3; ++r) {
        threads.emplace_back([&, r] {
            const bool lockMode = r < 2;
            const QString name = QStringLiteral("receiver%1").arg(r);
            // Bounded: far more rounds than needed, never an endless loop.
            for (int round = 0; round < 200000 && received.load() < kTotal; ++round) {
                const auto got =
                    broker.receive(kQueue, lockMode ? peekLock(name, 10) : receiveAndDelete(10));
                if (!got) {
                    ++failures;
                    continue;
                }
                for (const MessageView& m : *got) {
                    if (lockMode && !broker.complete(LockRef::of(m))) {
                        ++failures;
                        continue;
                    }
                    ++received;
                    std::lock_guard lock(idsMutex);
                    receivedIds << m.messageId;
                }
                if (got->isEmpty())
                    std::this_thread::yield();
            }
        });
    }
    // An explorer paging meanwhile: every page in strictly increasing order.
    threads.emplace_back([&] {
        for (int round = 0; round < 200; ++round) {
            const auto page = broker.listMessages(kQueue, 0, 200);
            if (!page) {
                ++failures;
                continue;
            }
            for (int i = 1; i < page->size(); ++i) {
                if (page->at(i).sequenceNumber <= page->at(i - 1).sequenceNumber)
                    readsOrdered = false;
            }
        }
    });
    for (auto& thread : threads)
        thread.join();

    QCOMPARE(failures.load(), 0);
    QCOMPARE(sent.load(), kTotal);
    QVERIFY(readsOrdered.load());
    QCOMPARE(received.load(), kTotal);
    const QSet<QString> unique(receivedIds.cbegin(), receivedIds.cend());
    QCOMPARE(unique.size(), kTotal); // nobody got a message twice
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
    const auto listed = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(listed);
    QVERIFY(listed->isEmpty());
}

void TestEnginePaging::paging_sequenceIndexAnchorsEveryPage() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> sequences = fill(tb, kQueue);
    QCOMPARE(sequences.size(), kMessages);
    // Complete a few so that sequence numbers have gaps: anchors follow positions, not numbers.
    ReceiveOptions options;
    options.maxCount = 7;
    const auto got = tb->receive(kQueue, options);
    HG_VERIFY_OK(got);
    for (const MessageView& m : *got)
        HG_VERIFY_OK(tb->complete(LockRef::of(m)));

    const auto index = tb->sequenceIndex(kQueue, 200);
    HG_VERIFY_OK(index);
    QCOMPARE(index->total, qint64(kMessages - 7));
    QCOMPARE(index->stride, 200);
    QCOMPARE(index->anchors.size(), int((kMessages - 7 + 199) / 200));
    QCOMPARE(index->anchors.first(), sequences.at(7));
    // Each page read from its anchor holds exactly the rows of its positions.
    for (int page : {0, 1, 25, int(index->anchors.size()) - 1}) {
        const auto rows = tb->listMessages(kQueue, index->anchors.at(page), 200);
        HG_VERIFY_OK(rows);
        QCOMPARE(rows->first().sequenceNumber, sequences.at(7 + page * 200));
        const qint64 expected = std::min<qint64>(200, index->total - qint64(page) * 200);
        QCOMPARE(qint64(rows->size()), expected);
    }
    const auto deadLetters = tb->sequenceIndex(kQueue + QStringLiteral("/$deadletterqueue"), 50);
    HG_VERIFY_OK(deadLetters);
    QCOMPARE(deadLetters->total, qint64(0));
    QVERIFY(deadLetters->anchors.isEmpty());
    QCOMPARE(tb->sequenceIndex(kQueue, 0).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(tb->sequenceIndex(QStringLiteral("missing"), 10).error().code,
             ErrorCode::MessagingEntityNotFound);
}

QTEST_GUILESS_MAIN(TestEnginePaging)
#include "tst_engine_paging.moc"
