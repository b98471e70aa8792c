#pragma once
// HTTP/1.1 requests read incrementally from bytes, with nothing of a socket: bytes go in as they
// arrive (one at a time is fine), complete requests come out in order. Every byte is hostile, so
// what a peer can make it hold is bounded: the request line and headers at most
// kMaxHttpHeaderBytes in kMaxHttpHeaderLines lines, a body at most kMaxAdminBodyBytes (a larger
// declared one is refused before a byte of it is read). A refusal ends the connection: after a
// framing error nothing that follows can be trusted to start a request.

#include "hourglass/admin/AdminApi.h"

#include <QByteArray>

#include <utility>

namespace hourglass::admin {

inline constexpr qsizetype kMaxHttpHeaderBytes = 16 * 1024;
inline constexpr int kMaxHttpHeaderLines = 100;

struct HttpRequest {
    QByteArray method; // as sent ("GET", "HEAD", "PUT", ...)
    QByteArray target;
    HeaderList headers;
    QByteArray body; // de-chunked
    bool http10 = false;
    bool keepAlive = true; // HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with keep-alive
};

// The comma-separated elements of every field named `name` (any case), trimmed, in lower case.
QList<QByteArray> listValues(const HeaderList& headers, QByteArrayView name);
// How many fields are named `name` (any case).
int countOf(const HeaderList& headers, QByteArrayView name);

class HttpRequestReader {
public:
    enum class Kind {
        NeedMore, // no complete request yet
        Continue, // the client waits for "100 Continue" before it sends the body
        Request,  // `request` is complete
        Refuse,   // answer `status` (with `detail`) and close the connection
    };
    struct Step {
        Kind kind = Kind::NeedMore;
        HttpRequest request;
        int status = 0;
        QString detail;
    };

    void append(const QByteArray& bytes) { m_buffer.append(bytes); }
    // The next step; call again after a Continue or a Request (pipelined requests follow).
    Step next();

    // The bytes held past the last complete request (the connection leaves HTTP: an upgrade).
    QByteArray takeBuffered() { return std::exchange(m_buffer, {}); }
    // Bytes held but not yet part of a complete request (the caller bounds its reads by it).
    qsizetype buffered() const { return m_buffer.size(); }
    // Whether part of a request has arrived (headers or body under way).
    bool inRequest() const { return m_phase != Phase::Idle || !m_buffer.isEmpty(); }
    // Whether the headers of the request under way are complete (its body is being read).
    bool headersComplete() const { return m_phase == Phase::Body || m_phase == Phase::Chunks; }

private:
    enum class Phase { Idle, Body, Chunks };
    Step readHead();
    Step readBody();
    Step readChunks();
    Step complete();
    Step refuse(int status, const QString& detail);
    enum class ChunkState { Size, Data, DataEnd, Trailer };

    QByteArray m_buffer;
    Phase m_phase = Phase::Idle;
    bool m_refused = false;
    HttpRequest m_request; // the one whose body is being read
    qsizetype m_bodyLength = 0;
    qsizetype m_trailerBytes = 0;
    ChunkState m_chunkState = ChunkState::Size;
};

} // namespace hourglass::admin
