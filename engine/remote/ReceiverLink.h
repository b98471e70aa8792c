#pragma once
// The receiver link of one entity and receiver name, kept for the connection's life. A receive
// grants the credit asked for and answers once that many messages came or its wait ran out,
// draining the credit left so that nothing arrives unasked. In peek-lock mode each delivery stays
// unsettled, by its lock token (the delivery tag), until it is settled on this same link: the
// outcome goes out unsettled and the service's settled answer says whether it held.

#include "LinkEnd.h"

#include "hourglass/Broker.h"

#include <QHash>
#include <QList>
#include <QTimer>
#include <QUuid>

#include <functional>
#include <memory>
#include <optional>

namespace hourglass::remote {

class ClientConnection;

using Received = std::function<void(Result<QList<MessageView>>)>;

// How a locked message is settled.
struct Settlement {
    enum class Kind { Complete, Abandon, Defer, DeadLetter };
    Kind kind = Kind::Complete;
    QVariantMap propertiesToModify; // Abandon, Defer, DeadLetter
    QString reason;                 // DeadLetter
    QString description;            // DeadLetter
};

// What a session receiver asks for: a named session, or the next available one within a wait.
struct SessionAsk {
    std::optional<QString> sessionId;
    int waitMs = 0;
};
using Accepted = std::function<void(Result<AcceptedSession>)>;

class ReceiverLink final : public LinkEnd {
public:
    // A session receiver with `session`, a plain one without.
    ReceiverLink(ClientConnection& connection, QString entityPath, QString receiverName,
                 ReceiveMode mode, std::optional<SessionAsk> session = std::nullopt);

    const QString& entityPath() const { return m_entityPath; }
    const QString& receiverName() const { return m_receiverName; }
    ReceiveMode mode() const { return m_mode; }
    bool isSessionLink() const { return m_session.has_value(); }
    // The session granted to this link; empty before (or for a plain receiver).
    const QString& sessionId() const { return m_grantedSession; }

    // A session receiver's attach: answered with the granted session once the peer's attach
    // names it, or with the condition of the detach that refuses it.
    void accept(Accepted done);
    // Ends the link (a session receiver: releases the session); its held locks go with it.
    void detach();
    ~ReceiverLink() override;

    // Up to `maxCount` messages within `waitMs`; fewer (none) when fewer came. One receive at a
    // time: a second waits for the first.
    void receive(int maxCount, int waitMs, Received done);
    // Whether this link holds the unsettled delivery of `token`.
    bool holds(const QUuid& token) const { return m_held.contains(token); }
    // The lock tokens of the deliveries it holds.
    QList<QUuid> heldTokens() const { return m_held.keys(); }
    void settle(const QUuid& token, const Settlement& settlement, Done done);
    // Abandons every delivery it holds, without waiting for the answers (the connection is
    // closing).
    void abandonHeld();
    QString linkName() const { return QString::fromUtf8(m_name); }

    void opened(pn_link_t* link) override;
    void flowed(pn_link_t* link) override;
    void delivered(pn_delivery_t* delivery) override;
    void closedByPeer(const Error& why) override;
    void connectionLost(const Error& why) override;

private:
    struct Receive {
        int maxCount = 0;
        int waitMs = 0;
        Received done;
    };
    void attach();
    void startNext();
    void finishReceive();
    void takeMessage(pn_delivery_t* delivery);
    void settled(pn_delivery_t* delivery);
    void failAll(const Error& why);

    ClientConnection& m_connection;
    QString m_entityPath;
    QString m_receiverName;
    ReceiveMode m_mode;
    std::optional<SessionAsk> m_session;
    QString m_grantedSession;
    Accepted m_accepting;
    QByteArray m_name;
    pn_link_t* m_link = nullptr;
    QList<Receive> m_queued;
    std::optional<Receive> m_current;
    QList<MessageView> m_got;
    bool m_draining = false;
    QTimer m_wait;
    QTimer m_acceptDeadline; // the service's wait and a grace: then the link goes
    QHash<QUuid, pn_delivery_t*> m_held;
    QHash<pn_delivery_t*, std::pair<uint64_t, Done>> m_settling; // what we sent, who waits
};

} // namespace hourglass::remote
