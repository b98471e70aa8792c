#include "SenderLink.h"

#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>
#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/link.h>
#include <proton/terminus.h>

namespace hourglass::remote {

SenderLink::SenderLink(ClientConnection& connection, QString entityPath)
    : m_connection(connection)
    , m_entityPath(std::move(entityPath)) {}

SenderLink::~SenderLink() {
    if (m_link) {
        m_connection.detachHandler(m_link);
        pn_link_close(m_link);
    }
}

void SenderLink::send(QByteArray encoded, Done done) {
    m_queued.append({std::move(encoded), std::move(done)});
    if (!m_link)
        attach();
    sendQueued();
    m_connection.pump();
}

void SenderLink::attach() {
    pn_session_t* session = m_connection.session();
    if (!session)
        return;
    m_link = pn_sender(session, m_connection.linkName(QStringLiteral("sender")));
    const QByteArray address = m_entityPath.toUtf8();
    pn_terminus_set_address(pn_link_target(m_link), address.constData());
    pn_link_set_snd_settle_mode(m_link, PN_SND_UNSETTLED);
    pn_link_set_rcv_settle_mode(m_link, PN_RCV_FIRST);
    m_connection.attachHandler(m_link, this);
    pn_link_open(m_link);
}

void SenderLink::sendQueued() {
    while (m_link && !m_queued.isEmpty() && pn_link_credit(m_link) > 0) {
        auto [encoded, done] = m_queued.takeFirst();
        const QByteArray tag = QByteArray::number(m_nextTag++);
        pn_delivery_t* delivery = pn_delivery(m_link, pn_dtag(tag.constData(), tag.size()));
        pn_link_send(m_link, encoded.constData(), size_t(encoded.size()));
        pn_link_advance(m_link);
        m_unsettled.insert(delivery, std::move(done));
    }
}

void SenderLink::flowed(pn_link_t*) {
    sendQueued();
}

void SenderLink::delivered(pn_delivery_t* delivery) {
    if (!pn_delivery_updated(delivery) && !pn_delivery_remote_state(delivery))
        return;
    const Done done = m_unsettled.take(delivery);
    const uint64_t state = pn_delivery_remote_state(delivery);
    pn_condition_t* condition = pn_disposition_condition(pn_delivery_remote(delivery));
    pn_delivery_settle(delivery);
    if (!done)
        return;
    if (state == PN_ACCEPTED) {
        done({});
    } else if (state == PN_REJECTED && condition && pn_condition_is_set(condition)) {
        const char* description = pn_condition_get_description(condition);
        done(amqp::errorFromWire(pn_condition_get_name(condition),
                                 description ? QString::fromUtf8(description) : QString()));
    } else {
        done(Error::make(ErrorCode::ServiceBusy,
                         QStringLiteral("The namespace did not take the message (%1).")
                             .arg(state == PN_RELEASED   ? QStringLiteral("released")
                                  : state == PN_MODIFIED ? QStringLiteral("modified")
                                                         : QStringLiteral("rejected"))));
    }
}

void SenderLink::closedByPeer(const Error& why) {
    m_link = nullptr; // the connection closes it; the next send attaches anew
    failAll(why);
}

void SenderLink::connectionLost(const Error& why) {
    m_link = nullptr;
    failAll(why);
}

void SenderLink::failAll(const Error& why) {
    const auto queued = std::exchange(m_queued, {});
    const auto unsettled = std::exchange(m_unsettled, {});
    for (const auto& [encoded, done] : queued)
        done(why);
    for (const Done& done : unsettled)
        done(why);
}

} // namespace hourglass::remote
