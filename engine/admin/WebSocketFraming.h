#pragma once
// AMQP inside WebSocket binary messages, the server's side of RFC 6455: what a client sends is
// unwrapped into the AMQP bytes its frames carry, what Proton writes is wrapped into frames.
//
// Every byte is hostile and nothing large is held: a frame's header (at most 14 bytes) and a
// control frame's payload (at most 125) are all that is buffered; a data frame's payload is
// passed on as it arrives, without waiting for the frame or the message to end (AMQP is a byte
// stream, and the frame boundaries mean nothing to it). A client that breaks the framing is
// answered with a close frame (1002; 1003 for a text message) and the connection ends.

#include "hourglass/amqp/StreamService.h"

#include <QByteArray>

namespace hourglass::admin {

// Payloads larger than this are wrapped into several frames.
inline constexpr qsizetype kMaxWebSocketFramePayload = 64 * 1024;

class WebSocketFraming : public amqp::StreamFraming {
public:
    Unwrapped unwrap(QByteArrayView bytes) override;
    QByteArray wrap(QByteArrayView payload) override;
    QByteArray closing() override;

    // A close frame with `code` (and no reason).
    static QByteArray closeFrame(quint16 code);
    // What unwrap() holds between calls (a partial header, a partial control payload).
    qsizetype buffered() const { return m_header.size() + m_control.size(); }

private:
    // RFC 6455 5.2's opcodes: data frames below Close, control frames from it.
    enum class Opcode : quint8 { Continuation, Text, Binary, Close = 0x8, Ping, Pong };
    // Reads a header from m_header once whole: false while more is needed; fails the framing when
    // it breaks the rules.
    bool takeHeader(Unwrapped& out);
    // The close code for what a header's first two bytes break (0: nothing).
    quint16 headerError() const;
    void fail(Unwrapped& out, quint16 code);
    void controlComplete(Unwrapped& out);

    QByteArray m_header;    // a frame header under way
    QByteArray m_control;   // a control frame's payload under way
    bool m_inFrame = false; // a header was read; its payload follows
    Opcode m_opcode = Opcode::Binary;
    quint64 m_left = 0; // payload bytes of the frame still to come
    quint8 m_mask[4] = {};
    quint64 m_maskAt = 0;     // the payload offset, for the mask's position
    bool m_inMessage = false; // a fragmented binary message is under way
    bool m_finished = false;  // closed, or failed: nothing more is read
    bool m_closeSent = false; // a close frame went (a reply, or closing())
};

} // namespace hourglass::admin
