#pragma once
// The JSON of single scenario steps (scenario-format.md), written from what the broker did: the
// inverse of ScenarioStepParsers, as the ScenarioRecorder needs it. Each function returns the
// step's body (the object under "Send", "Create"...); times are offsets from the scenario's
// start. Pure functions: no broker, no state.

#include "hourglass/OperationObserver.h"
#include "hourglass/scenario/ScenarioFile.h"

#include <QJsonObject>
#include <QJsonValue>

namespace hourglass::scenario_writing {

// Application properties as a scenario carries them: each in the file form of PropertyJson.h
// (plain scalars, {"Type": "Int32", "Value": 250} for the rest), so a recorded scenario plays
// back the types it recorded.
QJsonObject propertyObject(const QVariantMap& values);

// One message sent to `to`. `start` turns a scheduled enqueue time into an offset (never before
// the start). Sets *binaryBody when the body is not UTF-8 text (it is then written as text
// anyway, with replacement characters).
QJsonObject sendStep(const QString& to, const OutgoingMessage& message, Instant start,
                     bool* binaryBody);

// {"Queue": ...}, {"Topic": ...} or {"Subscription": ...} for the entity as created, with the
// path given (for a subscription, the topic path is taken from `info`).
QJsonObject createStep(const QString& path, const EntityInfo& info);

// Every property of the entity after an update.
QJsonObject updateStep(const QString& path, const EntityInfo& info);

// A Settle step. `reason`, `description` and `properties` are written only where the action
// takes them.
QJsonObject settleStep(const QString& receiver, const QString& messageId, Settlement action,
                       const QString& reason, const QString& description,
                       const QVariantMap& properties);

// An Expect step: the entity's existence, and when it exists its counts and (except for a topic)
// its dead-letter reasons.
QJsonObject expectStep(const QString& entity, bool exists, const EntityCounts& counts,
                       const std::optional<QMap<QString, qint64>>& deadLetterReasons);

// "Settle" action names as files write them.
QString settlementName(Settlement settlement);
// The Settle action of a settling operation (Complete...RenewLock); nullopt for any other.
std::optional<Settlement> settlementOf(BrokerOperation::Kind kind);

// "1 move", "2 moves".
QString counted(qint64 count, const char* one, const char* many);

} // namespace hourglass::scenario_writing
