#pragma once
// Subscription rules (SEMANTICS.md R1, R2): true, false and correlation filters. SQL filters are
// refused with InvalidArgument until the SQL filter language lands.

#include "Message.h"
#include "Status.h"

#include <QJsonObject>
#include <QString>
#include <QVariantMap>

namespace hourglass {

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

    bool operator==(const Rule&) const = default;

    static Rule trueRule(const QString& name = QStringLiteral("$Default"));
    bool matches(const OutgoingMessage& message) const;
    // E2 name bounds and filter sanity; SQL filters are refused for now.
    Result<void> validate() const;

    // Emulator config.json rule object: { "Name", "Properties": { "FilterType", ... } }.
    QJsonObject toJson() const;
    static Result<Rule> fromJson(const QJsonObject& json);
};

} // namespace hourglass
