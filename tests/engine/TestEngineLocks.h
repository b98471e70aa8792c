#pragma once
// Transfers, locks and settlement (service-bus-rules.md L1-L12): sending and delivery (L1-L6) in
// tst_engine_locks.cpp, settlement, deferral, lock loss, sequence numbers and peek (L7-L12) in
// tst_engine_locks_settlement.cpp. Duplicate detection (L13) is with the topics tests. Tests that
// restart the engine run twice (KilledRestart.h): after a clean close and after a kill -9 of a
// child process right after its last acknowledged operation (D1).

#include "hourglass/Broker.h"

#include <QObject>

namespace hourglass::testing {

inline const QString kLockQueue = QStringLiteral("q");
inline const QString kLockDeadLetters = QStringLiteral("q/$deadletterqueue");

inline EntityProperties lockProperties(Millis lockDuration, int maxDeliveryCount = 10) {
    EntityProperties p;
    p.lockDuration = lockDuration;
    p.maxDeliveryCount = maxDeliveryCount;
    return p;
}

} // namespace hourglass::testing

class TestEngineLocks : public QObject {
    Q_OBJECT

private slots:
    void locks_L1_sendReturnsOnlyWhenStored_data();
    void locks_L1_sendReturnsOnlyWhenStored();
    void locks_L1_acknowledgedSendsAreWholeAfterRestart_data();
    void locks_L1_acknowledgedSendsAreWholeAfterRestart();
    void locks_L1_sendErrorsCarryCodeDescriptionTrackingIdAndRetry_data();
    void locks_L1_sendErrorsCarryCodeDescriptionTrackingIdAndRetry();
    void locks_L1_quotaExceededIsRetryable();
    void locks_L1_batchIsAllOrNothing();
    void locks_L2_batchSettlesEachMessage();
    void locks_L2_concurrentSendersEachSettle();
    void locks_L2_pipelinedSendsSettleEachOnTheirOwn();
    void locks_L3_receiveAndDeleteConsumesAtOnce_data();
    void locks_L3_receiveAndDeleteConsumesAtOnce();
    void locks_L4_peekLockHandsOutExclusiveLocks();
    void locks_L4_deliveryCountCountsLockedDeliveries();
    void locks_L5_completeRemoves();
    void locks_L5_abandonReturnsAtOnceToFront();
    void locks_L5_lockRunningOutReleases();
    void locks_L5_modifiedPropertiesCountInTheQuota_data();
    void locks_L5_modifiedPropertiesCountInTheQuota();
    void locks_L6_maxDeliveryCountDeadLetters_data();
    void locks_L6_maxDeliveryCountDeadLetters();
    void locks_L7_deadLetterKeepsReceiverReason();
    void locks_L7_deadLetterQueueCannotDeadLetterAgain();
    void locks_L8_deferredOnlyBySequenceNumber();
    void locks_L8_abandonedDeferredMessageStaysDeferred();
    void locks_L9_settlementFailsWhenLockLost_data();
    void locks_L9_settlementFailsWhenLockLost();
    void locks_L10_renewExtendsFromNow();
    void locks_L11_sequenceNumbersIncreaseAndAreNeverReused();
    void locks_L11_scheduleReturnsCancellingNumber();
    void locks_L12_peekIsNonDestructive();
};
