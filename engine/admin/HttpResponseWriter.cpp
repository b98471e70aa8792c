#include "HttpResponseWriter.h"

namespace hourglass::admin {

namespace {
// Headers the writer sets itself: AdminApi's own are not written twice.
bool writtenByUs(const QByteArray& name) {
    for (const char* own :
         {"content-length", "content-type", "date", "server", "connection", "transfer-encoding"}) {
        if (name.compare(own, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}
} // namespace

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 100:
        return "Continue";
    case 101:
        return "Switching Protocols";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 417:
        return "Expectation Failed";
    case 426:
        return "Upgrade Required";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

QByteArray httpDate(const QDateTime& time) {
    static const char* const days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static const char* const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDateTime utc = time.toUTC();
    const QDate date = utc.date();
    const QTime clock = utc.time();
    return QByteArray(days[date.dayOfWeek() - 1]) + ", " +
           QByteArray::number(date.day()).rightJustified(2, '0') + ' ' + months[date.month() - 1] +
           ' ' + QByteArray::number(date.year()) + ' ' +
           QByteArray::number(clock.hour()).rightJustified(2, '0') + ':' +
           QByteArray::number(clock.minute()).rightJustified(2, '0') + ':' +
           QByteArray::number(clock.second()).rightJustified(2, '0') + " GMT";
}

QByteArray writeHttpContinue() {
    return "HTTP/1.1 100 Continue\r\n\r\n";
}

QByteArray writeWebSocketAccept(const QByteArray& accept, const QByteArray& protocol,
                                const QDateTime& now) {
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Accept: " +
           accept + "\r\nSec-WebSocket-Protocol: " + protocol + "\r\nDate: " + httpDate(now) +
           "\r\nServer: " + kServerName + "\r\n\r\n";
}

QByteArray writeHttpResponse(const AdminResponse& response, const HttpResponseOptions& options) {
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' +
                     reasonPhrase(response.status) + "\r\n";
    out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    QByteArray type = response.header("content-type");
    if (type.isEmpty() && !response.body.isEmpty())
        type = kAtomEntryType;
    if (!type.isEmpty())
        out += "Content-Type: " + type + "\r\n";
    out += "Date: " + httpDate(options.now) + "\r\n";
    out += "Server: " + kServerName + "\r\n";
    for (const auto& [name, value] : response.headers) {
        if (!writtenByUs(name))
            out += name + ": " + value + "\r\n";
    }
    if (options.close)
        out += "Connection: close\r\n";
    out += "\r\n";
    if (!options.headOnly)
        out += response.body;
    return out;
}

} // namespace hourglass::admin
