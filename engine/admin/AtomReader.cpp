#include "AtomReader.h"

#include "AdminErrors.h"

#include <algorithm>
#include <array>
#include <functional>

namespace hourglass::admin {

namespace {
Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

enum KindMask : unsigned { kQueue = 1, kTopic = 2, kSubscription = 4 };

unsigned maskOf(EntityKind kind) {
    switch (kind) {
    case EntityKind::Queue:
        return kQueue;
    case EntityKind::Topic:
        return kTopic;
    case EntityKind::Subscription:
        break;
    }
    return kSubscription;
}

QString kindWord(EntityKind kind) {
    return entityKindName(kind).toLower();
}

using Apply = std::function<Result<void>(EntityProperties&, const QString&)>;

Error badValue(const QString& element, const QString& value, const char* expected) {
    return invalid(
        QStringLiteral("%1: '%2' is not %3.").arg(element, quoted(value), QLatin1String(expected)));
}

Apply duration(Millis EntityProperties::*member, const char* element) {
    return [member, element](EntityProperties& p, const QString& text) -> Result<void> {
        const auto parsed = parseIsoDuration(text.trimmed());
        if (!parsed)
            return badValue(QLatin1String(element), text, "an ISO-8601 duration such as PT1M");
        p.*member = *parsed;
        return {};
    };
}

Apply integer(int EntityProperties::*member, const char* element) {
    return [member, element](EntityProperties& p, const QString& text) -> Result<void> {
        bool ok = false;
        const int value = text.trimmed().toInt(&ok);
        if (!ok)
            return badValue(QLatin1String(element), text, "a whole number");
        p.*member = value;
        return {};
    };
}

Apply boolean(bool EntityProperties::*member, const char* element) {
    return [member, element](EntityProperties& p, const QString& text) -> Result<void> {
        const QString t = text.trimmed();
        if (t == QLatin1String("true") || t == QLatin1String("1"))
            p.*member = true;
        else if (t == QLatin1String("false") || t == QLatin1String("0"))
            p.*member = false;
        else
            return badValue(QLatin1String(element), text, "true or false");
        return {};
    };
}

Apply forwarding(QString EntityProperties::*member) {
    return [member](EntityProperties& p, const QString& text) -> Result<void> {
        p.*member = forwardingPath(text.trimmed());
        return {};
    };
}

Result<void> status(EntityProperties& p, const QString& text) {
    const auto parsed = entityStatusFromName(text.trimmed());
    if (!parsed)
        return badValue(QStringLiteral("Status"), text,
                        "Active, Disabled, SendDisabled or ReceiveDisabled");
    p.status = *parsed;
    return {};
}

struct Member {
    const char* element;
    unsigned kinds;
    Apply apply; // empty: accepted, and changes nothing in the engine
};

const std::vector<Member>& members() {
    static const std::vector<Member> table{
        {"LockDuration", kQueue | kSubscription,
         duration(&EntityProperties::lockDuration, "LockDuration")},
        {"MaxSizeInMegabytes", kQueue | kTopic,
         integer(&EntityProperties::maxSizeInMegabytes, "MaxSizeInMegabytes")},
        {"RequiresDuplicateDetection", kQueue | kTopic,
         boolean(&EntityProperties::requiresDuplicateDetection, "RequiresDuplicateDetection")},
        {"RequiresSession", kQueue | kSubscription,
         boolean(&EntityProperties::requiresSession, "RequiresSession")},
        {"DefaultMessageTimeToLive", kQueue | kTopic | kSubscription,
         duration(&EntityProperties::defaultMessageTimeToLive, "DefaultMessageTimeToLive")},
        {"DeadLetteringOnMessageExpiration", kQueue | kSubscription,
         boolean(&EntityProperties::deadLetteringOnMessageExpiration,
                 "DeadLetteringOnMessageExpiration")},
        {"DeadLetteringOnFilterEvaluationExceptions", kSubscription,
         boolean(&EntityProperties::deadLetteringOnFilterEvaluationExceptions,
                 "DeadLetteringOnFilterEvaluationExceptions")},
        {"DuplicateDetectionHistoryTimeWindow", kQueue | kTopic,
         duration(&EntityProperties::duplicateDetectionHistoryTimeWindow,
                  "DuplicateDetectionHistoryTimeWindow")},
        {"MaxDeliveryCount", kQueue | kSubscription,
         integer(&EntityProperties::maxDeliveryCount, "MaxDeliveryCount")},
        {"Status", kQueue | kTopic | kSubscription, status},
        {"ForwardTo", kQueue | kSubscription, forwarding(&EntityProperties::forwardTo)},
        {"ForwardDeadLetteredMessagesTo", kQueue | kSubscription,
         forwarding(&EntityProperties::forwardDeadLetteredMessagesTo)},
        {"AutoDeleteOnIdle", kQueue | kTopic | kSubscription,
         duration(&EntityProperties::autoDeleteOnIdle, "AutoDeleteOnIdle")},
        {"MaxMessageSizeInKilobytes", kQueue | kTopic,
         integer(&EntityProperties::maxMessageSizeInKilobytes, "MaxMessageSizeInKilobytes")},
    };
    return table;
}

// What the SDKs send (or echo from a read in an update) that the engine has no use for.
constexpr std::array<const char*, 19> kAccepted{
    "EnableBatchedOperations",
    "AuthorizationRules",
    "UserMetadata",
    "EnablePartitioning",
    "EnableExpress",
    "IsExpress",
    "SupportOrdering",
    "EntityAvailabilityStatus",
    "IsAnonymousAccessible",
    "FilteringMessagesBeforePublishing",
    "EnableSubscriptionPartitioning",
    "SizeInBytes",
    "MessageCount",
    "CountDetails",
    "SubscriptionCount",
    "CreatedAt",
    "UpdatedAt",
    "AccessedAt",
    "DefaultRuleDescription", // read by readDefaultRule
};

bool accepted(const QString& name) {
    for (const char* element : kAccepted)
        if (name == QLatin1String(element))
            return true;
    return false;
}

std::optional<DescriptionKind> kindOf(const QString& element) {
    if (element == QLatin1String("QueueDescription"))
        return DescriptionKind::Queue;
    if (element == QLatin1String("TopicDescription"))
        return DescriptionKind::Topic;
    if (element == QLatin1String("SubscriptionDescription"))
        return DescriptionKind::Subscription;
    if (element == QLatin1String("RuleDescription"))
        return DescriptionKind::Rule;
    return std::nullopt;
}
} // namespace

Result<Description> readDescription(const QByteArray& body) {
    if (body.trimmed().isEmpty())
        return invalid(QStringLiteral("The request has no body; it takes an Atom entry."));
    XmlParse parsed = parseXml(body);
    if (!parsed.root)
        return invalid(parsed.error);
    const XmlElement* description = &*parsed.root;
    if (description->name == QLatin1String("entry")) {
        const XmlElement* content = description->child(QStringLiteral("content"));
        if (!content || content->children.size() != 1)
            return invalid(QStringLiteral("The entry's content must hold one description."));
        description = &content->children.first();
    }
    const auto kind = kindOf(description->name);
    if (!kind)
        return invalid(QStringLiteral("'%1' is not a queue, topic, subscription or rule "
                                      "description.")
                           .arg(quoted(description->name)));
    return Description{*kind, *description};
}

Result<EntityProperties> readProperties(const XmlElement& description, EntityKind kind,
                                        EntityProperties base, UnknownElements unknown) {
    for (const XmlElement& element : description.children) {
        const auto member =
            std::find_if(members().cbegin(), members().cend(), [&element](const Member& m) {
                return element.name == QLatin1String(m.element);
            });
        if (member == members().cend()) {
            if (accepted(element.name) || unknown == UnknownElements::Skip)
                continue;
            return invalid(QStringLiteral("'%1' is not a property of a %2.")
                               .arg(quoted(element.name), kindWord(kind)));
        }
        if (!(member->kinds & maskOf(kind))) {
            if (unknown == UnknownElements::Skip)
                continue;
            return invalid(QStringLiteral("%1 is not a property of a %2.")
                               .arg(QLatin1String(member->element), kindWord(kind)));
        }
        if (!element.children.isEmpty())
            return invalid(QStringLiteral("%1 must hold a value, not elements.")
                               .arg(QLatin1String(member->element)));
        if (auto applied = member->apply(base, element.text); !applied)
            return applied.error();
    }
    return base;
}

Result<std::optional<Rule>> readDefaultRule(const XmlElement& subscriptionDescription) {
    const XmlElement* rule =
        subscriptionDescription.child(QStringLiteral("DefaultRuleDescription"));
    if (!rule)
        return std::optional<Rule>();
    const XmlElement* name = rule->child(QStringLiteral("Name"));
    auto read =
        readRule(*rule, name && !name->text.trimmed().isEmpty() ? name->text.trimmed()
                                                                : QStringLiteral("$Default"));
    if (!read)
        return read.error();
    return std::optional<Rule>(std::move(read).value());
}

QString forwardingPath(const QString& address) {
    const qsizetype scheme = address.indexOf(QLatin1String("://"));
    if (scheme < 0)
        return address;
    const qsizetype slash = address.indexOf(u'/', scheme + 3);
    if (slash < 0)
        return {};
    QString path = address.mid(slash + 1);
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

} // namespace hourglass::admin
