// Locks, part 2: dead-lettering, deferral, lock loss, renewal, sequence numbers, peek (L7-L12).
#include "TestEngineLocks.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QSet>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kLockQueue;
const QString& kDeadLetters = kLockDeadLetters;
} // namespace

void TestEngineLocks::locks_L5_modifiedPropertiesCountInTheQuota_data() {
    QTest::addColumn<QString>("settlement");
    QTest::newRow("abandon") << QStringLiteral("abandon");
    QTest::newRow("defer") << QStringLiteral("defer");
    QTest::newRow("dead-letter") << QStringLiteral("deadLetter");
}

// A settlement that modifies application properties changes the message's size, and the
// quota (MaxSizeInMegabytes) counts the new size, after a restart too.
void TestEngineLocks::locks_L5_modifiedPropertiesCountInTheQuota() {
    QFETCH(QString, settlement);
    TestBroker tb;
    EntityProperties small;
    small.maxSizeInMegabytes = 1;
    small.maxMessageSizeInKilobytes = 1000; // room for the grown message itself
    HG_VERIFY_OK(tb->createQueue(kQueue, small));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"), "tiny")));
    const auto before = tb->counts(kQueue);
    HG_VERIFY_OK(before);
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const QVariantMap grown{{QStringLiteral("note"), QString(600 * 1024, QLatin1Char('n'))}};
    if (settlement == QLatin1String("abandon"))
        HG_VERIFY_OK(tb->abandon(LockRef::of(got->first()), grown));
    else if (settlement == QLatin1String("defer"))
        HG_VERIFY_OK(tb->defer(LockRef::of(got->first()), grown));
    else
        HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first()), {{}, {}, grown}));
    const auto after = tb->counts(kQueue);
    HG_VERIFY_OK(after);
    QVERIFY2(after->sizeInBytes > before->sizeInBytes + 600 * 1024,
             qPrintable(QStringLiteral("%1 bytes before, %2 after")
                            .arg(before->sizeInBytes)
                            .arg(after->sizeInBytes)));
    // 600 KiB of the 1 MiB quota are taken now: a 500 KiB message no longer fits.
    const OutgoingMessage big =
        TestBroker::message(QStringLiteral("big"), QByteArray(500 * 1024, 'x'));
    HG_VERIFY_ERROR(tb->send(kQueue, big), ErrorCode::QuotaExceeded);
    tb.reopen();
    const auto reopened = tb->counts(kQueue);
    HG_VERIFY_OK(reopened);
    QCOMPARE(reopened->sizeInBytes, after->sizeInBytes);
    HG_VERIFY_ERROR(tb->send(kQueue, big), ErrorCode::QuotaExceeded);
}

void TestEngineLocks::locks_L7_deadLetterKeepsReceiverReason() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"), QByteArrayLiteral("{}"));
    m.applicationProperties.insert(QStringLiteral("origin"), QStringLiteral("web"));
    HG_VERIFY_OK(tb->send(kQueue, m));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    DeadLetterOptions options;
    options.reason = QStringLiteral("bad-format");
    options.description = QStringLiteral("field 'id' missing");
    options.propertiesToModify.insert(QStringLiteral("stage"), QStringLiteral("parse"));
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first()), options));

    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    QVERIFY(main->isEmpty());
    const auto dead = tb->listMessages(kDeadLetters, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 1);
    const MessageView& d = dead->first();
    QCOMPARE(d.messageId, QStringLiteral("m"));
    QCOMPARE(d.body, QByteArrayLiteral("{}"));
    QCOMPARE(d.deadLetterReason, options.reason);
    QCOMPARE(d.deadLetterErrorDescription, options.description);
    QCOMPARE(d.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(),
             options.reason);
    QCOMPARE(d.applicationProperties.value(QStringLiteral("DeadLetterErrorDescription")).toString(),
             options.description);
    QCOMPARE(d.applicationProperties.value(QStringLiteral("stage")).toString(),
             QStringLiteral("parse"));
    QCOMPARE(d.applicationProperties.value(QStringLiteral("origin")).toString(),
             QStringLiteral("web"));
    const auto reasons = tb->deadLetterReasons(kQueue);
    HG_VERIFY_OK(reasons);
    QCOMPARE(*reasons, (QMap<QString, qint64>{{options.reason, 1}}));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deadLettered, qint64(1));
    QCOMPARE(counts->active, qint64(0));
}

