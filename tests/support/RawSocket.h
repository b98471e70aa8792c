#pragma once
// A plain TCP connection to the AMQP endpoint on loopback, for tests that speak below any client
// library: write bytes, and wait for the peer to close (collecting what it sent meanwhile).

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace hourglass::testing {

class RawSocket {
public:
    explicit RawSocket(quint16 port) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
    ~RawSocket() { ::close(m_fd); }
    RawSocket(const RawSocket&) = delete;
    RawSocket& operator=(const RawSocket&) = delete;

    bool connected() const { return m_connected; }
    bool write(const QByteArray& bytes) {
        return ::send(m_fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL) ==
               ssize_t(bytes.size());
    }
    // As much of `bytes` as the socket takes now, without waiting; -1 once it is broken.
    qsizetype writeSome(const QByteArray& bytes) {
        const ssize_t n =
            ::send(m_fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        return n >= 0 ? qsizetype(n) : (errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1);
    }
    // Sends nothing more (a FIN), still reading: a half-closed client.
    void shutdownWrite() { ::shutdown(m_fd, SHUT_WR); }
    // Reads until the peer closes (true) or `ms` pass (false); what arrived goes to `received`.
    bool closedByPeerWithin(int ms, QByteArray* received = nullptr) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < deadline) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            char buffer[4096];
            const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (got <= 0)
                return true;
            if (received)
                received->append(buffer, got);
        }
        return false;
    }

    // Reads until `count` bytes have arrived (true) or the peer closes or `ms` pass (false).
    bool receivedWithin(qsizetype count, int ms, QByteArray* received) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (received->size() < count && std::chrono::steady_clock::now() < deadline) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            char buffer[4096];
            const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (got <= 0)
                return false;
            received->append(buffer, got);
        }
        return received->size() >= count;
    }

private:
    int m_fd = -1;
    bool m_connected = false;
};

} // namespace hourglass::testing
