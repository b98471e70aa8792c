#pragma once
// The sender link of one entity, kept for the connection's life: messages wait for credit, go
// out unsettled, and each is answered by the peer's outcome (accepted, or rejected with a
// condition the SDKs' errors come from). A link the peer closes (an entity that is not there)
// fails what waits on it, and the next send attaches anew.

#include "ClientConnection.h"
#include "LinkEnd.h"

#include <QByteArray>
#include <QHash>
#include <QList>

namespace hourglass::remote {

class SenderLink final : public LinkEnd {
public:
    SenderLink(ClientConnection& connection, QString entityPath);
    ~SenderLink() override;

    // Sends one encoded message; `done` gets its outcome.
    void send(QByteArray encoded, Done done);

    void flowed(pn_link_t* link) override;
    void delivered(pn_delivery_t* delivery) override;
    void closedByPeer(const Error& why) override;
    void connectionLost(const Error& why) override;

private:
    void attach();
    void sendQueued();
    void failAll(const Error& why);

    ClientConnection& m_connection;
    QString m_entityPath;
    pn_link_t* m_link = nullptr;
    QList<std::pair<QByteArray, Done>> m_queued;
    QHash<pn_delivery_t*, Done> m_unsettled;
    quint64 m_nextTag = 1;
};

} // namespace hourglass::remote
