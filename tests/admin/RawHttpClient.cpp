#include "RawHttpClient.h"

#include "AdminFixture.h"

#include <QDeadlineTimer>

namespace hourglass::testing {

std::optional<RawResponse> takeResponse(QByteArray& buffer, bool head) {
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return std::nullopt;
    const QList<QByteArray> lines = buffer.first(end).split('\n');
    RawResponse response;
    const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
    if (statusLine.size() < 2)
        return std::nullopt;
    response.status = statusLine[1].toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        response.headers.append(
            {lines[i].first(colon).trimmed(), lines[i].sliced(colon + 1).trimmed()});
    }
    const qsizetype length =
        head || response.status == 100 ? 0 : response.header("content-length").toLongLong();
    if (buffer.size() < end + 4 + length)
        return std::nullopt;
    response.body = buffer.sliced(end + 4, length);
    buffer.remove(0, end + 4 + length);
    return response;
}

RawHttpClient::RawHttpClient(quint16 port) {
    m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    m_socket.waitForConnected(10'000);
}

void RawHttpClient::send(const QByteArray& bytes) {
    m_socket.write(bytes);
    m_socket.waitForBytesWritten(10'000);
}

std::optional<RawResponse> RawHttpClient::response(bool head, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        m_buffer += m_socket.readAll();
        if (auto taken = takeResponse(m_buffer, head))
            return taken;
        if (deadline.hasExpired() || m_socket.state() != QAbstractSocket::ConnectedState)
            return std::nullopt;
        m_socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
    }
}

bool RawHttpClient::closedByServer(int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    while (m_socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
        m_socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
        m_buffer += m_socket.readAll();
    }
    return m_socket.state() != QAbstractSocket::ConnectedState;
}

QByteArray authorizationFor(quint16 port) {
    const QString audience = QStringLiteral("http://127.0.0.1:%1/").arg(port);
    return "Authorization: " + AdminFixture::token(audience, amqp::wellKnownEmulatorKey());
}

QByteArray httpRequest(const QByteArray& method, const QByteArray& target, quint16 port,
                       const QByteArray& body, const QByteArray& extraHeaders) {
    QByteArray request = method + ' ' + target + " HTTP/1.1\r\n";
    request += "Host: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
    request += authorizationFor(port) + "\r\n";
    if (!body.isEmpty())
        request += "Content-Type: application/atom+xml\r\nContent-Length: " +
                   QByteArray::number(body.size()) + "\r\n";
    request += extraHeaders;
    request += "\r\n";
    return request + body;
}

} // namespace hourglass::testing