void TestEngineLocks::locks_L7_deadLetterQueueCannotDeadLetterAgain() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first()), {QStringLiteral("first"), {}, {}}));

    const auto fromDead = tb->receive(kDeadLetters, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(fromDead);
    QCOMPARE(fromDead->size(), 1);
    QCOMPARE(fromDead->first().subQueue, SubQueue::DeadLetter);
    const LockRef lock = LockRef::of(fromDead->first());
    HG_VERIFY_REFUSED(tb.broker(), tb->deadLetter(lock, {QStringLiteral("second"), {}, {}}),
                      ErrorCode::InvalidArgument);
    // The refused call left the lock alone: the holder can still complete it.
    HG_VERIFY_OK(tb->complete(lock));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
}

void TestEngineLocks::locks_L8_deferredOnlyBySequenceNumber() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m1"))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m2"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const qint64 seq = got->first().sequenceNumber;
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first()), {{QStringLiteral("later"), true}}));

    const auto normal = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(normal);
    QCOMPARE(messageIds(*normal), QStringList{QStringLiteral("m2")});
    const auto empty = tb->receive(kQueue, peekLock(QStringLiteral("r"), 10));
    HG_VERIFY_OK(empty);
    QVERIFY(empty->isEmpty());
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deferred, qint64(1));
    QCOMPARE(counts->active, qint64(0));

    // Visible to peek, as Deferred.
    const auto peeked = tb->peek(kQueue, 0, 10);
    HG_VERIFY_OK(peeked);
    QCOMPARE(peeked->size(), 1);
    QCOMPARE(peeked->first().state, MessageState::Deferred);
    QCOMPARE(peeked->first().applicationProperties.value(QStringLiteral("later")).toBool(), true);

    const auto deferred = tb->receiveDeferred(kQueue, seq, QStringLiteral("r2"));
    HG_VERIFY_OK(deferred);
    QCOMPARE(deferred->messageId, QStringLiteral("m1"));
    QCOMPARE(deferred->sequenceNumber, seq);
    QVERIFY(!deferred->lockToken.isNull());
    QCOMPARE(deferred->lockHolder, QStringLiteral("r2"));
    QCOMPARE(deferred->deliveryCount, quint32(2));
    HG_VERIFY_OK(tb->complete(LockRef::of(*deferred)));
    counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
}

void TestEngineLocks::locks_L8_abandonedDeferredMessageStaysDeferred() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const qint64 seq = got->first().sequenceNumber;
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));
    const auto deferred = tb->receiveDeferred(kQueue, seq, QStringLiteral("r"));
    HG_VERIFY_OK(deferred);
    HG_VERIFY_OK(tb->abandon(LockRef::of(*deferred)));
    const auto normal = tb->receive(kQueue, receiveAndDelete(10));
    HG_VERIFY_OK(normal);
    QVERIFY(normal->isEmpty());
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deferred, qint64(1));
    HG_VERIFY_OK(tb->receiveDeferred(kQueue, seq, QStringLiteral("r")));
}

void TestEngineLocks::locks_L9_settlementFailsWhenLockLost_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("cause");
    const char* actions[] = {"complete", "abandon", "deadLetter", "defer", "renew"};
    const char* causes[] = {"lock ran out",    "another receiver", "wrong token",
                            "settled already", "entity updated",   "engine restarted"};
    for (const char* action : actions) {
        for (const char* cause : causes)
            QTest::addRow("%s, %s", action, cause) << action << cause;
    }
}

