// Transfers from the client, frame by frame, before ConnectionSends.cpp reads them as
// messages. Proton 0.37 counts a receiving link's transfers but never refuses one past the
// credit granted (it takes and buffers every transfer a sender writes), so the credit is kept
// here: a transfer past it ends the link with amqp:link:transfer-limit-exceeded and nothing of it
// is kept. A transfer past the link's max-message-size is dropped as its frames arrive and
// rejected on its own delivery once the last one is in; the link goes on.

#include "Connection.h"

#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>
#include <proton/disposition.h>

#include <algorithm>
#include <utility>

namespace hourglass::amqp {

namespace {
// Credit kept open on an entity's inbound link, less the transfers it holds: enough for 100 sends
// in flight and a batch behind.
constexpr quint32 kInboundWindow = 500;
// On $cbs and $management: requests, answered one by one; the SDKs keep a few out at once.
constexpr quint32 kRequestWindow = 16;
// Bytes a transfer may carry beyond the link's max-message-size (the SDKs size the message, the
// transfer adds the header and annotations): the broker's own size check refuses what passes
// here, with the same condition.
constexpr quint64 kTransferOverhead = 64 * 1024;

quint32 windowOf(const EntityAddress& address) {
    return address.kind == EntityAddress::Kind::Entity ? kInboundWindow : kRequestWindow;
}

const QByteArray kTransferLimitExceeded = QByteArrayLiteral("amqp:link:transfer-limit-exceeded");
} // namespace

quint64 Connection::transferBound(const Link& link) {
    return link.maxMessageSize + kTransferOverhead;
}

quint64 Connection::inboundBytesSpoken() const {
    // Every transfer this end allowed and has not finished with counts at the most it may
    // carry: credit not yet used, the transfer arriving, and messages waiting for or in a send
    // call. A peer's credit is granted before its bytes arrive, so the bound must hold for what
    // the credit allows, not for what has come so far.
    quint64 bytes = 0;
    for (const auto& [pnLink, link] : m_links) {
        if (link->role != Role::Inbound)
            continue;
        const quint64 transfers = quint64(link->creditUnused) + link->queuedSends.size() +
                                  link->sendingNow + (link->arriving ? 1 : 0);
        bytes += transfers * transferBound(*link);
    }
    return bytes;
}

void Connection::replenishCredit(Link& link) {
    if (link.attaching)
        return; // credit comes with the attach
    // The window covers what this end still holds of the link's transfers too: messages waiting
    // for their send call or in it. A sender faster than the disk is held back by its credit
    // instead of piling transfers up here.
    const quint32 window = windowOf(link.address);
    const quint64 open = quint64(link.creditUnused) + link.queuedSends.size() + link.sendingNow;
    if (open >= window / 2)
        return;
    // The connection's transfers stay within kInboundBytesPerConnection (PeerLimits.h), the
    // credit of all its links together. A link that holds nothing always gets one transfer, so
    // that no link waits forever on credit its neighbours keep unused.
    const quint64 spoken = inboundBytesSpoken();
    const quint64 room =
        spoken < kInboundBytesPerConnection ? kInboundBytesPerConnection - spoken : 0;
    quint64 grant = std::min<quint64>(window - open, room / transferBound(link));
    if (grant == 0 && open == 0)
        grant = 1;
    link.creditStarved = grant < window - open;
    if (link.creditStarved)
        m_creditStarved = true;
    if (grant == 0)
        return;
    pn_link_flow(link.link, int(grant));
    link.creditUnused += quint32(grant);
}

void Connection::replenishStarvedLinks() {
    // Bytes of the connection's budget came free (a send call ended, a link closed): links that
    // got less credit than their window try again.
    if (!std::exchange(m_creditStarved, false))
        return;
    for (auto& [pnLink, link] : m_links) {
        if (link->role == Role::Inbound && link->creditStarved)
            replenishCredit(*link);
    }
}

void Connection::inboundFlow(Link& link) {
    // A sender that drains hands unused credit back by advancing its delivery-count; Proton
    // counts what it gave back (and forgets it once read).
    const int drained = pn_link_drained(link.link);
    if (drained <= 0)
        return;
    link.creditUnused -= std::min(link.creditUnused, quint32(drained));
    replenishCredit(link);
}

bool Connection::startTransfer(Link& link, pn_delivery_t* delivery) {
    if (delivery == link.arriving)
        return true; // a further frame of it
    if (link.creditUnused == 0) {
        pn_delivery_settle(delivery); // its bytes, and those of its later frames, are dropped
        detach(link, kTransferLimitExceeded,
               QStringLiteral("The client sent more transfers than the link credit allowed."));
        return false;
    }
    --link.creditUnused;
    link.arriving = delivery;
    link.discarding = false;
    link.partial.clear();
    return true;
}

bool Connection::readTransfer(Link& link, pn_delivery_t* delivery) {
    const quint64 limit = link.maxMessageSize + kTransferOverhead;
    char chunk[16384];
    ssize_t got;
    while ((got = pn_link_recv(link.link, chunk, sizeof chunk)) > 0) {
        if (link.discarding)
            continue;
        if (quint64(link.partial.size()) + quint64(got) > limit) {
            link.discarding = true;
            link.partial = QByteArray();
            continue;
        }
        link.partial.append(chunk, qsizetype(got));
    }
    if (pn_delivery_partial(delivery))
        return false;
    link.arriving = nullptr;
    if (!std::exchange(link.discarding, false))
        return true;
    pn_link_advance(link.link);
    pn_condition_t* error = pn_disposition_condition(pn_delivery_local(delivery));
    pn_condition_set_name(error, wireCondition(ErrorCode::MessageSizeExceeded).constData());
    pn_condition_set_description(
        error, QStringLiteral("The message is larger than the link's max-message-size (%1 bytes).")
                   .arg(link.maxMessageSize)
                   .toUtf8()
                   .constData());
    pn_delivery_update(delivery, PN_REJECTED);
    pn_delivery_settle(delivery);
    replenishCredit(link);
    return false;
}

} // namespace hourglass::amqp
