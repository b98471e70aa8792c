// Locks, part 1: sending and delivery (L1-L6).
#include "TestEngineLocks.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "KilledRestart.h"
#include "TestBroker.h"

#include <QSet>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kLockQueue;
const QString& kDeadLetters = kLockDeadLetters;

// Sizes from one byte to near MaxMessageSizeInKilobytes (256), so that bodies span many pages.
constexpr int kWholeSizes[] = {1, 3000, 64 * 1024, 200 * 1024};

// A message whose every part can be told from its number: a torn or swapped one shows.
OutgoingMessage wholeMessage(int n) {
    OutgoingMessage m = TestBroker::message(QStringLiteral("w%1").arg(n), {});
    for (int i = 0; i < kWholeSizes[n]; ++i)
        m.body.append(char('a' + (i * 7 + n) % 26));
    m.subject = QStringLiteral("subject %1").arg(n);
    m.applicationProperties.insert(QStringLiteral("n"), n);
    m.applicationProperties.insert(QStringLiteral("text"), QStringLiteral("héllo %1").arg(n));
    return m;
}

QString sequenceKey(const QString& messageId) {
    return QStringLiteral("seq.") + messageId;
}

const BeforeRestart kSendOne{"sendOne", [](TestBroker& tb, Handoff& handoff) {
                                 HG_VERIFY_OK(tb->createQueue(kQueue, {}));
                                 OutgoingMessage m = TestBroker::message(
                                     QStringLiteral("m1"), QByteArrayLiteral("durable"));
                                 const auto sent = tb->send(kQueue, m);
                                 HG_VERIFY_OK(sent);
                                 QVERIFY(sent->sequenceNumber > 0);
                                 QCOMPARE(sent->scheduled, false);
                                 QCOMPARE(sent->duplicate, false);
                                 handoff.put(QStringLiteral("seq"), sent->sequenceNumber);
                             }};

// A batch, then a single send, whose acknowledgement is the last thing before the restart.
const BeforeRestart kBatchThenSingle{
    "batchThenSingle", [](TestBroker& tb, Handoff& handoff) {
        HG_VERIFY_OK(tb->createQueue(kQueue, {}));
        const QList<OutgoingMessage> batch{wholeMessage(0), wholeMessage(1), wholeMessage(2)};
        const auto sentBatch = tb->sendBatch(kQueue, batch);
        HG_VERIFY_OK(sentBatch);
        QCOMPARE(sentBatch->size(), batch.size());
        for (qsizetype i = 0; i < batch.size(); ++i)
            handoff.put(sequenceKey(batch[i].messageId), sentBatch->at(i).sequenceNumber);
        const OutgoingMessage single = wholeMessage(3);
        const auto sent = tb->send(kQueue, single);
        HG_VERIFY_OK(sent);
        handoff.put(sequenceKey(single.messageId), sent->sequenceNumber);
    }};

const BeforeRestart kReceiveAndDeleteTwo{
    "receiveAndDeleteTwo", [](TestBroker& tb, Handoff&) {
        HG_VERIFY_OK(tb->createQueue(kQueue, {}));
        for (const char* id : {"m1", "m2", "m3"})
            HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QLatin1String(id))));
        const auto got = tb->receive(kQueue, receiveAndDelete(2));
        HG_VERIFY_OK(got);
        QCOMPARE(messageIds(*got), (QStringList{QStringLiteral("m1"), QStringLiteral("m2")}));
        for (const MessageView& m : *got) {
            QCOMPARE(m.locked, false);
            QVERIFY(m.lockToken.isNull());
            QCOMPARE(m.body, QByteArrayLiteral("body"));
        }
        const auto counts = tb->counts(kQueue);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->active, qint64(1));
        QCOMPARE(counts->locked, qint64(0));
    }};
} // namespace

void TestEngineLocks::locks_L1_sendReturnsOnlyWhenStored_data() {
    addRestartRows();
}

