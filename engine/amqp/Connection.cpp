#include "Connection.h"

#include "LinkCredit.h"
#include "NamespacedRefs.h"
#include "SessionLinks.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include "hourglass/EntityPath.h"

#include <QDateTime>

#include <algorithm>
#include <climits>
#include <tuple>

#include <proton/condition.h>
#include <proton/netaddr.h>
#include <proton/proactor.h>
#include <proton/session.h>
#include <proton/terminus.h>
#include <proton/transport.h>

namespace hourglass::amqp {

namespace {
QString addressOf(pn_terminus_t* terminus) {
    const char* address = pn_terminus_get_address(terminus);
    return address ? QString::fromUtf8(address) : QString();
}

// Standard tier's largest message; the SDK sizes its batches by the link's max-message-size and
// refuses to send at all when it is 0.
constexpr quint64 kDefaultMaxMessageSize = 256 * 1024;
} // namespace

Connection::Connection(EndpointContext& context, pn_connection_t* connection,
                       std::shared_ptr<StreamWaker> waker, QString peer)
    : m_context(context)
    , m_connection(connection)
    , m_id(context.nextId++)
    , m_mailbox(std::make_shared<Mailbox>(std::move(waker)))
    , m_peer(std::move(peer))
    , m_openedAtMs(QDateTime::currentMSecsSinceEpoch()) {}

Connection::~Connection() = default;

void Connection::handle(pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_CONNECTION_REMOTE_OPEN:
        pn_connection_open(m_connection);
        break;
    case PN_CONNECTION_REMOTE_CLOSE:
        pn_connection_close(m_connection);
        break;
    case PN_SESSION_REMOTE_OPEN: {
        // A finite incoming window (Proton's default capacity of 0 advertises 2^31-1 frames).
        pn_session_t* session = pn_event_session(event);
        pn_transport_t* transport = pn_connection_transport(m_connection);
        const std::size_t frame = transport ? pn_transport_get_max_frame(transport) : 0;
        if (frame > 0)
            pn_session_set_incoming_capacity(session, frame * kSessionWindowFrames);
        pn_session_open(session);
        break;
    }
    case PN_SESSION_REMOTE_CLOSE: {
        pn_session_t* session = pn_event_session(event);
        for (pn_link_t* link = pn_link_head(m_connection, 0); link; link = pn_link_next(link, 0)) {
            if (pn_link_session(link) == session) {
                --m_linksAttached; // the session's end detaches its links
                linkClosed(link);
            }
        }
        pn_session_close(session);
        pn_session_free(session);
        break;
    }
    case PN_LINK_REMOTE_OPEN:
        if (++m_linksAttached > kMaxLinksPerConnection) {
            refuseLink(pn_event_link(event), QByteArrayLiteral("amqp:resource-limit-exceeded"),
                       QStringLiteral("The connection has %1 links open, the most it may have.")
                           .arg(kMaxLinksPerConnection));
            break;
        }
        linkOpened(pn_event_link(event));
        break;
    case PN_LINK_REMOTE_CLOSE:
    case PN_LINK_REMOTE_DETACH: {
        pn_link_t* link = pn_event_link(event);
        --m_linksAttached;
        linkClosed(link);
        pn_link_close(link);
        pn_link_free(link);
        break;
    }
    case PN_LINK_FLOW:
        if (Link* link = linkOf(pn_event_link(event)))
            flowChanged(*link);
        break;
    case PN_DELIVERY: {
        pn_delivery_t* delivery = pn_event_delivery(event);
        Link* link = linkOf(pn_delivery_link(delivery));
        if (!link) {
            // A link this end detached (a sender past its credit goes on until it reads the
            // detach): whatever arrives on it is dropped, not kept by Proton.
            if (pn_link_is_receiver(pn_delivery_link(delivery)))
                pn_delivery_settle(delivery);
            break;
        }
        if (link->role == Role::Inbound)
            transferArrived(*link, delivery);
        else
            dispositionArrived(*link, delivery);
        break;
    }
    default:
        break;
    }
}

