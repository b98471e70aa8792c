#include "WebSocketFraming.h"

namespace hourglass::admin {

namespace {
constexpr quint16 kGoingAway = 1001;
constexpr quint16 kProtocolError = 1002;
constexpr quint16 kUnsupportedData = 1003;
constexpr qsizetype kMaxControlPayload = 125;

QByteArray frameHeader(quint8 firstByte, quint64 length) {
    QByteArray header;
    header.append(char(firstByte));
    if (length <= 125) {
        header.append(char(length));
    } else if (length <= 0xffff) {
        header.append(char(126));
        header.append(char(length >> 8));
        header.append(char(length & 0xff));
    } else {
        header.append(char(127));
        for (int shift = 56; shift >= 0; shift -= 8)
            header.append(char((length >> shift) & 0xff));
    }
    return header;
}

// Close codes a peer may send (RFC 6455 7.4): the defined ones, and those of libraries and
// applications; 1005, 1006 and 1015 are never on the wire.
bool isValidCloseCode(quint16 code) {
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
           (code >= 3000 && code <= 4999);
}
} // namespace

QByteArray WebSocketFraming::closeFrame(quint16 code) {
    QByteArray frame = frameHeader(0x80 | quint8(Opcode::Close), 2);
    frame.append(char(code >> 8));
    frame.append(char(code & 0xff));
    return frame;
}

void WebSocketFraming::fail(Unwrapped& out, quint16 code) {
    if (!m_closeSent)
        out.reply += closeFrame(code);
    m_closeSent = true;
    m_finished = true;
    out.close = true;
    m_header.clear();
    m_control.clear();
}

quint16 WebSocketFraming::headerError() const {
    const auto first = quint8(m_header[0]);
    const auto second = quint8(m_header[1]);
    const quint8 opcode = first & 0x0f;
    const bool fin = first & 0x80;
    if ((first & 0x70) != 0) // no extension was negotiated, so no reserved bit may be set
        return kProtocolError;
    if (!(second & 0x80)) // a client masks every frame
        return kProtocolError;
    switch (opcode) {
    case quint8(Opcode::Continuation):
        return m_inMessage ? 0 : kProtocolError;
    case quint8(Opcode::Binary): // a new message before the last one ended is an error
        return m_inMessage ? kProtocolError : 0;
    case quint8(Opcode::Text): // AMQP is binary; a text message cannot carry it
        return m_inMessage ? kProtocolError : kUnsupportedData;
    case quint8(Opcode::Close):
    case quint8(Opcode::Ping):
    case quint8(Opcode::Pong):
        return fin && (second & 0x7f) <= kMaxControlPayload ? 0 : kProtocolError;
    default:
        return kProtocolError;
    }
}

bool WebSocketFraming::takeHeader(Unwrapped& out) {
    if (m_header.size() < 2)
        return false;
    // What the first two bytes break is refused before the rest arrives.
    if (m_header.size() == 2) {
        if (const quint16 error = headerError()) {
            fail(out, error);
            return false;
        }
    }
    const auto first = quint8(m_header[0]);
    const quint8 lengthCode = quint8(m_header[1]) & 0x7f;
    const qsizetype lengthBytes = lengthCode == 127 ? 8 : lengthCode == 126 ? 2 : 0;
    if (m_header.size() < 2 + lengthBytes + 4)
        return false;
    quint64 length = lengthCode;
    if (lengthBytes > 0) {
        length = 0;
        for (qsizetype i = 0; i < lengthBytes; ++i)
            length = (length << 8) | quint8(m_header[2 + i]);
        if (length >> 63) {
            fail(out, kProtocolError);
            return false;
        }
    }
    m_opcode = Opcode(first & 0x0f);
    if (quint8(m_opcode) < 0x8)
        m_inMessage = !(first & 0x80);
    m_left = length;
    m_maskAt = 0;
    for (int i = 0; i < 4; ++i)
        m_mask[i] = quint8(m_header[2 + lengthBytes + i]);
    m_header.clear();
    m_inFrame = true;
    return true;
}

void WebSocketFraming::controlComplete(Unwrapped& out) {
    switch (m_opcode) {
    case Opcode::Ping:
        if (!m_closeSent)
            out.reply +=
                frameHeader(0x80 | quint8(Opcode::Pong), quint64(m_control.size())) + m_control;
        break;
    case Opcode::Close: {
        if (m_control.size() == 1) {
            fail(out, kProtocolError);
            return;
        }
        // The close is echoed with the peer's code (none when it sent none).
        if (!m_closeSent) {
            if (m_control.isEmpty()) {
                out.reply += frameHeader(0x80 | quint8(Opcode::Close), 0);
            } else {
                const quint16 code = quint16(quint8(m_control[0]) << 8 | quint8(m_control[1]));
                out.reply += closeFrame(isValidCloseCode(code) ? code : kProtocolError);
            }
        }
        m_closeSent = true;
        m_finished = true;
        out.close = true;
        break;
    }
    default: // a pong answers nothing
        break;
    }
    m_control.clear();
}

WebSocketFraming::Unwrapped WebSocketFraming::unwrap(QByteArrayView bytes) {
    Unwrapped out;
    qsizetype at = 0;
    while (!m_finished && at < bytes.size()) {
        if (!m_inFrame) {
            // One byte at a time into the header: it is at most 14 bytes, and takeHeader says
            // when it is whole.
            m_header.append(bytes[at++]);
            if (!takeHeader(out) && m_finished)
                break;
            if (!m_inFrame)
                continue;
        }
        const qsizetype take = qsizetype(qMin<quint64>(m_left, quint64(bytes.size() - at)));
        const bool control = quint8(m_opcode) >= 0x8;
        QByteArray& sink = control ? m_control : out.payload;
        const qsizetype start = sink.size();
        sink.append(bytes.sliced(at, take));
        for (qsizetype i = 0; i < take; ++i)
            sink[start + i] = char(quint8(sink[start + i]) ^ m_mask[(m_maskAt + quint64(i)) % 4]);
        at += take;
        m_maskAt += quint64(take);
        m_left -= quint64(take);
        if (m_left == 0) {
            m_inFrame = false;
            if (control)
                controlComplete(out);
        }
    }
    if (m_finished)
        out.close = true;
    return out;
}

QByteArray WebSocketFraming::wrap(QByteArrayView payload) {
    QByteArray frames;
    for (qsizetype at = 0; at < payload.size(); at += kMaxWebSocketFramePayload) {
        const QByteArrayView piece =
            payload.sliced(at).first(qMin(kMaxWebSocketFramePayload, payload.size() - at));
        frames += frameHeader(0x80 | quint8(Opcode::Binary), quint64(piece.size()));
        frames.append(piece);
    }
    return frames;
}

QByteArray WebSocketFraming::closing() {
    if (m_closeSent)
        return {};
    m_closeSent = true;
    m_finished = true;
    return closeFrame(kGoingAway);
}

} // namespace hourglass::admin