void TestEngineLocks::locks_L9_settlementFailsWhenLockLost() {
    QFETCH(QString, action);
    QFETCH(QString, cause);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, lockProperties(seconds(30))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r1")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    const LockRef held = LockRef::of(got->first());
    QCOMPARE(held.receiver, QStringLiteral("r1"));
    LockRef used = held;
    bool lockStillHeld = false;
    if (cause == QLatin1String("lock ran out")) {
        tb.advance(seconds(30) + 1);
    } else if (cause == QLatin1String("another receiver")) {
        used.receiver = QStringLiteral("r2");
        lockStillHeld = true;
    } else if (cause == QLatin1String("wrong token")) {
        used.lockToken = QUuid::createUuid();
        lockStillHeld = true;
    } else if (cause == QLatin1String("settled already")) {
        HG_VERIFY_OK(tb->complete(held));
    } else if (cause == QLatin1String("entity updated")) {
        HG_VERIFY_OK(tb->updateEntity(kQueue, lockProperties(seconds(40))));
    } else if (cause == QLatin1String("engine restarted")) {
        tb.reopen();
    }

    if (action == QLatin1String("complete"))
        HG_VERIFY_REFUSED(tb.broker(), tb->complete(used), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("abandon"))
        HG_VERIFY_REFUSED(tb.broker(), tb->abandon(used), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("deadLetter"))
        HG_VERIFY_REFUSED(tb.broker(), tb->deadLetter(used), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("defer"))
        HG_VERIFY_REFUSED(tb.broker(), tb->defer(used), ErrorCode::MessageLockLost);
    else
        HG_VERIFY_REFUSED(tb.broker(), tb->renewLock(used), ErrorCode::MessageLockLost);

    if (lockStillHeld) {
        // The failed attempt took nothing from the real holder.
        HG_VERIFY_OK(tb->complete(held));
    } else if (cause != QLatin1String("settled already")) {
        // The message is receivable again, by anyone.
        const auto again = tb->receive(kQueue, peekLock(QStringLiteral("r3")));
        HG_VERIFY_OK(again);
        QCOMPARE(again->size(), 1);
        QCOMPARE(again->first().sequenceNumber, got->first().sequenceNumber);
    }
}

void TestEngineLocks::locks_L10_renewExtendsFromNow() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, lockProperties(minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    QCOMPARE(got->first().lockedUntil, kTestStart + minutes(1));
    tb.advance(seconds(50));
    const auto renewed = tb->renewLock(LockRef::of(got->first()));
    HG_VERIFY_OK(renewed);
    QCOMPARE(*renewed, kTestStart + seconds(50) + minutes(1));
    const auto listed = tb->message(kQueue, got->first().sequenceNumber);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->lockedUntil, *renewed);

    // Past the first expiry the lock still holds.
    tb.advance(seconds(20));
    const auto other = tb->receive(kQueue, peekLock(QStringLiteral("other")));
    HG_VERIFY_OK(other);
    QVERIFY(other->isEmpty());
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, qint64(1));
    // Only the holder can renew.
    LockRef stranger = LockRef::of(got->first());
    stranger.receiver = QStringLiteral("other");
    HG_VERIFY_REFUSED(tb.broker(), tb->renewLock(stranger), ErrorCode::MessageLockLost);
    HG_VERIFY_OK(tb->complete(LockRef::of(got->first())));
}

void TestEngineLocks::locks_L11_sequenceNumbersIncreaseAndAreNeverReused() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    qint64 last = 0;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 3; ++i) {
            const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
            HG_VERIFY_OK(sent);
            QVERIFY2(sent->sequenceNumber > last,
                     qPrintable(QStringLiteral("%1 after %2").arg(sent->sequenceNumber).arg(last)));
            last = sent->sequenceNumber;
        }
        // Emptying the queue (and restarting) never brings old numbers back.
        const auto drained = tb->receive(kQueue, receiveAndDelete(10));
        HG_VERIFY_OK(drained);
        QCOMPARE(drained->size(), 3);
        if (round == 1)
            tb.reopen();
    }
}

