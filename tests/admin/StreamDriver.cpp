#include "StreamDriver.h"

#include "hourglass/amqp/NamespaceKeys.h"

#include <QDeadlineTimer>
#include <QThread>

namespace hourglass::testing {

StreamFixture::StreamFixture(admin::AdminStreamOptions options)
    : m_keys(std::make_shared<amqp::NamespaceKeyRing>(amqp::wellKnownEmulatorKey())) {
    (void)m_keys->refresh(m_broker.broker());
    m_factory = admin::adminStreamServices(m_broker.broker(), m_keys, std::move(options));
}

std::unique_ptr<amqp::StreamService> StreamFixture::open(quint16 port, bool secure) {
    amqp::StreamContext context;
    context.secure = secure;
    context.localHost = QStringLiteral("127.0.0.1");
    context.localPort = port;
    context.peer = QStringLiteral("127.0.0.1:40000");
    context.waker = m_waker;
    return m_factory(context);
}

amqp::StreamOutput StreamFixture::answer(amqp::StreamService& service) {
    const QDeadlineTimer deadline(10'000);
    while (m_waker->wakes() <= m_seen && !deadline.hasExpired())
        QThread::msleep(2);
    m_seen = m_waker->wakes();
    return service.woken();
}

QByteArray clientFrame(quint8 opcode, const QByteArray& payload, bool fin, quint32 mask) {
    QByteArray frame;
    frame.append(char((fin ? 0x80 : 0) | opcode));
    const quint64 length = quint64(payload.size());
    if (length <= 125) {
        frame.append(char(0x80 | length));
    } else if (length <= 0xffff) {
        frame.append(char(0x80 | 126));
        frame.append(char(length >> 8));
        frame.append(char(length & 0xff));
    } else {
        frame.append(char(0x80 | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            frame.append(char((length >> shift) & 0xff));
    }
    const quint8 key[4] = {quint8(mask >> 24), quint8(mask >> 16), quint8(mask >> 8), quint8(mask)};
    for (quint8 byte : key)
        frame.append(char(byte));
    for (qsizetype i = 0; i < payload.size(); ++i)
        frame.append(char(quint8(payload[i]) ^ key[i % 4]));
    return frame;
}

QList<ServerFrame> takeServerFrames(QByteArray& bytes) {
    QList<ServerFrame> frames;
    while (bytes.size() >= 2) {
        ServerFrame frame;
        frame.fin = quint8(bytes[0]) & 0x80;
        frame.opcode = quint8(bytes[0]) & 0x0f;
        frame.masked = quint8(bytes[1]) & 0x80;
        const quint8 code = quint8(bytes[1]) & 0x7f;
        const qsizetype extra = code == 127 ? 8 : code == 126 ? 2 : 0;
        if (bytes.size() < 2 + extra)
            break;
        quint64 length = code;
        if (extra > 0) {
            length = 0;
            for (qsizetype i = 0; i < extra; ++i)
                length = (length << 8) | quint8(bytes[2 + i]);
        }
        const qsizetype header = 2 + extra + (frame.masked ? 4 : 0);
        if (quint64(bytes.size() - header) < length)
            break;
        frame.payload = bytes.sliced(header, qsizetype(length));
        bytes.remove(0, header + qsizetype(length));
        frames.append(frame);
    }
    return frames;
}

} // namespace hourglass::testing
