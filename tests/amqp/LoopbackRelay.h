#pragma once
// What the tests' bridges in front of the endpoint share (TlsBridge, WebSocketBridge): a listener
// on a free loopback port of its own, one connection taken there, a connection made to the
// endpoint's port, and the two carried by the bridge's carry() in a thread of its own.
//
// A bridge calls start() at the end of its constructor (the thread calls carry(), which must
// find the bridge whole) and stop() first in its destructor (the thread must be gone before
// the bridge's members are).

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace hourglass::testing {

class LoopbackRelay {
public:
    LoopbackRelay(const LoopbackRelay&) = delete;
    LoopbackRelay& operator=(const LoopbackRelay&) = delete;

    // Where the test's client connects.
    quint16 port() const { return m_port; }
    // The relay has stopped carrying bytes.
    bool finished() const { return m_finished; }

protected:
    explicit LoopbackRelay(quint16 endpointPort)
        : m_endpointPort(endpointPort) {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(0);
        socklen_t length = sizeof address;
        ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::listen(m_listener, 1);
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
        m_port = ntohs(address.sin_port);
    }
    virtual ~LoopbackRelay() {
        stop();
        ::close(m_listener);
    }

    void start() {
        m_thread = std::thread([this] { run(); });
    }
    void stop() {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    bool stopping() const { return m_stop; }

    // The test's client and the endpoint, both connected; returns when the bridge is done.
    virtual void carry(int client, int endpoint) = 0;

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

private:
    static sockaddr_in loopback(quint16 port) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return address;
    }

    void run() {
        int client = -1;
        while (!m_stop && client < 0) {
            pollfd p{m_listener, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0)
                client = ::accept(m_listener, nullptr, nullptr);
        }
        if (client >= 0) {
            const int endpoint = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in address = loopback(m_endpointPort);
            if (::connect(endpoint, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
                carry(client, endpoint);
            ::shutdown(client, SHUT_RDWR);
            ::close(client);
            ::close(endpoint);
        }
        m_finished = true;
    }

    quint16 m_endpointPort;
    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_finished{false};
    std::thread m_thread;
};

} // namespace hourglass::testing
