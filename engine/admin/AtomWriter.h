#pragma once
// Replies as the service writes them and as the SDKs read them: an Atom <entry> (or a <feed> of
// entries) whose <content> holds the description, every element the clients require present
// (the runtime figures in the same entry), `CountDetails` with its one `d2p1` prefix, typed
// values as `i:type="d6p1:int"` (a four-character prefix: the JavaScript client cuts the type
// name after five characters), forwarding addresses as absolute `sb://` URLs, and each entry's
// <id> an absolute URL whose path names the entity.

#include "hourglass/Broker.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace hourglass::admin {

struct ReplyContext {
    QString origin;        // "https://localhost:5671": the ids' scheme and authority
    QString host;          // "localhost:5671": forwarding addresses are sb://<host>/<path>
    QString namespaceName; // the author of every entry
    Instant now = 0;       // the feed's <updated>
};

// A page of a list: the path it lists ("$Resources/Queues", "t/Subscriptions"), its title,
// where it starts, its size, and whether a next page follows (then a `next` link is written).
struct FeedPage {
    QString path;
    QString title;
    int skip = 0;
    int top = 0;
    bool more = false;
};

// One queue, topic or subscription. `subscriptionCount` is written for topics.
QByteArray entityEntry(const ReplyContext& context, const EntityInfo& entity,
                       int subscriptionCount = 0);
QByteArray entityFeed(const ReplyContext& context, const FeedPage& page,
                      const QList<EntityInfo>& entities,
                      const QHash<QString, int>& subscriptionCounts = {});

// One rule of `subscription`.
QByteArray ruleEntry(const ReplyContext& context, const EntityInfo& subscription, const Rule& rule);
QByteArray ruleFeed(const ReplyContext& context, const FeedPage& page,
                    const EntityInfo& subscription, const QList<Rule>& rules);

// $namespaceinfo: the namespace's name and tier, when it was created and last changed.
QByteArray namespaceEntry(const ReplyContext& context, const NamespaceInfo& info, Instant created,
                          Instant modified);

// The client's direction (entityRequest, ruleRequest) is declared in the public
// hourglass/admin/AtomCodec.h.

// <Error><Code>status</Code><Detail>detail</Detail></Error>
QByteArray writeError(int status, const QString& detail);

} // namespace hourglass::admin
