// D1 and D2: a child process works on a queue and is killed with SIGKILL while it is still
// writing; the test reopens the database and checks that every operation the child saw
// acknowledged is there, that nothing else went wrong, and that locks did not survive.
//
// Each row runs several rounds on the same database (crash, check, crash again), and each round
// kills the child after a random number of acknowledgement lines. The seed is printed; set
// HOURGLASS_DURABILITY_SEED to replay a run.

#include "DurabilityCrashTest.h"

#include "ResultText.h"
#include "StoreSnapshot.h"
#include "TestBroker.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::durability;

void DurabilityCrashTest::initTestCase() {
    quint32 seed = QRandomGenerator::global()->generate();
    const QByteArray fixed = qgetenv("HOURGLASS_DURABILITY_SEED");
    if (!fixed.isEmpty())
        seed = fixed.toUInt();
    qInfo("kill points drawn with HOURGLASS_DURABILITY_SEED=%u", seed);
    m_random.seed(seed);
}

std::unique_ptr<Broker> DurabilityCrashTest::open(const QString& databasePath,
                                                  Durability durability, Instant clockStart) {
    BrokerOptions options;
    options.databasePath = databasePath;
    options.durability = durability;
    options.clock = std::make_shared<VirtualClock>(clockStart);
    auto opened = Broker::open(options);
    if (!opened) {
        QTest::qFail(qPrintable(QStringLiteral("Broker::open: %1").arg(opened.error().toString())),
                     __FILE__, __LINE__);
        return nullptr;
    }
    return std::move(opened).value();
}

void DurabilityCrashTest::createQueue(Broker& broker, const EntityProperties& properties) {
    const auto space = broker.createNamespace({QStringLiteral("durability"), Tier::Standard});
    QVERIFY2(space.ok(), errorText(space).constData());
    const auto queue = broker.createQueue(kQueuePath, properties);
    QVERIFY2(queue.ok(), errorText(queue).constData());
}

void DurabilityCrashTest::fillQueue(Broker& broker, int count, Ledger& ledger) {
    for (int first = 0; first < count; first += 200) {
        QList<OutgoingMessage> batch;
        for (int i = first; i < std::min(count, first + 200); ++i) {
            OutgoingMessage message;
            message.messageId = QStringLiteral("setup-%1").arg(i, 6, 10, QLatin1Char('0'));
            message.body = bodyFor(message.messageId);
            message.applicationProperties.insert(QStringLiteral("n"), i);
            batch.append(message);
        }
        const auto sent = broker.sendBatch(kQueuePath, batch);
        QVERIFY2(sent.ok(), errorText(sent).constData());
        QCOMPARE(sent->size(), batch.size());
        for (qsizetype i = 0; i < batch.size(); ++i) {
            ledger.sent.insert(batch[i].messageId, sent->at(i).sequenceNumber);
            ledger.maxSequenceNumber =
                std::max(ledger.maxSequenceNumber, sent->at(i).sequenceNumber);
        }
    }
}

CrashedChild DurabilityCrashTest::runChild(const QStringList& arguments, int killAfterLines) {
    return CrashedChild::run(QStringLiteral(DURABILITY_CHILD), arguments, killAfterLines);
}

// A stored message must be whole: the id, sequence number, body and property it was sent with.
void DurabilityCrashTest::checkMessage(const MessageView& stored, const QString& messageId,
                                       qint64 sequenceNumber) {
    QCOMPARE(stored.messageId, messageId);
    QCOMPARE(stored.sequenceNumber, sequenceNumber);
    QVERIFY2(stored.hasBody, qPrintable(messageId));
    QVERIFY2(stored.body == bodyFor(messageId), qPrintable(messageId + " has a torn body"));
    QVERIFY2(stored.applicationProperties.contains(QStringLiteral("n")), qPrintable(messageId));
    QCOMPARE(stored.subQueue, SubQueue::Main);
}

// L11 + D2: the first send after the restart gets a number above every number handed out before
// the crash, including numbers of messages that were settled since.
void DurabilityCrashTest::checkSequenceContinues(Broker& broker, const QString& messageId,
                                                 Ledger& ledger) {
    OutgoingMessage message;
    message.messageId = messageId;
    message.body = bodyFor(messageId);
    message.applicationProperties.insert(QStringLiteral("n"), -1);
    const auto sent = broker.send(kQueuePath, message);
    QVERIFY2(sent.ok(), errorText(sent).constData());
    QVERIFY2(sent->sequenceNumber > ledger.maxSequenceNumber,
             qPrintable(QStringLiteral("sequence number %1 after a restart, but %2 was used before")
                            .arg(sent->sequenceNumber)
                            .arg(ledger.maxSequenceNumber)));
    ledger.sent.insert(messageId, sent->sequenceNumber);
    ledger.maxSequenceNumber = sent->sequenceNumber;
}

