#pragma once
// "Why did this subscription (not) get my message?" (service-bus-rules.md R1-R5): for one message
// and one topic, every subscription with each rule's verdict, the reason behind it (the member of a
// correlation filter that differs, the values an SQL filter saw, the missing property that made
// it unknown, the evaluation error) and what a matching rule's action changes. The copies come
// from copiesThroughRules, the same decision the topic's fan-out takes, so the preview cannot
// disagree with a send.

#include "hourglass/EntityProperties.h"
#include "hourglass/Message.h"
#include "hourglass/Rule.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass {

enum class RuleVerdict {
    Matched,
    NotMatched,
    Unknown,     // an SQL filter that is neither true nor false (a NULL operand): no match
    Failed,      // the filter or its action met an evaluation error (R5)
    NotEvaluated // an earlier rule failed: the subscription stopped there
};
QString ruleVerdictName(RuleVerdict verdict); // "matched", "not matched", "unknown", ...

struct RuleExplanation {
    Rule rule;
    RuleVerdict verdict = RuleVerdict::NotMatched;
    // One sentence: "Subject is 'blue', the filter wants 'red'"; "color is missing"; the error.
    QString reason;
    // A matching rule's action on its copy, one change per line: "color: 'red' → 'blue'",
    // "RuleName: set to 'high'", "quantity: removed".
    QStringList changes;
};

enum class SubscriptionFate {
    Copies,       // gets `copies` copies (forwarded on when forwardTo is set)
    NoMatch,      // no rule matched
    DeadLettered, // R5: a filter or action failed; the message goes to its dead-letter queue
    Dropped,      // R5 with DeadLetteringOnFilterEvaluationExceptions off
    Disabled,     // a disabled subscription takes no copies (R1)
    // `copies` copies that ForwardTo cannot take (missing, disabled): a send puts each in the
    // subscription's own dead-letter queue, DeadLetterReason ForwardingFailed (`failure` says
    // why).
    ForwardingFailed,
};

struct SubscriptionPreview {
    QString name;
    QString path; // "topic/Subscriptions/name"
    SubscriptionFate fate = SubscriptionFate::NoMatch;
    int copies = 0;
    // Copies, ForwardingFailed: ForwardTo; DeadLettered: ForwardDeadLetteredMessagesTo when it
    // takes the dead letter (empty: kept here).
    QString forwardTo;
    // The evaluation error, for DeadLettered and Dropped; why ForwardTo cannot take the copies,
    // for ForwardingFailed.
    QString failure;
    // DeadLettered: why ForwardDeadLetteredMessagesTo cannot take the dead letter, which then
    // stays in this subscription's dead-letter queue; empty otherwise.
    QString deadLetterForwardFailure;
    QList<RuleExplanation> rules;
};

// One subscription's rules and the properties that decide its fate.
struct SubscriptionRules {
    QString path;
    EntityProperties properties;
    QList<Rule> rules;
    // What a send finds at ForwardTo and ForwardDeadLetteredMessagesTo, resolved under the
    // broker lock: empty when the destination takes messages (or none is set), else why not
    // ("The forwarding destination 'x' does not exist.").
    QString forwardToFailure;
    QString deadLetterForwardFailure;
};

QList<SubscriptionPreview> previewRouting(const QList<SubscriptionRules>& subscriptions,
                                          const OutgoingMessage& message,
                                          const SqlBrokerFields& broker);

// Broker::previewRouting's answer: each subscription's fate, and what a send would do before
// the topic's fan-out.
struct RoutingPreview {
    QList<SubscriptionPreview> subscriptions; // in path order
    // The MessageId the message was routed with (sys.MessageId, Size): its own, or one generated
    // as a send generates it for a message without one (`messageIdGenerated`).
    QString messageId;
    bool messageIdGenerated = false;
    // The topic takes no sends (Disabled, SendDisabled): what a send would be refused with; the
    // subscriptions show what they would do if it did.
    QString sendRefused;
    // L13: the topic detects duplicates and saw this MessageId within its window: a send would
    // be acknowledged and dropped, no subscription gets a copy.
    bool duplicate = false;
    // The message is scheduled: the copies are made at this instant, not now.
    std::optional<Instant> scheduledFor;
};

// What a send of `message` to the topic `topicPath` (in `topicStatus`) would do before the
// fan-out, as every namespace says it: a message without a MessageId gets one first, as a send
// gives it (so that filters on sys.MessageId and sys.Size see what a send's would: `message`
// comes back with it), a topic that takes no sends says so, and a message scheduled after `now`
// waits for its instant. The caller adds `duplicate` and the subscriptions.
RoutingPreview startRoutingPreview(const QString& topicPath, EntityStatus topicStatus,
                                   OutgoingMessage& message, Instant now);

// Why a message forwarded to `forwardTo` cannot go there now (ForwardingFailed's description):
// `status` is the destination's, none when it does not exist. Empty when it takes sends.
QString forwardingFailureText(const QString& forwardTo, std::optional<EntityStatus> status);

// How a property value reads in the preview: 'text' for a string, "5 (Int32)" otherwise.
QString previewValueText(const QVariant& value);

} // namespace hourglass
