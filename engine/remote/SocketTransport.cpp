#include "SocketTransport.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>

namespace hourglass::remote {

SocketTransport::SocketTransport(SocketEndpoint endpoint)
    : m_endpoint(std::move(endpoint)) {}

SocketTransport::~SocketTransport() {
    abort();
}

void SocketTransport::open(TransportCallbacks callbacks) {
    m_callbacks = std::move(callbacks);
    const QString where = QStringLiteral("%1:%2").arg(m_endpoint.host).arg(m_endpoint.port);
    if (!m_endpoint.tls) {
        m_socket = std::make_unique<QTcpSocket>();
        QObject::connect(m_socket.get(), &QTcpSocket::connected, m_socket.get(), [this] {
            if (!m_done)
                m_callbacks.opened();
        });
    } else {
        auto socket = std::make_unique<QSslSocket>();
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        if (!m_endpoint.extraCaFile.isEmpty()) {
            const QList<QSslCertificate> extra = QSslCertificate::fromPath(m_endpoint.extraCaFile);
            if (extra.isEmpty()) {
                m_socket = std::move(socket);
                fail(QStringLiteral("The CA file %1 holds no certificate.")
                         .arg(m_endpoint.extraCaFile));
                return;
            }
            config.addCaCertificates(extra);
        }
        config.setPeerVerifyMode(QSslSocket::VerifyPeer);
        socket->setSslConfiguration(config);
        socket->setPeerVerifyName(m_endpoint.host);
        QObject::connect(socket.get(), &QSslSocket::encrypted, socket.get(), [this] {
            if (!m_done)
                m_callbacks.opened();
        });
        // Never ignored: the handshake fails and the first error says why.
        QObject::connect(socket.get(), &QSslSocket::sslErrors, socket.get(),
                         [this, where](const QList<QSslError>& errors) {
                             fail(QStringLiteral("The certificate of %1 does not verify: %2")
                                      .arg(where, errors.isEmpty() ? QStringLiteral("unknown")
                                                                   : errors.first().errorString()));
                         });
        m_socket = std::move(socket);
    }
    // Every write at once (TCP_NODELAY): a call is a few small frames each way, and Nagle's
    // algorithm would hold one back until the peer acknowledged the last, which the peer's
    // delayed acknowledgement puts off by 40 ms: every peek and settlement took 40 ms more.
    QObject::connect(m_socket.get(), &QAbstractSocket::connected, m_socket.get(),
                     [this] { m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); });
    QObject::connect(m_socket.get(), &QTcpSocket::readyRead, m_socket.get(), [this] {
        while (!m_done && m_socket->bytesAvailable() > 0)
            m_callbacks.arrived(m_socket->read(64 * 1024));
    });
    QObject::connect(m_socket.get(), &QTcpSocket::errorOccurred, m_socket.get(),
                     [this, where](QAbstractSocket::SocketError error) {
                         if (error == QAbstractSocket::RemoteHostClosedError)
                             fail(QStringLiteral("%1 closed the connection.").arg(where));
                         else
                             fail(QStringLiteral("Cannot reach %1: %2")
                                      .arg(where, amqp::quoted(m_socket->errorString())));
                     });
    if (auto* ssl = qobject_cast<QSslSocket*>(m_socket.get()))
        ssl->connectToHostEncrypted(m_endpoint.host, quint16(m_endpoint.port));
    else
        m_socket->connectToHost(m_endpoint.host, quint16(m_endpoint.port));
}

void SocketTransport::write(const char* bytes, qint64 size) {
    if (m_socket && !m_done)
        m_socket->write(bytes, size);
}

void SocketTransport::abort() {
    m_done = true;
    if (m_socket) {
        m_socket->disconnect();
        m_socket->abort();
        // Deleted later: abort() may be reached from one of the socket's own signals.
        m_socket.release()->deleteLater();
    }
}

void SocketTransport::fail(const QString& description) {
    if (m_done)
        return;
    m_done = true;
    const auto failed = m_callbacks.failed;
    failed(Error::make(ErrorCode::ServiceCommunicationProblem, description));
}

} // namespace hourglass::remote
