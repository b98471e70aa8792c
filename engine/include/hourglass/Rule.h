#pragma once
// Subscription rules (service-bus-rules.md R1-R5): true, false, correlation and SQL filters, and an
// optional SQL action. The compiled filter and action are kept with the rule (validate() fills
// them), never compiled per message.

#include "hourglass/Message.h"
#include "hourglass/RuleEvaluation.h"
#include "hourglass/Status.h"

#include <memory>

#include <QJsonObject>
#include <QString>
#include <QVariantMap>

namespace hourglass {

class SqlAction; // the compiled forms, private to the engine
class SqlFilter;

enum class FilterType { True, False, Correlation, Sql };

struct CorrelationFilter {
    QString correlationId;
    QString messageId;
    QString to;
    QString replyTo;
    QString subject; // "Label" in the emulator's config.json
    QString sessionId;
    QString replyToSessionId;
    QString contentType;
    QVariantMap properties; // application properties, each compared for equality

    bool operator==(const CorrelationFilter&) const = default;
    // All set members must equal the message's (AND); an empty filter matches nothing but is
    // refused by Rule::validate.
    bool matches(const OutgoingMessage& message) const;
    bool isEmpty() const;
};

struct Rule {
    QString name;
    FilterType filterType = FilterType::True;
    CorrelationFilter correlation;
    QString sqlExpression;
    QString sqlAction; // R4: empty for none (true and false filters are SQL filters in Azure)

    // The texts decide equality; the compiled forms follow them.
    bool operator==(const Rule& other) const;

    static Rule trueRule(const QString& name = QStringLiteral("$Default"));
    // R2/R3: true when the filter matches; an error is an SQL evaluation error (R5:
    // FilterException). `matches` reads an error as no match.
    Result<bool> evaluate(const OutgoingMessage& message, const SqlBrokerFields& broker = {}) const;
    bool matches(const OutgoingMessage& message) const;
    // R3's three values, for the routing preview (evaluate() is this compared with True): true,
    // false and correlation filters are never unknown.
    Result<SqlTruth> truth(const OutgoingMessage& message,
                           const SqlBrokerFields& broker = {}) const;
    // What an SQL filter reads and the values it saw in `message`: why it is false or unknown
    // (empty for the other filter types).
    QList<SqlPropertyValue> propertyValues(const OutgoingMessage& message,
                                           const SqlBrokerFields& broker = {}) const;
    bool hasAction() const { return !sqlAction.isEmpty(); }
    // R4: the rule's own copy, its action applied and RuleName set to the rule's name.
    Result<OutgoingMessage> applyAction(const OutgoingMessage& message,
                                        const SqlBrokerFields& broker = {}) const;
    // E2/R5 name bounds and filter sanity; compiles an SQL filter and the action (InvalidArgument
    // with the parser's position message) and keeps them with this rule and its copies.
    Result<void> validate() const;

    // Emulator config.json rule object: { "Name", "Properties": { "FilterType", ... } }.
    QJsonObject toJson() const;
    static Result<Rule> fromJson(const QJsonObject& json);

private:
    Result<void> compileLocked() const;
    mutable std::shared_ptr<const SqlFilter> m_filter;
    mutable std::shared_ptr<const SqlAction> m_action;
};

} // namespace hourglass
