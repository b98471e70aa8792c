#pragma once
// One AMQP connection of the endpoint: its links, the claims its put-tokens granted, the
// deliveries in flight and every lock it holds. Lives on the proactor thread and is driven by
// the loop's events; broker calls go to the worker pool and come back through the mailbox.
// Split by what the client does: Connection.cpp (events, links, claims, locks),
// ConnectionSends.cpp (transfers to the broker: sends, batches, CBS and management requests),
// ConnectionDeliveries.cpp (messages to receivers: credit, drain, settlement),
// ConnectionSessions.cpp (session receivers: accepting, granting, releasing a session).

#include "Claims.h"
#include "EndpointContext.h"
#include "EntityAddress.h"
#include "Mailbox.h"
#include "TakeOrder.h"
#include "hourglass/amqp/EndpointSnapshot.h"
#include "hourglass/amqpcodec/ManagementMessages.h"

#include "hourglass/Broker.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QUuid>

#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/event.h>
#include <proton/link.h>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hourglass::amqp {

class Connection {
public:
    // `waker` wakes the connection's carrier (any thread); `peer` is "address:port".
    Connection(EndpointContext& context, pn_connection_t* connection,
               std::shared_ptr<StreamWaker> waker, QString peer);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Every event of this connection but PN_TRANSPORT_CLOSED.
    void handle(pn_event_t* event);
    // Its carrier was woken: completions from the workers, retries, what the loop asked for.
    void woken();
    // PN_TRANSPORT_CLOSED: the connection is gone. Its locks are released at once (L14).
    void transportClosed();
    // Messages may have arrived in `paths` ("ns:path", lower case; empty: anywhere). Only
    // notes them: the receivers that found nothing try again on the connection's next wake.
    void noteArrivals(const QSet<QString>& paths);
    // Session locks changed in `paths` ("ns:path", lower case): on the next wake, the session
    // links there ask the broker whether they still hold their session, and those that lost it
    // are detached with com.microsoft:session-lock-lost (S5), idle or not.
    void noteSessionChanges(const QSet<QString>& paths) { m_sessionChanges.unite(paths); }

    quint64 id() const { return m_id; }
    // What the window shows of this connection (proactor thread, during the connection's own
    // events: a wake).
    WireConnection snapshot() const;
    // Asks for a snapshot or the connection's end on its next wake (the loop then wakes it).
    void requestSnapshot() { m_snapshotRequested = true; }
    // After the last event of a batch the loop handed this connection: the broker calls that
    // the batch's events asked for go out now, one per link (and one for all accepted
    // dispositions). A client that grants credit or accepts one message at a time sends many
    // such frames in one read; answering each at once would make calls of one message, each
    // waiting for its own disk sync.
    void endOfBatch();
    void requestClose() { m_closeRequested = true; }
    // The endpoint's limits close it on its next wake (ConnectionLimitClose.cpp): an AMQP close
    // carrying `condition` and `description` when the peer opened, the socket then dropped;
    // the socket dropped at once when it never opened.
    void requestLimitClose(QByteArray condition, QString description);
    // Whether a put-token was accepted on $cbs (the claims may have expired since).
    bool authenticated() const { return !m_claims.isEmpty(); }

private:
    enum class Role {
        Inbound,  // the client sends to us (our receiver end)
        Outbound, // we send to the client (our sender end)
    };

    // Broker calls one link may have out at once, receives or sends (Link::callsOut,
    // Link::sendCallsOut): the next one starts while the last waits for its disk sync.
    static constexpr int kCallsPerLink = 4;

    // A receive call's messages, and each one encoded for its delivery (by the worker).
    struct ReceivedBatch {
        Result<QList<MessageView>> messages;
        QList<QByteArray> encoded;
        int asked = 0;         // the credit the call took
        QString namespaceName; // the link's: the messages' locks are named in it
    };

