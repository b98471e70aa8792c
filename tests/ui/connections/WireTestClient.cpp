#include "WireTestClient.h"

#include "hourglass/amqpcodec/SasToken.h"

#include <QByteArray>
#include <QDateTime>

#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/message.h>
#include <proton/proactor.h>
#include <proton/sasl.h>
#include <proton/session.h>
#include <proton/terminus.h>
#include <proton/transport.h>

#include <cstdlib>
#include <vector>

namespace hourglass::testing {

// Proton's objects of the one connection: touched on the client's thread only.
struct WireTestClient::State {
    Options options;
    pn_connection_t* connection = nullptr;
    pn_session_t* session = nullptr;
    pn_link_t* cbsSender = nullptr;
    pn_link_t* cbsReceiver = nullptr;
    pn_link_t* sender = nullptr;
    pn_link_t* receiver = nullptr;
    bool tokenSent = false;
};

namespace {

QByteArray utf8(const QString& text) {
    return text.toUtf8();
}

pn_bytes_t bytesOf(const QByteArray& bytes) {
    return pn_bytes(size_t(bytes.size()), bytes.constData());
}

// put-token for the queue, signed with the emulator's well-known key, as the SDKs send it.
void sendPutToken(pn_link_t* cbsSender, quint16 port, const QString& queue) {
    const QString audience = QStringLiteral("sb://localhost:%1/%2").arg(port).arg(queue);
    const QByteArray token = utf8(amqp::makeSasToken(audience, amqp::wellKnownEmulatorKey(),
                                                     QDateTime::currentSecsSinceEpoch() + 3600));
    pn_message_t* request = pn_message();
    pn_data_put_ulong(pn_message_id(request), 1);
    pn_message_set_reply_to(request, "cbs-reply");
    pn_data_t* properties = pn_message_properties(request);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    const auto put = [properties](const QByteArray& name, const QByteArray& value) {
        pn_data_put_string(properties, bytesOf(name));
        pn_data_put_string(properties, bytesOf(value));
    };
    put("operation", "put-token");
    put("type", "servicebus.windows.net:sastoken");
    put("name", utf8(audience));
    pn_data_exit(properties);
    pn_data_put_string(pn_message_body(request), bytesOf(token));
    pn_delivery(cbsSender, pn_dtag("t", 1));
    pn_rwbytes_t buffer{0, nullptr};
    pn_message_send(request, cbsSender, &buffer);
    std::free(buffer.start);
    pn_message_free(request);
}

} // namespace

WireTestClient::WireTestClient(Options options)
    : m_state(std::make_unique<State>())
    , m_proactor(pn_proactor()) {
    m_state->options = std::move(options);
    State& s = *m_state;
    s.connection = pn_connection();
    pn_transport_t* transport = pn_transport();
    pn_sasl_allowed_mechs(pn_sasl(transport), "ANONYMOUS");
    char address[PN_MAX_ADDR];
    pn_proactor_addr(address, sizeof address, "127.0.0.1",
                     QByteArray::number(s.options.port).constData());
    pn_proactor_connect2(m_proactor, s.connection, transport, address);
    m_thread = std::thread([this] { run(); });
}

WireTestClient::~WireTestClient() {
    // Thread-safe: ends the connection if it is still there; the loop then sees the proactor
    // go inactive and returns.
    pn_proactor_disconnect(m_proactor, nullptr);
    m_thread.join();
    pn_proactor_free(m_proactor);
}

void WireTestClient::run() {
    State& s = *m_state;
    bool running = true;
    while (running) {
        pn_event_batch_t* events = pn_proactor_wait(m_proactor);
        while (pn_event_t* event = pn_event_batch_next(events)) {
            switch (pn_event_type(event)) {
            case PN_CONNECTION_INIT: {
                pn_connection_set_container(s.connection, utf8(s.options.containerId).constData());
                pn_connection_open(s.connection);
                s.session = pn_session(s.connection);
                pn_session_open(s.session);
                s.cbsSender = pn_sender(s.session, "cbs-request");
                pn_terminus_set_address(pn_link_target(s.cbsSender), "$cbs");
                pn_link_open(s.cbsSender);
                s.cbsReceiver = pn_receiver(s.session, "cbs-reply");
                pn_terminus_set_address(pn_link_source(s.cbsReceiver), "$cbs");
                pn_terminus_set_address(pn_link_target(s.cbsReceiver), "cbs-reply");
                pn_link_open(s.cbsReceiver);
                pn_link_flow(s.cbsReceiver, 1);
                break;
            }
            case PN_LINK_FLOW:
                if (pn_event_link(event) == s.cbsSender && !s.tokenSent &&
                    pn_link_credit(s.cbsSender) > 0) {
                    sendPutToken(s.cbsSender, s.options.port, s.options.queue);
                    s.tokenSent = true;
                }
                break;
            case PN_LINK_REMOTE_OPEN:
                if (pn_event_link(event) == s.receiver)
                    m_linksOpen = true;
                break;
            case PN_DELIVERY: {
                pn_delivery_t* delivery = pn_event_delivery(event);
                pn_link_t* link = pn_delivery_link(delivery);
                if (link == s.cbsSender) {
                    pn_delivery_settle(delivery);
                } else if (link == s.cbsReceiver && !pn_delivery_partial(delivery)) {
                    // The answer to put-token: whatever it says, the links' attach tells
                    // whether the token was taken (a refused one gets its attach closed).
                    std::vector<char> bytes(pn_delivery_pending(delivery));
                    pn_link_recv(link, bytes.data(), bytes.size());
                    pn_link_advance(link);
                    pn_delivery_update(delivery, PN_ACCEPTED);
                    pn_delivery_settle(delivery);
                    const QByteArray queue = utf8(s.options.queue);
                    s.sender = pn_sender(s.session, "test-sender");
                    pn_terminus_set_address(pn_link_target(s.sender), queue.constData());
                    pn_link_open(s.sender);
                    // Peek-lock, as the SDKs' receivers: the client settles, the broker locks.
                    s.receiver = pn_receiver(s.session, "test-receiver");
                    pn_terminus_set_address(pn_link_source(s.receiver), queue.constData());
                    pn_link_set_snd_settle_mode(s.receiver, PN_SND_UNSETTLED);
                    pn_link_set_rcv_settle_mode(s.receiver, PN_RCV_SECOND);
                    pn_link_open(s.receiver);
                    pn_link_flow(s.receiver, s.options.credit);
                } else if (link == s.receiver && pn_delivery_readable(delivery) &&
                           !pn_delivery_partial(delivery)) {
                    // Read and kept unsettled: the lock stays with this connection.
                    std::vector<char> bytes(pn_delivery_pending(delivery));
                    pn_link_recv(link, bytes.data(), bytes.size());
                    pn_link_advance(link);
                    ++m_held;
                }
                break;
            }
            case PN_CONNECTION_REMOTE_CLOSE:
                // The endpoint closed it (the operator's Close connection): answer the close,
                // as the SDKs do, so that the socket ends.
                pn_connection_close(s.connection);
                break;
            case PN_TRANSPORT_CLOSED:
                m_ended = true;
                break;
            case PN_PROACTOR_INACTIVE:
                running = false;
                break;
            default:
                break;
            }
        }
        pn_proactor_done(m_proactor, events);
    }
}

} // namespace hourglass::testing
