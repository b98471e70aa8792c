#include "ScenarioWriter.h"

#include "hourglass/PropertyJson.h"
#include "hourglass/scenario/ScenarioReport.h"

#include <QJsonArray>
#include <QUtf8StringView>

namespace hourglass::scenario_writing {

namespace {

void putText(QJsonObject& json, const char* key, const QString& text) {
    if (!text.isEmpty())
        json.insert(QLatin1String(key), text);
}

} // namespace

QJsonObject propertyObject(const QVariantMap& values) {
    QJsonObject json;
    for (auto it = values.begin(); it != values.end(); ++it)
        json.insert(it.key(), propertyToJson(it.value()));
    return json;
}

QJsonObject sendStep(const QString& to, const OutgoingMessage& message, Instant start,
                     bool* binaryBody) {
    QJsonObject json{{QStringLiteral("To"), to}};
    for (const SystemTextProperty& property : kSystemTextProperties) {
        if (const QString& text = message.*property.member; !text.isEmpty())
            json.insert(sendStepKey(property), text);
    }
    if (!message.body.isEmpty()) {
        *binaryBody = !QUtf8StringView(message.body).isValidUtf8();
        json.insert(QStringLiteral("Body"), QString::fromUtf8(message.body));
    } else {
        *binaryBody = false;
    }
    if (message.timeToLive)
        json.insert(QStringLiteral("TimeToLive"), formatIsoDuration(*message.timeToLive));
    if (message.scheduledEnqueueTime)
        json.insert(QStringLiteral("ScheduledEnqueueTime"),
                    formatOffset(std::max<Millis>(0, *message.scheduledEnqueueTime - start)));
    if (!message.applicationProperties.isEmpty())
        json.insert(QStringLiteral("Properties"), propertyObject(message.applicationProperties));
    return json;
}

QJsonObject createStep(const QString& path, const EntityInfo& info) {
    QJsonObject entity{{QStringLiteral("Properties"), info.properties.toJson(info.kind)}};
    if (info.kind != EntityKind::Subscription) {
        entity.insert(QStringLiteral("Name"), path);
        return {{entityKindName(info.kind), entity}};
    }
    entity.insert(QStringLiteral("Topic"), info.topicPath);
    entity.insert(QStringLiteral("Name"), info.name);
    // No rules in a file means "the $Default true rule" (E4): only other rule sets are written,
    // and a subscription without any rule gets a $Default rule that matches nothing.
    if (!(info.rules.size() == 1 && info.rules.first() == Rule::trueRule())) {
        QList<Rule> rules = info.rules;
        if (rules.isEmpty()) {
            rules.append(Rule::trueRule());
            rules.first().filterType = FilterType::False;
        }
        QJsonArray array;
        for (const Rule& rule : rules)
            array.append(rule.toJson());
        entity.insert(QStringLiteral("Rules"), array);
    }
    return {{QStringLiteral("Subscription"), entity}};
}

QJsonObject updateStep(const QString& path, const EntityInfo& info) {
    return {{QStringLiteral("Entity"), path},
            {QStringLiteral("Properties"), info.properties.toJson(info.kind)}};
}

QString settlementName(Settlement settlement) {
    switch (settlement) {
    case Settlement::Complete:
        return QStringLiteral("Complete");
    case Settlement::Abandon:
        return QStringLiteral("Abandon");
    case Settlement::DeadLetter:
        return QStringLiteral("DeadLetter");
    case Settlement::Defer:
        return QStringLiteral("Defer");
    case Settlement::Hold:
        return QStringLiteral("Hold");
    case Settlement::RenewLock:
        return QStringLiteral("RenewLock");
    }
    return {};
}

QJsonObject settleStep(const QString& receiver, const QString& messageId, Settlement action,
                       const QString& reason, const QString& description,
                       const QVariantMap& properties) {
    QJsonObject json{{QStringLiteral("MessageId"), messageId},
                     {QStringLiteral("Action"), settlementName(action)}};
    putText(json, "Receiver", receiver);
    if (action == Settlement::DeadLetter) {
        putText(json, "Reason", reason);
        putText(json, "Description", description);
    }
    const bool modifies = action == Settlement::Abandon || action == Settlement::DeadLetter ||
                          action == Settlement::Defer;
    if (modifies && !properties.isEmpty())
        json.insert(QStringLiteral("Properties"), propertyObject(properties));
    return json;
}

QJsonObject expectStep(const QString& entity, bool exists, const EntityCounts& counts,
                       const std::optional<QMap<QString, qint64>>& deadLetterReasons) {
    QJsonObject json{{QStringLiteral("Entity"), entity}, {QStringLiteral("Exists"), exists}};
    if (!exists)
        return json;
    json.insert(QStringLiteral("Active"), counts.active);
    json.insert(QStringLiteral("Scheduled"), counts.scheduled);
    json.insert(QStringLiteral("Deferred"), counts.deferred);
    json.insert(QStringLiteral("Locked"), counts.locked);
    json.insert(QStringLiteral("DeadLettered"), counts.deadLettered);
    if (deadLetterReasons) {
        QJsonObject reasons;
        for (auto it = deadLetterReasons->begin(); it != deadLetterReasons->end(); ++it)
            reasons.insert(it.key(), it.value());
        json.insert(QStringLiteral("DeadLetterReasons"), reasons);
    }
    return json;
}

QString counted(qint64 count, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(count).arg(QLatin1String(count == 1 ? one : many));
}

std::optional<Settlement> settlementOf(BrokerOperation::Kind kind) {
    switch (kind) {
    case BrokerOperation::Kind::Complete:
        return Settlement::Complete;
    case BrokerOperation::Kind::Abandon:
        return Settlement::Abandon;
    case BrokerOperation::Kind::DeadLetter:
        return Settlement::DeadLetter;
    case BrokerOperation::Kind::Defer:
        return Settlement::Defer;
    case BrokerOperation::Kind::RenewLock:
        return Settlement::RenewLock;
    default:
        return std::nullopt;
    }
}

} // namespace hourglass::scenario_writing
