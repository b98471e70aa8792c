#include "WebSocketTransport.h"

#include "SystemProxy.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>

namespace hourglass::remote {

namespace {
// The subprotocol of AMQP 1.0 over WebSocket binary messages, and where the service serves it.
const QString kAmqpSubprotocol = QStringLiteral("AMQPWSB10");
const QString kWebSocketPath = QStringLiteral("/$servicebus/websocket");
} // namespace

QUrl webSocketUrl(const ConnectionString& where) {
    QUrl url(where.adminBaseUrl());
    url.setScheme(where.usesTls() ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setPath(kWebSocketPath);
    return url;
}

WebSocketTransport::WebSocketTransport(WebSocketEndpoint endpoint)
    : m_endpoint(std::move(endpoint)) {}

WebSocketTransport::~WebSocketTransport() {
    abort();
}

QString WebSocketTransport::where() const {
    const bool tls = m_endpoint.url.scheme() == QLatin1String("wss");
    const QString host = m_endpoint.url.host();
    return QStringLiteral("%1:%2")
        .arg(host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host)
        .arg(m_endpoint.url.port(tls ? 443 : 80));
}

QString WebSocketTransport::through() const {
    if (m_proxy.type() == QNetworkProxy::NoProxy)
        return {};
    return QStringLiteral(" (through the proxy %1:%2)").arg(m_proxy.hostName()).arg(m_proxy.port());
}

void WebSocketTransport::open(TransportCallbacks callbacks) {
    m_callbacks = std::move(callbacks);
    m_socket = std::make_unique<QWebSocket>();
    // Every byte is the peer's: a message is held whole before it is handed on, so bound it.
    m_socket->setMaxAllowedIncomingMessageSize(kMaxWebSocketMessageBytes);
    m_socket->setMaxAllowedIncomingFrameSize(kMaxWebSocketMessageBytes);
    m_proxy = systemProxyFor(m_endpoint.url);
    m_socket->setProxy(m_proxy);
    if (m_endpoint.url.scheme() == QLatin1String("wss")) {
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        if (!m_endpoint.extraCaFile.isEmpty()) {
            const QList<QSslCertificate> extra = QSslCertificate::fromPath(m_endpoint.extraCaFile);
            if (extra.isEmpty()) {
                fail(QStringLiteral("The CA file %1 holds no certificate.")
                         .arg(m_endpoint.extraCaFile));
                return;
            }
            config.addCaCertificates(extra);
        }
        // The verified name and SNI are the URL's host: QWebSocket connects to it by name.
        config.setPeerVerifyMode(QSslSocket::VerifyPeer);
        m_socket->setSslConfiguration(config);
        // Never ignored: the handshake fails and the first error says why.
        QObject::connect(m_socket.get(), &QWebSocket::sslErrors, m_socket.get(),
                         [this](const QList<QSslError>& errors) {
                             fail(QStringLiteral("The certificate of %1 does not verify: %2")
                                      .arg(where(), errors.isEmpty()
                                                        ? QStringLiteral("unknown")
                                                        : errors.first().errorString()));
                         });
    }
    QObject::connect(m_socket.get(), &QWebSocket::connected, m_socket.get(),
                     [this] { upgraded(); });
    QObject::connect(m_socket.get(), &QWebSocket::binaryMessageReceived, m_socket.get(),
                     [this](const QByteArray& message) {
                         if (!m_done)
                             m_callbacks.arrived(message);
                     });
    QObject::connect(m_socket.get(), &QWebSocket::textMessageReceived, m_socket.get(), [this] {
        fail(QStringLiteral("%1 sent text where AMQP over WebSockets sends binary messages.")
                 .arg(where()));
    });
    QObject::connect(m_socket.get(),
                     QOverload<QAbstractSocket::SocketError>::of(&QWebSocket::error),
                     m_socket.get(), [this] { socketError(); });
    // Qt says a connection ended before it says why (a proxy's refusal among them): the reason,
    // when one follows, is taken first. m_guard drops the call if the transport is gone.
    QObject::connect(m_socket.get(), &QWebSocket::disconnected, &m_guard, [this] {
        QMetaObject::invokeMethod(
            &m_guard, [this] { closed(); }, Qt::QueuedConnection);
    });
    QWebSocketHandshakeOptions options;
    options.setSubprotocols({kAmqpSubprotocol});
    m_socket->open(m_endpoint.url, options);
}

void WebSocketTransport::upgraded() {
    // A WebSocket that is not AMQP's: a server may accept the upgrade without the subprotocol.
    if (m_socket->subprotocol() != kAmqpSubprotocol) {
        fail(QStringLiteral("%1 accepted a WebSocket but not AMQP over it (subprotocol %2).")
                 .arg(where(), kAmqpSubprotocol));
        return;
    }
    m_open = true;
    if (!m_done)
        m_callbacks.opened();
}

void WebSocketTransport::closed() {
    // Before the upgrade: a server that speaks something else on that port, or AMQP only.
    fail(m_open ? QStringLiteral("%1 closed the connection.").arg(where())
                : QStringLiteral("%1%2 closed the connection without accepting the WebSocket "
                                 "upgrade at %3.")
                      .arg(where(), through(), m_endpoint.url.path()));
}

void WebSocketTransport::socketError() {
    const QString text = m_socket->errorString();
    // Qt reports an upgrade answered with another status than 101 in its own words with the
    // status in them ("... status code: 404 (Not Found)."): the status alone is what helps.
    static const QRegularExpression status(QStringLiteral("status code: (\\d{3})\\b"));
    const QRegularExpressionMatch refused = status.match(text);
    if (!m_open && refused.hasMatch()) {
        fail(QStringLiteral("%1 refused AMQP over WebSockets at %2 (HTTP %3).")
                 .arg(where(), m_endpoint.url.path(), refused.captured(1)));
        return;
    }
    if (m_socket->error() == QAbstractSocket::RemoteHostClosedError) {
        closed();
        return;
    }
    fail(QStringLiteral("Cannot reach %1%2 over WebSockets: %3")
             .arg(where(), through(), amqp::quoted(text)));
}

void WebSocketTransport::write(const char* bytes, qint64 size) {
    if (m_socket && m_open && !m_done)
        m_socket->sendBinaryMessage(QByteArray(bytes, size));
}

void WebSocketTransport::abort() {
    m_done = true;
    if (m_socket) {
        m_socket->disconnect();
        m_socket->abort();
        // Deleted later: abort() may be reached from one of the socket's own signals.
        m_socket.release()->deleteLater();
    }
}

void WebSocketTransport::fail(const QString& description) {
    if (m_done)
        return;
    m_done = true;
    const auto failed = m_callbacks.failed;
    failed(Error::make(ErrorCode::ServiceCommunicationProblem, description));
}

} // namespace hourglass::remote
