#pragma once
// What the TLS port's tests share: the endpoint started with a TLS port (a certificate from
// LocalCertificates in a temporary folder) and the administration API's services on both ports;
// a peer that reaches either port as plain bytes (through a TlsBridge for the TLS port); HTTP
// responses and WebSocket frames read off a RawSocket.

#include "DrivenClient.h"
#include "EndpointTestBase.h"
#include "RawHttpClient.h"
#include "RawSocket.h"
#include "StreamDriver.h"
#include "TlsBridge.h"

#include "hourglass/admin/AdminStreamServices.h"
#include "hourglass/amqpcodec/SasToken.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <memory>
#include <optional>

namespace hourglass::testing {

inline const QByteArray kAmqpHeader("AMQP\x00\x01\x00\x00", 8);
// RFC 6455 1.3's example.
inline const QByteArray kWebSocketKey = "dGhlIHNhbXBsZSBub25jZQ==";
inline const QByteArray kWebSocketAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
// An open frame (descriptor 0x10, container-id "x") and nothing more.
inline const QByteArray kOpenFrame("\x00\x00\x00\x11\x02\x00\x00\x00"
                                   "\x00\x53\x10\xc0\x04\x01\xa1\x01x",
                                   17);

// An upgrade to AMQP over WebSocket as the SDKs send it, to `target`.
inline QByteArray upgrade(const QByteArray& target, const QByteArray& version = "13") {
    return "GET " + target +
           " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: " +
           kWebSocketKey + "\r\nSec-WebSocket-Version: " + version +
           "\r\nSec-WebSocket-Protocol: AMQPWSB10\r\n\r\n";
}

// The code a close frame carries (0: none).
inline quint16 closeCode(const ServerFrame& frame) {
    return frame.payload.size() < 2
               ? 0
               : quint16(quint8(frame.payload[0]) << 8 | quint8(frame.payload[1]));
}

// A plain connection to the plain port, or to the TLS port through a bridge.
struct PortPeer {
    std::unique_ptr<TlsBridge> bridge;
    std::unique_ptr<RawSocket> socket;
};

class TlsPortTestBase : public EndpointTestBase {
protected:
    // The certificate, made once for the test program.
    bool makeCertificate() {
        const auto files = tls::LocalCertificates::ensure(m_certDir.path(), {});
        if (!files) {
            qWarning("no certificate: %s", qPrintable(files.error().toString()));
            return false;
        }
        m_files = *files;
        return true;
    }
    // The endpoint with a TLS port on a free port, the plain one too, and the administration
    // API's services (with `admin`'s time-outs) on both.
    bool startTlsEndpoint(amqp::EndpointOptions options = {},
                          admin::AdminStreamOptions admin = {}) {
        options.port = 0;
        options.tls = amqp::EndpointTls{0, m_files.serverCertificate, m_files.serverKey};
        m_endpoint = std::make_unique<amqp::AmqpEndpoint>(*m_broker, options);
        m_endpoint->setStreamServices(
            admin::adminStreamServices(*m_broker, m_endpoint->keys(), std::move(admin)));
        const auto port = m_endpoint->start();
        if (!port) {
            qWarning("cannot start the endpoint: %s", qPrintable(port.error().toString()));
            return false;
        }
        m_port = *port;
        m_tlsPort = m_endpoint->tlsPort();
        return m_tlsPort != 0;
    }

    PortPeer peer(bool tls) {
        PortPeer peer;
        if (tls)
            peer.bridge = std::make_unique<TlsBridge>(m_tlsPort, m_files.caCertificate);
        peer.socket = std::make_unique<RawSocket>(tls ? peer.bridge->port() : m_port);
        return peer;
    }

    QString token(quint16 port) const {
        return amqp::makeSasToken(QStringLiteral("sb://localhost:%1/").arg(port),
                                  amqp::wellKnownEmulatorKey(),
                                  QDateTime::currentSecsSinceEpoch() + 600);
    }

    // The status of a put-token by a Proton client on the plain port, or through TLS.
    int putTokenStatus(bool tls) {
        std::unique_ptr<TlsBridge> bridge;
        if (tls)
            bridge = std::make_unique<TlsBridge>(m_tlsPort, m_files.caCertificate);
        DrivenClient client(tls ? bridge->port() : m_port);
        return client.putToken(token(tls ? m_tlsPort : m_port), 5000);
    }

    // Every entity of every namespace, by path.
    QStringList entityPaths() const {
        QStringList paths;
        for (const EntityInfo& entity : m_broker->entities())
            paths.append(entity.namespaceName + u':' + entity.path);
        for (const EntityInfo& entity : m_broker->entities(QStringLiteral("ns")))
            paths.append(entity.namespaceName + u':' + entity.path);
        paths.removeDuplicates();
        paths.sort();
        return paths;
    }

    // A fresh broker with the queue "q"; what it holds is noted for finishCase().
    bool openBrokerWithQueue() {
        if (!openBroker() || !m_broker->createQueue(QStringLiteral("q"), {}).ok())
            return false;
        m_before = entityPaths();
        return true;
    }
    // Whatever a case did to the ports, the broker's entities are as they were (a case that
    // creates one on purpose clears m_before); then the endpoint and the broker go.
    void finishCase() {
        if (!m_before.isEmpty() && m_broker)
            QCOMPARE(entityPaths(), m_before);
        reset();
    }

    // The data of a case run on each port.
    static void ports() {
        QTest::addColumn<bool>("tls");
        QTest::newRow("plain") << false;
        QTest::newRow("TLS") << true;
    }

    QTemporaryDir m_certDir;
    tls::CertificateFiles m_files;
    quint16 m_tlsPort = 0;
    QStringList m_before;
};

// This process's resident memory (VmRSS), in bytes.
inline qint64 residentBytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return 0;
}

// The next whole HTTP response on `socket`, waiting at most `ms`; `buffer` keeps what follows.
inline std::optional<RawResponse> readResponse(RawSocket& socket, QByteArray& buffer,
                                               int ms = 5000) {
    QElapsedTimer timer;
    timer.start();
    while (true) {
        if (auto response = takeResponse(buffer))
            return response;
        const int left = int(ms - timer.elapsed());
        if (left <= 0 || !socket.receivedWithin(buffer.size() + 1, left, &buffer))
            return takeResponse(buffer);
    }
}

// The next `count` whole WebSocket frames from the server, waiting at most `ms`.
inline QList<ServerFrame> readFrames(RawSocket& socket, QByteArray& buffer, qsizetype count,
                                     int ms = 5000) {
    QElapsedTimer timer;
    timer.start();
    QList<ServerFrame> frames = takeServerFrames(buffer);
    while (frames.size() < count) {
        const int left = int(ms - timer.elapsed());
        if (left <= 0 || !socket.receivedWithin(buffer.size() + 1, left, &buffer))
            break;
        frames += takeServerFrames(buffer);
    }
    return frames;
}

} // namespace hourglass::testing
