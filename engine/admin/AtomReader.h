#pragma once
// Request bodies: an Atom <entry> whose <content> holds a QueueDescription, TopicDescription,
// SubscriptionDescription or RuleDescription, read into the engine's EntityProperties and Rule.
// Only the elements present change anything: a create starts from the engine's defaults for the
// namespace's tier, an update from the entity's current properties. Elements the SDKs send that
// the engine has no use for (EnableBatchedOperations, EnablePartitioning, UserMetadata, the
// runtime figures an update echoes...) are accepted and change nothing; any other element is
// refused, as is a value that does not read as its type. Errors are InvalidArgument (400).

#include "XmlTree.h"

#include "hourglass/EntityProperties.h"
#include "hourglass/Rule.h"
#include "hourglass/Status.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace hourglass::admin {

enum class DescriptionKind { Queue, Topic, Subscription, Rule };

// What an element nobody expects means: in a request, a mistake to refuse; in a reply, something
// the service added since this was written, to pass over (the client must keep reading).
enum class UnknownElements { Refuse, Skip };

struct Description {
    DescriptionKind kind = DescriptionKind::Queue;
    XmlElement element; // the *Description element
};

// The description a body carries (in <entry><content>, or as the root itself).
Result<Description> readDescription(const QByteArray& body);

// `description` applied over `base` for an entity of `kind`. `ForwardTo` and
// `ForwardDeadLetteredMessagesTo` may be absolute (`sb://host/path`): the path is kept.
Result<EntityProperties> readProperties(const XmlElement& description, EntityKind kind,
                                        EntityProperties base,
                                        UnknownElements unknown = UnknownElements::Refuse);

// A subscription's DefaultRuleDescription, when it has one.
Result<std::optional<Rule>> readDefaultRule(const XmlElement& subscriptionDescription);

// A RuleDescription (or DefaultRuleDescription) as the rule `name`: its Filter (SqlFilter with
// Parameters, CorrelationFilter with typed Properties, TrueFilter, FalseFilter) and Action
// (EmptyRuleAction, SqlRuleAction with Parameters). SQL parameters are written into the
// expression as literals: the engine keeps the expression, not the parameters.
Result<Rule> readRule(const XmlElement& ruleDescription, const QString& name,
                      UnknownElements unknown = UnknownElements::Refuse);

// The entity path an absolute forwarding address names: "sb://host:5671/orders" -> "orders";
// a bare path is returned as it is.
QString forwardingPath(const QString& address);

} // namespace hourglass::admin
