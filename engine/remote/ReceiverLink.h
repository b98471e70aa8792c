#pragma once
// The receiver link of one entity and receiver name, kept for the connection's life. A receive
// grants the credit asked for and answers once that many messages came or its wait ran out,
// draining the credit left so that nothing arrives unasked. In peek-lock mode each delivery stays
// unsettled, by its lock token (the delivery tag), until it is settled on this same link: the
// outcome goes out unsettled and the service's settled answer says whether it held.

#include "ClientConnection.h"
#include "LinkEnd.h"

#include "hourglass/Broker.h"

#include <QHash>
#include <QList>
#include <QTimer>
#include <QUuid>

#include <functional>
#include <memory>

namespace hourglass::remote {

using Received = std::function<void(Result<QList<MessageView>>)>;

// How a locked message is settled.
struct Settlement {
    enum class Kind { Complete, Abandon, Defer, DeadLetter };
    Kind kind = Kind::Complete;
    QVariantMap propertiesToModify; // Abandon, Defer, DeadLetter
    QString reason;                 // DeadLetter
    QString description;            // DeadLetter
};

class ReceiverLink final : public LinkEnd {
public:
    ReceiverLink(ClientConnection& connection, QString entityPath, QString receiverName,
                 ReceiveMode mode);
    ~ReceiverLink() override;

    // Up to `maxCount` messages within `waitMs`; fewer (none) when fewer came. One receive at a
    // time: a second waits for the first.
    void receive(int maxCount, int waitMs, Received done);
    // Whether this link holds the unsettled delivery of `token`.
    bool holds(const QUuid& token) const { return m_held.contains(token); }
    void settle(const QUuid& token, const Settlement& settlement, Done done);
    // Abandons every delivery it holds, without waiting for the answers (the connection is
    // closing).
    void abandonHeld();
    QString linkName() const { return QString::fromUtf8(m_name); }

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
    QByteArray m_name;
    pn_link_t* m_link = nullptr;
    QList<Receive> m_queued;
    std::optional<Receive> m_current;
    QList<MessageView> m_got;
    bool m_draining = false;
    QTimer m_wait;
    QHash<QUuid, pn_delivery_t*> m_held;
    QHash<pn_delivery_t*, std::pair<uint64_t, Done>> m_settling; // what we sent, who waits
};

} // namespace hourglass::remote
