// Answers to $cbs and $management requests. The JavaScript and .NET SDKs name a receiver link in
// reply-to; uAMQP (the C library under the Python SDK) sets no reply-to and reads its answers on
// the receiver it attached with the request node itself as source. A request that has nowhere to
// be answered is rejected before it runs, and the answers one connection holds for a client that
// grants no credit are bounded.

#include "Connection.h"

#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>
#include <proton/disposition.h>

namespace hourglass::amqp {

namespace {
void rejectRequest(pn_delivery_t* delivery, const QByteArray& condition,
                   const QString& description) {
    pn_condition_t* error = pn_disposition_condition(pn_delivery_local(delivery));
    pn_condition_set_name(error, condition.constData());
    pn_condition_set_description(error, description.toUtf8().constData());
    pn_delivery_update(delivery, PN_REJECTED);
    pn_delivery_settle(delivery);
}

// The node a request link sends to, as the client reads it: "$cbs" or "<entity>/$management".
QString nodeOf(const EntityAddress& address) {
    return address.kind == EntityAddress::Kind::Cbs
               ? QStringLiteral("$cbs")
               : address.entityPath + QStringLiteral("/$management");
}
} // namespace

std::optional<Connection::ReplyRoute>
Connection::routeReply(const Link& requestLink, const QString& replyTo, pn_delivery_t* delivery) {
    ReplyRoute route;
    route.replyTo = replyTo;
    if (replyTo.isEmpty()) {
        // The receiver whose source is the node the request went to: same kind, and for
        // $management the same entity in the same namespace.
        for (const auto& [pnLink, link] : m_links) {
            if (link->role != Role::Outbound || link->address.kind != requestLink.address.kind)
                continue;
            if (link->address.kind == EntityAddress::Kind::Management &&
                (link->address.entityPath != requestLink.address.entityPath ||
                 link->address.namespaceName != requestLink.address.namespaceName))
                continue;
            route.linkId = link->id;
            break;
        }
        if (route.linkId == 0) {
            rejectRequest(delivery, kPreconditionFailed,
                          QStringLiteral("The request has no reply-to, and this connection has "
                                         "no receiver link with source '%1' to answer on.")
                              .arg(quoted(nodeOf(requestLink.address))));
            return std::nullopt;
        }
    }
    if (m_repliesOwed + m_repliesWaiting >= kMaxRepliesHeld ||
        m_replyBytesWaiting >= kMaxReplyBytesHeld) {
        rejectRequest(delivery, kResourceLimitExceeded,
                      QStringLiteral("This connection holds %1 answers its receivers have not "
                                     "taken; grant credit on the reply link.")
                          .arg(m_repliesOwed + m_repliesWaiting));
        return std::nullopt;
    }
    ++m_repliesOwed;
    return route;
}

void Connection::sendReply(const ReplyRoute& route, const QByteArray& encoded) {
    --m_repliesOwed;
    Link* link = route.replyTo.isEmpty() ? findLink(route.linkId) : replyLink(route.replyTo);
    if (!link)
        return; // the client left no way to answer (or closed it); the request still took effect
    link->queuedReplies.push_back(encoded);
    ++m_repliesWaiting;
    m_replyBytesWaiting += encoded.size();
    flushReplies(*link);
}

void Connection::dropQueuedReplies(Link& link) {
    for (const QByteArray& reply : link.queuedReplies) {
        --m_repliesWaiting;
        m_replyBytesWaiting -= reply.size();
    }
    link.queuedReplies.clear();
}

} // namespace hourglass::amqp
