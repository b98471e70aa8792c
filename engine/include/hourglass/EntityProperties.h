#pragma once
// The properties of queues, topics and subscriptions, with the defaults and bounds of
// service-bus-rules.md E3, and the namespace tier that caps TTLs.

#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace hourglass {

enum class EntityKind { Queue, Topic, Subscription };
QString entityKindName(EntityKind kind);

enum class EntityStatus { Active, Disabled, SendDisabled, ReceiveDisabled };
QString entityStatusName(EntityStatus status);
std::optional<EntityStatus> entityStatusFromName(const QString& name);

enum class Tier { Basic, Standard, Premium };
QString tierName(Tier tier);
std::optional<Tier> tierFromName(const QString& name);

// E3. Topics use only the TTL, auto-delete, duplicate detection, size and status members.
struct EntityProperties {
    Millis defaultMessageTimeToLive = kInfinite;
    Millis lockDuration = minutes(1);
    int maxDeliveryCount = 10;
    bool deadLetteringOnMessageExpiration = false;
    Millis autoDeleteOnIdle = kInfinite;
    QString forwardTo;                     // empty: none
    QString forwardDeadLetteredMessagesTo; // empty: none
    bool requiresDuplicateDetection = false;
    Millis duplicateDetectionHistoryTimeWindow = minutes(10);
    int maxSizeInMegabytes = 1024;
    int maxMessageSizeInKilobytes = 256;
    EntityStatus status = EntityStatus::Active;
    // S1: messages need a SessionId and are received through session locks. Queues and
    // subscriptions only; fixed at creation (E5).
    bool requiresSession = false;
    // R5, subscriptions only: a filter or action that fails on a message dead-letters it in the
    // subscription (FilterException) when on, else the subscription drops it.
    bool deadLetteringOnFilterEvaluationExceptions = true;

    bool operator==(const EntityProperties&) const = default;

    // The defaults of a new entity in a namespace of this tier (Basic: TTL P14D).
    static EntityProperties defaults(Tier tier);

    // Checks every bound of E3 for an entity of this kind in a namespace of this tier; the
    // error names the property and its bound. ForwardTo targets are checked by the Broker.
    Result<void> validate(EntityKind kind, Tier tier) const;
    // Every bound this entity breaks, one error each (validate() gives the first), so that a form
    // can mark every bad field at once.
    QList<Error> problems(EntityKind kind, Tier tier) const;

    // Emulator config.json "Properties" object, property names as in E3. Durations are ISO-8601.
    QJsonObject toJson(EntityKind kind) const;
    // Applies the members present in `json` over `base`; unknown members are refused so that a
    // typo does not pass silently. The error names the bad member and why.
    static Result<EntityProperties> fromJson(const QJsonObject& json, const EntityProperties& base);
};

struct NamespaceInfo {
    QString name;
    Tier tier = Tier::Standard;
};

} // namespace hourglass
