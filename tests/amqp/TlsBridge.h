#pragma once
// A TLS client in front of the endpoint's TLS port, for tests whose clients speak plain bytes
// (RawSocket, DrivenClient, HTTP and WebSocket by hand): it listens on a loopback port of its own,
// takes one connection there, and carries it to the endpoint through an OpenSSL client
// (MemoryTlsClient, verifying the server against a CA file with the host name "localhost"), in a
// thread of its own. What the test's client writes before the handshake is done waits for it.
// Either side closing is passed on: the test's client shutting down its writing (a TCP FIN to the
// endpoint, or a close_notify first when asked), the endpoint closing (the test's client then
// reads the end).

#include "MemoryTlsClient.h"

#include <QByteArray>
#include <QString>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace hourglass::testing {

class TlsBridge {
public:
    // `caFile` empty: a client that trusts nothing. `closeNotifyOnEof`: when the test's client
    // shuts down its writing, the bridge sends close_notify before its own FIN.
    TlsBridge(quint16 endpointPort, QString caFile, bool closeNotifyOnEof = false)
        : m_endpointPort(endpointPort)
        , m_caFile(std::move(caFile))
        , m_closeNotifyOnEof(closeNotifyOnEof) {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(0);
        socklen_t length = sizeof address;
        ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::listen(m_listener, 1);
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~TlsBridge() {
        m_stop = true;
        m_thread.join();
        ::close(m_listener);
    }
    TlsBridge(const TlsBridge&) = delete;
    TlsBridge& operator=(const TlsBridge&) = delete;

    // Where the test's client connects.
    quint16 port() const { return m_port; }
    bool handshakeDone() const { return m_handshakeDone; }
    // The TLS client gave up (a certificate it does not trust, a bad record); verifyResult()
    // says what it thought of the certificate (X509_V_OK when it was trusted).
    bool failed() const { return m_failed; }
    long verifyResult() const { return m_verifyResult; }
    // The endpoint ended the connection (its TCP end, or its close_notify).
    bool endpointClosed() const { return m_endpointClosed; }
    // The bridge has stopped carrying bytes.
    bool finished() const { return m_finished; }

private:
    static sockaddr_in loopback(quint16 port) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return address;
    }
    static void sendAll(int fd, const QByteArray& bytes) {
        for (qsizetype sent = 0; sent < bytes.size();) {
            const ssize_t n =
                ::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return;
            sent += n;
        }
    }

    void run() {
        int plain = -1;
        while (!m_stop && plain < 0) {
            pollfd p{m_listener, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0)
                plain = ::accept(m_listener, nullptr, nullptr);
        }
        if (plain < 0) {
            m_finished = true;
            return;
        }
        const int secure = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(m_endpointPort);
        if (::connect(secure, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
            carry(plain, secure);
        ::shutdown(plain, SHUT_RDWR);
        ::close(plain);
        ::close(secure);
        m_finished = true;
    }

    void carry(int plain, int secure) {
        tls::test::MemoryTlsClient client(m_caFile, "localhost");
        sendAll(secure, client.takeCiphertext());
        QByteArray held; // from the test's client, until the handshake is done
        bool plainEnded = false;
        bool endSent = false;
        char buffer[16384];
        while (!m_stop) {
            pollfd p[2] = {{plain, short(plainEnded ? 0 : POLLIN), 0}, {secure, POLLIN, 0}};
            if (::poll(p, 2, 20) < 0)
                break;
            if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = ::recv(plain, buffer, sizeof buffer, 0);
                if (n > 0)
                    held.append(buffer, n);
                else
                    plainEnded = true;
            }
            if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = ::recv(secure, buffer, sizeof buffer, 0);
                if (n > 0)
                    client.feed(QByteArrayView(buffer, n));
                else
                    m_endpointClosed = true;
            }
            if (client.handshakeDone()) {
                m_handshakeDone = true;
                if (!held.isEmpty())
                    client.write(std::exchange(held, {}));
                if (plainEnded && !endSent) {
                    if (m_closeNotifyOnEof)
                        client.close();
                    sendAll(secure, client.takeCiphertext());
                    ::shutdown(secure, SHUT_WR);
                    endSent = true;
                }
            }
            sendAll(secure, client.takeCiphertext());
            sendAll(plain, client.takePlaintext());
            if (client.failed()) {
                m_verifyResult = client.verifyResult();
                m_failed = true;
                return;
            }
            if (client.peerClosed())
                m_endpointClosed = true;
            if (m_endpointClosed)
                return;
        }
    }

    quint16 m_endpointPort;
    QString m_caFile;
    bool m_closeNotifyOnEof;
    int m_listener = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_handshakeDone{false};
    std::atomic<bool> m_failed{false};
    std::atomic<long> m_verifyResult{0};
    std::atomic<bool> m_endpointClosed{false};
    std::atomic<bool> m_finished{false};
    std::thread m_thread;
};

} // namespace hourglass::testing
