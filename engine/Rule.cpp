#include "hourglass/Rule.h"

#include "hourglass/JsonText.h"
#include "hourglass/PropertyJson.h"
#include "sql/SqlAction.h"
#include "sql/SqlEvaluator.h"
#include "sql/SqlFilter.h"

#include <QJsonValue>
#include <QStringList>

namespace hourglass {

namespace {

constexpr int kMaxRuleNameLength = 50;

Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

// Application property equality as a correlation filter sees it (R2: "correlation values
// compare exactly (case and type)"): the same Service Bus type and the same value, so an Int64
// 250 does not match an Int32 250, nor 5 match 5.0.
bool sameValue(const QVariant& a, const QVariant& b) {
    const auto ta = propertyTypeOf(a);
    if (!ta || ta != propertyTypeOf(b))
        return false;
    return normalizedProperty(a) == normalizedProperty(b);
}

bool matchesIfSet(const QString& wanted, const QString& actual) {
    return wanted.isEmpty() || wanted == actual;
}

bool isRuleNameCharacter(QChar c) {
    const char16_t u = c.unicode();
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
           u == u'.' || u == u'-' || u == u'_' || u == u'$';
}

QString filterTypeName(FilterType type) {
    switch (type) {
    case FilterType::True:
        return QStringLiteral("True");
    case FilterType::False:
        return QStringLiteral("False");
    case FilterType::Correlation:
        return QStringLiteral("Correlation");
    case FilterType::Sql:
        return QStringLiteral("Sql");
    }
    return QStringLiteral("True");
}

std::optional<FilterType> filterTypeFromName(const QString& name) {
    for (const auto type :
         {FilterType::True, FilterType::False, FilterType::Correlation, FilterType::Sql}) {
        if (name.compare(filterTypeName(type), Qt::CaseInsensitive) == 0)
            return type;
    }
    return std::nullopt;
}

Error wrongType(const QString& where, const QString& expected, const QJsonValue& value) {
    return invalid(
        QStringLiteral("%1: expected %2, got %3").arg(where, expected, jsonTypeName(value)));
}

Result<void> refuseUnknown(const QJsonObject& object, const QString& prefix,
                           const QStringList& known) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!known.contains(it.key()))
            return invalid(QStringLiteral("%1%2: unknown member (known: %3)")
                               .arg(prefix, it.key(), known.join(QStringLiteral(", "))));
    }
    return {};
}

// An application property value in the file form of PropertyJson.h (a plain scalar, or
// {"Type": "Int32", "Value": 250} for the types plain JSON cannot say).
Result<QVariant> propertyValue(const QString& where, const QJsonValue& value) {
    auto parsed = propertyFromJson(value);
    if (!parsed)
        return invalid(QStringLiteral("%1: %2").arg(where, parsed.error().description));
    return parsed;
}

Result<CorrelationFilter> correlationFromJson(const QJsonObject& json, const QString& prefix) {
    static const QStringList known{QStringLiteral("CorrelationId"),
                                   QStringLiteral("MessageId"),
                                   QStringLiteral("To"),
                                   QStringLiteral("ReplyTo"),
                                   QStringLiteral("Label"),
                                   QStringLiteral("Subject"),
                                   QStringLiteral("SessionId"),
                                   QStringLiteral("ReplyToSessionId"),
                                   QStringLiteral("ContentType"),
                                   QStringLiteral("Properties")};
    if (auto r = refuseUnknown(json, prefix, known); !r)
        return r.error();
    if (json.contains(QStringLiteral("Label")) && json.contains(QStringLiteral("Subject")))
        return invalid(
            QStringLiteral("%1Subject: give either Label or Subject, not both").arg(prefix));

    CorrelationFilter filter;
    const std::pair<const char*, QString*> strings[] = {
        {"CorrelationId", &filter.correlationId},
        {"MessageId", &filter.messageId},
        {"To", &filter.to},
        {"ReplyTo", &filter.replyTo},
        {"Label", &filter.subject},
        {"Subject", &filter.subject},
        {"SessionId", &filter.sessionId},
        {"ReplyToSessionId", &filter.replyToSessionId},
        {"ContentType", &filter.contentType},
    };
    for (const auto& [member, target] : strings) {
        const QJsonValue value = json.value(QLatin1String(member));
        if (value.isUndefined())
            continue;
        if (!value.isString())
            return wrongType(prefix + QLatin1String(member), QStringLiteral("a string"), value);
        *target = value.toString();
    }
    const QJsonValue properties = json.value(QStringLiteral("Properties"));
    if (!properties.isUndefined()) {
        if (!properties.isObject())
            return wrongType(prefix + QStringLiteral("Properties"), QStringLiteral("an object"),
                             properties);
        const QJsonObject object = properties.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            auto value =
                propertyValue(prefix + QStringLiteral("Properties.") + it.key(), it.value());
            if (!value)
                return value.error();
            filter.properties.insert(it.key(), *value);
        }
    }
    return filter;
}

