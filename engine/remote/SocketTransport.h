#pragma once
// AMQP's bytes over a socket: QTcpSocket for plain AMQP (emulator-style strings), QSslSocket for
// AMQP over TLS, with SNI and the verified name being the namespace's host, against the system's
// certificates and, when given, an extra CA file. A certificate that does not verify ends the
// connection: there is no "continue anyway".

#include "ByteTransport.h"

#include <QString>

#include <memory>

class QTcpSocket;

namespace hourglass::remote {

struct SocketEndpoint {
    QString host;
    int port = 0;
    bool tls = false;
    QString extraCaFile; // PEM; empty: the system's certificates only
};

class SocketTransport final : public ByteTransport {
public:
    explicit SocketTransport(SocketEndpoint endpoint);
    ~SocketTransport() override;

    void open(TransportCallbacks callbacks) override;
    void write(const char* bytes, qint64 size) override;
    void abort() override;

private:
    void fail(const QString& description);

    SocketEndpoint m_endpoint;
    TransportCallbacks m_callbacks;
    std::unique_ptr<QTcpSocket> m_socket;
    bool m_done = false; // failed or aborted: no more callbacks
};

} // namespace hourglass::remote
