#pragma once
// AMQP's bytes over a WebSocket, as the Azure SDKs send them to networks that block 5671: an
// upgrade at `/$servicebus/websocket` asking for the subprotocol AMQPWSB10, then AMQP frames in
// binary messages both ways. It rides on the namespace's HTTP(S) port: `wss://HOST/...` (443, or
// the port the string names) for a namespace reached over TLS, `ws://HOST:PORT/...` for an
// emulator-style string. TLS verifies as SocketTransport does (the system's certificates and the
// optional extra CA file, the verified name and SNI being the host; never "continue anyway"), and
// the connection goes through the system's proxy for that address (SystemProxy.h).

#include "ByteTransport.h"

#include "hourglass/remote/ConnectionString.h"

#include <QNetworkProxy>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

class QWebSocket;

namespace hourglass::remote {

// A message from the peer larger than this ends the connection: each carries a piece of the
// AMQP stream, an AMQP frame or less (the endpoint sends at most 64 KiB each; the service's
// frames are far smaller than this).
inline constexpr quint64 kMaxWebSocketMessageBytes = 16 * 1024 * 1024;

struct WebSocketEndpoint {
    QUrl url;            // ws:// or wss://, with the path
    QString extraCaFile; // PEM; empty: the system's certificates only
};

// Where a connection string's AMQP over WebSockets is: the administration API's scheme, host and
// port (ConnectionString::adminBaseUrl) as ws or wss, at /$servicebus/websocket.
QUrl webSocketUrl(const ConnectionString& where);

class WebSocketTransport final : public ByteTransport {
public:
    explicit WebSocketTransport(WebSocketEndpoint endpoint);
    ~WebSocketTransport() override;

    void open(TransportCallbacks callbacks) override;
    void write(const char* bytes, qint64 size) override;
    void abort() override;

private:
    void upgraded();
    void socketError();
    void closed();
    void fail(const QString& description);
    QString where() const;   // "host:port" of the namespace
    QString through() const; // " (through the proxy host:port)", or nothing without one

    WebSocketEndpoint m_endpoint;
    TransportCallbacks m_callbacks;
    QNetworkProxy m_proxy; // the system's for the URL, asked at open()
    QObject m_guard;       // the context of calls queued to later; they go with it
    std::unique_ptr<QWebSocket> m_socket;
    bool m_open = false; // upgraded: AMQP flows
    bool m_done = false; // failed or aborted: no more callbacks
};

} // namespace hourglass::remote
