#pragma once
// The HTTP/1.1 conversation of one connection, with nothing of a socket or a timer: bytes go in,
// what to send, the request to run and whether to close come out, and the deadline of what the
// connection waits for is kept against a time the driver passes in. The one state machine behind
// both transports (HttpConnection on the HTTP port's sockets, HttpStreamService on the AMQP
// endpoint's streams), so both decide alike when to answer 100 Continue, run a request, refuse,
// keep the connection, time it out,.
//
// One request in flight at a time: while one runs (busy()) nothing more is read, which keeps
// responses in order and what a connection holds bounded.

#include "HttpRequestReader.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <optional>

namespace hourglass::admin {

struct HttpTimeouts {
    std::chrono::milliseconds header{10'000}; // a request's head, from its first byte
    std::chrono::milliseconds body{30'000};   // its body, from the end of its head
    std::chrono::milliseconds idle{60'000};   // a keep-alive connection between requests
};

class HttpExchange {
public:
    using Clock = std::chrono::steady_clock;

    struct Options {
        HttpTimeouts timeouts;
        QString defaultHost;          // the host of a request without Host (HTTP/1.0)
        bool secure = false;          // the connection arrived through TLS
        bool acceptWebSocket = false; // answer the AMQP WebSocket upgrade (WebSocketHandshake.h)
    };

    struct Output {
        QByteArray bytes;                    // to send, in order
        std::optional<AdminRequest> request; // to run off the caller's thread; deliver() answers
        bool close = false;                  // end the connection once `bytes` are sent
        bool upgraded = false;               // `bytes` end with 101: WebSocket frames follow
    };

    // A new connection waits for its first request's head from `now`.
    HttpExchange(Options options, Clock::time_point now);

    // Bytes from the peer; advance() reads them.
    void append(QByteArrayView bytes) { m_reader.append(bytes.toByteArray()); }
    // Reads what was appended as far as it goes: stops at a request to run, a refusal, an
    // upgrade, or when more bytes are needed. Does nothing while busy() or once closed.
    Output advance(Clock::time_point now);
    // The response to the request in flight; call advance() after it for pipelined requests.
    Output deliver(const AdminResponse& response, Clock::time_point now);

    bool busy() const { return m_busy; }
    // Refused, answered with close, or upgraded: nothing more of HTTP is read.
    bool closed() const { return m_closed; }
    // After an upgrade: the bytes read past the upgrade request (already WebSocket frames).
    QByteArray takeLeftover() { return m_reader.takeBuffered(); }
    // Bytes held (the reader's buffer), for the driver's own bound on what it reads ahead.
    qsizetype buffered() const { return m_reader.buffered(); }

    // The driver cannot send more for now (a client that takes nothing): it waits for the client
    // to start reading within the idle time, and advance() should not be called meanwhile.
    void setWriteBlocked(bool blocked, Clock::time_point now);
    // When what the connection waits for times out; none while a request runs (or once closed).
    std::optional<Clock::time_point> deadline() const;
    bool expired(Clock::time_point now) const;

private:
    enum class Wait { None, Header, Body, Idle };
    Output refuse(int status, const QString& detail, const HeaderList& extra = {});
    Output start(HttpRequest request);
    void rearm(Clock::time_point now);

    const Options m_options;
    HttpRequestReader m_reader;
    Wait m_wait = Wait::Header;
    Clock::time_point m_waitSince;
    bool m_busy = false;     // a request is with a worker
    bool m_headOnly = false; // ... and it is a HEAD
    bool m_keepAlive = true; // ... and the connection stays open after it
    bool m_closed = false;
    bool m_servedAny = false;
    bool m_writeBlocked = false;
};

} // namespace hourglass::admin