void TestEngineLocks::locks_L1_sendReturnsOnlyWhenStored() {
    QFETCH(Restart, restart);
    TestBroker tb;
    // Acknowledged means stored: a fresh engine on the same file has it, even after a kill -9
    // right after the acknowledgement.
    const Handoff handed = kSendOne.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto stored = tb->message(kQueue, handed.number(QStringLiteral("seq")));
    HG_VERIFY_OK(stored);
    QCOMPARE(stored->messageId, QStringLiteral("m1"));
    QCOMPARE(stored->body, QByteArrayLiteral("durable"));
}

void TestEngineLocks::locks_L1_acknowledgedSendsAreWholeAfterRestart_data() {
    addRestartRows();
}

void TestEngineLocks::locks_L1_acknowledgedSendsAreWholeAfterRestart() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kBatchThenSingle.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    for (int n = 0; n < int(std::size(kWholeSizes)); ++n) {
        const OutgoingMessage sent = wholeMessage(n);
        const qint64 seq = handed.number(sequenceKey(sent.messageId));
        QVERIFY(seq > 0);
        const auto stored = tb->message(kQueue, seq);
        HG_VERIFY_OK(stored);
        QCOMPARE(stored->messageId, sent.messageId);
        QVERIFY2(stored->body == sent.body,
                 qPrintable(QStringLiteral("%1: body of %2 bytes stored as %3 bytes, or altered")
                                .arg(sent.messageId)
                                .arg(sent.body.size())
                                .arg(stored->body.size())));
        QCOMPARE(stored->subject, sent.subject);
        QCOMPARE(stored->applicationProperties, sent.applicationProperties);
    }
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(std::size(kWholeSizes)));
}

void TestEngineLocks::locks_L1_sendErrorsCarryCodeDescriptionTrackingIdAndRetry_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("bodyKilobytes");
    QTest::addColumn<int>("expected");
    QTest::newRow("entity not found") << "missing" << 1 << int(ErrorCode::MessagingEntityNotFound);
    QTest::newRow("message too large") << "open" << 257 << int(ErrorCode::MessageSizeExceeded);
    QTest::newRow("disabled") << "disabled" << 1 << int(ErrorCode::MessagingEntityDisabled);
    QTest::newRow("send-disabled")
        << "sendDisabled" << 1 << int(ErrorCode::MessagingEntityDisabled);
}

void TestEngineLocks::locks_L1_sendErrorsCarryCodeDescriptionTrackingIdAndRetry() {
    QFETCH(QString, path);
    QFETCH(int, bodyKilobytes);
    QFETCH(int, expected);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("open"), {}));
    EntityProperties disabled;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("disabled"), disabled));
    disabled.status = EntityStatus::SendDisabled;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("sendDisabled"), disabled));
    const OutgoingMessage m =
        TestBroker::message(QStringLiteral("m"), QByteArray(bodyKilobytes * 1024, 'x'));
    const auto first = tb->send(path, m);
    HG_VERIFY_REFUSED(tb.broker(), tb->send(path, m), ErrorCode(expected));
    HG_VERIFY_ERROR(first, ErrorCode(expected));
    // Every failure has its own tracking id, for correlating logs.
    const auto second = tb->send(path, m);
    QVERIFY(!second.ok());
    QVERIFY(first.error().trackingId != second.error().trackingId);
}

void TestEngineLocks::locks_L1_quotaExceededIsRetryable() {
    TestBroker tb;
    EntityProperties small;
    small.maxSizeInMegabytes = 1;
    HG_VERIFY_OK(tb->createQueue(kQueue, small));
    const QByteArray body(200 * 1024, 'x');
    int accepted = 0;
    for (; accepted < 10; ++accepted) {
        if (!tb->send(kQueue, TestBroker::message(QString::number(accepted), body)))
            break;
    }
    QVERIFY2(accepted >= 4 && accepted <= 5, qPrintable(QString::number(accepted)));
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kQueue, TestBroker::message("over", body)),
                      ErrorCode::QuotaExceeded);
    // Retry later: once a receiver made room, the same send succeeds.
    const auto drained = tb->receive(kQueue, receiveAndDelete(2));
    HG_VERIFY_OK(drained);
    QCOMPARE(drained->size(), 2);
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message("over", body)));
}