    struct Link {
        quint64 id = 0;
        pn_link_t* link = nullptr;
        Role role = Role::Inbound;
        EntityAddress address;
        ReceiveMode mode = ReceiveMode::PeekLock;
        QString receiverName; // the lock holder the broker records (L9)
        // Receive calls out at once (up to kCallsPerLink), numbered in the order they took
        // messages; their answers are delivered in that order, whatever order they come back in.
        // Credit that comes back while a call waits for its disk sync starts the next call at
        // once instead of waiting for the first one's answer.
        int callsOut = 0;
        int creditAsked = 0; // by the calls out
        quint64 nextCall = 0;
        quint64 nextToDeliver = 0;
        std::map<quint64, ReceivedBatch> answered; // came back ahead of an earlier call
        std::shared_ptr<TakeOrder> takeOrder = std::make_shared<TakeOrder>();
        bool waiting = false;       // the last receive found nothing: retry when messages arrive
        bool dueAtBatchEnd = false; // in m_linksDue: pump or flush sends at the batch's end
        QByteArray partial;         // a transfer arriving in several frames
        quint64 maxMessageSize = 0;
        // Inbound: the credit this end granted that the client has not used yet (Proton 0.37
        // lets a sender go past its credit: InboundTransfers.cpp enforces it), the transfer whose
        // frames are arriving, and whether its bytes are being dropped (past maxMessageSize).
        quint32 creditUnused = 0;
        pn_delivery_t* arriving = nullptr;
        bool discarding = false;
        // Inbound: granted less than its window for want of the connection's byte budget; more
        // comes when the budget frees up (replenishStarvedLinks).
        bool creditStarved = false;
        // Inbound: decoded transfers waiting for the link's send call, and those in it. One call
        // at a time per link: messages are stored in the order they arrived, and those that
        // arrive meanwhile share the next call's disk sync (L2).
        struct QueuedSend {
            pn_delivery_t* delivery = nullptr;
            QList<OutgoingMessage> messages;
            bool batch = false; // a batch envelope: all or nothing
        };
        std::vector<QueuedSend> queuedSends;
        // Up to kCallsPerLink send calls out at once, storing in the order they were made
        // (sendOrder, as TakeOrder.h says for receives); each settles its own deliveries.
        std::size_t sendingNow = 0; // deliveries in the calls out
        int sendCallsOut = 0;
        quint64 nextSendCall = 0;
        std::shared_ptr<TakeOrder> sendOrder = std::make_shared<TakeOrder>();
        // Outbound: unsettled deliveries and the lock each carries.
        std::unordered_map<pn_delivery_t*, QUuid> deliveredLocks;
        std::deque<QByteArray> queuedReplies; // responses waiting for credit
        quint64 nextTag = 0;
        quint64 messagesThrough = 0;
        // The attach waits for the broker's answer (Connection::linkOpened): the link takes no
        // credit and sends nothing until then.
        bool attaching = false;
        // Outbound session receivers (ConnectionSessions.cpp): the attach is answered once the
        // broker grants a session; until then the link takes no credit.
        bool acceptingSession = false;
        quint64 acceptWaitId = 0;          // acceptSessionAsync's wait; 0 when none (yet)
        std::optional<SessionRef> session; // the session this link holds, once granted
        // checkSessionLocks: one check out at a time; changes noted meanwhile check again after.
        bool checkingSession = false;
        bool recheckSession = false;
    };

    // A lock one of this connection's receivers holds, and what the window shows of it.
    struct HeldLock {
        LockRef ref;
        qint64 sequenceNumber = 0;
        Instant lockedUntil = 0;
        QString linkName; // the link that received it; "$management" for receive-by-number
    };

    // ---- Connection.cpp
    void linkOpened(pn_link_t* link);
    // The broker's answer to an attach: the link opens, or is refused with the broker's reason.
    void attachChecked(quint64 linkId, const Result<void>& checked);
    void openLink(Link& link);
    void linkClosed(pn_link_t* link);
    void runCompletions();
    void retryWaitingReceivers();
    Link* findLink(quint64 id);
    Link* linkOf(pn_link_t* link);
    Link* replyLink(const QString& replyTo);
    // Places the link's address in the namespace of the claims that cover it; false (nothing
    // set) when none does or claims of two namespaces do.
    bool placeAddress(EntityAddress& address) const;
    void refuseLink(pn_link_t* link, const QByteArray& condition, const QString& description);
    void detach(Link& link, const QByteArray& condition, const QString& description);
    void releaseAllLocks();
    void dropTransport();
    void publishSnapshot();
    void applyLimitClose(); // ConnectionLimitClose.cpp
    // Runs `work(broker)` (returning R) on a worker; `done` runs on the proactor thread with its
    // result, unless the connection has closed by then. The broker is reached only this way (or
    // by m_context.workers.submit when nothing comes back): never on the proactor thread.
    template <typename Work, typename Done> void submit(Work work, Done done);

    // ---- ConnectionSends.cpp
    void transferArrived(Link& link, pn_delivery_t* delivery);
    void entityTransfer(Link& link, pn_delivery_t* delivery, const QByteArray& bytes);
    void cbsRequest(Link& link, pn_delivery_t* delivery, const QByteArray& bytes);
    void managementRequest(Link& link, pn_delivery_t* delivery, const QByteArray& bytes);

