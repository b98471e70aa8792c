#include "hourglass/EntityProperties.h"

#include "hourglass/JsonText.h"

#include "hourglass/EntityPath.h"

#include <QJsonValue>
#include <QStringList>

#include <array>
#include <cmath>
#include <limits>

namespace hourglass {

namespace {

// Property names exactly as the emulator's config.json spells them (E3).
constexpr auto kDefaultMessageTimeToLive = "DefaultMessageTimeToLive";
constexpr auto kLockDuration = "LockDuration";
constexpr auto kMaxDeliveryCount = "MaxDeliveryCount";
constexpr auto kDeadLetteringOnMessageExpiration = "DeadLetteringOnMessageExpiration";
constexpr auto kAutoDeleteOnIdle = "AutoDeleteOnIdle";
constexpr auto kForwardTo = "ForwardTo";
constexpr auto kForwardDeadLetteredMessagesTo = "ForwardDeadLetteredMessagesTo";
constexpr auto kRequiresDuplicateDetection = "RequiresDuplicateDetection";
constexpr auto kDuplicateDetectionHistoryTimeWindow = "DuplicateDetectionHistoryTimeWindow";
constexpr auto kMaxSizeInMegabytes = "MaxSizeInMegabytes";
constexpr auto kMaxMessageSizeInKilobytes = "MaxMessageSizeInKilobytes";
constexpr auto kStatus = "Status";
constexpr auto kRequiresSession = "RequiresSession";
constexpr auto kDeadLetteringOnFilterEvaluationExceptions =
    "DeadLetteringOnFilterEvaluationExceptions";

constexpr std::array<const char*, 14> kKnownMembers{
    kDefaultMessageTimeToLive,
    kLockDuration,
    kMaxDeliveryCount,
    kDeadLetteringOnMessageExpiration,
    kAutoDeleteOnIdle,
    kForwardTo,
    kForwardDeadLetteredMessagesTo,
    kRequiresDuplicateDetection,
    kDuplicateDetectionHistoryTimeWindow,
    kMaxSizeInMegabytes,
    kMaxMessageSizeInKilobytes,
    kStatus,
    kRequiresSession,
    kDeadLetteringOnFilterEvaluationExceptions,
};

constexpr Millis kMinLockDuration = seconds(5);
constexpr Millis kMaxLockDuration = minutes(5);
constexpr Millis kMinAutoDeleteOnIdle = minutes(5);
constexpr Millis kMinDuplicateWindow = seconds(20);
constexpr Millis kMaxDuplicateWindow = days(7);
constexpr Millis kBasicMaxTimeToLive = days(14);
constexpr int kMaxSizeInMegabytesLimit = 81920;
constexpr int kMaxMessageSizeInKilobytesLimit = 102400;

Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

QString iso(Millis duration) {
    return formatIsoDuration(duration);
}

Error wrongType(const char* member, const QString& expected, const QJsonValue& value) {
    return invalid(QStringLiteral("%1: expected %2, got %3")
                       .arg(QLatin1String(member), expected, jsonTypeName(value)));
}

Result<Millis> readDuration(const char* member, const QJsonValue& value) {
    if (!value.isString())
        return wrongType(member, QStringLiteral("an ISO-8601 duration string such as PT10M"),
                         value);
    QString why;
    const auto parsed = parseIsoDuration(value.toString(), &why);
    if (!parsed)
        return invalid(QStringLiteral("%1: '%2' is not an ISO-8601 duration (%3)")
                           .arg(QLatin1String(member), value.toString(), why));
    return *parsed;
}

Result<int> readInt(const char* member, const QJsonValue& value) {
    if (!value.isDouble())
        return wrongType(member, QStringLiteral("an integer"), value);
    const double number = value.toDouble();
    if (std::floor(number) != number || number < std::numeric_limits<int>::min() ||
        number > std::numeric_limits<int>::max())
        return invalid(QStringLiteral("%1: %2 is not a whole number in range")
                           .arg(QLatin1String(member))
                           .arg(number));
    return static_cast<int>(number);
}

Result<bool> readBool(const char* member, const QJsonValue& value) {
    if (!value.isBool())
        return wrongType(member, QStringLiteral("true or false"), value);
    return value.toBool();
}

Result<QString> readString(const char* member, const QJsonValue& value) {
    if (!value.isString())
        return wrongType(member, QStringLiteral("a string"), value);
    return value.toString();
}

// Applies one member to `p`; the member name is known to be in kKnownMembers.
Result<void> applyMember(EntityProperties& p, const QString& name, const QJsonValue& value) {
    const auto is = [&name](const char* member) { return name == QLatin1String(member); };
    const auto assign = [](auto& target, auto&& result) -> Result<void> {
        if (!result)
            return result.error();
        target = *result;
        return {};
    };
    if (is(kDefaultMessageTimeToLive))
        return assign(p.defaultMessageTimeToLive, readDuration(kDefaultMessageTimeToLive, value));
    if (is(kLockDuration))
        return assign(p.lockDuration, readDuration(kLockDuration, value));
    if (is(kMaxDeliveryCount))
        return assign(p.maxDeliveryCount, readInt(kMaxDeliveryCount, value));
    if (is(kDeadLetteringOnMessageExpiration))
        return assign(p.deadLetteringOnMessageExpiration,
                      readBool(kDeadLetteringOnMessageExpiration, value));
    if (is(kDeadLetteringOnFilterEvaluationExceptions))
        return assign(p.deadLetteringOnFilterEvaluationExceptions,
                      readBool(kDeadLetteringOnFilterEvaluationExceptions, value));
    if (is(kAutoDeleteOnIdle))
        return assign(p.autoDeleteOnIdle, readDuration(kAutoDeleteOnIdle, value));
    if (is(kForwardTo))
        return assign(p.forwardTo, readString(kForwardTo, value));
    if (is(kForwardDeadLetteredMessagesTo))
        return assign(p.forwardDeadLetteredMessagesTo,
                      readString(kForwardDeadLetteredMessagesTo, value));
    if (is(kRequiresDuplicateDetection))
        return assign(p.requiresDuplicateDetection, readBool(kRequiresDuplicateDetection, value));
    if (is(kDuplicateDetectionHistoryTimeWindow))
        return assign(p.duplicateDetectionHistoryTimeWindow,
                      readDuration(kDuplicateDetectionHistoryTimeWindow, value));
    if (is(kMaxSizeInMegabytes))
        return assign(p.maxSizeInMegabytes, readInt(kMaxSizeInMegabytes, value));
    if (is(kMaxMessageSizeInKilobytes))
        return assign(p.maxMessageSizeInKilobytes, readInt(kMaxMessageSizeInKilobytes, value));
    if (is(kRequiresSession))
        return assign(p.requiresSession, readBool(kRequiresSession, value));
    // kStatus is the last known member.
    const auto text = readString(kStatus, value);
    if (!text)
        return text.error();
    const auto status = entityStatusFromName(*text);
    if (!status)
        return invalid(QStringLiteral("Status: '%1' is not one of Active, Disabled, SendDisabled, "
                                      "ReceiveDisabled")
                           .arg(*text));
    p.status = *status;
    return {};
}

QString knownMemberList() {
    QStringList names;
    for (const char* member : kKnownMembers)
        names << QLatin1String(member);
    return names.join(QStringLiteral(", "));
}

Result<void> checkDurationRange(const char* name, Millis value, Millis min, Millis max) {
    if (value < min || value > max)
        return invalid(QStringLiteral("%1 must be between %2 and %3 (got %4)")
                           .arg(QLatin1String(name), iso(min), iso(max), iso(value)));
    return {};
}

Result<void> checkIntRange(const char* name, int value, int min, int max) {
    if (value < min || value > max)
        return invalid(QStringLiteral("%1 must be between %2 and %3 (got %4)")
                           .arg(QLatin1String(name))
                           .arg(min)
                           .arg(max)
                           .arg(value));
    return {};
}

Result<void> checkForwardPath(const char* name, const QString& path) {
    if (path.isEmpty())
        return {};
    if (auto valid = validateQueueOrTopicPath(path); !valid)
        return invalid(QStringLiteral("%1 must name a queue or topic: %2")
                           .arg(QLatin1String(name), valid.error().description));
    return {};
}

} // namespace

QString entityKindName(EntityKind kind) {
    switch (kind) {
    case EntityKind::Queue:
        return QStringLiteral("Queue");
    case EntityKind::Topic:
        return QStringLiteral("Topic");
    case EntityKind::Subscription:
        return QStringLiteral("Subscription");
    }
    return QStringLiteral("Queue");
}

QString entityStatusName(EntityStatus status) {
    switch (status) {
    case EntityStatus::Active:
        return QStringLiteral("Active");
    case EntityStatus::Disabled:
        return QStringLiteral("Disabled");
    case EntityStatus::SendDisabled:
        return QStringLiteral("SendDisabled");
    case EntityStatus::ReceiveDisabled:
        return QStringLiteral("ReceiveDisabled");
    }
    return QStringLiteral("Active");
}

std::optional<EntityStatus> entityStatusFromName(const QString& name) {
    for (const auto status : {EntityStatus::Active, EntityStatus::Disabled,
                              EntityStatus::SendDisabled, EntityStatus::ReceiveDisabled}) {
        if (name.compare(entityStatusName(status), Qt::CaseInsensitive) == 0)
            return status;
    }
    return std::nullopt;
}

QString tierName(Tier tier) {
    switch (tier) {
    case Tier::Basic:
        return QStringLiteral("Basic");
    case Tier::Standard:
        return QStringLiteral("Standard");
    case Tier::Premium:
        return QStringLiteral("Premium");
    }
    return QStringLiteral("Standard");
}

std::optional<Tier> tierFromName(const QString& name) {
    for (const auto tier : {Tier::Basic, Tier::Standard, Tier::Premium}) {
        if (name.compare(tierName(tier), Qt::CaseInsensitive) == 0)
            return tier;
    }
    return std::nullopt;
}

EntityProperties EntityProperties::defaults(Tier tier) {
    EntityProperties properties;
    if (tier == Tier::Basic)
        properties.defaultMessageTimeToLive = kBasicMaxTimeToLive;
    return properties;
}

Result<void> EntityProperties::validate(EntityKind kind, Tier tier) const {
    const QList<Error> found = problems(kind, tier);
    if (!found.isEmpty())
        return found.first();
    return {};
}

QList<Error> EntityProperties::problems(EntityKind kind, Tier tier) const {
    QList<Error> found;
    const auto check = [&found](const Result<void>& r) {
        if (!r)
            found.append(r.error());
    };
    if (defaultMessageTimeToLive <= 0)
        found << invalid(
            QStringLiteral("DefaultMessageTimeToLive must be greater than zero (got %1)")
                .arg(iso(defaultMessageTimeToLive)));
    else if (tier == Tier::Basic && defaultMessageTimeToLive > kBasicMaxTimeToLive)
        found << invalid(QStringLiteral("DefaultMessageTimeToLive must be at most %1 in the Basic "
                                        "tier (got %2)")
                             .arg(iso(kBasicMaxTimeToLive), iso(defaultMessageTimeToLive)));
    if (autoDeleteOnIdle < kMinAutoDeleteOnIdle)
        found << invalid(QStringLiteral("AutoDeleteOnIdle must be at least %1 (got %2)")
                             .arg(iso(kMinAutoDeleteOnIdle), iso(autoDeleteOnIdle)));
    check(checkDurationRange(kDuplicateDetectionHistoryTimeWindow,
                             duplicateDetectionHistoryTimeWindow, kMinDuplicateWindow,
                             kMaxDuplicateWindow));
    check(checkIntRange(kMaxSizeInMegabytes, maxSizeInMegabytes, 1, kMaxSizeInMegabytesLimit));
    check(checkIntRange(kMaxMessageSizeInKilobytes, maxMessageSizeInKilobytes, 1,
                        kMaxMessageSizeInKilobytesLimit));
    if (tier == Tier::Basic && kind != EntityKind::Queue)
        found << invalid(QStringLiteral("A Basic namespace has queues only, no topics or "
                                        "subscriptions; use the Standard or Premium tier"));
    if (kind != EntityKind::Subscription && !deadLetteringOnFilterEvaluationExceptions)
        found << invalid(QStringLiteral("DeadLetteringOnFilterEvaluationExceptions: only a "
                                        "subscription has rules to fail"));
    if (kind == EntityKind::Subscription && requiresDuplicateDetection)
        found << invalid(QStringLiteral("RequiresDuplicateDetection: a subscription has no "
                                        "duplicate detection of its own; its topic detects "
                                        "duplicates"));

    if (kind == EntityKind::Topic) {
        // A topic has no receivers of its own: lock, delivery and forwarding settings do not
        // apply. Forwarding is refused rather than ignored, because silently dropping it would
        // route messages differently from what the caller asked for.
        if (!forwardTo.isEmpty())
            found << invalid(QStringLiteral("ForwardTo is not supported on a topic"));
        // Sessions are received: a topic's subscriptions require them, not the topic.
        if (requiresSession)
            found << invalid(QStringLiteral("RequiresSession: a topic has no sessions; its "
                                            "subscriptions may require them"));
        return found;
    }

    check(checkDurationRange(kLockDuration, lockDuration, kMinLockDuration, kMaxLockDuration));
    if (maxDeliveryCount < 1)
        found << invalid(
            QStringLiteral("MaxDeliveryCount must be at least 1 (got %1)").arg(maxDeliveryCount));
    check(checkForwardPath(kForwardTo, forwardTo));
    check(checkForwardPath(kForwardDeadLetteredMessagesTo, forwardDeadLetteredMessagesTo));
    return found;
}

QJsonObject EntityProperties::toJson(EntityKind kind) const {
    QJsonObject json;
    json.insert(QLatin1String(kDefaultMessageTimeToLive), iso(defaultMessageTimeToLive));
    json.insert(QLatin1String(kAutoDeleteOnIdle), iso(autoDeleteOnIdle));
    json.insert(QLatin1String(kRequiresDuplicateDetection), requiresDuplicateDetection);
    json.insert(QLatin1String(kDuplicateDetectionHistoryTimeWindow),
                iso(duplicateDetectionHistoryTimeWindow));
    json.insert(QLatin1String(kMaxSizeInMegabytes), maxSizeInMegabytes);
    json.insert(QLatin1String(kMaxMessageSizeInKilobytes), maxMessageSizeInKilobytes);
    json.insert(QLatin1String(kStatus), entityStatusName(status));
    if (kind == EntityKind::Topic)
        return json;
    json.insert(QLatin1String(kLockDuration), iso(lockDuration));
    json.insert(QLatin1String(kMaxDeliveryCount), maxDeliveryCount);
    json.insert(QLatin1String(kDeadLetteringOnMessageExpiration), deadLetteringOnMessageExpiration);
    // The emulator writes "" for "no forwarding"; so do we, so that its files and ours compare.
    json.insert(QLatin1String(kForwardTo), forwardTo);
    json.insert(QLatin1String(kForwardDeadLetteredMessagesTo), forwardDeadLetteredMessagesTo);
    json.insert(QLatin1String(kRequiresSession), requiresSession);
    // Written only when off (its default is on), so files without SQL rules stay as the
    // emulator's own.
    if (kind == EntityKind::Subscription && !deadLetteringOnFilterEvaluationExceptions)
        json.insert(QLatin1String(kDeadLetteringOnFilterEvaluationExceptions),
                    deadLetteringOnFilterEvaluationExceptions);
    return json;
}

Result<EntityProperties> EntityProperties::fromJson(const QJsonObject& json,
                                                    const EntityProperties& base) {
    EntityProperties properties = base;
    for (auto it = json.begin(); it != json.end(); ++it) {
        bool known = false;
        for (const char* member : kKnownMembers)
            known = known || it.key() == QLatin1String(member);
        if (!known)
            return invalid(QStringLiteral("%1: unknown property (known: %2)")
                               .arg(it.key(), knownMemberList()));
        if (auto applied = applyMember(properties, it.key(), it.value()); !applied)
            return applied.error();
    }
    return properties;
}

} // namespace hourglass
