#pragma once
// Restart (service-bus-rules.md D2): after a restart, messages, entities, counters and sequence
// numbers are as they were; locks are gone (L9). Every test runs twice (KilledRestart.h): after a
// clean close of the engine, and after a kill -9 of a child process right after its last
// acknowledged operation (D1). What survives a restart in general is in tst_engine_restart.cpp; the
// counters a crash could forget (delivery counts, last activity) in
// tst_engine_restart_counters.cpp.

#include <QObject>
#include <QString>

namespace hourglass::testing {
inline const QString kRestartQueue = QStringLiteral("q");
} // namespace hourglass::testing

class TestEngineRestart : public QObject {
    Q_OBJECT

private slots:
    void restart_D2_everythingObservableSurvives_data();
    void restart_D2_everythingObservableSurvives();
    void restart_D2_sequenceNumbersContinueAfterEmptyQueue_data();
    void restart_D2_sequenceNumbersContinueAfterEmptyQueue();
    void restart_D2_locksGoneMessagesReceivableAgain_data();
    void restart_D2_locksGoneMessagesReceivableAgain();
    void restart_D2_scheduledAndDeferredKeepWorking_data();
    void restart_D2_scheduledAndDeferredKeepWorking();
    void restart_D2_idleTimerIsNotReset_data();
    void restart_D2_idleTimerIsNotReset();
    void restart_D2_duplicateHistorySurvives_data();
    void restart_D2_duplicateHistorySurvives();
    void restart_D2_ruleFilterValuesKeepTheirTypes_data();
    void restart_D2_ruleFilterValuesKeepTheirTypes();
    void restart_D2_R4_sqlRulesAndActionsSurvive_data();
    void restart_D2_R4_sqlRulesAndActionsSurvive();

    void restart_D2_deliveryCountSurvivesCrash_data();
    void restart_D2_deliveryCountSurvivesCrash();
    void restart_D2_poisonMessageReachesMaxDeliveryCount_data();
    void restart_D2_poisonMessageReachesMaxDeliveryCount();
    void restart_D2_activitySurvivesCrash_data();
    void restart_D2_activitySurvivesCrash();
};