void TestEngineLocks::locks_L1_batchIsAllOrNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    QList<OutgoingMessage> batch{
        TestBroker::message(QStringLiteral("a")), TestBroker::message(QStringLiteral("b")),
        TestBroker::message(QStringLiteral("big"), QByteArray(300 * 1024, 'x')),
        TestBroker::message(QStringLiteral("d"))};
    HG_VERIFY_REFUSED(tb.broker(), tb->sendBatch(kQueue, batch), ErrorCode::MessageSizeExceeded);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(0));
    batch.removeAt(2);
    const auto sent = tb->sendBatch(kQueue, batch);
    HG_VERIFY_OK(sent);
    QCOMPARE(sent->size(), 3);
}

void TestEngineLocks::locks_L2_batchSettlesEachMessage() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 100; ++i)
        batch << TestBroker::message(QStringLiteral("m%1").arg(i), QByteArray::number(i));
    const auto sent = tb->sendBatch(kQueue, batch);
    HG_VERIFY_OK(sent);
    QCOMPARE(sent->size(), 100);
    for (int i = 1; i < 100; ++i)
        QVERIFY(sent->at(i).sequenceNumber > sent->at(i - 1).sequenceNumber);
    const auto listed = tb->listMessages(kQueue, 0, 1000, Broker::Bodies::With);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 100);
    for (int i = 0; i < 100; ++i) {
        QCOMPARE(listed->at(i).sequenceNumber, sent->at(i).sequenceNumber);
        QCOMPARE(listed->at(i).messageId, QStringLiteral("m%1").arg(i));
        QCOMPARE(listed->at(i).body, QByteArray::number(i));
    }
}

void TestEngineLocks::locks_L2_concurrentSendersEachSettle() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    constexpr int kThreads = 4;
    constexpr int kPerThread = 250;
    std::vector<QList<qint64>> sequences(kThreads);
    std::atomic<int> failures{0};
    Broker& broker = tb.broker();
    {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < kPerThread; ++i) {
                    const auto sent = broker.send(
                        kQueue, TestBroker::message(QStringLiteral("t%1-%2").arg(t).arg(i)));
                    if (sent)
                        sequences[t] << sent->sequenceNumber;
                    else
                        ++failures;
                }
            });
        }
        for (auto& thread : threads)
            thread.join();
    }
    QCOMPARE(failures.load(), 0);
    QSet<qint64> all;
    for (const QList<qint64>& mine : sequences) {
        QCOMPARE(mine.size(), kPerThread);
        // Each caller sees its own sends in increasing order.
        for (int i = 1; i < mine.size(); ++i)
            QVERIFY(mine[i] > mine[i - 1]);
        for (qint64 s : mine)
            all.insert(s);
    }
    QCOMPARE(all.size(), kThreads * kPerThread);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(kThreads * kPerThread));
}

// Pipelined sends arriving together (the wire's sendEach) are not a batch: each is checked and
// stored on its own, one refused leaves the others, and they keep their order.
void TestEngineLocks::locks_L2_pipelinedSendsSettleEachOnTheirOwn() {
    TestBroker tb;
    EntityProperties small;
    small.maxMessageSizeInKilobytes = 1;
    HG_VERIFY_OK(tb->createQueue(kQueue, small));
    QList<OutgoingMessage> messages;
    for (int i = 0; i < 20; ++i)
        messages << TestBroker::message(QStringLiteral("m%1").arg(i), QByteArray::number(i));
    messages[7].body = QByteArray(4096, 'x'); // over the queue's 1 KB
    const auto results = tb->sendEach(kQueue, messages);
    QCOMPARE(results.size(), 20);
    for (int i = 0; i < 20; ++i) {
        if (i == 7) {
            QVERIFY(!results[i]);
            QCOMPARE(results[i].error().code, ErrorCode::MessageSizeExceeded);
        } else {
            HG_VERIFY_OK(results[i]);
            if (i > 0 && i != 8)
                QVERIFY(results[i]->sequenceNumber > results[i - 1]->sequenceNumber);
        }
    }
    const auto listed = tb->listMessages(kQueue, 0, 100);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 19);
    QCOMPARE(listed->at(6).messageId, QStringLiteral("m6"));
    QCOMPARE(listed->at(7).messageId, QStringLiteral("m8"));
    // An unknown entity refuses each of them, and nothing is stored anywhere.
    const auto nowhere = tb->sendEach(QStringLiteral("missing"), messages.mid(0, 2));
    QCOMPARE(nowhere.size(), 2);
    QCOMPARE(nowhere[0].error().code, ErrorCode::MessagingEntityNotFound);
    QCOMPARE(nowhere[1].error().code, ErrorCode::MessagingEntityNotFound);
}

