#include "hourglass/RoutingPreview.h"

#include "RuleCopies.h"
#include "hourglass/PropertyTypes.h"
#include "sql/SqlEvaluator.h"

#include <QUuid>

namespace hourglass {

namespace {

// The system members a correlation filter compares and an action may change, by their Service
// Bus names.
struct SystemMember {
    const char* name;
    QString CorrelationFilter::*filter;
    QString OutgoingMessage::*message;
};
constexpr SystemMember kSystemMembers[] = {
    {"CorrelationId", &CorrelationFilter::correlationId, &OutgoingMessage::correlationId},
    {"MessageId", &CorrelationFilter::messageId, &OutgoingMessage::messageId},
    {"To", &CorrelationFilter::to, &OutgoingMessage::to},
    {"ReplyTo", &CorrelationFilter::replyTo, &OutgoingMessage::replyTo},
    {"Subject", &CorrelationFilter::subject, &OutgoingMessage::subject},
    {"SessionId", &CorrelationFilter::sessionId, &OutgoingMessage::sessionId},
    {"ReplyToSessionId", &CorrelationFilter::replyToSessionId, &OutgoingMessage::replyToSessionId},
    {"ContentType", &CorrelationFilter::contentType, &OutgoingMessage::contentType},
};

QString quotedOrUnset(const QString& text) {
    return text.isEmpty() ? QStringLiteral("not set") : QStringLiteral("'%1'").arg(text);
}

// The first member of a correlation filter that the message does not have: the reason it did
// not match. Each member is tried on its own with the filter's own comparison (type-strict for
// application properties), so this reads exactly what matches() decided.
QString correlationMismatch(const CorrelationFilter& filter, const OutgoingMessage& message) {
    for (const SystemMember& member : kSystemMembers) {
        const QString& wanted = filter.*member.filter;
        if (wanted.isEmpty())
            continue;
        CorrelationFilter alone;
        alone.*member.filter = wanted;
        if (!alone.matches(message))
            return QStringLiteral("%1 is %2, the filter wants '%3'")
                .arg(QLatin1String(member.name), quotedOrUnset(message.*member.message), wanted);
    }
    for (auto it = filter.properties.begin(); it != filter.properties.end(); ++it) {
        CorrelationFilter alone;
        alone.properties.insert(it.key(), it.value());
        if (alone.matches(message))
            continue;
        const QVariant* found = findApplicationProperty(message.applicationProperties, it.key());
        if (!found)
            return QStringLiteral("%1 is missing, the filter wants %2")
                .arg(it.key(), previewValueText(it.value()));
        return QStringLiteral("%1 is %2, the filter wants %3")
            .arg(it.key(), previewValueText(*found), previewValueText(it.value()));
    }
    return {};
}

// "color is 'blue', quantity is 3 (Int64), sys.To is missing": what an SQL filter saw.
QString sqlValuesSeen(const QList<SqlPropertyValue>& values) {
    QStringList parts;
    for (const SqlPropertyValue& value : values)
        parts << (value.value.isValid()
                      ? QStringLiteral("%1 is %2").arg(value.name, previewValueText(value.value))
                      : QStringLiteral("%1 is missing").arg(value.name));
    return parts.join(QStringLiteral(", "));
}

QString unknownReason(const QList<SqlPropertyValue>& values) {
    QStringList missing;
    for (const SqlPropertyValue& value : values)
        if (!value.value.isValid())
            missing << value.name;
    if (missing.isEmpty())
        return QStringLiteral("An operand is NULL, so the filter is unknown");
    return QStringLiteral("%1 %2 missing, so the filter is unknown")
        .arg(missing.join(QStringLiteral(", ")),
             missing.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
}

QString optionalMillisText(const std::optional<qint64>& value) {
    return value ? QString::number(*value) : QStringLiteral("not set");
}

// What `after` changed of `before`, one line per member.
QStringList changesBetween(const OutgoingMessage& before, const OutgoingMessage& after) {
    QStringList changes;
    for (const SystemMember& member : kSystemMembers) {
        const QString& was = before.*member.message;
        const QString& now = after.*member.message;
        if (was != now)
            changes << QStringLiteral("%1: %2 → %3")
                           .arg(QLatin1String(member.name), quotedOrUnset(was), quotedOrUnset(now));
    }
    if (before.timeToLive != after.timeToLive)
        changes << QStringLiteral("TimeToLive (ms): %1 → %2")
                       .arg(optionalMillisText(before.timeToLive),
                            optionalMillisText(after.timeToLive));
    if (before.scheduledEnqueueTime != after.scheduledEnqueueTime)
        changes << QStringLiteral("ScheduledEnqueueTime changed");
    const QVariantMap& was = before.applicationProperties;
    const QVariantMap& now = after.applicationProperties;
    for (auto it = now.begin(); it != now.end(); ++it) {
        const auto old = was.constFind(it.key());
        if (old == was.constEnd())
            changes << QStringLiteral("%1: set to %2").arg(it.key(), previewValueText(it.value()));
        else if (propertyTypeOf(*old) != propertyTypeOf(it.value()) ||
                 normalizedProperty(*old) != normalizedProperty(it.value()))
            changes << QStringLiteral("%1: %2 → %3")
                           .arg(it.key(), previewValueText(*old), previewValueText(it.value()));
    }
    for (auto it = was.begin(); it != was.end(); ++it)
        if (!now.contains(it.key()))
            changes << QStringLiteral("%1: removed").arg(it.key());
    return changes;
}

RuleExplanation explainRule(const Rule& rule, const OutgoingMessage& message,
                            const SqlBrokerFields& broker) {
    RuleExplanation explanation{rule, RuleVerdict::NotMatched, {}, {}};
    const auto truth = rule.truth(message, broker);
    if (!truth) {
        explanation.verdict = RuleVerdict::Failed;
        explanation.reason = truth.error().description;
        return explanation;
    }
    switch (*truth) {
    case SqlTruth::True:
        break;
    case SqlTruth::Unknown:
        explanation.verdict = RuleVerdict::Unknown;
        explanation.reason = unknownReason(rule.propertyValues(message, broker));
        return explanation;
    case SqlTruth::False:
        if (rule.filterType == FilterType::Correlation)
            explanation.reason = correlationMismatch(rule.correlation, message);
        else if (rule.filterType == FilterType::False)
            explanation.reason = QStringLiteral("A false filter matches no message");
        else
            explanation.reason = sqlValuesSeen(rule.propertyValues(message, broker));
        return explanation;
    }
    explanation.verdict = RuleVerdict::Matched;
    if (!rule.hasAction())
        return explanation;
    const auto copy = rule.applyAction(message, broker);
    if (!copy) {
        explanation.verdict = RuleVerdict::Failed;
        explanation.reason = QStringLiteral("The action failed: %1").arg(copy.error().description);
        return explanation;
    }
    explanation.changes = changesBetween(message, *copy);
    return explanation;
}

SubscriptionPreview previewSubscription(const SubscriptionRules& subscription,
                                        const OutgoingMessage& message,
                                        const SqlBrokerFields& broker) {
    SubscriptionPreview preview;
    preview.path = subscription.path;
    preview.name = subscription.path.section(QLatin1Char('/'), -1);
    preview.forwardTo = subscription.properties.forwardTo;
    bool stopped = false;
    for (const Rule& rule : subscription.rules) {
        if (stopped) {
            preview.rules.append({rule, RuleVerdict::NotEvaluated, {}, {}});
            continue;
        }
        preview.rules.append(explainRule(rule, message, broker));
        stopped = preview.rules.last().verdict == RuleVerdict::Failed;
    }
    if (subscription.properties.status == EntityStatus::Disabled) {
        preview.fate = SubscriptionFate::Disabled;
        return preview;
    }
    const RuleCopies routed = copiesThroughRules(subscription.rules, message, broker);
    if (routed.failure) {
        preview.failure = routed.failure->description;
        // The dead letter goes where the subscription's dead letters go, when that destination
        // takes it (Router::deadLetterDestination); else it stays here.
        preview.forwardTo = subscription.properties.forwardDeadLetteredMessagesTo;
        if (!preview.forwardTo.isEmpty() && !subscription.deadLetterForwardFailure.isEmpty()) {
            preview.forwardTo.clear();
            preview.deadLetterForwardFailure = subscription.deadLetterForwardFailure;
        }
        preview.fate = subscription.properties.deadLetteringOnFilterEvaluationExceptions
                           ? SubscriptionFate::DeadLettered
                           : SubscriptionFate::Dropped;
        return preview;
    }
    preview.copies = int(routed.copies.size());
    preview.fate = preview.copies > 0 ? SubscriptionFate::Copies : SubscriptionFate::NoMatch;
    if (preview.copies > 0 && !preview.forwardTo.isEmpty() &&
        !subscription.forwardToFailure.isEmpty()) {
        // routeLocked: what cannot be forwarded stays with the subscription, dead-lettered.
        preview.fate = SubscriptionFate::ForwardingFailed;
        preview.failure = subscription.forwardToFailure;
    }
    return preview;
}

} // namespace

QString ruleVerdictName(RuleVerdict verdict) {
    switch (verdict) {
    case RuleVerdict::Matched:
        return QStringLiteral("matched");
    case RuleVerdict::NotMatched:
        return QStringLiteral("not matched");
    case RuleVerdict::Unknown:
        return QStringLiteral("unknown");
    case RuleVerdict::Failed:
        return QStringLiteral("failed");
    case RuleVerdict::NotEvaluated:
        return QStringLiteral("not evaluated");
    }
    return {};
}

RoutingPreview startRoutingPreview(const QString& topicPath, EntityStatus topicStatus,
                                   OutgoingMessage& message, Instant now) {
    RoutingPreview result;
    if (message.messageId.isEmpty()) {
        message.messageId = QUuid::createUuid().toString(QUuid::Id128);
        result.messageIdGenerated = true;
    }
    result.messageId = message.messageId;
    if (topicStatus == EntityStatus::Disabled || topicStatus == EntityStatus::SendDisabled)
        result.sendRefused = QStringLiteral("'%1' is %2: it accepts no messages.")
                                 .arg(topicPath, entityStatusName(topicStatus));
    if (message.scheduledEnqueueTime && *message.scheduledEnqueueTime > now)
        result.scheduledFor = *message.scheduledEnqueueTime;
    return result;
}

QString forwardingFailureText(const QString& forwardTo, std::optional<EntityStatus> status) {
    if (!status)
        return QStringLiteral("The forwarding destination '%1' does not exist.").arg(forwardTo);
    if (*status == EntityStatus::Disabled || *status == EntityStatus::SendDisabled)
        return QStringLiteral("The forwarding destination '%1' is %2.")
            .arg(forwardTo, entityStatusName(*status));
    return {};
}

QString previewValueText(const QVariant& value) {
    if (!value.isValid())
        return QStringLiteral("NULL");
    if (value.typeId() == QMetaType::QString)
        return QStringLiteral("'%1'").arg(value.toString());
    return QStringLiteral("%1 (%2)").arg(propertyText(value), propertyTypeNameOf(value));
}

QList<SubscriptionPreview> previewRouting(const QList<SubscriptionRules>& subscriptions,
                                          const OutgoingMessage& message,
                                          const SqlBrokerFields& broker) {
    QList<SubscriptionPreview> previews;
    previews.reserve(subscriptions.size());
    for (const SubscriptionRules& subscription : subscriptions)
        previews.append(previewSubscription(subscription, message, broker));
    return previews;
}

} // namespace hourglass
