#pragma once
// Request and response over a node's link pair, as `$cbs` and `<entity>/$management` answer
// (ManagementMessages.h): a sender to the node and a receiver from it whose target is our reply
// address; each request's message-id is a fresh ulong and its answer carries it back as the
// correlation-id. Attached on the first request.

#include "LinkEnd.h"

#include "hourglass/amqpcodec/ManagementMessages.h"

#include <QHash>
#include <QList>

#include <functional>

namespace hourglass::remote {

class ClientConnection;

using Answer = std::function<void(Result<amqp::ManagementResponse>)>;

class RequestChannel final : public LinkEnd {
public:
    RequestChannel(ClientConnection& connection, QString node);
    ~RequestChannel() override;

    // Sends `request` (its operation, application properties and body; the message-id and
    // reply-to are set here) and answers with the response, whatever its status.
    void request(amqp::ManagementRequest request, Answer answer);

    void flowed(pn_link_t* link) override;
    void delivered(pn_delivery_t* delivery) override;
    void closedByPeer(const Error& why) override;
    void connectionLost(const Error& why) override;

private:
    void attach();
    void sendQueued();
    void failAll(const Error& why);
    void forgetLinks();

    ClientConnection& m_connection;
    QString m_node;
    QByteArray m_replyTo;
    pn_link_t* m_sender = nullptr;
    pn_link_t* m_receiver = nullptr;
    QList<std::pair<amqp::ManagementRequest, Answer>> m_queued;
    QHash<quint64, Answer> m_owed; // by message-id
    quint64 m_nextId = 1;
};

} // namespace hourglass::remote
