#include "WebSocketHandshake.h"

#include <QCryptographicHash>

namespace hourglass::admin {

namespace {
// RFC 6455 1.3: what the server appends to the client's key before hashing it.
constexpr char kHandshakeGuid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

WebSocketUpgrade refused(int status, const QString& detail) {
    WebSocketUpgrade upgrade;
    upgrade.kind = WebSocketUpgrade::Kind::Refuse;
    upgrade.status = status;
    upgrade.detail = detail;
    return upgrade;
}

bool isWebSocketPath(QByteArrayView target) {
    const qsizetype query = target.indexOf('?');
    const QByteArrayView path = query < 0 ? target : target.first(query);
    return path == kWebSocketPath || path == kWebSocketPath + '/';
}

// A key is the base64 of 16 bytes: 24 characters of the standard alphabet, "==" at the end.
bool isValidKey(const QByteArray& key) {
    if (key.size() != 24 || !key.endsWith("=="))
        return false;
    const auto decoded =
        QByteArray::fromBase64Encoding(key, QByteArray::AbortOnBase64DecodingErrors);
    return decoded && decoded.decoded.size() == 16;
}
} // namespace

QByteArray webSocketAccept(const QByteArray& key) {
    return QCryptographicHash::hash(key + kHandshakeGuid, QCryptographicHash::Sha1).toBase64();
}

WebSocketUpgrade checkWebSocketUpgrade(const HttpRequest& request) {
    const HeaderList& headers = request.headers;
    const bool wantsWebSocket = listValues(headers, "upgrade").contains("websocket");
    const bool onPath = isWebSocketPath(request.target);
    if (!wantsWebSocket && !onPath)
        return {};
    if (!onPath)
        return refused(404, QStringLiteral("WebSocket connections are served on %1 only.")
                                .arg(QString::fromLatin1(kWebSocketPath)));
    if (request.method != "GET" || request.http10)
        return refused(400, QStringLiteral("A WebSocket upgrade is a GET in HTTP/1.1."));
    if (!wantsWebSocket || !listValues(headers, "connection").contains("upgrade"))
        return refused(400, QStringLiteral("The request does not ask to upgrade to a WebSocket."));
    const QList<QByteArray> versions = listValues(headers, "sec-websocket-version");
    if (versions != QList<QByteArray>{"13"})
        return refused(426, QStringLiteral("Only WebSocket version 13 is served."));
    if (countOf(headers, "sec-websocket-key") != 1 ||
        !isValidKey(headerValue(headers, "sec-websocket-key")))
        return refused(400, QStringLiteral("Sec-WebSocket-Key is not 16 bytes in base64."));
    if (!listValues(headers, "sec-websocket-protocol").contains(kAmqpWebSocketProtocol.toLower()))
        return refused(400, QStringLiteral("Only the subprotocol %1 is served.")
                                .arg(QString::fromLatin1(kAmqpWebSocketProtocol)));
    WebSocketUpgrade upgrade;
    upgrade.kind = WebSocketUpgrade::Kind::Accept;
    upgrade.accept = webSocketAccept(headerValue(headers, "sec-websocket-key"));
    return upgrade;
}

} // namespace hourglass::admin
