#pragma once
// The administration API's descriptions, the client's direction: what a client sends (request
// bodies, as the server here reads them) and reads back (entries and feeds, as the service and
// the server here write them). One codec for both sides: these use the same reader and writer as
// the server (AtomReader, RuleReader, AtomWriter, XmlTree), so the two cannot drift apart.
//
// Replies are hostile input like requests: the same XML limits (no DTD, 32 levels), elements a
// newer service adds are passed over, and anything that does not read as an entry or a feed is
// ServiceCommunicationProblem whose text quotes at most kMaxQuotedReply characters of it.

#include "hourglass/Broker.h"
#include "hourglass/Rule.h"
#include "hourglass/Status.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace hourglass::admin {

// A feed page of the largest size the service gives ($top 1,000) at a few dozen elements each.
inline constexpr int kMaxReplyXmlElements = 100'000;
inline constexpr qsizetype kMaxQuotedReply = 64;

// ---- requests
// An Atom <entry> around the description of `entity`'s kind with only what can be set (no
// runtime figures, none of the service's constants); forwarding addresses as the full
// `sb://<namespaceHost>/<path>` the service expects; a subscription's first rule as its
// DefaultRuleDescription (the service then makes no $Default). An `update` (the PUT with
// If-Match) also names each forwarding address it clears, as an empty element.
QByteArray entityRequest(const QString& namespaceHost, const EntityInfo& entity, bool update);
QByteArray ruleRequest(const Rule& rule);

// ---- replies
struct EntityPage {
    QList<EntityInfo> entities;
    std::optional<int> nextSkip; // the `$skip` of the feed's `next` link, when it has one
};

struct RulePage {
    QList<Rule> rules;
    std::optional<int> nextSkip;
};

// One queue, topic or subscription: its path from the entry's <id>, its properties (forwarding
// addresses as entity paths), its runtime figures (the service counts locked and deferred
// messages as active: they come back in `counts.active`; a subscription's entry has no size),
// its times, the namespace's name from
// the author. A subscription's rules are not in its entry (read them with readRuleFeed).
// An empty feed, as the service may answer a GET of nothing, is MessagingEntityNotFound.
Result<EntityInfo> readEntityReply(const QByteArray& body);
Result<EntityPage> readEntityFeed(const QByteArray& body);
Result<Rule> readRuleReply(const QByteArray& body);
Result<RulePage> readRuleFeed(const QByteArray& body);
Result<NamespaceInfo> readNamespaceReply(const QByteArray& body);

// The <Detail> of an <Error> body, clipped to kMaxQuotedReply characters with control characters
// replaced; nullopt when the body is not one.
std::optional<QString> readErrorDetail(const QByteArray& body);

// Anything a peer sent, fit to quote in an error: its first kMaxQuotedReply characters, control
// characters replaced.
QString quotedReply(const QString& text);

} // namespace hourglass::admin