void TestEngineLocks::locks_L3_receiveAndDeleteConsumesAtOnce_data() {
    addRestartRows();
}

void TestEngineLocks::locks_L3_receiveAndDeleteConsumesAtOnce() {
    QFETCH(Restart, restart);
    TestBroker tb;
    // Consumed for good: not back after a restart, even a kill -9 right after the receive.
    kReceiveAndDeleteTwo.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    const auto listed = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), QStringList{QStringLiteral("m3")});
}

void TestEngineLocks::locks_L4_peekLockHandsOutExclusiveLocks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, lockProperties(seconds(30))));
    for (const char* id : {"m1", "m2", "m3"})
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QLatin1String(id))));
    tb.advance(seconds(1));
    const Instant now = tb.clock().now();

    const auto first = tb->receive(kQueue, peekLock(QStringLiteral("r1")));
    HG_VERIFY_OK(first);
    QCOMPARE(first->size(), 1);
    const MessageView& m1 = first->first();
    QCOMPARE(m1.messageId, QStringLiteral("m1"));
    QVERIFY(!m1.lockToken.isNull());
    QCOMPARE(m1.locked, true);
    QCOMPARE(m1.lockHolder, QStringLiteral("r1"));
    QCOMPARE(m1.lockedUntil, now + seconds(30));
    QCOMPARE(m1.deliveryCount, quint32(1));
    QCOMPARE(m1.body, QByteArrayLiteral("body"));

    // A competing receiver gets the next unlocked message.
    const auto second = tb->receive(kQueue, peekLock(QStringLiteral("r2")));
    HG_VERIFY_OK(second);
    QCOMPARE(messageIds(*second), QStringList{QStringLiteral("m2")});
    const auto rest = tb->receive(kQueue, peekLock(QStringLiteral("r1"), 5));
    HG_VERIFY_OK(rest);
    QCOMPARE(messageIds(*rest), QStringList{QStringLiteral("m3")});
    const auto none = tb->receive(kQueue, peekLock(QStringLiteral("r3"), 5));
    HG_VERIFY_OK(none);
    QVERIFY(none->isEmpty());

    QSet<QUuid> tokens{m1.lockToken, second->first().lockToken, rest->first().lockToken};
    QCOMPARE(tokens.size(), 3);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(3));
    QCOMPARE(counts->active, qint64(0));
    const auto listed = tb->message(kQueue, m1.sequenceNumber);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->locked, true);
    QCOMPARE(listed->lockHolder, QStringLiteral("r1"));
    QCOMPARE(listed->lockedUntil, now + seconds(30));
}

void TestEngineLocks::locks_L4_deliveryCountCountsLockedDeliveries() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(sent);
    auto peeked = tb->peek(kQueue, 0, 1);
    HG_VERIFY_OK(peeked);
    QCOMPARE(peeked->first().deliveryCount, quint32(0));
    for (quint32 delivery = 1; delivery <= 3; ++delivery) {
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        QCOMPARE(got->first().deliveryCount, delivery);
        HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
        peeked = tb->peek(kQueue, 0, 1);
        HG_VERIFY_OK(peeked);
        QCOMPARE(peeked->first().deliveryCount, delivery);
    }
}

void TestEngineLocks::locks_L5_completeRemoves() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(sent);
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->complete(LockRef::of(got->first())));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
    HG_VERIFY_ERROR(tb->message(kQueue, sent->sequenceNumber), ErrorCode::MessageNotFound);
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
}

