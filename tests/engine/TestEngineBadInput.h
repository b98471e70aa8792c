#pragma once
// Bad input for every public Broker operation. Each refused call must return the documented
// error code with a description, a tracking id and the right retryable flag (L1), and must change
// nothing: a whole-broker snapshot before and after is compared (HG_VERIFY_REFUSED). Names,
// paths and properties are in tst_engine_badinput.cpp; messages, locks and rules in
// tst_engine_badinput_messages.cpp.

#include <QObject>

class TestEngineBadInput : public QObject {
    Q_OBJECT

private slots:
    void badinput_E2_badQueueAndTopicNames_data();
    void badinput_E2_badQueueAndTopicNames();
    void badinput_E2_badSubscriptionNames_data();
    void badinput_E2_badSubscriptionNames();
    void badinput_E2_badRuleNames_data();
    void badinput_E2_badRuleNames();
    void badinput_E2_malformedPathInEveryOperation_data();
    void badinput_E2_malformedPathInEveryOperation();
    void badinput_E2_duplicateNames_data();
    void badinput_E2_duplicateNames();
    void badinput_E1_namespaces();
    void badinput_E1_unknownEntityInEveryOperation_data();
    void badinput_E1_unknownEntityInEveryOperation();
    void badinput_E1_wrongKindOfPath_data();
    void badinput_E1_wrongKindOfPath();
    void badinput_E3_bounds_data();
    void badinput_E3_bounds();
    void badinput_E3_basicTierTtlCap();
    void badinput_E3_forwarding_data();
    void badinput_E3_forwarding();
    void badinput_L1_oversizeMessages_data();
    void badinput_L1_oversizeMessages();
    void badinput_L1_disabledEntities_data();
    void badinput_L1_disabledEntities();
    void badinput_L1_quotaExceededOnTopic();
    void badinput_L1_badMessageFields_data();
    void badinput_L1_badMessageFields();
    void badinput_L3_badCounts_data();
    void badinput_L3_badCounts();
    void badinput_L8_receiveDeferredUnknownSequenceNumber_data();
    void badinput_L8_receiveDeferredUnknownSequenceNumber();
    void badinput_L9_badLocks_data();
    void badinput_L9_badLocks();
    void badinput_L11_cancelScheduledUnknownSequenceNumber_data();
    void badinput_L11_cancelScheduledUnknownSequenceNumber();
    void badinput_L12_messageUnknownSequenceNumber();
    void badinput_R2_badRules_data();
    void badinput_R2_badRules();
    void badinput_advanceClockBackwards();
    void badinput_snapshotSeesEveryChange();
};