void TestEngineLocks::locks_L11_scheduleReturnsCancellingNumber() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto cancelled =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("s1")), kTestStart + minutes(1));
    HG_VERIFY_OK(cancelled);
    QVERIFY(cancelled->scheduled);
    const auto kept =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("s2")), kTestStart + minutes(1));
    HG_VERIFY_OK(kept);
    QVERIFY(kept->sequenceNumber > cancelled->sequenceNumber);
    const auto plain = tb->send(kQueue, TestBroker::message(QStringLiteral("plain")));
    HG_VERIFY_OK(plain);
    QVERIFY(plain->sequenceNumber > kept->sequenceNumber);

    HG_VERIFY_OK(tb->cancelScheduled(kQueue, cancelled->sequenceNumber));
    HG_VERIFY_ERROR(tb->message(kQueue, cancelled->sequenceNumber), ErrorCode::MessageNotFound);
    auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->scheduled, qint64(1));

    tb.advance(minutes(1));
    const auto listed = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), (QStringList{QStringLiteral("plain"), QStringLiteral("s2")}));
    const qint64 activeSeq = listed->at(1).sequenceNumber;
    QVERIFY(activeSeq > plain->sequenceNumber);
    QCOMPARE(listed->at(1).state, MessageState::Active);
    // Active now: the scheduling number no longer names a scheduled message.
    HG_VERIFY_REFUSED(tb.broker(), tb->cancelScheduled(kQueue, kept->sequenceNumber),
                      ErrorCode::MessageNotFound);
    counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->scheduled, qint64(0));
    QCOMPARE(counts->active, qint64(2));
}

void TestEngineLocks::locks_L12_peekIsNonDestructive() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    for (const char* id : {"locked", "deferred", "active"})
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QLatin1String(id))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r1"), 2));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 2);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->at(1))));
    HG_VERIFY_OK(tb->schedule(kQueue, TestBroker::message(QStringLiteral("scheduled")),
                              kTestStart + hours(1)));
    const auto countsBefore = tb->counts(kQueue);
    HG_VERIFY_OK(countsBefore);

    const auto peeked = tb->peek(kQueue, 0, 10);
    HG_VERIFY_OK(peeked);
    QCOMPARE(messageIds(*peeked),
             (QStringList{QStringLiteral("locked"), QStringLiteral("deferred"),
                          QStringLiteral("active"), QStringLiteral("scheduled")}));
    for (int i = 1; i < peeked->size(); ++i)
        QVERIFY(peeked->at(i).sequenceNumber > peeked->at(i - 1).sequenceNumber);
    QCOMPARE(peeked->at(0).state, MessageState::Active);
    QCOMPARE(peeked->at(0).locked, true);
    QCOMPARE(peeked->at(0).lockHolder, QStringLiteral("r1"));
    QVERIFY(peeked->at(0).lockToken.isNull());
    QCOMPARE(peeked->at(1).state, MessageState::Deferred);
    QCOMPARE(peeked->at(2).state, MessageState::Active);
    QCOMPARE(peeked->at(2).locked, false);
    QCOMPARE(peeked->at(2).deliveryCount, quint32(0));
    QCOMPARE(peeked->at(3).state, MessageState::Scheduled);
    for (const MessageView& m : *peeked)
        QCOMPARE(m.body, QByteArrayLiteral("body"));

    // From a given sequence number, and at most maxCount.
    const auto fromActive = tb->peek(kQueue, peeked->at(2).sequenceNumber, 10);
    HG_VERIFY_OK(fromActive);
    QCOMPARE(messageIds(*fromActive),
             (QStringList{QStringLiteral("active"), QStringLiteral("scheduled")}));
    const auto justOne = tb->peek(kQueue, 0, 1);
    HG_VERIFY_OK(justOne);
    QCOMPARE(messageIds(*justOne), QStringList{QStringLiteral("locked")});

    const auto countsAfter = tb->counts(kQueue);
    HG_VERIFY_OK(countsAfter);
    QCOMPARE(describe(*countsAfter), describe(*countsBefore));
    // Peek took no lock: a receiver still gets the active message, and the holder keeps its own.
    const auto received = tb->receive(kQueue, peekLock(QStringLiteral("r2"), 10));
    HG_VERIFY_OK(received);
    QCOMPARE(messageIds(*received), QStringList{QStringLiteral("active")});
    QCOMPARE(received->first().deliveryCount, quint32(1));
    HG_VERIFY_OK(tb->complete(LockRef::of(got->at(0))));
}
