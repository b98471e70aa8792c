#include "HttpExchange.h"

#include "AdminErrors.h"
#include "HttpResponseWriter.h"
#include "WebSocketHandshake.h"

#include <QDateTime>

namespace hourglass::admin {

HttpExchange::HttpExchange(Options options, Clock::time_point now)
    : m_options(std::move(options))
    , m_waitSince(now) {}

HttpExchange::Output HttpExchange::refuse(int status, const QString& detail,
                                          const HeaderList& extra) {
    HttpResponseOptions options;
    options.close = true;
    options.now = QDateTime::currentDateTimeUtc();
    AdminResponse response = errorResponse(status, detail);
    response.headers += extra;
    Output out;
    out.bytes = writeHttpResponse(response, options);
    out.close = true;
    m_closed = true;
    return out;
}

HttpExchange::Output HttpExchange::advance(Clock::time_point now) {
    Output out;
    while (!m_busy && !m_closed) {
        HttpRequestReader::Step step = m_reader.next();
        if (step.kind == HttpRequestReader::Kind::NeedMore)
            break;
        if (step.kind == HttpRequestReader::Kind::Continue) {
            out.bytes += writeHttpContinue();
            continue;
        }
        if (step.kind == HttpRequestReader::Kind::Refuse) {
            Output refused = refuse(step.status, step.detail);
            refused.bytes.prepend(out.bytes);
            out = std::move(refused);
            break;
        }
        Output started = start(std::move(step.request));
        started.bytes.prepend(out.bytes);
        out = std::move(started);
        break;
    }
    rearm(now);
    return out;
}

HttpExchange::Output HttpExchange::start(HttpRequest request) {
    if (m_options.acceptWebSocket) {
        const WebSocketUpgrade upgrade = checkWebSocketUpgrade(request);
        if (upgrade.kind == WebSocketUpgrade::Kind::Refuse) {
            // A client that asked for a version we lack is told the one we speak.
            HeaderList extra;
            if (upgrade.status == 426)
                extra.append(qMakePair(QByteArray("Sec-WebSocket-Version"), QByteArray("13")));
            return refuse(upgrade.status, upgrade.detail, extra);
        }
        if (upgrade.kind == WebSocketUpgrade::Kind::Accept) {
            Output out;
            out.bytes = writeWebSocketAccept(upgrade.accept, kAmqpWebSocketProtocol,
                                             QDateTime::currentDateTimeUtc());
            out.upgraded = true;
            m_closed = true;
            return out;
        }
    }
    AdminRequest admin;
    m_headOnly = request.method == "HEAD";
    admin.method = m_headOnly ? QByteArray("GET") : request.method;
    admin.target = std::move(request.target);
    const QByteArray host = headerValue(request.headers, "host");
    admin.host = host.isEmpty() ? m_options.defaultHost : QString::fromLatin1(host);
    admin.headers = std::move(request.headers);
    admin.body = std::move(request.body);
    admin.secure = m_options.secure;
    m_keepAlive = request.keepAlive;
    m_busy = true;
    Output out;
    out.request = std::move(admin);
    return out;
}

HttpExchange::Output HttpExchange::deliver(const AdminResponse& response, Clock::time_point now) {
    Output out;
    if (!m_busy)
        return out;
    m_busy = false;
    m_servedAny = true;
    HttpResponseOptions options;
    options.headOnly = m_headOnly;
    options.close = !m_keepAlive;
    options.now = QDateTime::currentDateTimeUtc();
    out.bytes = writeHttpResponse(response, options);
    if (!m_keepAlive) {
        out.close = true;
        m_closed = true;
    }
    rearm(now);
    return out;
}

void HttpExchange::setWriteBlocked(bool blocked, Clock::time_point now) {
    m_writeBlocked = blocked;
    rearm(now);
}

void HttpExchange::rearm(Clock::time_point now) {
    Wait wanted = Wait::None;
    if (m_busy || m_closed)
        wanted = Wait::None;
    else if (m_writeBlocked)
        wanted = Wait::Idle; // a client that reads nothing is given the idle time to start
    else if (m_reader.headersComplete())
        wanted = Wait::Body;
    else if (m_reader.inRequest() || !m_servedAny)
        wanted = Wait::Header; // a new connection has the header time to send its first one
    else
        wanted = Wait::Idle;
    // A wait runs from when it began: more bytes of the same head do not extend it.
    if (wanted == m_wait)
        return;
    m_wait = wanted;
    m_waitSince = now;
}

std::optional<HttpExchange::Clock::time_point> HttpExchange::deadline() const {
    switch (m_wait) {
    case Wait::None:
        return std::nullopt;
    case Wait::Header:
        return m_waitSince + m_options.timeouts.header;
    case Wait::Body:
        return m_waitSince + m_options.timeouts.body;
    case Wait::Idle:
        return m_waitSince + m_options.timeouts.idle;
    }
    return std::nullopt;
}

bool HttpExchange::expired(Clock::time_point now) const {
    const auto until = deadline();
    return until && now >= *until;
}

} // namespace hourglass::admin
