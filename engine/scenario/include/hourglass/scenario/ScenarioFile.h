#pragma once
// A scenario file (scenario-format.md) parsed into typed steps. Parsing checks everything that can
// be checked without a broker, so that a bad file is refused before anything runs, with the JSON
// path of the first bad field and why, e.g.
// "Scenario.Steps[3].Send.TimeToLive: 'PT' is not an ISO-8601 duration (...)".

#include "hourglass/SystemProperties.h"
#include "hourglass/scenario/EmulatorConfig.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QVariantMap>

#include <optional>
#include <variant>

namespace hourglass {

// What a receiver does with a message it holds. Hold keeps the lock for a later Settle step;
// RenewLock is only a Settle action.
enum class Settlement { Complete, Abandon, DeadLetter, Defer, Hold, RenewLock };

// Send: every string may contain {n}, which becomes 1..Count.
struct SendStep {
    QString to; // the entity
    int count = 1;
    QString body;
    // The message's system properties, each under its sendStepKey (TimeToLive a duration).
    SystemProperties system;
    std::optional<Millis> scheduledEnqueueOffset; // from the scenario's start
    QVariantMap properties; // typed values (PropertyJson.h); {n} is replaced in String ones
};

// The member of a Send step that holds a text property: its Service Bus name ("ReplyTo"), but
// "ToAddress" for To, since "To" names the entity the step sends to.
QString sendStepKey(const SystemTextProperty& property);

struct ReceiveStep {
    QString from;
    ReceiveMode mode = ReceiveMode::PeekLock;
    int count = 1;
    QString receiver;
    Settlement then = Settlement::Complete; // PeekLock only
    QString reason;                         // DeadLetter only
    QString description;                    // DeadLetter only
};

struct ReceiveDeferredStep {
    QString from;
    QString messageId; // or
    std::optional<qint64> sequenceNumber;
    QString receiver;
    Settlement then = Settlement::Hold;
    QString reason;
    QString description;
};

struct SettleStep {
    QString receiver;
    QString messageId;
    Settlement action = Settlement::Complete;
    QString reason;
    QString description;
    QVariantMap properties; // properties to modify (Abandon, DeadLetter, Defer)
};

struct CancelScheduledStep {
    QString entity;
    QString messageId; // or
    std::optional<qint64> sequenceNumber;
};

struct CreateStep {
    EntityKind kind = EntityKind::Queue;
    ConfigQueue queue;               // kind == Queue
    ConfigTopic topic;               // kind == Topic (with its subscriptions, if listed)
    ConfigSubscription subscription; // kind == Subscription
};

struct UpdateStep {
    QString entity;
    QJsonObject properties; // applied over the entity's current properties
};

struct DeleteStep {
    QString entity;
};

struct AddRuleStep {
    QString entity;
    Rule rule;
};

struct RemoveRuleStep {
    QString entity;
    QString name;
};

struct PeekStep {
    QString from;
    int count = 1;
    qint64 fromSequenceNumber = 0;
};

struct RestartStep {};

// The clock jumps ahead by `by` at once (a user's "Jump ahead"), everything due on the way firing
// in time order; later steps are at or after At + By.
struct AdvanceClockStep {
    Millis by = 0;
};

// Sessions (S2-S5). A receiver holds at most one session per entity: while it holds one, its
// Receive and ReceiveDeferred steps on that entity go through the session.
struct AcceptSessionStep {
    QString from;
    std::optional<QString> sessionId; // none: the next available session (S3)
    QString receiver;
};

struct ReleaseSessionStep {
    QString from;
    QString receiver;
};

// The holder sets its session's state (S4): the text's UTF-8 bytes, or none to remove it.
struct SessionStateStep {
    QString from;
    QString receiver;
    std::optional<QString> state;
};

enum class MessagePlace { Entity, DeadLetter, Gone };
QString messagePlaceName(MessagePlace place);

// One message an Expect step looks for. Times are offsets from the scenario's start;
// expiresAt is kInfinite for "Never".
struct ExpectedMessage {
    QString messageId;
    std::optional<MessagePlace> where;
    std::optional<QString> state; // Active, Deferred, Scheduled or Locked
    std::optional<qint64> deliveryCount;
    std::optional<Millis> expiresAt;
    std::optional<Millis> enqueuedAt;
    std::optional<QString> deadLetterReason;
};

// What an Expect step says of one session. For lockedBy and state, an inner none is the file's
// null: nobody holds the lock, the session has no state.
struct ExpectedSession {
    std::optional<qint64> active;
    std::optional<std::optional<QString>> lockedBy;
    std::optional<std::optional<QString>> state;
};

struct ExpectStep {
    QString entity;
    std::optional<bool> exists;
    std::optional<qint64> active;
    std::optional<qint64> scheduled;
    std::optional<qint64> deferred;
    std::optional<qint64> locked;
    std::optional<qint64> deadLettered;
    // The whole map must match: a reason the file does not list is a difference too.
    std::optional<QMap<QString, qint64>> deadLetterReasons;
    QList<ExpectedMessage> messages;
    QMap<QString, ExpectedSession> sessions; // by session id
};

using StepAction =
    std::variant<SendStep, ReceiveStep, ReceiveDeferredStep, SettleStep, CancelScheduledStep,
                 CreateStep, UpdateStep, DeleteStep, AddRuleStep, RemoveRuleStep, PeekStep,
                 RestartStep, ExpectStep, AcceptSessionStep, ReleaseSessionStep, SessionStateStep,
                 AdvanceClockStep>;

// The step's name as written in files ("Send", "Receive", ...).
QString stepName(const StepAction& action);

struct ScenarioStep {
    int index = 0;    // position in the file's Steps array (reports name steps by it)
    QString jsonPath; // "Scenario.Steps[3]"
    Millis at = 0;    // offset from the scenario's start
    std::optional<ErrorCode> expectError;
    StepAction action;
};

struct Scenario {
    QString title;
    QString description;
    UserConfig userConfig;
    QList<ScenarioStep> steps; // sorted by At; equal At keeps file order
};

// Parses a scenario document. Errors are InvalidArgument with "<JSON path>: why"; bad JSON is
// reported with its line and column.
Result<Scenario> parseScenario(const QByteArray& document);
// Reads and parses a file (Qt resource paths such as ":/scenarios/x.json" work too).
Result<Scenario> loadScenarioFile(const QString& fileName);

} // namespace hourglass