// D2: the entity is as it was created.
void DurabilityCrashTest::checkEntity(Broker& broker, const EntityProperties& properties) {
    const auto info = broker.entity(kQueuePath);
    QVERIFY2(info.ok(), errorText(info).constData());
    QCOMPARE(info->kind, EntityKind::Queue);
    QVERIFY(info->properties == properties);
}

// ---- D1: kill -9 while sending

void DurabilityCrashTest::durability_D1_killDuringSends_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("threads");
    QTest::addColumn<Durability>("durability");
    for (const auto durability : {Durability::PowerSafe, Durability::ProcessCrashSafe}) {
        const QByteArray suffix = durability == Durability::PowerSafe ? "/power" : "/process";
        QTest::newRow("send" + suffix) << QString::fromLatin1(kModeSend) << 1 << 1 << durability;
        QTest::newRow("sendBatch50" + suffix)
            << QString::fromLatin1(kModeSendBatch) << 50 << 1 << durability;
        QTest::newRow("send4Threads" + suffix)
            << QString::fromLatin1(kModeSendThreads) << 1 << 4 << durability;
    }
}

void DurabilityCrashTest::durability_D1_killDuringSends() {
    QFETCH(QString, mode);
    QFETCH(int, batch);
    QFETCH(int, threads);
    QFETCH(Durability, durability);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("broker.db"));
    // The child sends on the system clock; the test looks at the database on a paused virtual
    // clock set at the real time of each look, so it is never behind the child's timestamps.
    {
        auto broker = open(db, durability, VirtualClock::realNow());
        QVERIFY(broker);
        createQueue(*broker);
        if (QTest::currentTestFailed())
            return;
    }

    Ledger ledger;
    for (int round = 0; round < kRounds; ++round) {
        const int killAt = randomKillPoint(1, 400);
        const QString prefix = QStringLiteral("r%1").arg(round);
        const CrashedChild child =
            runChild({mode, QStringLiteral("--db"), db, QStringLiteral("--durability"),
                      durabilityArgument(durability), QStringLiteral("--prefix"), prefix,
                      QStringLiteral("--batch"), QString::number(batch),
                      QStringLiteral("--threads"), QString::number(threads)},
                     killAt);
        QVERIFY2(child.failure.isEmpty(), qPrintable(child.failure + "\n" + child.childStderr));
        QVERIFY2(child.killedBySignal,
                 qPrintable("the child was not killed mid-run: " + child.childStderr));
        QVERIFY(child.acks.size() >= killAt);
        for (const AckLine& ack : child.acks) {
            QCOMPARE(ack.kind, 'S');
            QVERIFY2(!ledger.sent.contains(ack.messageId), qPrintable(ack.messageId));
            ledger.sent.insert(ack.messageId, ack.sequenceNumber);
            ledger.maxSequenceNumber = std::max(ledger.maxSequenceNumber, ack.sequenceNumber);
        }
        // At the kill, each sender may have had one call under way that was never acknowledged.
        ledger.unacknowledgedAllowance += batch * threads;

        auto broker = open(db, durability, VirtualClock::realNow());
        QVERIFY(broker);
        const StoreSnapshot stored = StoreSnapshot::read(*broker, kQueuePath);
        QVERIFY2(stored.problem.isEmpty(), qPrintable(stored.problem));

        // Every acknowledged send is there, whole and with its number.
        for (auto it = ledger.sent.cbegin(); it != ledger.sent.cend(); ++it) {
            QVERIFY2(stored.byId.contains(it.key()),
                     qPrintable(QStringLiteral("acknowledged send %1 (sequence %2) lost after "
                                               "kill -9 at line %3 of round %4")
                                    .arg(it.key())
                                    .arg(it.value())
                                    .arg(killAt)
                                    .arg(round)));
            checkMessage(stored.byId.value(it.key()), it.key(), it.value());
            if (QTest::currentTestFailed())
                return;
        }
        // Sends that were under way may or may not have made it, but only whole, and only as many
        // as could have been under way.
        for (const MessageView& message : stored.byId) {
            if (!ledger.sent.contains(message.messageId)) {
                QVERIFY2(message.messageId.startsWith(QLatin1Char('r')),
                         qPrintable(message.messageId));
                QVERIFY2(message.hasBody && message.body == bodyFor(message.messageId),
                         qPrintable(message.messageId + " is torn"));
            }
        }
        const qsizetype unacknowledged = stored.byId.size() - ledger.sent.size();
        QVERIFY2(unacknowledged <= ledger.unacknowledgedAllowance,
                 qPrintable(QStringLiteral("%1 unacknowledged messages stored, at most %2 were "
                                           "under way")
                                .arg(unacknowledged)
                                .arg(ledger.unacknowledgedAllowance)));
        ledger.maxSequenceNumber = std::max(ledger.maxSequenceNumber, stored.maxSequenceNumber);

        // D2: counts agree with the messages.
        const auto counts = broker->counts(kQueuePath);
        QVERIFY2(counts.ok(), errorText(counts).constData());
        QCOMPARE(counts->active, qint64(stored.byId.size()));
        QCOMPARE(counts->locked, qint64(0));
        QCOMPARE(counts->deadLettered, qint64(0));
        QCOMPARE(counts->scheduled, qint64(0));
        QCOMPARE(counts->deferred, qint64(0));
        checkEntity(*broker);
        checkSequenceContinues(*broker, QStringLiteral("test-%1").arg(round), ledger);
        if (QTest::currentTestFailed())
            return;
    }
}

