#pragma once
// The opening handshake of AMQP over WebSocket (RFC 6455 4.2), as the Azure SDKs send it: a GET to
// /$servicebus/websocket with the subprotocol AMQPWSB10. Only the decision and the header values:
// HttpExchange writes the answer, WebSocketFraming carries what follows.

#include "HttpRequestReader.h"

#include <QByteArray>
#include <QString>

namespace hourglass::admin {

// The path the SDKs open (a trailing slash and any query are accepted too).
inline const QByteArray kWebSocketPath = "/$servicebus/websocket";
// The subprotocol of AMQP 1.0 over WebSocket binary messages.
inline const QByteArray kAmqpWebSocketProtocol = "AMQPWSB10";

struct WebSocketUpgrade {
    enum class Kind {
        None,   // not an upgrade: an ordinary request
        Accept, // answer 101 with `accept`
        Refuse, // answer `status` (400, 404, 426) with `detail`, then close
    };
    Kind kind = Kind::None;
    int status = 0;
    QString detail;
    QByteArray accept; // Sec-WebSocket-Accept
};

// What `request` asks: an upgrade to a WebSocket (the header `Upgrade: websocket`, or the path
// above) is checked in full; any other request is None (an Upgrade to another protocol, such as
// h2c, is ignored as RFC 9110 allows).
WebSocketUpgrade checkWebSocketUpgrade(const HttpRequest& request);

// Sec-WebSocket-Accept for `key`: base64 of the SHA-1 of the key and RFC 6455's GUID.
QByteArray webSocketAccept(const QByteArray& key);

} // namespace hourglass::admin
