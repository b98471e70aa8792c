#include "ScenarioStepParsers.h"
#include "EmulatorConfigParsers.h"

#include "hourglass/PropertyJson.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace hourglass::scenario_parsing {

namespace {

constexpr qint64 kMaxCount = 100000;
constexpr qint64 kMaxSequenceNumber = std::numeric_limits<qint64>::max();

const QStringList kSettlements{QStringLiteral("Complete"),   QStringLiteral("Abandon"),
                               QStringLiteral("DeadLetter"), QStringLiteral("Defer"),
                               QStringLiteral("Hold"),       QStringLiteral("RenewLock")};

// An entity path member: required and not empty. Whether it exists is the broker's answer.
QString readPath(JsonReader& reader, const QString& key) {
    const auto path = reader.string(key, Need::Required);
    if (path && path->isEmpty())
        reader.fail(key, QStringLiteral("an entity path cannot be empty"));
    return path.value_or(QString());
}

// One of the settlements in `allowed` (names as in kSettlements).
std::optional<Settlement> readSettlement(JsonReader& reader, const QString& key,
                                         const QList<Settlement>& allowed) {
    QStringList names;
    for (const Settlement s : allowed)
        names << kSettlements.at(static_cast<int>(s));
    const auto index = reader.choice(key, names);
    if (!index)
        return std::nullopt;
    return allowed.at(*index);
}

// Application properties: plain scalars, or {"Type", "Value"} objects for the types plain JSON
// cannot say (PropertyJson.h). nullopt when absent or bad (the first bad one is reported).
std::optional<QVariantMap> readPropertyObject(JsonReader& reader, const QString& key) {
    const auto object = reader.object(key);
    if (!object)
        return std::nullopt;
    QVariantMap properties;
    for (auto it = object->begin(); it != object->end(); ++it) {
        auto value = propertyFromJson(it.value());
        if (!value) {
            reader.error().set(memberPath(reader.pathOf(key), it.key()), value.error().description);
            return std::nullopt;
        }
        properties.insert(it.key(), *value);
    }
    return properties;
}

// MessageId or SequenceNumber, exactly one.
void readMessageSelector(JsonReader& reader, QString& messageId,
                         std::optional<qint64>& sequenceNumber) {
    messageId = reader.string(QStringLiteral("MessageId")).value_or(QString());
    sequenceNumber = reader.integer(QStringLiteral("SequenceNumber"), 1, kMaxSequenceNumber);
    const bool hasId = reader.has(QStringLiteral("MessageId"));
    const bool hasNumber = reader.has(QStringLiteral("SequenceNumber"));
    if (hasId == hasNumber)
        reader.error().set(reader.path(),
                           QStringLiteral("give either MessageId or SequenceNumber (one of them)"));
}

// Reason and Description belong to dead-lettering only.
void readDeadLetterDetails(JsonReader& reader, Settlement settlement, QString& reason,
                           QString& description) {
    reason = reader.string(QStringLiteral("Reason")).value_or(QString());
    description = reader.string(QStringLiteral("Description")).value_or(QString());
    if (settlement != Settlement::DeadLetter) {
        for (const auto& key : {QStringLiteral("Reason"), QStringLiteral("Description")}) {
            if (reader.has(key))
                reader.fail(key, QStringLiteral("only used when dead-lettering"));
        }
    }
}

// A string, or null (given as such: absent is "not checked", which the caller tells by has()).
std::optional<QString> readStringOrNull(JsonReader& reader, const QString& key) {
    const QJsonValue value = reader.value(key);
    if (value.isNull() || value.isUndefined())
        return std::nullopt;
    if (!value.isString()) {
        reader.fail(key,
                    QStringLiteral("expected a string or null, got %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }
    return value.toString();
}

ExpectedSession parseExpectedSession(const QJsonObject& json, const QString& path,
                                     ParseError& error) {
    JsonReader reader(json, path, error);
    ExpectedSession expected;
    expected.active =
        reader.integer(QStringLiteral("Active"), 0, std::numeric_limits<qint64>::max());
    if (reader.has(QStringLiteral("LockedBy")))
        expected.lockedBy = readStringOrNull(reader, QStringLiteral("LockedBy"));
    if (reader.has(QStringLiteral("State")))
        expected.state = readStringOrNull(reader, QStringLiteral("State"));
    reader.refuseUnread();
    return expected;
}

std::optional<Millis> readOffsetOrNever(JsonReader& reader, const QString& key) {
    const QJsonValue value = reader.value(key);
    if (value.isString() && value.toString() == QLatin1String("Never"))
        return kInfinite;
    return reader.duration(key);
}

ExpectedMessage parseExpectedMessage(const QJsonObject& json, const QString& path,
                                     ParseError& error) {
    JsonReader reader(json, path, error);
    ExpectedMessage expected;
    expected.messageId =
        reader.string(QStringLiteral("MessageId"), Need::Required).value_or(QString());
    if (const auto where = reader.choice(
            QStringLiteral("Where"),
            {QStringLiteral("Entity"), QStringLiteral("DeadLetter"), QStringLiteral("Gone")}))
        expected.where = static_cast<MessagePlace>(*where);
    const QStringList states{QStringLiteral("Active"), QStringLiteral("Deferred"),
                             QStringLiteral("Scheduled"), QStringLiteral("Locked")};
    if (const auto state = reader.choice(QStringLiteral("State"), states))
        expected.state = states.at(*state);
    expected.deliveryCount =
        reader.integer(QStringLiteral("DeliveryCount"), 0, std::numeric_limits<quint32>::max());
    expected.expiresAt = readOffsetOrNever(reader, QStringLiteral("ExpiresAt"));
    expected.enqueuedAt = reader.duration(QStringLiteral("EnqueuedAt"));
    expected.deadLetterReason = reader.string(QStringLiteral("DeadLetterReason"));
    reader.refuseUnread();
    return expected;
}

} // namespace

SendStep parseSend(JsonReader& reader) {
    SendStep step;
    step.to = readPath(reader, QStringLiteral("To"));
    step.count =
        static_cast<int>(reader.integer(QStringLiteral("Count"), 1, kMaxCount).value_or(1));
    const std::pair<const char*, QString*> strings[] = {
        {"MessageId", &step.messageId}, {"ContentType", &step.contentType},
        {"Subject", &step.subject},     {"CorrelationId", &step.correlationId},
        {"SessionId", &step.sessionId}, {"ToAddress", &step.toAddress},
        {"ReplyTo", &step.replyTo},     {"ReplyToSessionId", &step.replyToSessionId},
    };
    for (const auto& [key, target] : strings)
        *target = reader.string(QLatin1String(key)).value_or(QString());
    // A body is text; a JSON object or array is sent as its compact JSON text.
    const QJsonValue body = reader.value(QStringLiteral("Body"));
    if (body.isString())
        step.body = body.toString();
    else if (body.isObject())
        step.body =
            QString::fromUtf8(QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact));
    else if (body.isArray())
        step.body = QString::fromUtf8(QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact));
    else if (!body.isUndefined())
        reader.fail(
            QStringLiteral("Body"),
            QStringLiteral("expected a string, object or array, got %1").arg(jsonTypeName(body)));
    step.timeToLive = reader.duration(QStringLiteral("TimeToLive"));
    step.scheduledEnqueueOffset = reader.duration(QStringLiteral("ScheduledEnqueueTime"));
    step.properties =
        readPropertyObject(reader, QStringLiteral("Properties")).value_or(QVariantMap());
    return step;
}

ReceiveStep parseReceive(JsonReader& reader) {
    ReceiveStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    if (const auto mode =
            reader.choice(QStringLiteral("Mode"),
                          {QStringLiteral("PeekLock"), QStringLiteral("ReceiveAndDelete")}))
        step.mode = *mode == 0 ? ReceiveMode::PeekLock : ReceiveMode::ReceiveAndDelete;
    step.count =
        static_cast<int>(reader.integer(QStringLiteral("Count"), 1, kMaxCount).value_or(1));
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    if (const auto then =
            readSettlement(reader, QStringLiteral("Then"),
                           {Settlement::Complete, Settlement::Abandon, Settlement::DeadLetter,
                            Settlement::Defer, Settlement::Hold}))
        step.then = *then;
    if (step.mode == ReceiveMode::ReceiveAndDelete && reader.has(QStringLiteral("Then")))
        reader.fail(QStringLiteral("Then"),
                    QStringLiteral("ReceiveAndDelete consumes the message; there is nothing to "
                                   "settle"));
    readDeadLetterDetails(reader, step.then, step.reason, step.description);
    return step;
}

ReceiveDeferredStep parseReceiveDeferred(JsonReader& reader) {
    ReceiveDeferredStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    readMessageSelector(reader, step.messageId, step.sequenceNumber);
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    if (const auto then =
            readSettlement(reader, QStringLiteral("Then"),
                           {Settlement::Complete, Settlement::Abandon, Settlement::DeadLetter,
                            Settlement::Defer, Settlement::Hold}))
        step.then = *then;
    readDeadLetterDetails(reader, step.then, step.reason, step.description);
    return step;
}

SettleStep parseSettle(JsonReader& reader) {
    SettleStep step;
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    step.messageId = reader.string(QStringLiteral("MessageId"), Need::Required).value_or(QString());
    if (const auto action =
            readSettlement(reader, QStringLiteral("Action"),
                           {Settlement::Complete, Settlement::Abandon, Settlement::DeadLetter,
                            Settlement::Defer, Settlement::RenewLock});
        action)
        step.action = *action;
    else if (!reader.has(QStringLiteral("Action")))
        reader.fail(QStringLiteral("Action"), QStringLiteral("missing"));
    readDeadLetterDetails(reader, step.action, step.reason, step.description);
    if (const auto properties = readPropertyObject(reader, QStringLiteral("Properties"))) {
        if (step.action == Settlement::Complete || step.action == Settlement::RenewLock)
            reader.fail(QStringLiteral("Properties"),
                        QStringLiteral("only Abandon, DeadLetter and Defer modify properties"));
        step.properties = *properties;
    }
    return step;
}

CancelScheduledStep parseCancelScheduled(JsonReader& reader) {
    CancelScheduledStep step;
    step.entity = readPath(reader, QStringLiteral("Entity"));
    readMessageSelector(reader, step.messageId, step.sequenceNumber);
    return step;
}

CreateStep parseCreate(JsonReader& reader, const StepContext& context) {
    CreateStep step;
    const QStringList kinds{QStringLiteral("Queue"), QStringLiteral("Topic"),
                            QStringLiteral("Subscription")};
    int found = 0;
    for (int k = 0; k < kinds.size(); ++k) {
        if (!reader.has(kinds[k]))
            continue;
        ++found;
        step.kind = static_cast<EntityKind>(k);
        const auto object = reader.object(kinds[k]);
        if (!object)
            return step;
        const QString path = reader.pathOf(kinds[k]);
        ParseError& error = reader.error();
        if (step.kind == EntityKind::Queue)
            step.queue = parseConfigQueue(*object, path, context.tier, BoundsCheck::Skip, error);
        else if (step.kind == EntityKind::Topic)
            step.topic = parseConfigTopic(*object, path, context.tier, BoundsCheck::Skip, error);
        else
            step.subscription =
                parseConfigSubscription(*object, path, {}, context.tier, BoundsCheck::Skip, error);
    }
    if (found != 1)
        reader.error().set(reader.path(),
                           QStringLiteral("give exactly one of Queue, Topic or Subscription"));
    return step;
}

UpdateStep parseUpdate(JsonReader& reader, const StepContext& context) {
    UpdateStep step;
    step.entity = readPath(reader, QStringLiteral("Entity"));
    step.properties =
        reader.object(QStringLiteral("Properties"), Need::Required).value_or(QJsonObject());
    // Member names and types are judged now; the values, by the engine when the step runs.
    const auto parsed =
        EntityProperties::fromJson(step.properties, EntityProperties::defaults(context.tier));
    const QString propertiesPath = reader.pathOf(QStringLiteral("Properties"));
    if (!parsed) {
        const QString text = parsed.error().description;
        const auto colon = text.indexOf(QStringLiteral(": "));
        reader.error().set(memberPath(propertiesPath, text.left(colon)), text.mid(colon + 2));
        return step;
    }
    return step;
}

DeleteStep parseDelete(JsonReader& reader) {
    return DeleteStep{readPath(reader, QStringLiteral("Entity"))};
}

AddRuleStep parseAddRule(JsonReader& reader) {
    AddRuleStep step;
    step.entity = readPath(reader, QStringLiteral("Entity"));
    const auto object = reader.object(QStringLiteral("Rule"), Need::Required);
    if (!object)
        return step;
    const QString rulePath = reader.pathOf(QStringLiteral("Rule"));
    auto rule = Rule::fromJson(*object);
    if (!rule) {
        const QString text = rule.error().description;
        const auto colon = text.indexOf(QStringLiteral(": "));
        reader.error().set(memberPath(rulePath, text.left(colon)), text.mid(colon + 2));
        return step;
    }
    step.rule = *rule;
    return step;
}

RemoveRuleStep parseRemoveRule(JsonReader& reader) {
    RemoveRuleStep step;
    step.entity = readPath(reader, QStringLiteral("Entity"));
    step.name = reader.string(QStringLiteral("Name"), Need::Required).value_or(QString());
    return step;
}

PeekStep parsePeek(JsonReader& reader) {
    PeekStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    step.count =
        static_cast<int>(reader.integer(QStringLiteral("Count"), 1, kMaxCount).value_or(1));
    step.fromSequenceNumber =
        reader.integer(QStringLiteral("FromSequenceNumber"), 0, kMaxSequenceNumber).value_or(0);
    return step;
}

ExpectStep parseExpect(JsonReader& reader) {
    ExpectStep step;
    step.entity = readPath(reader, QStringLiteral("Entity"));
    step.exists = reader.boolean(QStringLiteral("Exists"));
    const qint64 max = std::numeric_limits<qint64>::max();
    step.active = reader.integer(QStringLiteral("Active"), 0, max);
    step.scheduled = reader.integer(QStringLiteral("Scheduled"), 0, max);
    step.deferred = reader.integer(QStringLiteral("Deferred"), 0, max);
    step.locked = reader.integer(QStringLiteral("Locked"), 0, max);
    step.deadLettered = reader.integer(QStringLiteral("DeadLettered"), 0, max);
    if (const auto reasons = reader.object(QStringLiteral("DeadLetterReasons"))) {
        JsonReader reasonReader(*reasons, reader.pathOf(QStringLiteral("DeadLetterReasons")),
                                reader.error());
        QMap<QString, qint64> map;
        for (const QString& reason : reasons->keys())
            map.insert(reason, reasonReader.integer(reason, 0, max).value_or(0));
        step.deadLetterReasons = map;
    }
    if (const auto sessions = reader.object(QStringLiteral("Sessions"))) {
        const QString sessionsPath = reader.pathOf(QStringLiteral("Sessions"));
        for (auto it = sessions->begin(); it != sessions->end() && !reader.error().failed(); ++it) {
            const QString itemPath = memberPath(sessionsPath, it.key());
            if (!it.value().isObject()) {
                reader.error().set(
                    itemPath,
                    QStringLiteral("expected an object, got %1").arg(jsonTypeName(it.value())));
                break;
            }
            step.sessions.insert(
                it.key(), parseExpectedSession(it.value().toObject(), itemPath, reader.error()));
        }
    }
    if (const auto messages = reader.array(QStringLiteral("Messages"))) {
        const QString arrayPath = reader.pathOf(QStringLiteral("Messages"));
        for (qsizetype i = 0; i < messages->size() && !reader.error().failed(); ++i) {
            const QJsonValue item = messages->at(i);
            if (!item.isObject()) {
                reader.error().set(
                    indexPath(arrayPath, i),
                    QStringLiteral("expected an object, got %1").arg(jsonTypeName(item)));
                break;
            }
            step.messages.append(
                parseExpectedMessage(item.toObject(), indexPath(arrayPath, i), reader.error()));
        }
    }
    return step;
}

AcceptSessionStep parseAcceptSession(JsonReader& reader) {
    AcceptSessionStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    step.sessionId = reader.string(QStringLiteral("SessionId"));
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    return step;
}

ReleaseSessionStep parseReleaseSession(JsonReader& reader) {
    ReleaseSessionStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    return step;
}

SessionStateStep parseSessionState(JsonReader& reader) {
    SessionStateStep step;
    step.from = readPath(reader, QStringLiteral("From"));
    step.receiver = reader.string(QStringLiteral("Receiver")).value_or(QString());
    if (!reader.has(QStringLiteral("State")))
        reader.fail(QStringLiteral("State"), QStringLiteral("missing (null removes the state)"));
    step.state = readStringOrNull(reader, QStringLiteral("State"));
    return step;
}

AdvanceClockStep parseAdvanceClock(JsonReader& reader) {
    AdvanceClockStep step;
    step.by = reader.duration(QStringLiteral("By"), Need::Required).value_or(0);
    return step;
}

} // namespace hourglass::scenario_parsing
