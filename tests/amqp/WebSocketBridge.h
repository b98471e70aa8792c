#pragma once
// AMQP over WebSocket for tests whose clients write plain AMQP (RawAmqpPeer, DrivenClient): it
// listens on a loopback port of its own, takes one connection there, upgrades a connection to
// `port` (the endpoint's plain port, or a TlsBridge's for WebSocket through TLS) at
// /$servicebus/websocket with AMQPWSB10, and from then on carries the client's bytes in masked
// binary frames and the endpoint's frames' payloads back, in a thread of its own.

#include "LoopbackRelay.h"
#include "StreamDriver.h"

#include <QByteArray>

#include <atomic>

namespace hourglass::testing {

class WebSocketBridge final : public LoopbackRelay {
public:
    explicit WebSocketBridge(quint16 port)
        : LoopbackRelay(port) {
        start();
    }
    ~WebSocketBridge() override { stop(); }

    // The endpoint answered the upgrade with 101.
    bool upgraded() const { return m_upgraded; }

private:
    void carry(int client, int endpoint) override {
        sendAll(endpoint, "GET /$servicebus/websocket HTTP/1.1\r\nHost: localhost\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: AMQPWSB10\r\n\r\n");
        QByteArray fromEndpoint;
        char buffer[16384];
        while (!stopping()) {
            pollfd p[2] = {{client, short(m_upgraded ? POLLIN : 0), 0}, {endpoint, POLLIN, 0}};
            if (::poll(p, 2, 20) < 0)
                return;
            if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
                if (n <= 0 || !sendAll(endpoint, clientFrame(2, QByteArray(buffer, n))))
                    return;
            }
            if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = ::recv(endpoint, buffer, sizeof buffer, 0);
                if (n <= 0)
                    return;
                fromEndpoint.append(buffer, n);
            }
            if (!m_upgraded) {
                const qsizetype end = fromEndpoint.indexOf("\r\n\r\n");
                if (end < 0)
                    continue;
                if (!fromEndpoint.startsWith("HTTP/1.1 101 "))
                    return;
                fromEndpoint.remove(0, end + 4);
                m_upgraded = true;
            }
            for (const ServerFrame& frame : takeServerFrames(fromEndpoint)) {
                if (frame.opcode == 8) // close
                    return;
                if (!sendAll(client, frame.payload))
                    return;
            }
        }
    }

    std::atomic<bool> m_upgraded{false};
};

} // namespace hourglass::testing
