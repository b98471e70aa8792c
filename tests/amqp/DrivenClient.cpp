#include "DrivenClient.h"

#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/link.h>
#include <proton/message.h>
#include <proton/session.h>
#include <proton/terminus.h>
#include <proton/transport.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <vector>

namespace hourglass::testing {

namespace {
pn_timestamp_t nowMs() {
    return pn_timestamp_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                              .count());
}

QByteArray conditionName(pn_condition_t* condition) {
    return pn_condition_is_set(condition) ? QByteArray(pn_condition_get_name(condition))
                                          : QByteArray();
}
} // namespace

DrivenClient::DrivenClient(quint16 port, int idleTimeoutMs) {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
        m_closed = true;
    pn_connection_driver_init(&m_driver, nullptr, nullptr);
    if (idleTimeoutMs > 0)
        pn_transport_set_idle_timeout(m_driver.transport, pn_millis_t(idleTimeoutMs));
}

DrivenClient::~DrivenClient() {
    pn_connection_driver_destroy(&m_driver);
    ::close(m_fd);
}

int DrivenClient::putToken(const QString& token, int ms) {
    m_token = token;
    pn_connection_t* connection = m_driver.connection;
    pn_connection_set_container(connection, "driven-client");
    pn_connection_set_hostname(connection, "localhost");
    pn_connection_open(connection);
    pn_session_t* session = pn_session(connection);
    pn_session_open(session);
    m_sender = pn_sender(session, "cbs-put");
    pn_terminus_set_address(pn_link_target(m_sender), "$cbs");
    pn_link_open(m_sender);
    m_receiver = pn_receiver(session, "cbs-reply");
    pn_terminus_set_address(pn_link_source(m_receiver), "$cbs");
    pn_terminus_set_address(pn_link_target(m_receiver), "cbs-reply");
    pn_link_open(m_receiver);
    pn_link_flow(m_receiver, 1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (m_status == 0 && !m_closed && std::chrono::steady_clock::now() < deadline)
        pump(20);
    return m_status;
}

bool DrivenClient::stillOpenAfter(int ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!m_closed && std::chrono::steady_clock::now() < deadline)
        pump(20);
    return !m_closed;
}

void DrivenClient::pump(int waitMs) {
    if (m_closed)
        return;
    // Heartbeats and our own idle time-out: the driver says when it next needs a tick.
    pn_transport_tick(m_driver.transport, nowMs());
    for (pn_bytes_t out = pn_connection_driver_write_buffer(&m_driver); out.size > 0;
         out = pn_connection_driver_write_buffer(&m_driver)) {
        const ssize_t sent = ::send(m_fd, out.start, out.size, MSG_NOSIGNAL);
        if (sent <= 0) {
            pn_connection_driver_write_close(&m_driver);
            break;
        }
        pn_connection_driver_write_done(&m_driver, size_t(sent));
    }
    pollfd ready{m_fd, POLLIN, 0};
    if (::poll(&ready, 1, waitMs) > 0) {
        const pn_rwbytes_t in = pn_connection_driver_read_buffer(&m_driver);
        if (in.size > 0) {
            const ssize_t got = ::recv(m_fd, in.start, in.size, 0);
            if (got > 0)
                pn_connection_driver_read_done(&m_driver, size_t(got));
            else
                pn_connection_driver_read_close(&m_driver);
        }
    }
    while (pn_event_t* event = pn_connection_driver_next_event(&m_driver))
        handle(event);
    if (pn_connection_driver_finished(&m_driver))
        m_closed = true;
}

void DrivenClient::handle(pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_LINK_FLOW:
        if (pn_event_link(event) == m_sender && !m_tokenSent && pn_link_credit(m_sender) > 0)
            sendPutToken();
        break;
    case PN_DELIVERY: {
        pn_delivery_t* delivery = pn_event_delivery(event);
        if (pn_delivery_link(delivery) != m_receiver || !pn_delivery_readable(delivery) ||
            pn_delivery_partial(delivery))
            break;
        std::vector<char> bytes(pn_delivery_pending(delivery));
        pn_link_recv(m_receiver, bytes.data(), bytes.size());
        pn_link_advance(m_receiver);
        pn_message_t* reply = pn_message();
        if (pn_message_decode(reply, bytes.data(), bytes.size()) == 0) {
            pn_data_t* properties = pn_message_properties(reply);
            pn_data_rewind(properties);
            if (pn_data_next(properties) && pn_data_type(properties) == PN_MAP) {
                pn_data_enter(properties);
                while (pn_data_next(properties)) {
                    const bool isStatus =
                        pn_data_type(properties) == PN_STRING &&
                        QByteArray(pn_data_get_string(properties).start,
                                   qsizetype(pn_data_get_string(properties).size)) == "status-code";
                    pn_data_next(properties);
                    if (isStatus && pn_data_type(properties) == PN_INT)
                        m_status = pn_data_get_int(properties);
                }
            }
        }
        pn_message_free(reply);
        pn_delivery_update(delivery, PN_ACCEPTED);
        pn_delivery_settle(delivery);
        break;
    }
    case PN_CONNECTION_REMOTE_CLOSE:
        m_closeCondition = conditionName(pn_connection_remote_condition(m_driver.connection));
        pn_connection_close(m_driver.connection);
        break;
    case PN_TRANSPORT_CLOSED:
        if (m_closeCondition.isEmpty())
            m_closeCondition = conditionName(pn_transport_condition(m_driver.transport));
        m_closed = true;
        break;
    default:
        break;
    }
}

void DrivenClient::sendPutToken() {
    m_tokenSent = true;
    pn_message_t* request = pn_message();
    pn_message_set_reply_to(request, "cbs-reply");
    pn_data_put_ulong(pn_message_id(request), 1);
    pn_data_t* properties = pn_message_properties(request);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    pn_data_put_string(properties, pn_bytes(9, "operation"));
    pn_data_put_string(properties, pn_bytes(9, "put-token"));
    pn_data_put_string(properties, pn_bytes(4, "type"));
    pn_data_put_string(properties, pn_bytes(31, "servicebus.windows.net:sastoken"));
    pn_data_exit(properties);
    const QByteArray token = m_token.toUtf8();
    pn_data_put_string(pn_message_body(request), pn_bytes(size_t(token.size()), token.constData()));
    std::vector<char> encoded(4096 + size_t(token.size()));
    size_t size = encoded.size();
    pn_message_encode(request, encoded.data(), &size);
    pn_message_free(request);
    pn_delivery(m_sender, pn_dtag("1", 1));
    pn_link_send(m_sender, encoded.data(), size);
    pn_link_advance(m_sender);
}

} // namespace hourglass::testing
