// The endpoint's stop as applications see it: every connection gets an AMQP close carrying
// amqp:connection:forced and why (the window quits, its database closes, `serve` stops), not a
// dropped socket. Asked for from any thread, carried out on the proactor thread.

#include "Connection.h"
#include "EndpointLoop.h"

#include <proton/listener.h>

namespace hourglass::amqp {

namespace {
const QByteArray kConnectionForced = QByteArrayLiteral("amqp:connection:forced");
// The longest stop() waits for the sockets to go: a peer that does not answer the close loses
// its socket on the next tick (a quarter of a second), so this is only a bound.
constexpr std::chrono::seconds kCloseAllTime{2};
} // namespace

void EndpointLoop::closeEveryConnection(const QString& reason) {
    {
        std::lock_guard lock(m_arrivals->mutex);
        if (!m_arrivals->proactor || !m_thread.joinable())
            return;
        m_arrivals->closeAllReason = reason;
        pn_proactor_set_timeout(m_arrivals->proactor, 0);
    }
    std::unique_lock lock(m_goneMutex);
    m_gone.wait_for(lock, kCloseAllTime, [this] { return m_connections.load() == 0; });
}

void EndpointLoop::closeAllNow() {
    // No new connection from now on.
    for (pn_listener_t** listener : {&m_listener, &m_tlsListener}) {
        if (*listener) {
            pn_listener_close(*listener);
            *listener = nullptr;
        }
    }
    // Each connection once (one accepted meanwhile is told on the next tick); the loop wakes
    // them all after this, and a wake carries the close out (ConnectionLimitClose.cpp).
    for (const auto& [pnConnection, connection] : m_live) {
        if (m_toldToClose.contains(connection->id()))
            continue;
        m_toldToClose.insert(connection->id());
        connection->requestLimitClose(kConnectionForced, *m_closingAll);
    }
    // The others (HTTP, or no first bytes yet) have no AMQP close to be told: they go.
    for (Carrier* carrier : m_carriers)
        if (!connectionOf(*carrier))
            carrier->requestDrop();
}

void EndpointLoop::connectionGone() {
    std::lock_guard lock(m_goneMutex);
    m_gone.notify_all();
}

} // namespace hourglass::amqp
