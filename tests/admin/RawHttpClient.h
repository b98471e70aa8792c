#pragma once
// A raw HTTP client over a QTcpSocket for the AdminHttpServer's tests: bytes written exactly as
// given (malformed, dribbled, pipelined), responses parsed from what comes back, every wait
// bounded.

#include "hourglass/admin/AdminApi.h"

#include <QByteArray>
#include <QTcpSocket>

#include <optional>

namespace hourglass::testing {

struct RawResponse {
    int status = 0;
    admin::HeaderList headers;
    QByteArray body;

    QByteArray header(const QByteArray& name) const { return admin::headerValue(headers, name); }
};

// Takes one complete response off the front of `buffer` (a HEAD's has no body); nullopt when
// it has not all arrived.
std::optional<RawResponse> takeResponse(QByteArray& buffer, bool head = false);

class RawHttpClient {
public:
    explicit RawHttpClient(quint16 port);

    bool connected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    void send(const QByteArray& bytes);
    // Waits (at most `timeoutMs`) for the next response.
    std::optional<RawResponse> response(bool head = false, int timeoutMs = 10'000);
    // Waits (at most `timeoutMs`) until the server has closed the connection.
    bool closedByServer(int timeoutMs = 10'000);
    // What arrived and was not taken as a response.
    QByteArray pending() const { return m_buffer; }
    QTcpSocket& socket() { return m_socket; }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

// "Authorization: SharedAccessSignature ..." for http://127.0.0.1:<port>/ with the emulator's key.
QByteArray authorizationFor(quint16 port);
// A whole request with Host, Authorization and (with a body) Content-Length.
QByteArray httpRequest(const QByteArray& method, const QByteArray& target, quint16 port,
                       const QByteArray& body = {}, const QByteArray& extraHeaders = {});

} // namespace hourglass::testing
