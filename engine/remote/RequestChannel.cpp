#include "RequestChannel.h"

#include "ClientConnection.h"

#include <QUuid>

#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/link.h>
#include <proton/terminus.h>

#include <vector>

namespace hourglass::remote {

namespace {
// Answers a channel can have outstanding at once (the receiver's credit).
constexpr int kReplyCredit = 64;
} // namespace

RequestChannel::RequestChannel(ClientConnection& connection, QString node)
    : m_connection(connection)
    , m_node(std::move(node))
    , m_replyTo(QStringLiteral("%1-reply-%2")
                    .arg(m_node, QUuid::createUuid().toString(QUuid::WithoutBraces))
                    .toUtf8()) {}

RequestChannel::~RequestChannel() {
    forgetLinks();
}

void RequestChannel::request(amqp::ManagementRequest request, Answer answer) {
    m_queued.append({std::move(request), std::move(answer)});
    if (!m_sender)
        attach();
    sendQueued();
    m_connection.pump();
}

void RequestChannel::attach() {
    pn_session_t* session = m_connection.session();
    if (!session)
        return;
    const QByteArray node = m_node.toUtf8();
    m_sender = pn_sender(session, m_connection.linkName(m_node + QStringLiteral("-requests")));
    pn_terminus_set_address(pn_link_target(m_sender), node.constData());
    pn_terminus_set_address(pn_link_source(m_sender), m_replyTo.constData());
    pn_link_set_snd_settle_mode(m_sender, PN_SND_SETTLED);
    m_receiver = pn_receiver(session, m_connection.linkName(m_node + QStringLiteral("-replies")));
    pn_terminus_set_address(pn_link_source(m_receiver), node.constData());
    pn_terminus_set_address(pn_link_target(m_receiver), m_replyTo.constData());
    m_connection.attachHandler(m_sender, this);
    m_connection.attachHandler(m_receiver, this);
    pn_link_open(m_sender);
    pn_link_open(m_receiver);
    pn_link_flow(m_receiver, kReplyCredit);
}

void RequestChannel::sendQueued() {
    while (m_sender && !m_queued.isEmpty() && pn_link_credit(m_sender) > 0) {
        auto [request, answer] = m_queued.takeFirst();
        const quint64 id = m_nextId++;
        request.messageId = QVariant::fromValue(qulonglong(id));
        request.replyTo = QString::fromUtf8(m_replyTo);
        const QByteArray encoded = amqp::encodeManagementRequest(request);
        const QByteArray tag = QByteArray::number(id);
        pn_delivery_t* delivery = pn_delivery(m_sender, pn_dtag(tag.constData(), tag.size()));
        pn_link_send(m_sender, encoded.constData(), size_t(encoded.size()));
        pn_link_advance(m_sender);
        pn_delivery_settle(delivery); // sent settled: the answer is the outcome
        m_owed.insert(id, std::move(answer));
    }
}

void RequestChannel::flowed(pn_link_t* link) {
    if (link == m_sender)
        sendQueued();
}

void RequestChannel::delivered(pn_delivery_t* delivery) {
    if (pn_delivery_link(delivery) != m_receiver || !pn_delivery_readable(delivery) ||
        pn_delivery_partial(delivery))
        return;
    std::vector<char> bytes(pn_delivery_pending(delivery));
    pn_link_recv(m_receiver, bytes.data(), bytes.size());
    pn_link_advance(m_receiver);
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    pn_link_flow(m_receiver, 1);
    auto response =
        amqp::decodeManagementResponse(QByteArray(bytes.data(), qsizetype(bytes.size())));
    if (!response)
        return; // nothing to match it with: its request times out
    bool isId = false;
    const quint64 id = response->correlationId.toULongLong(&isId);
    const Answer answer = isId ? m_owed.take(id) : Answer();
    if (answer)
        answer(std::move(*response));
}

void RequestChannel::closedByPeer(const Error& why) {
    // The pair goes together: the other link is closed too, and the next request attaches anew.
    forgetLinks();
    failAll(why);
}

void RequestChannel::connectionLost(const Error& why) {
    m_sender = nullptr; // the driver that owned them is going
    m_receiver = nullptr;
    failAll(why);
}

void RequestChannel::forgetLinks() {
    for (pn_link_t** link : {&m_sender, &m_receiver}) {
        if (!*link)
            continue;
        m_connection.detachHandler(*link);
        pn_link_close(*link);
        *link = nullptr;
    }
}

void RequestChannel::failAll(const Error& why) {
    const auto queued = std::exchange(m_queued, {});
    const auto owed = std::exchange(m_owed, {});
    for (const auto& [request, answer] : queued)
        answer(why);
    for (const Answer& answer : owed)
        answer(why);
}

} // namespace hourglass::remote
