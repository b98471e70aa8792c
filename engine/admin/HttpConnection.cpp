#include "HttpConnection.h"

#include "AdminErrors.h"
#include "HttpResponseWriter.h"
#include "hourglass/admin/AdminHttpServer.h"

#include <QDateTime>
#include <QTcpSocket>

namespace hourglass::admin {

namespace {
// What is read from the socket at a time, and what its read buffer holds at most.
constexpr qint64 kReadChunk = 64 * 1024;
// Responses not yet taken by a client that does not read: past this nothing more is answered.
constexpr qint64 kMaxUnsent = 2 * kMaxAdminBodyBytes;
// A closing connection whose client takes nothing is cut after this.
constexpr std::chrono::seconds kLingerLimit{10};
} // namespace

HttpConnection::HttpConnection(QTcpSocket* socket, const AdminHttpOptions& options,
                               QString listenerHost, Dispatch dispatch, std::atomic<int>& openCount,
                               QObject* parent)
    : QObject(parent)
    , m_socket(socket)
    , m_options(options)
    , m_listenerHost(std::move(listenerHost))
    , m_dispatch(std::move(dispatch))
    , m_openCount(openCount) {
    ++m_openCount;
    m_socket->setParent(this);
    m_socket->setReadBufferSize(kReadChunk);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpConnection::timedOut);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::process);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::process);
    connect(m_socket, &QTcpSocket::disconnected, this, &QObject::deleteLater);
    // A reset or an error: the connection is over (a request in flight is answered to no one).
    connect(m_socket, &QTcpSocket::errorOccurred, this, &QObject::deleteLater);
    armTimer();
    process();
}

HttpConnection::~HttpConnection() {
    --m_openCount;
}

void HttpConnection::abort() {
    m_socket->abort();
    deleteLater();
}

void HttpConnection::write(const QByteArray& bytes) {
    m_socket->write(bytes);
}

void HttpConnection::closeAfterWriting() {
    m_closing = true;
    m_timer.start(kLingerLimit);
    m_wait = Wait::None;
    m_socket->disconnectFromHost(); // after what is written has gone; then `disconnected`
}

void HttpConnection::refuse(int status, const QString& detail) {
    HttpResponseOptions options;
    options.close = true;
    options.now = QDateTime::currentDateTimeUtc();
    write(writeHttpResponse(errorResponse(status, detail), options));
    closeAfterWriting();
}

void HttpConnection::process() {
    while (!m_busy && !m_closing && m_socket->bytesToWrite() <= kMaxUnsent) {
        HttpRequestReader::Step step = m_reader.next();
        switch (step.kind) {
        case HttpRequestReader::Kind::NeedMore: {
            const QByteArray bytes = m_socket->read(kReadChunk);
            if (bytes.isEmpty()) {
                armTimer();
                return;
            }
            m_reader.append(bytes);
            break;
        }
        case HttpRequestReader::Kind::Continue:
            write(writeHttpContinue());
            break;
        case HttpRequestReader::Kind::Refuse:
            refuse(step.status, step.detail);
            return;
        case HttpRequestReader::Kind::Request: {
            HttpRequest& request = step.request;
            AdminRequest admin;
            m_headOnly = request.method == "HEAD";
            admin.method = m_headOnly ? QByteArray("GET") : request.method;
            admin.target = std::move(request.target);
            QByteArray host = headerValue(request.headers, "host");
            admin.host = host.isEmpty() ? m_listenerHost : QString::fromLatin1(host);
            admin.headers = std::move(request.headers);
            admin.body = std::move(request.body);
            admin.secure = false;
            m_keepAlive = request.keepAlive;
            m_busy = true;
            armTimer();
            m_dispatch(QPointer<HttpConnection>(this), std::move(admin));
            return;
        }
        }
    }
    armTimer();
}

void HttpConnection::deliver(const AdminResponse& response) {
    if (!m_busy)
        return;
    m_busy = false;
    m_servedAny = true;
    HttpResponseOptions options;
    options.headOnly = m_headOnly;
    options.close = !m_keepAlive;
    options.now = QDateTime::currentDateTimeUtc();
    write(writeHttpResponse(response, options));
    if (!m_keepAlive) {
        closeAfterWriting();
        return;
    }
    // The next pipelined request may be buffered already (no readyRead will tell it).
    process();
}

void HttpConnection::armTimer() {
    if (m_closing)
        return;
    Wait wanted = Wait::None;
    if (m_busy)
        wanted = Wait::None;
    else if (m_socket->bytesToWrite() > kMaxUnsent)
        wanted = Wait::Idle; // a client that reads nothing is given the idle time to start
    else if (m_reader.headersComplete())
        wanted = Wait::Body;
    else if (m_reader.inRequest() || !m_servedAny)
        wanted = Wait::Header; // a new connection has the header time to send its first one
    else
        wanted = Wait::Idle;
    if (wanted == m_wait)
        return;
    m_wait = wanted;
    switch (wanted) {
    case Wait::None:
        m_timer.stop();
        break;
    case Wait::Header:
        m_timer.start(m_options.headerTimeout);
        break;
    case Wait::Body:
        m_timer.start(m_options.bodyTimeout);
        break;
    case Wait::Idle:
        m_timer.start(m_options.idleTimeout);
        break;
    }
}

void HttpConnection::timedOut() {
    // Slow or silent clients, and closing ones that take nothing, are cut without a word.
    abort();
}

} // namespace hourglass::admin
