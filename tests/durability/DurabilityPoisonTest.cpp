// D2 and L6 under kill -9: a receiver loops on poison messages (receive, give up, abandon) and is
// killed at a random point. "A delivery is durable before the message is handed out": after each
// restart every message's stored DeliveryCount is at least the number of times the child saw it
// handed out, and at most that plus the one receive that may have returned unseen; MaxDeliveryCount
// holds across the crashes, so no message is handed out more often than it allows, and each one
// that reached it ends in the dead-letter queue.

#include "DurabilityCrashTest.h"

#include "ResultText.h"
#include "StoreSnapshot.h"
#include "TestBroker.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::durability;

namespace {

constexpr int kPoisonMaxDeliveryCount = 5;
// Hand-outs the queue allows in all: far more than three rounds can reach (see kLockQueueSize).
constexpr int kPoisonQueueSize = 2000;
const QString kDeadLetterPath = kQueuePath + QStringLiteral("/$deadletterqueue");
const QString kMaxDeliveryReason = QStringLiteral("MaxDeliveryCountExceeded");
// Enough of a failure list to see the pattern without flooding the log.
constexpr int kShownProblems = 8;

EntityProperties poisonQueueProperties() {
    EntityProperties properties = queueProperties();
    properties.maxDeliveryCount = kPoisonMaxDeliveryCount;
    return properties;
}

QString firstProblems(const QStringList& problems) {
    QStringList shown = problems.mid(0, kShownProblems);
    if (problems.size() > kShownProblems)
        shown << QStringLiteral("... and %1 more").arg(problems.size() - kShownProblems);
    return shown.join(QStringLiteral("\n  "));
}

} // namespace

void DurabilityCrashTest::durability_D2_deliveryCountsSurvivePoisonLoop_data() {
    addReceiveRows("poison");
}

