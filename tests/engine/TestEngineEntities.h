#pragma once
// Entities (service-bus-rules.md E1-E5): namespaces, paths, names, properties and their defaults,
// the $Default rule (tst_engine_entities.cpp), and updates and what is fixed at creation
// (tst_engine_entities_updates.cpp). Refused names and bounds are in tst_engine_badinput.

#include <QObject>

class TestEngineEntities : public QObject {
    Q_OBJECT

private slots:
    void entities_E1_queueTopicSubscriptionPaths();
    void entities_E1_entitiesListsQueuesAndTopicsBeforeSubscriptions();
    void entities_E1_deadLetterSubQueuePath();
    void entities_E1_namespacesHoldSeparateEntities();
    void entities_E1_deleteTopicDeletesItsSubscriptions();
    void entities_E1_deleteQueueDeletesItsMessages();
    void entities_E1_deadLetterQueueCountsItsOwnMessages();
    void entities_E2_validQueueAndTopicNames_data();
    void entities_E2_validQueueAndTopicNames();
    void entities_E2_subscriptionAndRuleNamesUpTo50();
    void entities_E3_queueDefaults();
    void entities_E3_basicTierDefaultTtlIs14Days();
    void entities_E3_basicTierCapsMessageTtl();
    void entities_E3_propertiesAreStoredAsGiven_data();
    void entities_E3_propertiesAreStoredAsGiven();
    void entities_E3_everyBrokenBoundListed();
    void entities_E4_newSubscriptionHasDefaultTrueRule();
    void entities_E4_explicitRulesReplaceDefault();
    void entities_E5_updateReplacesPropertiesAndCountsAsActivity_data();
    void entities_E5_updateReplacesPropertiesAndCountsAsActivity();
    void entities_E5_updateLosesLocks_data();
    void entities_E5_updateLosesLocks();
    void entities_E5_fixedAtCreation_data();
    void entities_E5_fixedAtCreation();
    void entities_E5_subscriptionHasNoDuplicateDetection();
    void entities_E5_basicNamespaceHasNoTopics();
};