void TestEngineLocks::locks_L5_abandonReturnsAtOnceToFront() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    OutgoingMessage first = TestBroker::message(QStringLiteral("m1"));
    first.applicationProperties.insert(QStringLiteral("kept"), QStringLiteral("yes"));
    HG_VERIFY_OK(tb->send(kQueue, first));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m2"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->abandon(LockRef::of(got->first()), {{QStringLiteral("attempt"), 1}}));

    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(0));
    QCOMPARE(counts->active, qint64(2));
    // No time passes: it is receivable at once, ahead of m2, under its old sequence number.
    const auto again = tb->receive(kQueue, peekLock(QStringLiteral("other")));
    HG_VERIFY_OK(again);
    QCOMPARE(again->size(), 1);
    const MessageView& m = again->first();
    QCOMPARE(m.messageId, QStringLiteral("m1"));
    QCOMPARE(m.sequenceNumber, got->first().sequenceNumber);
    QCOMPARE(m.deliveryCount, quint32(2));
    QCOMPARE(m.applicationProperties.value(QStringLiteral("attempt")).toInt(), 1);
    QCOMPARE(m.applicationProperties.value(QStringLiteral("kept")).toString(),
             QStringLiteral("yes"));
}

void TestEngineLocks::locks_L5_lockRunningOutReleases() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, lockProperties(seconds(30))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r1")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    tb.advance(seconds(30) - 1);
    const auto stillLocked = tb->receive(kQueue, peekLock(QStringLiteral("r2")));
    HG_VERIFY_OK(stillLocked);
    QVERIFY(stillLocked->isEmpty());
    tb.advance(2);
    const auto released = tb->receive(kQueue, peekLock(QStringLiteral("r2")));
    HG_VERIFY_OK(released);
    QCOMPARE(released->size(), 1);
    QCOMPARE(released->first().sequenceNumber, got->first().sequenceNumber);
    QCOMPARE(released->first().deliveryCount, quint32(2));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(got->first())), ErrorCode::MessageLockLost);
    HG_VERIFY_OK(tb->complete(LockRef::of(released->first())));
}

void TestEngineLocks::locks_L6_maxDeliveryCountDeadLetters_data() {
    QTest::addColumn<int>("maxDeliveryCount");
    QTest::addColumn<bool>("byLockExpiry");
    for (int n : {1, 3, 10}) {
        QTest::addRow("abandon, max %d", n) << n << false;
        QTest::addRow("lock expiry, max %d", n) << n << true;
    }
}

void TestEngineLocks::locks_L6_maxDeliveryCountDeadLetters() {
    QFETCH(int, maxDeliveryCount);
    QFETCH(bool, byLockExpiry);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, lockProperties(seconds(10), maxDeliveryCount)));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("poison"))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("bystander"))));
    for (int delivery = 1; delivery <= maxDeliveryCount; ++delivery) {
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        QCOMPARE(got->first().messageId, QStringLiteral("poison"));
        QCOMPARE(got->first().deliveryCount, quint32(delivery));
        if (byLockExpiry)
            tb.advance(seconds(10) + 1);
        else
            HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
        const auto dead = tb->listMessages(kDeadLetters, 0, 10);
        HG_VERIFY_OK(dead);
        QCOMPARE(dead->size(), delivery == maxDeliveryCount ? 1 : 0);
    }
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    const MessageView& d = dead->first();
    QCOMPARE(d.messageId, QStringLiteral("poison"));
    QCOMPARE(d.deadLetterReason, QStringLiteral("MaxDeliveryCountExceeded"));
    QVERIFY(!d.deadLetterErrorDescription.isEmpty());
    QCOMPARE(d.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(),
             QStringLiteral("MaxDeliveryCountExceeded"));
    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    QCOMPARE(messageIds(*main), QStringList{QStringLiteral("bystander")});
    const auto reasons = tb->deadLetterReasons(kQueue);
    HG_VERIFY_OK(reasons);
    QCOMPARE(*reasons, (QMap<QString, qint64>{{QStringLiteral("MaxDeliveryCountExceeded"), 1}}));
}

HG_RESTART_TEST_MAIN(TestEngineLocks)