void DurabilityCrashTest::durability_D2_deliveryCountsSurvivePoisonLoop() {
    QFETCH(int, batch);
    QFETCH(Durability, durability);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("broker.db"));
    // One paused instant for child and test: no lock runs out, so only abandons and restarts
    // release messages, and every delivery is one the child printed or had in flight.
    const Instant start = testing::kTestStart;
    const EntityProperties properties = poisonQueueProperties();
    Ledger ledger;
    {
        auto broker = open(db, durability, start);
        QVERIFY(broker);
        createQueue(*broker, properties);
        fillQueue(*broker, kPoisonQueueSize, ledger);
        if (QTest::currentTestFailed())
            return;
    }

    QHash<QString, int> handedOut; // 'L' lines per message id, over every round
    for (int round = 0; round < kRounds; ++round) {
        // At least 50 lines: enough for the first messages to reach MaxDeliveryCount in the first
        // round, so that the L6 checks below are never vacuous.
        const int killAt = randomKillPoint(50, 400);
        const CrashedChild child =
            runChild({QString::fromLatin1(kModePoison), QStringLiteral("--db"), db,
                      QStringLiteral("--durability"), durabilityArgument(durability),
                      QStringLiteral("--clock-start"), QString::number(start),
                      QStringLiteral("--batch"), QString::number(batch)},
                     killAt);
        QVERIFY2(child.failure.isEmpty(), qPrintable(child.failure + "\n" + child.childStderr));
        QVERIFY2(child.killedBySignal,
                 qPrintable("the child was not killed mid-run: " + child.childStderr));
        for (const AckLine& ack : child.acks) {
            QCOMPARE(ack.kind, 'L');
            QCOMPARE(ack.sequenceNumber, ledger.sent.value(ack.messageId, -1));
            ++handedOut[ack.messageId];
        }
        // At the kill, one receive may have returned (its deliveries stored) before its lines
        // were written.
        ledger.unacknowledgedAllowance += batch;

        auto broker = open(db, durability, start);
        QVERIFY(broker);
        checkEntity(*broker, properties);
        const StoreSnapshot main = StoreSnapshot::read(*broker, kQueuePath);
        QVERIFY2(main.problem.isEmpty(), qPrintable(main.problem));
        const StoreSnapshot dead = StoreSnapshot::read(*broker, kDeadLetterPath);
        QVERIFY2(dead.problem.isEmpty(), qPrintable(dead.problem));
        QCOMPARE(main.byId.size() + dead.byId.size(), ledger.sent.size());
        const auto counts = broker->counts(kQueuePath);
        QVERIFY2(counts.ok(), errorText(counts).constData());
        QCOMPARE(counts->locked, qint64(0));
        QCOMPARE(counts->active, qint64(main.byId.size()));
        QCOMPARE(counts->deadLettered, qint64(dead.byId.size()));

        QStringList problems;
        qint64 unseen = 0; // deliveries stored beyond the 'L' lines
        for (const StoreSnapshot* queue : {&main, &dead}) {
            for (const MessageView& message : queue->byId) {
                const int seen = handedOut.value(message.messageId);
                const QString where = queue == &dead ? QStringLiteral(" (dead-lettered)") : "";
                if (message.deliveryCount < quint32(seen))
                    problems << QStringLiteral("%1%2 was handed out %3 times, stored "
                                               "DeliveryCount %4")
                                    .arg(message.messageId, where)
                                    .arg(seen)
                                    .arg(message.deliveryCount);
                else
                    unseen += message.deliveryCount - quint32(seen);
                if (seen > kPoisonMaxDeliveryCount)
                    problems << QStringLiteral("%1%2 was handed out %3 times, MaxDeliveryCount "
                                               "is %4")
                                    .arg(message.messageId, where)
                                    .arg(seen)
                                    .arg(kPoisonMaxDeliveryCount);
                if (queue == &dead && message.deadLetterReason != kMaxDeliveryReason)
                    problems << QStringLiteral("%1 was dead-lettered for '%2'")
                                    .arg(message.messageId, message.deadLetterReason);
                if (queue == &main && message.deliveryCount > quint32(kPoisonMaxDeliveryCount))
                    problems << QStringLiteral("%1 is still in the queue with DeliveryCount %2")
                                    .arg(message.messageId)
                                    .arg(message.deliveryCount);
            }
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("after kill -9 at line %1 of round %2 (batch %3):\n  %4")
                                .arg(killAt)
                                .arg(round)
                                .arg(batch)
                                .arg(firstProblems(problems))));
        QVERIFY2(unseen <= ledger.unacknowledgedAllowance,
                 qPrintable(QStringLiteral("%1 deliveries stored that the child never printed, "
                                           "at most %2 can have been in flight")
                                .arg(unseen)
                                .arg(ledger.unacknowledgedAllowance)));
        for (const MessageView& message : main.byId) {
            checkMessage(message, message.messageId, ledger.sent.value(message.messageId));
            if (QTest::currentTestFailed())
                return;
        }
    }

    // L6 across the crashes: one more delivery of everything hands out only messages that have
    // deliveries left, and moves the ones that reached the maximum to the dead-letter queue.
    auto broker = open(db, durability, start);
    QVERIFY(broker);
    QStringList problems;
    for (;;) {
        const auto page = broker->receive(
            kQueuePath, {ReceiveMode::PeekLock, 100, QStringLiteral("after-restart")});
        QVERIFY2(page.ok(), errorText(page).constData());
        if (page->isEmpty())
            break;
        for (const MessageView& message : *page) {
            if (handedOut.value(message.messageId) >= kPoisonMaxDeliveryCount ||
                message.deliveryCount > quint32(kPoisonMaxDeliveryCount))
                problems << QStringLiteral("%1, handed out %2 times before, was handed out again "
                                           "with DeliveryCount %3")
                                .arg(message.messageId)
                                .arg(handedOut.value(message.messageId))
                                .arg(message.deliveryCount);
        }
    }
    const StoreSnapshot dead = StoreSnapshot::read(*broker, kDeadLetterPath);
    QVERIFY2(dead.problem.isEmpty(), qPrintable(dead.problem));
    QVERIFY2(!dead.byId.isEmpty(), "no message reached MaxDeliveryCount: nothing was tested");
    for (auto it = handedOut.cbegin(); it != handedOut.cend(); ++it) {
        if (it.value() >= kPoisonMaxDeliveryCount && !dead.byId.contains(it.key()))
            problems << QStringLiteral("%1 was handed out %2 times and is not dead-lettered")
                            .arg(it.key())
                            .arg(it.value());
    }
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("MaxDeliveryCount %1 after %2 crashes:\n  %3")
                            .arg(kPoisonMaxDeliveryCount)
                            .arg(kRounds)
                            .arg(firstProblems(problems))));
}
