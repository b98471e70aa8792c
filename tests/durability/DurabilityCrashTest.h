#pragma once
// D1 and D2 under kill -9: what the crash tests share. The sends, settlements and locks tests are
// in DurabilityCrashTest.cpp, the delivery counts of a poison-message loop in
// DurabilityPoisonTest.cpp, session states in DurabilitySessionTest.cpp; the child they kill is
// DurabilityChild.cpp.

#include "ChildProtocol.h"
#include "CrashedChild.h"
#include "hourglass/Broker.h"

#include <QHash>
#include <QObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>

#include <memory>

namespace hourglass::durability {

inline constexpr int kRounds = 3;
// Queues hold more than the child can ever get through: at most the kill point plus what fits in
// the pipe (64 KiB) ahead of the test's reading, per round. So every kill lands mid-run.
inline constexpr int kSettleQueueSize = 12000;
inline constexpr int kLockQueueSize = 2000;
inline const QString kQueuePath = QString::fromLatin1(kQueue);
inline const QString kReceiverName = QString::fromLatin1(kReceiver);

inline EntityProperties queueProperties() {
    EntityProperties properties = EntityProperties::defaults(Tier::Standard);
    // The longest lock: a lock that survived the crash would still hold when the test looks.
    properties.lockDuration = minutes(5);
    // Rounds redeliver messages; dead-lettering for delivery count is not what is tested here.
    properties.maxDeliveryCount = 100;
    return properties;
}

// The rows of a test that receives under peek-lock: "<name>1" and "<name>10" (messages per
// receive), each for both durability levels.
inline void addReceiveRows(const char* name) {
    QTest::addColumn<int>("batch");
    QTest::addColumn<Durability>("durability");
    for (const auto durability : {Durability::PowerSafe, Durability::ProcessCrashSafe}) {
        const QByteArray suffix = durability == Durability::PowerSafe ? "/power" : "/process";
        for (const int batch : {1, 10})
            QTest::newRow(QByteArray(name) + QByteArray::number(batch) + suffix)
                << batch << durability;
    }
}

inline QString durabilityArgument(Durability durability) {
    return durability == Durability::PowerSafe ? QStringLiteral("power")
                                               : QStringLiteral("process");
}

// What the test knows about the queue across rounds.
struct Ledger {
    QHash<QString, qint64> sent;  // every acknowledged send (child's and test's) -> sequence number
    QSet<QString> settled;        // acknowledged completions and receive-and-deletes
    qint64 maxSequenceNumber = 0; // the highest number ever seen, acknowledged or stored
    int unacknowledgedAllowance = 0; // operations that may have been in flight at the kills
};

} // namespace hourglass::durability

class DurabilityCrashTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void durability_D1_killDuringSends_data();
    void durability_D1_killDuringSends();
    void durability_D1_killDuringSettlements_data();
    void durability_D1_killDuringSettlements();
    void durability_D2_locksLostAfterCrash_data();
    void durability_D2_locksLostAfterCrash();
    void durability_D2_deliveryCountsSurvivePoisonLoop_data();
    void durability_D2_deliveryCountsSurvivePoisonLoop();
    void durability_D1_sessionStatesSurviveKill_data();
    void durability_D1_sessionStatesSurviveKill();

private:
    std::unique_ptr<hourglass::Broker> open(const QString& databasePath,
                                            hourglass::Durability durability,
                                            hourglass::Instant clockStart);
    void createQueue(hourglass::Broker& broker, const hourglass::EntityProperties& properties =
                                                    hourglass::durability::queueProperties());
    void fillQueue(hourglass::Broker& broker, int count, hourglass::durability::Ledger& ledger);
    hourglass::durability::CrashedChild runChild(const QStringList& arguments, int killAfterLines);
    void checkMessage(const hourglass::MessageView& stored, const QString& messageId,
                      qint64 sequenceNumber);
    void checkSequenceContinues(hourglass::Broker& broker, const QString& messageId,
                                hourglass::durability::Ledger& ledger);
    void checkEntity(hourglass::Broker& broker, const hourglass::EntityProperties& properties =
                                                    hourglass::durability::queueProperties());
    int randomKillPoint(int low, int high) { return int(m_random.bounded(low, high + 1)); }

    QRandomGenerator m_random;
};