QJsonObject correlationToJson(const CorrelationFilter& filter) {
    QJsonObject json;
    const std::pair<const char*, const QString*> strings[] = {
        {"CorrelationId", &filter.correlationId},
        {"MessageId", &filter.messageId},
        {"To", &filter.to},
        {"ReplyTo", &filter.replyTo},
        {"Label", &filter.subject}, // the emulator's name for Subject
        {"SessionId", &filter.sessionId},
        {"ReplyToSessionId", &filter.replyToSessionId},
        {"ContentType", &filter.contentType},
    };
    for (const auto& [member, value] : strings) {
        if (!value->isEmpty())
            json.insert(QLatin1String(member), *value);
    }
    if (!filter.properties.isEmpty()) {
        QJsonObject properties;
        for (auto it = filter.properties.begin(); it != filter.properties.end(); ++it)
            properties.insert(it.key(), propertyToJson(it.value()));
        json.insert(QStringLiteral("Properties"), properties);
    }
    return json;
}

} // namespace

bool CorrelationFilter::matches(const OutgoingMessage& message) const {
    if (isEmpty())
        return false;
    if (!matchesIfSet(correlationId, message.correlationId) ||
        !matchesIfSet(messageId, message.messageId) || !matchesIfSet(to, message.to) ||
        !matchesIfSet(replyTo, message.replyTo) || !matchesIfSet(subject, message.subject) ||
        !matchesIfSet(sessionId, message.sessionId) ||
        !matchesIfSet(replyToSessionId, message.replyToSessionId) ||
        !matchesIfSet(contentType, message.contentType))
        return false;
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        // R2: names match case-insensitively (as in SQL filters), values exactly.
        const QVariant* found = findApplicationProperty(message.applicationProperties, it.key());
        if (!found || !sameValue(it.value(), *found))
            return false;
    }
    return true;
}

bool CorrelationFilter::isEmpty() const {
    return correlationId.isEmpty() && messageId.isEmpty() && to.isEmpty() && replyTo.isEmpty() &&
           subject.isEmpty() && sessionId.isEmpty() && replyToSessionId.isEmpty() &&
           contentType.isEmpty() && properties.isEmpty();
}

Rule Rule::trueRule(const QString& name) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::True;
    return rule;
}

bool Rule::operator==(const Rule& other) const {
    return name == other.name && filterType == other.filterType &&
           correlation == other.correlation && sqlExpression == other.sqlExpression &&
           sqlAction == other.sqlAction;
}

Result<void> Rule::compileLocked() const {
    if (filterType == FilterType::Sql && (!m_filter || m_filter->text() != sqlExpression)) {
        auto filter = SqlFilter::compile(sqlExpression);
        if (!filter)
            return invalid(QStringLiteral("rule '%1': %2").arg(name, filter.error().description));
        m_filter = std::make_shared<const SqlFilter>(std::move(*filter));
    }
    if (hasAction() && (!m_action || m_action->text() != sqlAction)) {
        auto action = SqlAction::compile(sqlAction);
        if (!action)
            return invalid(QStringLiteral("rule '%1': %2").arg(name, action.error().description));
        m_action = std::make_shared<const SqlAction>(std::move(*action));
    }
    return {};
}

