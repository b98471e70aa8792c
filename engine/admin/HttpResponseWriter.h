#pragma once
// The bytes of an HTTP/1.1 response: status line, Content-Length, Content-Type (what AdminApi
// said, else the Atom entry type), Date, Server, AdminApi's own headers, and Connection: close
// when the connection ends after it. Nothing of a socket: the transport writes what it returns.

#include "hourglass/admin/AdminApi.h"

#include <QByteArray>
#include <QDateTime>

namespace hourglass::admin {

inline const QByteArray kAtomEntryType = "application/atom+xml;type=entry;charset=utf-8";
inline const QByteArray kServerName = "Hourglass";

struct HttpResponseOptions {
    bool headOnly = false; // a HEAD request: the headers of the GET, no body
    bool close = false;    // the connection ends after this response
    QDateTime now;         // the Date header's time (UTC)
};

QByteArray writeHttpResponse(const AdminResponse& response, const HttpResponseOptions& options);

// "HTTP/1.1 100 Continue" and its empty line.
QByteArray writeHttpContinue();

// "101 Switching Protocols" to a WebSocket with `protocol`: no body, no Content-Length.
QByteArray writeWebSocketAccept(const QByteArray& accept, const QByteArray& protocol,
                                const QDateTime& now);

// The reason phrase of `status` ("Not Found"); "Status" for one it does not know.
QByteArray reasonPhrase(int status);

// The Date header's format (RFC 9110 5.6.7): "Fri, 27 Nov 2026 10:20:49 GMT".
QByteArray httpDate(const QDateTime& time);

} // namespace hourglass::admin