    // ---- ConnectionReplies.cpp
    // Where the answer to a $cbs or $management request goes: the link its reply-to names (found
    // when the answer is ready, as the SDKs that set it expect), or, without a reply-to, a link
    // of this connection whose source is the request's own node (uAMQP's way).
    struct ReplyRoute {
        QString replyTo;    // as the client wrote it; empty: none
        quint64 linkId = 0; // without reply-to: the link answering on the request's node
    };
    // The route of a request arriving on `requestLink`, now owed an answer; or nullopt after
    // rejecting `delivery` (nothing run): no reply-to and no link on its node to answer on, or
    // this connection holds as many answers as it may (kMaxRepliesHeld, kMaxReplyBytesHeld).
    std::optional<ReplyRoute> routeReply(const Link& requestLink, const QString& replyTo,
                                         pn_delivery_t* delivery);
    // The answer owed on `route`: queued on its link (dropped when the link is gone).
    void sendReply(const ReplyRoute& route, const QByteArray& encoded);
    // A link's unsent answers go with it.
    void dropQueuedReplies(Link& link);
    void settleInbound(pn_delivery_t* delivery, const Result<void>& outcome);
    void replenishCredit(Link& link);
    void replenishStarvedLinks();
    // The most bytes the connection's inbound transfers may still bring, and one transfer's on
    // `link` (InboundTransfers.cpp).
    quint64 inboundBytesSpoken() const;
    static quint64 transferBound(const Link& link);
    // InboundTransfers.cpp: credit, size and the end of each transfer's frames.
    bool startTransfer(Link& link, pn_delivery_t* delivery);
    bool readTransfer(Link& link, pn_delivery_t* delivery);
    void inboundFlow(Link& link);
    void flushSends(Link& link);

    // ---- ConnectionSessions.cpp
    // A receiver attach with a session filter, asking for `sessionId` (none: the next available
    // one). Keeps the link (added already), unanswered, until the broker grants or refuses a
    // session; the broker also refuses an entity without sessions.
    void attachSessionReceiver(Link& link, std::optional<QString> sessionId,
                               std::chrono::milliseconds timeout);
    // `namespaceName`: the link's, so that a grant for a link gone meanwhile goes back there.
    void sessionAnswered(quint64 linkId, const QString& namespaceName,
                         const Result<AcceptedSession>& accepted);
    // The link no longer needs its session (it closed, or the connection ended): any wait ends
    // and the session goes back (a worker does it; nothing waits for it).
    void releaseSessionOf(const Link& link);
    void releaseAllSessions();
    // The session links of the entities noted by noteSessionChanges check their session lock.
    void checkSessionLocks();

    // ---- ConnectionDeliveries.cpp
    void flowChanged(Link& link);
    void pump(Link& link);
    void deliverMessages(quint64 linkId, quint64 call, ReceivedBatch batch);
    void deliverBatch(Link& link, ReceivedBatch& batch);
    void dispositionArrived(Link& link, pn_delivery_t* delivery);
    void settleOutbound(quint64 linkId, pn_delivery_t* delivery, const QUuid& token,
                        const Result<void>& outcome, uint64_t acceptedState);
    void flushReplies(Link& link);
    void flushCompletes();
    void dueAtBatchEnd(Link& link);

    EndpointContext& m_context;
    pn_connection_t* m_connection;
    const quint64 m_id;
    std::shared_ptr<Mailbox> m_mailbox;
    QString m_peer; // "address:port"
    std::map<pn_link_t*, std::unique_ptr<Link>> m_links;
    QHash<quint64, Link*> m_linksById;
    ClaimSet m_claims;
    // Every lock this connection's receivers hold, by token (L14 releases them all).
    QHash<QUuid, HeldLock> m_locks;
    // Accepted deliveries waiting to be completed. One completeBatch call is out at a time; what
    // arrives meanwhile goes into the next one, so a busy receiver's completes share disk syncs.
    struct PendingComplete {
        quint64 linkId = 0;
        pn_delivery_t* delivery = nullptr;
        QUuid token;
        LockRef lock;
    };
    std::vector<PendingComplete> m_completes;
    std::vector<quint64> m_linksDue; // links whose credit or transfers wait for endOfBatch
    bool m_completing = false;
    QSet<QString> m_arrivals;       // noted by noteArrivals, used on the next wake
    QSet<QString> m_sessionChanges; // noted by noteSessionChanges, used on the next wake
    bool m_retryAll = false;
    bool m_creditStarved = false; // some inbound link waits for the byte budget
    int m_linksAttached = 0;      // by the peer and not yet detached, ours or refused
    bool m_snapshotRequested = false;
    bool m_closeRequested = false;
    struct LimitClose {
        QByteArray condition;
        QString description;
    };
    std::optional<LimitClose> m_limitClose;
    // After the operator's close: when the socket goes if the peer has not answered by then.
    std::optional<std::chrono::steady_clock::time_point> m_dropAt;
    static constexpr std::chrono::seconds kCloseAnswerTime{2};
    qint64 m_openedAtMs = 0;
    QString m_keyName; // set by the first valid put-token
    // Answers to $cbs and $management requests: owed (the request is being run), and those
    // waiting on their links for the client's credit, with their bytes (ConnectionReplies.cpp).
    int m_repliesOwed = 0;
    int m_repliesWaiting = 0;
    qint64 m_replyBytesWaiting = 0;
};

template <typename Work, typename Done> void Connection::submit(Work work, Done done) {
    std::shared_ptr<Mailbox> mailbox = m_mailbox;
    m_context.workers.submit([mailbox, work = std::move(work),
                              done = std::move(done)](Broker& broker) mutable {
        auto result = work(broker);
        mailbox->post([result = std::move(result), done = std::move(done)](
                          Connection& connection) mutable { done(connection, std::move(result)); });
    });
}

} // namespace hourglass::amqp