void Connection::woken() {
    runCompletions();
    retryWaitingReceivers();
    checkSessionLocks();
    if (std::exchange(m_closeRequested, false)) {
        pn_condition_t* condition = pn_connection_condition(m_connection);
        pn_condition_set_name(condition, "amqp:connection:forced");
        pn_condition_set_description(condition, "Closed by the operator in Hourglass.");
        pn_connection_close(m_connection);
        // The operator's close is final: the locks go back now (L14), not when the peer
        // answers, and a peer that never answers loses its socket a little later.
        releaseAllLocks();
        releaseAllSessions();
        m_dropAt = std::chrono::steady_clock::now() + kCloseAnswerTime;
        // A peer that never opened gets no close frame: drop its socket now.
        if (!(pn_connection_state(m_connection) & PN_REMOTE_ACTIVE))
            dropTransport();
    }
    if (m_dropAt && std::chrono::steady_clock::now() >= *m_dropAt) {
        m_dropAt.reset();
        dropTransport();
    }
    if (std::exchange(m_snapshotRequested, false))
        publishSnapshot();
    applyLimitClose();
}

void Connection::dropTransport() {
    if (pn_transport_t* transport = pn_connection_transport(m_connection)) {
        pn_transport_close_tail(transport);
        pn_transport_close_head(transport);
    }
}

void Connection::transportClosed() {
    m_mailbox->close();
    {
        std::lock_guard lock(m_context.board.mutex);
        m_context.board.connections.erase(m_id);
    }
    releaseAllLocks();
    releaseAllSessions();
    m_linksById.clear();
    m_links.clear();
}

void Connection::releaseAllLocks() {
    if (m_locks.isEmpty())
        return;
    // L14: the locks go back at once, whatever the receiver was doing. Abandon waits on disk,
    // so it runs on a worker; the connection does not wait for it.
    // In sequence order, so that a waiting receiver gets them back in the order they came.
    QList<HeldLock> held = m_locks.values();
    m_locks.clear();
    std::sort(held.begin(), held.end(), [](const HeldLock& a, const HeldLock& b) {
        return std::tie(a.ref.entityPath, a.sequenceNumber) <
               std::tie(b.ref.entityPath, b.sequenceNumber);
    });
    QList<LockRef> locks;
    for (const HeldLock& lock : held)
        locks.append(lock.ref);
    m_context.workers.submit([locks](Broker& broker) {
        for (const LockRef& lock : locks)
            (void)broker.abandon(lock);
    });
}

void Connection::runCompletions() {
    for (Mailbox::Completion& completion : m_mailbox->take())
        completion(*this);
}

Connection::Link* Connection::findLink(quint64 id) {
    return m_linksById.value(id, nullptr);
}

Connection::Link* Connection::linkOf(pn_link_t* link) {
    const auto it = m_links.find(link);
    return it == m_links.end() ? nullptr : it->second.get();
}

Connection::Link* Connection::replyLink(const QString& replyTo) {
    for (auto& [pnLink, link] : m_links) {
        if (link->role != Role::Outbound)
            continue;
        const char* name = pn_link_name(pnLink);
        if ((name && QString::fromUtf8(name) == replyTo) ||
            addressOf(pn_link_remote_target(pnLink)) == replyTo)
            return link.get();
    }
    return nullptr;
}

bool Connection::placeAddress(EntityAddress& address) const {
    // The SDKs claim "<entity>/$management" for the management link, "<entity>" for the others.
    const QString claimed = address.kind == EntityAddress::Kind::Management
                                ? address.entityPath + QStringLiteral("/$management")
                                : address.entityPath;
    const auto name = m_claims.namespaceFor(claimed, QDateTime::currentSecsSinceEpoch());
    if (!name)
        return false;
    address.namespaceName = *name;
    address.brokerPath = qualifiedPath(*name, address.entityPath);
    return true;
}

