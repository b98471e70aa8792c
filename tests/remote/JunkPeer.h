#pragma once
// A server that answers whatever connects with bytes that are not AMQP, on a thread of its own
// (the client's calls block the test's thread). Keeps the connection open until it stops.

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace hourglass::testing {

class JunkPeer {
public:
    explicit JunkPeer(QByteArray junk)
        : m_junk(std::move(junk)) {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::listen(m_listener, 4);
        socklen_t size = sizeof address;
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &size);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~JunkPeer() {
        m_stop = true;
        m_thread.join();
        ::close(m_listener);
    }
    quint16 port() const { return m_port; }

private:
    void serve() {
        int peer = -1;
        while (!m_stop) {
            pollfd ready{peer < 0 ? m_listener : peer, POLLIN, 0};
            if (::poll(&ready, 1, 20) <= 0)
                continue;
            if (peer < 0) {
                peer = ::accept(m_listener, nullptr, nullptr);
                if (peer >= 0 && !m_junk.isEmpty())
                    ::send(peer, m_junk.constData(), size_t(m_junk.size()), MSG_NOSIGNAL);
                continue;
            }
            char sink[4096];
            if (::recv(peer, sink, sizeof sink, 0) <= 0) {
                ::close(peer);
                peer = -1;
            }
        }
        if (peer >= 0)
            ::close(peer);
    }

    QByteArray m_junk;
    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace hourglass::testing
