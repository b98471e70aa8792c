#include "HttpConnection.h"

#include "hourglass/admin/AdminHttpServer.h"

#include <QTcpSocket>

namespace hourglass::admin {

namespace {
// What is read from the socket at a time, and what its read buffer holds at most.
constexpr qint64 kReadChunk = 64 * 1024;
// Responses not yet taken by a client that does not read: past this nothing more is answered.
constexpr qint64 kMaxUnsent = 2 * kMaxAdminBodyBytes;
// A closing connection whose client takes nothing is cut after this.
constexpr std::chrono::seconds kLingerLimit{10};

HttpExchange::Options exchangeOptions(const AdminHttpOptions& options, QString listenerHost) {
    HttpExchange::Options exchange;
    exchange.timeouts.header = options.headerTimeout;
    exchange.timeouts.body = options.bodyTimeout;
    exchange.timeouts.idle = options.idleTimeout;
    exchange.defaultHost = std::move(listenerHost);
    exchange.secure = false;
    return exchange;
}
} // namespace

HttpConnection::HttpConnection(QTcpSocket* socket, const AdminHttpOptions& options,
                               QString listenerHost, Dispatch dispatch, std::atomic<int>& openCount,
                               QObject* parent)
    : QObject(parent)
    , m_socket(socket)
    , m_dispatch(std::move(dispatch))
    , m_openCount(openCount)
    , m_exchange(exchangeOptions(options, std::move(listenerHost)), HttpExchange::Clock::now()) {
    ++m_openCount;
    m_socket->setParent(this);
    m_socket->setReadBufferSize(kReadChunk);
    m_timer.setSingleShot(true);
    // Slow or silent clients, and closing ones that take nothing, are cut without a word.
    connect(&m_timer, &QTimer::timeout, this, &HttpConnection::abort);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::process);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::process);
    connect(m_socket, &QTcpSocket::disconnected, this, &QObject::deleteLater);
    // A reset or an error: the connection is over (a request in flight is answered to no one).
    connect(m_socket, &QTcpSocket::errorOccurred, this, &QObject::deleteLater);
    process();
}

HttpConnection::~HttpConnection() {
    --m_openCount;
}

void HttpConnection::abort() {
    m_socket->abort();
    deleteLater();
}

void HttpConnection::closeAfterWriting() {
    m_closing = true;
    m_timer.start(kLingerLimit);
    m_socket->disconnectFromHost(); // after what is written has gone; then `disconnected`
}

void HttpConnection::send(HttpExchange::Output output) {
    if (!output.bytes.isEmpty())
        m_socket->write(output.bytes);
    if (output.request)
        m_dispatch(QPointer<HttpConnection>(this), std::move(*output.request));
    if (output.close)
        closeAfterWriting();
}

void HttpConnection::process() {
    const auto now = HttpExchange::Clock::now();
    while (!m_closing && !m_exchange.busy()) {
        const bool blocked = m_socket->bytesToWrite() > kMaxUnsent;
        m_exchange.setWriteBlocked(blocked, now);
        if (blocked)
            break;
        send(m_exchange.advance(now));
        if (m_closing || m_exchange.busy())
            break;
        const QByteArray bytes = m_socket->read(kReadChunk);
        if (bytes.isEmpty())
            break;
        m_exchange.append(bytes);
    }
    syncTimer(now);
}

void HttpConnection::deliver(const AdminResponse& response) {
    if (!m_exchange.busy() || m_closing)
        return;
    send(m_exchange.deliver(response, HttpExchange::Clock::now()));
    // The next pipelined request may be buffered already (no readyRead will tell it).
    process();
}

void HttpConnection::syncTimer(HttpExchange::Clock::time_point now) {
    if (m_closing)
        return; // the linger limit runs
    const auto deadline = m_exchange.deadline();
    if (deadline == m_armed)
        return;
    m_armed = deadline;
    if (!deadline) {
        m_timer.stop();
        return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now);
    m_timer.start(std::max(left, std::chrono::milliseconds(0)));
}

} // namespace hourglass::admin