void Connection::refuseLink(pn_link_t* link, const QByteArray& condition,
                            const QString& description) {
    // Attach, then detach with the error: the SDKs wait for the attach and read the detach's
    // condition (amqp-endpoint.md, Addresses).
    pn_link_open(link);
    pn_condition_t* error = pn_link_condition(link);
    pn_condition_set_name(error, condition.constData());
    pn_condition_set_description(error, description.toUtf8().constData());
    pn_link_close(link);
}

void Connection::detach(Link& link, const QByteArray& condition, const QString& description) {
    pn_link_t* pnLink = link.link;
    linkClosed(pnLink);
    pn_condition_t* error = pn_link_condition(pnLink);
    pn_condition_set_name(error, condition.constData());
    pn_condition_set_description(error, description.toUtf8().constData());
    pn_link_close(pnLink);
}

void Connection::linkOpened(pn_link_t* pnLink) {
    auto link = std::make_unique<Link>();
    link->id = m_context.nextId++;
    link->link = pnLink;
    const bool clientReceives = pn_link_is_sender(pnLink);
    link->role = clientReceives ? Role::Outbound : Role::Inbound;
    link->address = parseEntityAddress(
        addressOf(clientReceives ? pn_link_remote_source(pnLink) : pn_link_remote_target(pnLink)));
    const char* name = pn_link_name(pnLink);
    link->receiverName = QStringLiteral("amqp/%1/%2").arg(m_id).arg(QString::fromUtf8(name));

    if (link->address.kind == EntityAddress::Kind::Invalid) {
        refuseLink(pnLink, QByteArrayLiteral("amqp:not-found"),
                   QStringLiteral("The link has no address."));
        return;
    }
    if (link->address.kind != EntityAddress::Kind::Cbs && !placeAddress(link->address)) {
        // The answer carries nothing of the attach (its source, filter, target, address): a
        // peer without a claim learns only that it has none.
        refuseLink(pnLink, kUnauthorizedAccess,
                   QStringLiteral("Unauthorized access: put a valid token for the entity on $cbs "
                                  "first (tokens of two namespaces that both cover it leave its "
                                  "namespace unknown)."));
        return;
    }
    // An authorized attach is answered with the client's own source and target.
    pn_terminus_copy(pn_link_source(pnLink), pn_link_remote_source(pnLink));
    pn_terminus_copy(pn_link_target(pnLink), pn_link_remote_target(pnLink));
    if (clientReceives) {
        pn_link_set_snd_settle_mode(pnLink, pn_link_remote_snd_settle_mode(pnLink));
        pn_link_set_rcv_settle_mode(pnLink, pn_link_remote_rcv_settle_mode(pnLink));
        link->mode = pn_link_remote_snd_settle_mode(pnLink) == PN_SND_SETTLED
                         ? ReceiveMode::ReceiveAndDelete
                         : ReceiveMode::PeekLock;
    } else {
        link->maxMessageSize = kDefaultMaxMessageSize;
        pn_link_set_max_message_size(pnLink, link->maxMessageSize);
    }
    Link& added = *link;
    m_linksById.insert(added.id, link.get());
    m_links.emplace(pnLink, std::move(link));
    if (added.address.kind == EntityAddress::Kind::Cbs) {
        openLink(added); // put-token is the endpoint's own: nothing to ask the broker
        return;
    }
    const bool receiver = clientReceives && added.address.kind == EntityAddress::Kind::Entity;
    if (receiver) {
        if (const auto filter = requestedSession(pnLink)) {
            // The broker's accept decides whether the entity takes session receivers.
            attachSessionReceiver(added, filter->sessionId, filter->timeout);
            return;
        }
    }
    // The broker decides whether the link may attach: the entity exists (and, for a receiver,
    // is one a plain receiver takes messages from). The attach waits for its answer.
    added.attaching = true;
    submit(
        [path = added.address.brokerPath, receiver](Broker& broker) -> Result<void> {
            if (receiver)
                return broker.checkReceiver(path);
            if (auto entity = broker.entity(path); !entity)
                return entity.error();
            return {};
        },
        [linkId = added.id](Connection& connection, Result<void> checked) {
            connection.attachChecked(linkId, checked);
        });
}

