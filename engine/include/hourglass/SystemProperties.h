#pragma once
// The system properties a sender sets on a Service Bus message, declared once. OutgoingMessage,
// MessageView and the store's row derive from this struct, so the properties travel between
// them in one assignment and a new one is added here (and where it is written or shown), not in
// every conversion.

#include "hourglass/Time.h"

#include <QLatin1StringView>
#include <QString>

#include <array>
#include <optional>

namespace hourglass {

// Empty strings mean "not set".
struct SystemProperties {
    QString messageId;
    QString correlationId;
    QString sessionId;
    QString replyTo;
    QString replyToSessionId;
    QString to;
    QString subject;
    QString contentType;
    // The message's own TimeToLive (T1); unset means "the entity default" (T3).
    std::optional<Millis> timeToLive;

    // The properties alone, for one assignment between the types that embed them:
    // `view.systemProperties() = row.systemProperties();`
    SystemProperties& systemProperties() { return *this; }
    const SystemProperties& systemProperties() const { return *this; }

    bool operator==(const SystemProperties&) const = default;
};

// One text property: its Service Bus name ("ReplyToSessionId") and its member.
struct SystemTextProperty {
    QLatin1StringView name;
    QString SystemProperties::*member;
};

// Every text property, in the order Service Bus lists them (and the store's columns hold them),
// for the readers and writers that treat them alike: sizes, search, the detail view, exports.
inline constexpr std::array<SystemTextProperty, 8> kSystemTextProperties = {{
    {QLatin1StringView("MessageId"), &SystemProperties::messageId},
    {QLatin1StringView("CorrelationId"), &SystemProperties::correlationId},
    {QLatin1StringView("SessionId"), &SystemProperties::sessionId},
    {QLatin1StringView("ReplyTo"), &SystemProperties::replyTo},
    {QLatin1StringView("ReplyToSessionId"), &SystemProperties::replyToSessionId},
    {QLatin1StringView("To"), &SystemProperties::to},
    {QLatin1StringView("Subject"), &SystemProperties::subject},
    {QLatin1StringView("ContentType"), &SystemProperties::contentType},
}};

// A property's name as JSON files other than scenarios spell it: "replyToSessionId".
QString camelCaseName(const SystemTextProperty& property);

} // namespace hourglass