Result<bool> Rule::evaluate(const OutgoingMessage& message, const SqlBrokerFields& broker) const {
    switch (filterType) {
    case FilterType::True:
        return true;
    case FilterType::False:
        return false;
    case FilterType::Correlation:
        return correlation.matches(message);
    case FilterType::Sql:
        if (auto ok = compileLocked(); !ok)
            return ok.error();
        return m_filter->matches(message, broker);
    }
    return false;
}

Result<SqlTruth> Rule::truth(const OutgoingMessage& message, const SqlBrokerFields& broker) const {
    if (filterType == FilterType::Sql) {
        if (auto ok = compileLocked(); !ok)
            return ok.error();
        return m_filter->truth(message, broker);
    }
    auto matched = evaluate(message, broker);
    if (!matched)
        return matched.error();
    return *matched ? SqlTruth::True : SqlTruth::False;
}

QList<SqlPropertyValue> Rule::propertyValues(const OutgoingMessage& message,
                                             const SqlBrokerFields& broker) const {
    if (filterType != FilterType::Sql || !compileLocked())
        return {};
    return m_filter->propertyValues(message, broker);
}

bool Rule::matches(const OutgoingMessage& message) const {
    const auto matched = evaluate(message);
    return matched && *matched;
}

Result<OutgoingMessage> Rule::applyAction(const OutgoingMessage& message,
                                          const SqlBrokerFields& broker) const {
    OutgoingMessage copy = message;
    if (hasAction()) {
        if (auto ok = compileLocked(); !ok)
            return ok.error();
        auto applied = m_action->applyTo(message, broker);
        if (!applied)
            return applied.error();
        copy = std::move(*applied);
    }
    copy.applicationProperties.insert(QStringLiteral("RuleName"), name);
    return copy;
}

Result<void> Rule::validate() const {
    if (name.isEmpty() || name.size() > kMaxRuleNameLength)
        return invalid(QStringLiteral("rule name '%1' must be 1-%2 characters long")
                           .arg(name)
                           .arg(kMaxRuleNameLength));
    for (const QChar c : name) {
        if (!isRuleNameCharacter(c))
            return invalid(QStringLiteral("rule name '%1' contains '%2'; only letters, digits, "
                                          "'.', '-', '_' and '$' are allowed")
                               .arg(name, QString(c)));
    }
    if (filterType == FilterType::Correlation && correlation.isEmpty())
        return invalid(QStringLiteral("rule '%1': a correlation filter needs at least one "
                                      "member to compare")
                           .arg(name));
    return compileLocked();
}

QJsonObject Rule::toJson() const {
    QJsonObject properties;
    properties.insert(QStringLiteral("FilterType"), filterTypeName(filterType));
    if (filterType == FilterType::Correlation)
        properties.insert(QStringLiteral("CorrelationFilter"), correlationToJson(correlation));
    if (filterType == FilterType::Sql)
        properties.insert(QStringLiteral("SqlFilter"),
                          QJsonObject{{QStringLiteral("SqlExpression"), sqlExpression}});
    if (hasAction())
        properties.insert(QStringLiteral("Action"),
                          QJsonObject{{QStringLiteral("SqlExpression"), sqlAction}});
    return QJsonObject{{QStringLiteral("Name"), name}, {QStringLiteral("Properties"), properties}};
}