// ---- D1: kill -9 while completing or receiving-and-deleting

void DurabilityCrashTest::durability_D1_killDuringSettlements_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("batch");
    QTest::addColumn<Durability>("durability");
    for (const auto durability : {Durability::PowerSafe, Durability::ProcessCrashSafe}) {
        const QByteArray suffix = durability == Durability::PowerSafe ? "/power" : "/process";
        for (const int batch : {1, 20}) {
            const QByteArray size = QByteArray::number(batch);
            QTest::newRow("complete" + size + suffix)
                << QString::fromLatin1(kModeComplete) << batch << durability;
            QTest::newRow("receiveAndDelete" + size + suffix)
                << QString::fromLatin1(kModeReceiveDelete) << batch << durability;
        }
    }
}

void DurabilityCrashTest::durability_D1_killDuringSettlements() {
    QFETCH(QString, mode);
    QFETCH(int, batch);
    QFETCH(Durability, durability);
    const char kind = mode == QLatin1String(kModeComplete) ? 'C' : 'D';

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("broker.db"));
    // Child and test share one paused virtual instant: no lock can run out between them.
    const Instant start = testing::kTestStart;
    Ledger ledger;
    {
        auto broker = open(db, durability, start);
        QVERIFY(broker);
        createQueue(*broker);
        fillQueue(*broker, kSettleQueueSize, ledger);
        if (QTest::currentTestFailed())
            return;
    }

    for (int round = 0; round < kRounds; ++round) {
        const int killAt = randomKillPoint(1, 400);
        const CrashedChild child =
            runChild({mode, QStringLiteral("--db"), db, QStringLiteral("--durability"),
                      durabilityArgument(durability), QStringLiteral("--clock-start"),
                      QString::number(start), QStringLiteral("--batch"), QString::number(batch)},
                     killAt);
        QVERIFY2(child.failure.isEmpty(), qPrintable(child.failure + "\n" + child.childStderr));
        QVERIFY2(child.killedBySignal,
                 qPrintable("the child was not killed mid-run: " + child.childStderr));
        for (const AckLine& ack : child.acks) {
            QCOMPARE(ack.kind, kind);
            QVERIFY2(ledger.sent.contains(ack.messageId), qPrintable(ack.messageId));
            QCOMPARE(ack.sequenceNumber, ledger.sent.value(ack.messageId));
            QVERIFY2(!ledger.settled.contains(ack.messageId),
                     qPrintable(ack.messageId + " was settled twice"));
            ledger.settled.insert(ack.messageId);
        }
        // A completion settles one message per call; a receive-and-delete hands out `batch`.
        ledger.unacknowledgedAllowance += kind == 'C' ? 1 : batch;

        auto broker = open(db, durability, start);
        QVERIFY(broker);
        const StoreSnapshot stored = StoreSnapshot::read(*broker, kQueuePath);
        QVERIFY2(stored.problem.isEmpty(), qPrintable(stored.problem));

        for (const MessageView& message : stored.byId) {
            QVERIFY2(ledger.sent.contains(message.messageId),
                     qPrintable(message.messageId + " was never sent"));
            QVERIFY2(!ledger.settled.contains(message.messageId),
                     qPrintable(QStringLiteral("%1 came back after its settlement was "
                                               "acknowledged (kill at line %2 of round %3)")
                                    .arg(message.messageId)
                                    .arg(killAt)
                                    .arg(round)));
            checkMessage(message, message.messageId, ledger.sent.value(message.messageId));
            if (QTest::currentTestFailed())
                return;
        }
        // Messages neither stored nor acknowledged as settled: settlements under way at a kill.
        const qsizetype vanished = ledger.sent.size() - ledger.settled.size() - stored.byId.size();
        QVERIFY2(vanished >= 0 && vanished <= ledger.unacknowledgedAllowance,
                 qPrintable(QStringLiteral("%1 messages gone without an acknowledged "
                                           "settlement, at most %2 were under way")
                                .arg(vanished)
                                .arg(ledger.unacknowledgedAllowance)));

        const auto counts = broker->counts(kQueuePath);
        QVERIFY2(counts.ok(), errorText(counts).constData());
        QCOMPARE(counts->active, qint64(stored.byId.size()));
        QCOMPARE(counts->locked, qint64(0));
        QCOMPARE(counts->deadLettered, qint64(0));
        checkEntity(*broker);
        checkSequenceContinues(*broker, QStringLiteral("test-%1").arg(round), ledger);
        if (QTest::currentTestFailed())
            return;
    }
}

