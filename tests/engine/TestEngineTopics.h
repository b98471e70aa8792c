#pragma once
// Topics (service-bus-rules.md R1, R2: true, false and correlation filters) in
// tst_engine_topics.cpp; SQL filters and rule actions (R3-R5) in tst_engine_topics_sql.cpp;
// auto-forwarding (ForwardTo, ForwardDeadLetteredMessagesTo with DeadLetterSource, E3), duplicate
// detection (L13) and what a topic's status and kind refuse (E5, L12) in
// tst_engine_topics_delivery.cpp.

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QObject>

namespace hourglass::testing {
inline const QString kTopic = QStringLiteral("t");

inline QString sub(const QString& name) {
    return kTopic + QStringLiteral("/Subscriptions/") + name;
}

inline Rule falseRule(const QString& name = QStringLiteral("none")) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::False;
    return rule;
}

inline Rule correlationRule(const QString& name, const CorrelationFilter& filter) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Correlation;
    rule.correlation = filter;
    return rule;
}

inline qint64 activeCount(TestBroker& tb, const QString& path) {
    const auto counts = tb->counts(path);
    return counts ? counts->active : -1;
}

inline QList<qint64> sequenceNumbers(const QList<MessageView>& messages) {
    QList<qint64> out;
    for (const MessageView& m : messages)
        out << m.sequenceNumber;
    return out;
}

// Sets the field named `field` of a message or a correlation filter to `value`.
template <typename T> void setField(T& target, const QString& field, const QString& value) {
    if (field == QLatin1String("CorrelationId"))
        target.correlationId = value;
    else if (field == QLatin1String("MessageId"))
        target.messageId = value;
    else if (field == QLatin1String("To"))
        target.to = value;
    else if (field == QLatin1String("ReplyTo"))
        target.replyTo = value;
    else if (field == QLatin1String("Subject"))
        target.subject = value;
    else if (field == QLatin1String("SessionId"))
        target.sessionId = value;
    else if (field == QLatin1String("ReplyToSessionId"))
        target.replyToSessionId = value;
    else if (field == QLatin1String("ContentType"))
        target.contentType = value;
}
} // namespace hourglass::testing

class TestEngineTopics : public QObject {
    Q_OBJECT

private slots:
    void topics_R1_copiedToEveryMatchingSubscription();
    void topics_R1_noMatchingSubscriptionGetsNothing();
    void topics_R1_severalMatchingRulesGiveOneCopy();
    void topics_R1_topicSequenceNumberKeptInEverySubscription();
    void topics_R1_scheduledTopicMessageFansOutWhenActive();
    void topics_R2_correlationFilterField_data();
    void topics_R2_correlationFilterField();
    void topics_R2_correlationFilterProperties_data();
    void topics_R2_correlationFilterProperties();
    void topics_R2_correlationFilterIsAnd();
    void topics_R2_filtersNeverReadTheBody();
    void topics_R2_rulesChangeWhatLaterMessagesMatch();
    void topics_R3_trueFilterAsSqlOneEqualsOne();
    void topics_R3_sqlFilterSelects();
    void topics_R3_storeRoutingExample();
    void topics_R4_copyPerActionRule();
    void topics_R4_rulesSurviveReopen();
    void topics_R5_filterExceptionDeadLetters_data();
    void topics_R5_filterExceptionDeadLetters();
    void topics_R5_badExpressionRefusedAtCreation();
    void topics_R5_limits();
    void topics_E3_forwardToQueue_data();
    void topics_E3_forwardToQueue();
    void topics_E3_forwardToTopicFansOut();
    void topics_E3_R5_forwardDeadLetteredMessages_data();
    void topics_E3_R5_forwardDeadLetteredMessages();
    void topics_L13_duplicateWithinWindowDropped_data();
    void topics_L13_duplicateWithinWindowDropped();
    void topics_L13_duplicateInsideOneBatch();
    void topics_L13_withoutDetectionDuplicatesAreKept();
    void topics_L13_forwardedMessagesAreDetectedAtTheirDestination_data();
    void topics_L13_forwardedMessagesAreDetectedAtTheirDestination();
    void topics_E5_disabledTopicsSubscriptionsHandOutNothing();
    void topics_L12_topicCannotBePeeked();
};