void Connection::attachChecked(quint64 linkId, const Result<void>& checked) {
    Link* link = findLink(linkId);
    if (!link || !link->attaching)
        return; // the client detached meanwhile
    link->attaching = false;
    if (checked) {
        openLink(*link);
        return;
    }
    pn_link_t* pnLink = link->link;
    const QString description = attachRefusalDescription(checked.error(), link->address.entityPath);
    dropQueuedReplies(*link);
    m_linksById.remove(linkId);
    m_links.erase(pnLink); // link is gone from here on
    if (checked.error().wrongEntityKind)
        describeRefusedSession(pnLink, Refusal::NoFilter); // amqp-endpoint.md: never echoed
    refuseLink(pnLink, refusalCondition(checked.error()), description);
}

void Connection::openLink(Link& link) {
    pn_link_open(link.link);
    if (link.role == Role::Inbound) {
        replenishCredit(link);
        return;
    }
    flushReplies(link); // answers that waited for the attach
    pump(link);         // credit the client gave while it waited
}

void Connection::linkClosed(pn_link_t* pnLink) {
    const auto it = m_links.find(pnLink);
    if (it == m_links.end())
        return;
    // The locks its deliveries carry stay with the connection: the client may still settle
    // them through $management, and they go back when the connection ends or they run out.
    // A session link's session goes back now, and the message locks in it with it (S5).
    releaseSessionOf(*it->second);
    dropQueuedReplies(*it->second);
    m_linksById.remove(it->second->id);
    m_links.erase(it);
    replenishStarvedLinks(); // its credit no longer counts against the connection's bytes
}

WireConnection Connection::snapshot() const {
    WireConnection wire;
    wire.id = m_id;
    wire.peer = m_peer;
    if (const char* container = pn_connection_remote_container(m_connection))
        wire.containerId = QString::fromUtf8(container);
    wire.openedAtMs = m_openedAtMs;
    wire.keyName = m_keyName;
    wire.namespaces = m_claims.namespaces();
    wire.locksHeld = int(m_locks.size());
    QHash<QString, QList<WireLock>> locksByLink;
    for (auto it = m_locks.cbegin(); it != m_locks.cend(); ++it)
        locksByLink[it->linkName].append(
            {it.key(), withoutNamespace(it->ref.entityPath), it->sequenceNumber, it->lockedUntil});
    for (const auto& [pnLink, link] : m_links) {
        WireLink w;
        w.name = QString::fromUtf8(pn_link_name(pnLink));
        w.address = link->address.address;
        w.direction = link->role == Role::Inbound ? WireLink::Direction::ClientSends
                                                  : WireLink::Direction::ClientReceives;
        if (link->role == Role::Outbound && link->address.kind == EntityAddress::Kind::Entity)
            w.settleMode = link->mode == ReceiveMode::PeekLock
                               ? QStringLiteral("peek-lock")
                               : QStringLiteral("receive-and-delete");
        w.credit = int(std::min<quint32>(linkCredit(pnLink), INT_MAX));
        w.inFlight = int(link->role == Role::Inbound ? link->queuedSends.size() + link->sendingNow
                                                     : link->deliveredLocks.size());
        w.messages = link->messagesThrough;
        w.receiverName = link->receiverName;
        w.locks = locksByLink.value(w.name);
        wire.links.append(std::move(w));
    }
    return wire;
}

void Connection::publishSnapshot() {
    WireConnection wire = snapshot();
    std::lock_guard lock(m_context.board.mutex);
    m_context.board.connections[m_id] = std::move(wire);
}

} // namespace hourglass::amqp
