#include "HttpRequestReader.h"

namespace hourglass::admin {

namespace {
// RFC 9110's tchar: what a method and a header name are made of.
bool isTokenChar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView text) {
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

// A field value may hold visible characters, spaces, tabs and obs-text; no other control.
bool isFieldValue(QByteArrayView text) {
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return false;
    }
    return true;
}

// The request target in origin form: a path (and query), visible ASCII only.
bool isOriginForm(QByteArrayView text) {
    if (!text.startsWith('/'))
        return false;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f)
            return false;
    }
    return true;
}

QByteArray trimmed(QByteArrayView text) {
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && (text[begin] == ' ' || text[begin] == '\t'))
        ++begin;
    while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        --end;
    return text.sliced(begin, end - begin).toByteArray();
}

} // namespace

QList<QByteArray> listValues(const HeaderList& headers, QByteArrayView name) {
    QList<QByteArray> values;
    for (const auto& [field, value] : headers) {
        if (field.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray& element : value.split(','))
            values.append(trimmed(element).toLower());
    }
    return values;
}

int countOf(const HeaderList& headers, QByteArrayView name) {
    int count = 0;
    for (const auto& header : headers)
        count += header.first.compare(name, Qt::CaseInsensitive) == 0 ? 1 : 0;
    return count;
}

namespace {
// Where the head ends (the index just past its empty line), or -1 when it has not arrived.
qsizetype headEnd(const QByteArray& buffer) {
    const qsizetype crlf = buffer.indexOf("\r\n\r\n");
    const qsizetype lf = buffer.indexOf("\n\n");
    if (crlf < 0 && lf < 0)
        return -1;
    if (lf < 0 || (crlf >= 0 && crlf + 2 < lf))
        return crlf + 4;
    return lf + 2;
}

// A line without its end (LF, or CRLF).
QByteArrayView lineOf(QByteArrayView line) {
    return line.endsWith('\r') ? line.chopped(1) : line;
}
} // namespace

HttpRequestReader::Step HttpRequestReader::refuse(int status, const QString& detail) {
    m_refused = true;
    m_buffer.clear();
    m_request = {};
    Step step;
    step.kind = Kind::Refuse;
    step.status = status;
    step.detail = detail;
    return step;
}

HttpRequestReader::Step HttpRequestReader::next() {
    if (m_refused)
        return {};
    switch (m_phase) {
    case Phase::Idle:
        return readHead();
    case Phase::Body:
        return readBody();
    case Phase::Chunks:
        return readChunks();
    }
    return {};
}

HttpRequestReader::Step HttpRequestReader::readHead() {
    // Empty lines before a request line are ignored (RFC 9112 2.2), as a client may send a CRLF
    // after a body.
    qsizetype blank = 0;
    while (blank < m_buffer.size() && (m_buffer[blank] == '\r' || m_buffer[blank] == '\n'))
        ++blank;
    m_buffer.remove(0, blank);
    if (m_buffer.isEmpty())
        return {};
    const qsizetype end = headEnd(m_buffer);
    const qsizetype headSize = end < 0 ? m_buffer.size() : end;
    if (headSize > kMaxHttpHeaderBytes)
        return refuse(431, QStringLiteral("The request line and headers exceed 16 KiB."));
    const QByteArrayView head = QByteArrayView(m_buffer).first(headSize);
    if (head.count('\n') > kMaxHttpHeaderLines + 2)
        return refuse(431, QStringLiteral("The request has more than 100 header lines."));
    if (end < 0)
        return {};

    QList<QByteArrayView> lines;
    for (qsizetype at = 0; at < end;) {
        const qsizetype lf = head.indexOf('\n', at);
        lines.append(lineOf(head.sliced(at, lf - at)));
        at = lf + 1;
    }
    lines.removeLast(); // the empty line
    if (lines.size() - 1 > kMaxHttpHeaderLines)
        return refuse(431, QStringLiteral("The request has more than 100 header lines."));

    HttpRequest request;
    const QList<QByteArray> parts = lines.first().toByteArray().split(' ');
    if (parts.size() != 3 || !isToken(parts[0]) || !isOriginForm(parts[1]))
        return refuse(400, QStringLiteral("The request line is not METHOD /path HTTP/1.1."));
    if (parts[2] == "HTTP/1.0")
        request.http10 = true;
    else if (parts[2] != "HTTP/1.1")
        return refuse(parts[2].startsWith("HTTP/") ? 505 : 400,
                      QStringLiteral("Only HTTP/1.1 and HTTP/1.0 are served."));
    request.method = parts[0];
    request.target = parts[1];
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArrayView line = lines[i];
        const qsizetype colon = line.indexOf(':');
        // No folded lines, no space before the colon (RFC 9112 5.1 and 5.2).
        if (colon <= 0 || !isToken(line.first(colon)) || !isFieldValue(line.sliced(colon + 1)))
            return refuse(400, QStringLiteral("Header line %1 is malformed.").arg(i));
        request.headers.append({line.first(colon).toByteArray(), trimmed(line.sliced(colon + 1))});
    }
    m_buffer.remove(0, end);

    const HeaderList& headers = request.headers;
    if (!request.http10 && countOf(headers, "host") != 1)
        return refuse(400, QStringLiteral("An HTTP/1.1 request has exactly one Host header."));
    const QList<QByteArray> connection = listValues(headers, "connection");
    request.keepAlive =
        request.http10 ? connection.contains("keep-alive") : !connection.contains("close");

    const QList<QByteArray> lengths = listValues(headers, "content-length");
    const bool chunked = countOf(headers, "transfer-encoding") > 0;
    if (chunked && !lengths.isEmpty())
        return refuse(400, QStringLiteral("Content-Length and Transfer-Encoding together."));
    qint64 length = 0;
    for (const QByteArray& value : lengths) {
        bool ok = value.size() <= 18 && !value.isEmpty();
        for (char c : value)
            ok = ok && c >= '0' && c <= '9';
        if (!ok)
            return refuse(400, QStringLiteral("Content-Length is not a number."));
        if (value.toLongLong() != lengths.first().toLongLong())
            return refuse(400, QStringLiteral("Content-Length has differing values."));
        length = value.toLongLong();
    }
    if (chunked && listValues(headers, "transfer-encoding") != QList<QByteArray>{"chunked"})
        return refuse(501, QStringLiteral("Only the chunked transfer coding is served."));
    if (length > kMaxAdminBodyBytes)
        return refuse(413, QStringLiteral("The body exceeds 1 MiB."));

    const QList<QByteArray> expect = listValues(headers, "expect");
    if (!expect.isEmpty() && expect != QList<QByteArray>{"100-continue"})
        return refuse(417, QStringLiteral("Only Expect: 100-continue is served."));

    m_request = std::move(request);
    m_bodyLength = length;
    m_trailerBytes = 0;
    m_chunkState = ChunkState::Size;
    m_phase = chunked ? Phase::Chunks : Phase::Body;
    // A client that waits for 100 Continue sends no body before it (HTTP/1.0 has no such wait).
    if (!expect.isEmpty() && !m_request.http10 && (chunked || length > 0)) {
        Step step;
        step.kind = Kind::Continue;
        return step;
    }
    return next();
}

