#pragma once
// AMQP over WebSocket for tests whose clients write plain AMQP (RawAmqpPeer, DrivenClient): it
// listens on a loopback port of its own, takes one connection there, upgrades a connection to
// `port` (the endpoint's plain port, or a TlsBridge's for WebSocket through TLS) at
// /$servicebus/websocket with AMQPWSB10, and from then on carries the client's bytes in masked
// binary frames and the endpoint's frames' payloads back, in a thread of its own.

#include "StreamDriver.h"

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace hourglass::testing {

class WebSocketBridge {
public:
    explicit WebSocketBridge(quint16 port)
        : m_target(port) {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(0);
        socklen_t length = sizeof address;
        ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::listen(m_listener, 1);
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~WebSocketBridge() {
        m_stop = true;
        m_thread.join();
        ::close(m_listener);
    }
    WebSocketBridge(const WebSocketBridge&) = delete;
    WebSocketBridge& operator=(const WebSocketBridge&) = delete;

    quint16 port() const { return m_port; }
    // The endpoint answered the upgrade with 101.
    bool upgraded() const { return m_upgraded; }

private:
    static sockaddr_in loopback(quint16 port) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return address;
    }
    static bool sendAll(int fd, const QByteArray& bytes) {
        for (qsizetype sent = 0; sent < bytes.size();) {
            const ssize_t n =
                ::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }

    void run() {
        int client = -1;
        while (!m_stop && client < 0) {
            pollfd p{m_listener, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0)
                client = ::accept(m_listener, nullptr, nullptr);
        }
        if (client < 0)
            return;
        const int endpoint = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(m_target);
        if (::connect(endpoint, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
            carry(client, endpoint);
        ::shutdown(client, SHUT_RDWR);
        ::close(client);
        ::close(endpoint);
    }

    void carry(int client, int endpoint) {
        sendAll(endpoint, "GET /$servicebus/websocket HTTP/1.1\r\nHost: localhost\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: AMQPWSB10\r\n\r\n");
        QByteArray fromEndpoint;
        char buffer[16384];
        while (!m_stop) {
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

    quint16 m_target;
    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_upgraded{false};
    std::thread m_thread;
};

} // namespace hourglass::testing