// ---- D2: locks held at the crash are gone

void DurabilityCrashTest::durability_D2_locksLostAfterCrash_data() {
    addReceiveRows("receive");
}

void DurabilityCrashTest::durability_D2_locksLostAfterCrash() {
    QFETCH(int, batch);
    QFETCH(Durability, durability);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("broker.db"));
    // Paused at one instant for child and test: a lock that survived the restart would still be
    // valid for its full five minutes, so only losing it on restart makes the message receivable.
    const Instant start = testing::kTestStart;
    Ledger ledger;
    {
        auto broker = open(db, durability, start);
        QVERIFY(broker);
        createQueue(*broker);
        fillQueue(*broker, kLockQueueSize, ledger);
        if (QTest::currentTestFailed())
            return;
    }

    for (int round = 0; round < kRounds; ++round) {
        const int killAt = randomKillPoint(1, 200);
        const CrashedChild child =
            runChild({QString::fromLatin1(kModeLock), QStringLiteral("--db"), db,
                      QStringLiteral("--durability"), durabilityArgument(durability),
                      QStringLiteral("--clock-start"), QString::number(start),
                      QStringLiteral("--batch"), QString::number(batch)},
                     killAt);
        QVERIFY2(child.failure.isEmpty(), qPrintable(child.failure + "\n" + child.childStderr));
        QVERIFY2(child.killedBySignal,
                 qPrintable("the child was not killed mid-run: " + child.childStderr));
        QSet<QString> lockedAtCrash;
        for (const AckLine& ack : child.acks) {
            QCOMPARE(ack.kind, 'L');
            QCOMPARE(ack.sequenceNumber, ledger.sent.value(ack.messageId, -1));
            QVERIFY2(!lockedAtCrash.contains(ack.messageId),
                     qPrintable(ack.messageId + " was locked twice at once"));
            lockedAtCrash.insert(ack.messageId);
        }

        auto broker = open(db, durability, start);
        QVERIFY(broker);
        const auto counts = broker->counts(kQueuePath);
        QVERIFY2(counts.ok(), errorText(counts).constData());
        QCOMPARE(counts->locked, qint64(0));
        QCOMPARE(counts->active, qint64(ledger.sent.size()));
        checkEntity(*broker);
        if (QTest::currentTestFailed())
            return;

        const StoreSnapshot stored = StoreSnapshot::read(*broker, kQueuePath);
        QVERIFY2(stored.problem.isEmpty(), qPrintable(stored.problem));
        QCOMPARE(stored.byId.size(), ledger.sent.size());
        for (const MessageView& message : stored.byId) {
            QVERIFY2(!message.locked, qPrintable(message.messageId + " is still locked"));
            checkMessage(message, message.messageId, ledger.sent.value(message.messageId, -1));
            if (QTest::currentTestFailed())
                return;
        }

        // L9: the child's lock tokens died with the restart.
        for (const AckLine& ack : child.acks) {
            const auto completed = broker->complete({kQueuePath, ack.lockToken, kReceiverName});
            QVERIFY2(
                !completed.ok(),
                qPrintable(ack.messageId + " was completed with a lock from before the crash"));
            QCOMPARE(completed.error().code, ErrorCode::MessageLockLost);
        }

        // Every message, the ones locked at the crash included, is receivable again at once.
        QSet<QString> received;
        for (;;) {
            const auto page = broker->receive(
                kQueuePath, {ReceiveMode::PeekLock, 100, QStringLiteral("after-restart")});
            QVERIFY2(page.ok(), errorText(page).constData());
            if (page->isEmpty())
                break;
            for (const MessageView& message : *page) {
                QVERIFY2(!received.contains(message.messageId),
                         qPrintable(message.messageId + " handed out twice under lock"));
                received.insert(message.messageId);
            }
        }
        for (const QString& id : lockedAtCrash)
            QVERIFY2(received.contains(id),
                     qPrintable(id + " was locked at the crash and is not receivable after it"));
        QCOMPARE(received.size(), ledger.sent.size());

        ledger.maxSequenceNumber = std::max(ledger.maxSequenceNumber, stored.maxSequenceNumber);
        checkSequenceContinues(*broker, QStringLiteral("test-%1").arg(round), ledger);
        if (QTest::currentTestFailed())
            return;
        // Closing the broker drops the test's own locks too, so the next round starts unlocked.
    }
}

QTEST_GUILESS_MAIN(DurabilityCrashTest)