HttpRequestReader::Step HttpRequestReader::readBody() {
    if (m_buffer.size() < m_bodyLength)
        return {};
    m_request.body = m_buffer.first(m_bodyLength);
    m_buffer.remove(0, m_bodyLength);
    return complete();
}

HttpRequestReader::Step HttpRequestReader::complete() {
    m_phase = Phase::Idle;
    Step step;
    step.kind = Kind::Request;
    step.request = std::move(m_request);
    m_request = {};
    return step;
}

HttpRequestReader::Step HttpRequestReader::readChunks() {
    // A chunk-size line: 1 to 8 hex digits, extensions after ';' (ignored), within this length.
    constexpr qsizetype kMaxSizeLine = 1024;
    while (true) {
        switch (m_chunkState) {
        case ChunkState::Size: {
            const qsizetype lf = m_buffer.indexOf('\n');
            if (lf < 0) {
                if (m_buffer.size() > kMaxSizeLine)
                    return refuse(400, QStringLiteral("A chunk size line is too long."));
                return {};
            }
            if (lf > kMaxSizeLine)
                return refuse(400, QStringLiteral("A chunk size line is too long."));
            QByteArrayView line = lineOf(QByteArrayView(m_buffer).first(lf));
            if (const qsizetype semicolon = line.indexOf(';'); semicolon >= 0)
                line = line.first(semicolon);
            const QByteArray digits = trimmed(line);
            bool ok = !digits.isEmpty() && digits.size() <= 8;
            for (char c : digits)
                ok = ok && QByteArrayView("0123456789abcdefABCDEF").contains(c);
            const qint64 size = ok ? digits.toLongLong(&ok, 16) : -1;
            if (!ok || size < 0)
                return refuse(400, QStringLiteral("A chunk size is not a hexadecimal number."));
            m_buffer.remove(0, lf + 1);
            if (m_request.body.size() + size > kMaxAdminBodyBytes)
                return refuse(413, QStringLiteral("The body exceeds 1 MiB."));
            m_bodyLength = size;
            m_chunkState = size == 0 ? ChunkState::Trailer : ChunkState::Data;
            break;
        }
        case ChunkState::Data: {
            const qsizetype take = qMin(m_bodyLength, m_buffer.size());
            m_request.body.append(QByteArrayView(m_buffer).first(take));
            m_buffer.remove(0, take);
            m_bodyLength -= take;
            if (m_bodyLength > 0)
                return {};
            m_chunkState = ChunkState::DataEnd;
            break;
        }
        case ChunkState::DataEnd:
            if (m_buffer.startsWith("\r\n"))
                m_buffer.remove(0, 2);
            else if (m_buffer.startsWith('\n'))
                m_buffer.remove(0, 1);
            else if (m_buffer.isEmpty() || m_buffer == "\r")
                return {};
            else
                return refuse(400, QStringLiteral("A chunk does not end where its size says."));
            m_chunkState = ChunkState::Size;
            break;
        case ChunkState::Trailer: {
            // Trailer fields are read and dropped; they count against the header limit.
            const qsizetype lf = m_buffer.indexOf('\n');
            if (m_trailerBytes + (lf < 0 ? m_buffer.size() : lf + 1) > kMaxHttpHeaderBytes)
                return refuse(431, QStringLiteral("The trailer fields exceed 16 KiB."));
            if (lf < 0)
                return {};
            const bool last = lineOf(QByteArrayView(m_buffer).first(lf)).isEmpty();
            m_trailerBytes += lf + 1;
            m_buffer.remove(0, lf + 1);
            if (last)
                return complete();
            break;
        }
        }
    }
}

} // namespace hourglass::admin