Result<Rule> Rule::fromJson(const QJsonObject& json) {
    if (auto r = refuseUnknown(json, {}, {QStringLiteral("Name"), QStringLiteral("Properties")});
        !r)
        return r.error();
    Rule rule;
    const QJsonValue name = json.value(QStringLiteral("Name"));
    if (!name.isString())
        return wrongType(QStringLiteral("Name"), QStringLiteral("a string"), name);
    rule.name = name.toString();

    const QJsonValue propertiesValue = json.value(QStringLiteral("Properties"));
    if (!propertiesValue.isObject())
        return wrongType(QStringLiteral("Properties"), QStringLiteral("an object"),
                         propertiesValue);
    const QJsonObject properties = propertiesValue.toObject();
    if (auto r = refuseUnknown(properties, QStringLiteral("Properties."),
                               {QStringLiteral("FilterType"), QStringLiteral("CorrelationFilter"),
                                QStringLiteral("SqlFilter"), QStringLiteral("Action")});
        !r)
        return r.error();
    if (properties.contains(QStringLiteral("Action"))) {
        const QJsonValue value = properties.value(QStringLiteral("Action"));
        if (!value.isObject())
            return wrongType(QStringLiteral("Properties.Action"), QStringLiteral("an object"),
                             value);
        const QJsonObject action = value.toObject();
        if (auto r = refuseUnknown(action, QStringLiteral("Properties.Action."),
                                   {QStringLiteral("SqlExpression")});
            !r)
            return r.error();
        const QJsonValue expression = action.value(QStringLiteral("SqlExpression"));
        if (!expression.isString())
            return wrongType(QStringLiteral("Properties.Action.SqlExpression"),
                             QStringLiteral("a string"), expression);
        rule.sqlAction = expression.toString();
    }

    const QJsonValue typeValue = properties.value(QStringLiteral("FilterType"));
    if (!typeValue.isString())
        return wrongType(QStringLiteral("Properties.FilterType"),
                         QStringLiteral("one of \"Correlation\", \"Sql\", \"True\", \"False\""),
                         typeValue);
    const auto type = filterTypeFromName(typeValue.toString());
    if (!type)
        return invalid(QStringLiteral("Properties.FilterType: '%1' is not one of Correlation, "
                                      "Sql, True, False")
                           .arg(typeValue.toString()));
    rule.filterType = *type;

    const bool hasCorrelation = properties.contains(QStringLiteral("CorrelationFilter"));
    const bool hasSql = properties.contains(QStringLiteral("SqlFilter"));
    if (hasCorrelation && rule.filterType != FilterType::Correlation)
        return invalid(QStringLiteral("Properties.CorrelationFilter: not used with FilterType %1")
                           .arg(filterTypeName(rule.filterType)));
    if (hasSql && rule.filterType != FilterType::Sql)
        return invalid(QStringLiteral("Properties.SqlFilter: not used with FilterType %1")
                           .arg(filterTypeName(rule.filterType)));

    if (rule.filterType == FilterType::Correlation) {
        const QJsonValue value = properties.value(QStringLiteral("CorrelationFilter"));
        if (!value.isObject())
            return wrongType(QStringLiteral("Properties.CorrelationFilter"),
                             QStringLiteral("an object"), value);
        auto filter =
            correlationFromJson(value.toObject(), QStringLiteral("Properties.CorrelationFilter."));
        if (!filter)
            return filter.error();
        rule.correlation = *filter;
    }
    if (rule.filterType == FilterType::Sql) {
        const QJsonValue value = properties.value(QStringLiteral("SqlFilter"));
        if (!value.isObject())
            return wrongType(QStringLiteral("Properties.SqlFilter"), QStringLiteral("an object"),
                             value);
        const QJsonObject sql = value.toObject();
        if (auto r = refuseUnknown(sql, QStringLiteral("Properties.SqlFilter."),
                                   {QStringLiteral("SqlExpression")});
            !r)
            return r.error();
        const QJsonValue expression = sql.value(QStringLiteral("SqlExpression"));
        if (!expression.isString())
            return wrongType(QStringLiteral("Properties.SqlFilter.SqlExpression"),
                             QStringLiteral("a string"), expression);
        rule.sqlExpression = expression.toString();
    }
    return rule;
}

} // namespace hourglass
