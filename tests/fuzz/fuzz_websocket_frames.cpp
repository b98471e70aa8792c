// What a client sends after its WebSocket upgrade on the AMQP endpoint's ports: frames unwrapped
// by WebSocketFraming (engine/admin) as they arrive. The first input byte picks the size of the
// pieces (1 to 64 bytes), as a socket may deliver them; the rest is the stream. Nothing large may
// be held (a header and a control payload at most), no call may give more payload than the bytes
// it was given, a reply is control frames only, and once the framing has closed nothing more comes
// out. What came through is then wrapped back, as the server would send it.

#include "FuzzInput.h"
#include "WebSocketFraming.h"

#include <cstdlib>

using namespace hourglass::admin;

namespace {
void require(bool holds) {
    if (!holds)
        std::abort();
}

// The payload sizes of the unmasked server frames in `bytes`, which must be whole frames.
qsizetype serverPayload(const QByteArray& bytes, quint8 opcodeWanted) {
    qsizetype total = 0;
    for (qsizetype at = 0; at < bytes.size();) {
        require(bytes.size() - at >= 2);
        require((quint8(bytes[at]) & 0xf0) == 0x80); // FIN, no reserved bit
        require(opcodeWanted == 0 || (quint8(bytes[at]) & 0x0f) == opcodeWanted);
        require((quint8(bytes[at + 1]) & 0x80) == 0); // a server never masks
        const quint8 code = quint8(bytes[at + 1]) & 0x7f;
        const qsizetype extra = code == 127 ? 8 : code == 126 ? 2 : 0;
        require(bytes.size() - at >= 2 + extra);
        quint64 length = code;
        if (extra > 0) {
            length = 0;
            for (qsizetype i = 0; i < extra; ++i)
                length = (length << 8) | quint8(bytes[at + 2 + i]);
        }
        require(length <= quint64(bytes.size() - at - 2 - extra));
        at += 2 + extra + qsizetype(length);
        total += qsizetype(length);
    }
    return total;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    WebSocketFraming framing;
    QByteArray payload;
    bool closed = false;
    hourglass::fuzz::forEachPiece(data, size, [&](QByteArrayView bytes) {
        const auto out = framing.unwrap(bytes);
        require(out.payload.size() <= bytes.size());
        require(framing.buffered() <= 14 + 125);
        if (closed)
            require(out.payload.isEmpty() && out.reply.isEmpty() && out.close);
        serverPayload(out.reply, 0);
        closed = closed || out.close;
        payload += out.payload;
        return true;
    });
    require(serverPayload(framing.wrap(payload), 0x2) == payload.size());
    const QByteArray last = framing.closing();
    require(closed ? last.isEmpty() : serverPayload(last, 0x8) == 2);
    return 0;
}
