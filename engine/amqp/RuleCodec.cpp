#include "RuleCodec.h"

#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/PeerLimits.h"

#include <QDateTime>

namespace hourglass::amqp {

namespace {
// SQL filters and actions carry a compatibility level; Service Bus writes 20.
constexpr int kCompatibilityLevel = 20;

QString text(const QVariantMap& map, const char* key) {
    const QVariant value = map.value(QLatin1String(key));
    return value.typeId() == QMetaType::QString ? value.toString() : QString();
}

// A string, or null when unset, as Service Bus writes correlation filter members.
QVariant orNull(const QString& value) {
    return value.isEmpty() ? QVariant::fromValue(nullptr) : QVariant(value);
}

QVariant filterOf(const Rule& rule) {
    switch (rule.filterType) {
    case FilterType::True:
        return QVariant::fromValue(
            AmqpDescribed{kTrueFilterCode, {QStringLiteral("1=1"), kCompatibilityLevel}});
    case FilterType::False:
        return QVariant::fromValue(
            AmqpDescribed{kFalseFilterCode, {QStringLiteral("1=0"), kCompatibilityLevel}});
    case FilterType::Sql:
        return QVariant::fromValue(
            AmqpDescribed{kSqlFilterCode, {rule.sqlExpression, kCompatibilityLevel}});
    case FilterType::Correlation:
        break;
    }
    const CorrelationFilter& c = rule.correlation;
    // The properties map is never null: the JavaScript SDK reads it unconditionally.
    return QVariant::fromValue(
        AmqpDescribed{kCorrelationFilterCode,
                      {orNull(c.correlationId), orNull(c.messageId), orNull(c.to),
                       orNull(c.replyTo), orNull(c.subject), orNull(c.sessionId),
                       orNull(c.replyToSessionId), orNull(c.contentType), c.properties}});
}
} // namespace

Result<Rule> ruleFromDescription(const QString& name, const QVariantMap& description) {
    Rule rule;
    rule.name = name;
    const QVariantMap sql = description.value(QStringLiteral("sql-filter")).toMap();
    const QVariantMap correlation = description.value(QStringLiteral("correlation-filter")).toMap();
    if (description.contains(QStringLiteral("sql-filter")) &&
        description.value(QStringLiteral("sql-filter")).typeId() == QMetaType::QVariantMap) {
        const QString expression = text(sql, "expression").trimmed();
        if (expression == QLatin1String("1=1")) {
            rule.filterType = FilterType::True;
        } else if (expression == QLatin1String("1=0")) {
            rule.filterType = FilterType::False;
        } else {
            rule.filterType = FilterType::Sql;
            rule.sqlExpression = text(sql, "expression");
        }
    } else if (description.value(QStringLiteral("correlation-filter")).typeId() ==
               QMetaType::QVariantMap) {
        rule.filterType = FilterType::Correlation;
        CorrelationFilter& c = rule.correlation;
        c.correlationId = text(correlation, "correlation-id");
        c.messageId = text(correlation, "message-id");
        c.to = text(correlation, "to");
        c.replyTo = text(correlation, "reply-to");
        c.subject = text(correlation, "label");
        c.sessionId = text(correlation, "session-id");
        c.replyToSessionId = text(correlation, "reply-to-session-id");
        c.contentType = text(correlation, "content-type");
        c.properties = correlation.value(QStringLiteral("properties")).toMap();
    } else {
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The rule description of '%1' has neither a sql-filter "
                                          "nor a correlation-filter.")
                               .arg(quoted(name)));
    }
    const QVariantMap action = description.value(QStringLiteral("sql-rule-action")).toMap();
    rule.sqlAction = text(action, "expression");
    return rule;
}

QVariant ruleDescription(const Rule& rule, Instant createdAt) {
    const QVariant action =
        rule.hasAction() ? QVariant::fromValue(AmqpDescribed{kSqlRuleActionCode,
                                                             {rule.sqlAction, kCompatibilityLevel}})
                         : QVariant::fromValue(AmqpDescribed{kEmptyRuleActionCode, {}});
    return QVariant::fromValue(AmqpDescribed{
        kRuleDescriptionCode,
        {filterOf(rule), action, rule.name, QDateTime::fromMSecsSinceEpoch(createdAt, Qt::UTC)}});
}

} // namespace hourglass::amqp
