#pragma once
// A TLS client in front of the endpoint's TLS port, for tests whose clients speak plain bytes
// (RawSocket, DrivenClient, HTTP and WebSocket by hand): it listens on a loopback port of its own,
// takes one connection there, and carries it to the endpoint through an OpenSSL client
// (MemoryTlsClient, verifying the server against a CA file with the host name "localhost"), in a
// thread of its own. What the test's client writes before the handshake is done waits for it.
// Either side closing is passed on: the test's client shutting down its writing (a TCP FIN to the
// endpoint, or a close_notify first when asked), the endpoint closing (the test's client then
// reads the end).

#include "LoopbackRelay.h"
#include "MemoryTlsClient.h"

#include <QByteArray>
#include <QString>

#include <atomic>

namespace hourglass::testing {

class TlsBridge final : public LoopbackRelay {
public:
    // `caFile` empty: a client that trusts nothing. `closeNotifyOnEof`: when the test's client
    // shuts down its writing, the bridge sends close_notify before its own FIN.
    TlsBridge(quint16 endpointPort, QString caFile, bool closeNotifyOnEof = false)
        : LoopbackRelay(endpointPort)
        , m_caFile(std::move(caFile))
        , m_closeNotifyOnEof(closeNotifyOnEof) {
        start();
    }
    ~TlsBridge() override { stop(); }

    bool handshakeDone() const { return m_handshakeDone; }
    // The TLS client gave up (a certificate it does not trust, a bad record); verifyResult()
    // says what it thought of the certificate (X509_V_OK when it was trusted).
    bool failed() const { return m_failed; }
    long verifyResult() const { return m_verifyResult; }
    // The endpoint ended the connection (its TCP end, or its close_notify).
    bool endpointClosed() const { return m_endpointClosed; }

private:
    void carry(int plain, int secure) override {
        tls::test::MemoryTlsClient client(m_caFile, "localhost");
        sendAll(secure, client.takeCiphertext());
        QByteArray held; // from the test's client, until the handshake is done
        bool plainEnded = false;
        bool endSent = false;
        char buffer[16384];
        while (!stopping()) {
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

    QString m_caFile;
    bool m_closeNotifyOnEof;
    std::atomic<bool> m_handshakeDone{false};
    std::atomic<bool> m_failed{false};
    std::atomic<long> m_verifyResult{0};
    std::atomic<bool> m_endpointClosed{false};
};

} // namespace hourglass::testing
