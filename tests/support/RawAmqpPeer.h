#pragma once
// An AMQP 1.0 peer that writes its frames by hand, for tests that play a hostile client: it
// sends what a client library never would (transfers past its credit, a credit of 2^32-1, any
// bytes as a message) and reads the endpoint's frames back as described lists. Performatives
// are encoded with Proton's pn_data (only the values; framing, ids and flow are this class's),
// and read with the endpoint's own AmqpValue reader. SASL only when asked (sasl()): the endpoint
// lets peers that skip it in.

#include "hourglass/amqpcodec/AmqpValue.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QStringList>
#include <QVariant>
#include <QtEndian>

#include <proton/codec.h>
#include <proton/message.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <optional>

namespace hourglass::testing {

// Performative descriptors (AMQP 1.0, 2.7).
enum Performative : quint64 {
    kOpen = 0x10,
    kBegin = 0x11,
    kAttach = 0x12,
    kFlow = 0x13,
    kTransfer = 0x14,
    kDisposition = 0x15,
    kDetach = 0x16,
    kEnd = 0x17,
    kClose = 0x18,
    // SASL (AMQP 1.0, 5.3.3), in frames of type 1.
    kSaslMechanisms = 0x40,
    kSaslInit = 0x41,
    kSaslOutcome = 0x44,
};
constexpr quint8 kSaslFrame = 1;

struct AmqpFrame {
    quint16 channel = 0;
    quint64 performative = 0;
    QVariantList fields;
    QByteArray raw;     // the whole frame as received
    QByteArray payload; // a transfer's message bytes
    QVariant field(int i) const { return i < fields.size() ? fields[i] : QVariant(); }
};

class RawAmqpPeer {
public:
    explicit RawAmqpPeer(quint16 port) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
    ~RawAmqpPeer() { ::close(m_fd); }
    RawAmqpPeer(const RawAmqpPeer&) = delete;
    RawAmqpPeer& operator=(const RawAmqpPeer&) = delete;

    bool connected() const { return m_connected; }

    // The SASL layer before open(): the SASL header, the endpoint's mechanisms, a sasl-init
    // naming `mechanism` with no initial response (as uAMQP's saslclientio.c sends MSSBCBS), and
    // the outcome. The mechanisms offered and the outcome's code; nullopt when none came.
    std::optional<std::pair<QStringList, int>> sasl(const QByteArray& mechanism) {
        write(QByteArray("AMQP\x03\x01\x00\x00", 8));
        const auto offered = waitFor(kSaslMechanisms, 5000);
        if (!offered)
            return std::nullopt;
        // One symbol or an array of them (symbols read as text, arrays as lists).
        const QVariant field = offered->field(0);
        const QStringList mechanisms = field.typeId() == QMetaType::QVariantList
                                           ? field.toStringList()
                                           : QStringList{field.toString()};
        writeFrame(
            kSaslInit,
            [&](pn_data_t* d) {
                pn_data_put_symbol(d, pn_bytes(size_t(mechanism.size()), mechanism.constData()));
            },
            {}, 0, kSaslFrame);
        const auto outcome = waitFor(kSaslOutcome, 5000);
        if (!outcome)
            return std::nullopt;
        m_headerSeen = false; // the endpoint answers open()'s AMQP header with its own
        return std::make_pair(mechanisms, int(outcome->field(0).toUInt()));
    }

    // Header, open and one session (channel 0); true once the endpoint answered both. `openFields`
    // replaces the open's fields (container-id and hostname by default).
    bool open(const std::function<void(pn_data_t*)>& openFields = {}) {
        write(QByteArray("AMQP\x00\x01\x00\x00", 8));
        writeFrame(
            kOpen, openFields ? openFields : [](pn_data_t* d) {
                pn_data_put_string(d, pn_bytes(8, "raw-peer"));
                pn_data_put_string(d, pn_bytes(9, "localhost"));
            });
        writeFrame(kBegin, [](pn_data_t* d) {
            pn_data_put_null(d);             // remote-channel
            pn_data_put_uint(d, 0);          // next-outgoing-id
            pn_data_put_uint(d, 0x7fffffff); // incoming-window
            pn_data_put_uint(d, 0x7fffffff); // outgoing-window
        });
        return waitFor(kBegin, 5000).has_value();
    }

    // Begins another session on `channel` (the endpoint answers with a begin on a channel of
    // its own, or ends the connection past its channel-max).
    void begin(quint16 channel) {
        writeFrame(
            kBegin,
            [](pn_data_t* d) {
                pn_data_put_null(d);
                pn_data_put_uint(d, 0);
                pn_data_put_uint(d, 0x7fffffff);
                pn_data_put_uint(d, 0x7fffffff);
            },
            {}, channel);
    }

    // Attaches link `handle`: the peer sends on it (`peerSends`) or receives from it. `source`
    // adds fields to the source after its address (e.g. a filter); `properties` adds link
    // properties.
    void attach(quint32 handle, const QByteArray& name, const QByteArray& address, bool peerSends,
                const std::function<void(pn_data_t*)>& sourceExtras = {},
                const std::function<void(pn_data_t*)>& properties = {}) {
        writeFrame(kAttach, [&](pn_data_t* d) {
            pn_data_put_string(d, pn_bytes(size_t(name.size()), name.constData()));
            pn_data_put_uint(d, handle);
            pn_data_put_bool(d, !peerSends); // role: true is the receiver
            pn_data_put_null(d);             // snd-settle-mode
            pn_data_put_null(d);             // rcv-settle-mode
            putTerminus(d, 0x28, peerSends ? QByteArray() : address, sourceExtras);
            putTerminus(d, 0x29, peerSends ? address : QByteArray(), {});
            pn_data_put_null(d);        // unsettled
            pn_data_put_bool(d, false); // incomplete-unsettled
            pn_data_put_uint(d, 0);     // initial-delivery-count
            pn_data_put_null(d);        // max-message-size
            pn_data_put_null(d);        // offered-capabilities
            pn_data_put_null(d);        // desired-capabilities
            if (properties)
                properties(d);
        });
    }

    // Detaches (closes) link `handle`.
    void detach(quint32 handle) {
        writeFrame(kDetach, [&](pn_data_t* d) {
            pn_data_put_uint(d, handle);
            pn_data_put_bool(d, true); // closed
        });
    }

    // Grants `credit` on link `handle` (the peer receives on it); on a link the peer sends on,
    // a `deliveryCount` past what it sent hands the rest of its credit back (a drain).
    void flow(quint32 handle, quint32 credit, quint32 deliveryCount = 0, bool drain = false) {
        writeFrame(kFlow, [&](pn_data_t* d) {
            pn_data_put_uint(d, m_nextIncomingId); // next-incoming-id
            pn_data_put_uint(d, 0x7fffffff);       // incoming-window
            pn_data_put_uint(d, m_nextDeliveryId); // next-outgoing-id
            pn_data_put_uint(d, 0x7fffffff);       // outgoing-window
            pn_data_put_uint(d, handle);
            pn_data_put_uint(d, deliveryCount);
            pn_data_put_uint(d, credit);
            pn_data_put_null(d); // available
            pn_data_put_bool(d, drain);
        });
    }

    // Sends `message` on link `handle` as one delivery, in frames of at most `frameBytes` of
    // message each; credit or not. Returns the delivery id.
    quint32 transfer(quint32 handle, const QByteArray& message, qsizetype frameBytes = 60000) {
        const quint32 id = m_nextDeliveryId++;
        qsizetype at = 0;
        do {
            const QByteArray part = message.mid(at, frameBytes);
            at += part.size();
            const bool more = at < message.size();
            writeFrame(
                kTransfer,
                [&](pn_data_t* d) {
                    pn_data_put_uint(d, handle);
                    pn_data_put_uint(d, id);
                    pn_data_put_binary(d, pn_bytes(sizeof id, reinterpret_cast<const char*>(&id)));
                    pn_data_put_uint(d, 0);     // message-format
                    pn_data_put_bool(d, false); // settled
                    pn_data_put_bool(d, more);
                },
                part);
        } while (at < message.size());
        return id;
    }

    // Reads frames until one with `performative` arrives (optionally also matching `accept`),
    // or `ms` pass. Every frame read is kept in received().
    std::optional<AmqpFrame> waitFor(quint64 performative, int ms,
                                     const std::function<bool(const AmqpFrame&)>& accept = {}) {
        QElapsedTimer timer;
        timer.start();
        while (true) {
            for (; m_scanned < m_frames.size(); ++m_scanned) {
                const AmqpFrame& frame = m_frames[m_scanned];
                if (frame.performative == performative && (!accept || accept(frame)))
                    return m_frames[m_scanned++];
            }
            if (timer.elapsed() >= ms || m_closed)
                return std::nullopt;
            readSome(50);
        }
    }
    // Reads what the endpoint sent meanwhile, without waiting. False once the peer closed.
    bool drain() { return readSome(0); }
    const QList<AmqpFrame>& received() const { return m_frames; }
    // Frames of `performative` are counted but not kept from now on (a flood's answers would
    // weigh on the test's own memory).
    void dropFrames(quint64 performative) { m_dropped = performative; }
    qsizetype droppedFrames() const { return m_droppedCount; }
    bool closedByEndpoint() const { return m_closed; }

    // Any performative with `fields` as the caller writes them, for shapes the helpers above
    // do not make (another library's attach, say).
    void sendFrame(quint64 performative, const std::function<void(pn_data_t*)>& fields,
                   const QByteArray& payload = {}, quint16 channel = 0) {
        writeFrame(performative, fields, payload, channel);
    }

    bool write(const QByteArray& bytes) {
        qsizetype sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(m_fd, bytes.constData() + sent, size_t(bytes.size() - sent),
                                     MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) {
                sent += n;
                continue;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return false;
            // The endpoint's answers fill our receive buffer while we write: keep reading.
            if (!readSome(10) && m_closed)
                return false;
        }
        return true;
    }

    // An encoded message from Proton's message API; `body` (encoded sections) replaces Proton's
    // body when given.
    static QByteArray encode(pn_message_t* message, const QByteArray& body = {}) {
        pn_rwbytes_t buffer{0, nullptr};
        const ssize_t size = pn_message_encode2(message, &buffer);
        QByteArray encoded = size > 0 ? QByteArray(buffer.start, qsizetype(size)) : QByteArray();
        std::free(buffer.start);
        return encoded + body;
    }

    // An amqp-value section holding `depth` lists, each inside the one before (list32 encoding,
    // 9 bytes a level), the innermost empty.
    static QByteArray nestedListsBody(int depth) {
        QByteArray bytes("\x00\x53\x77", 3);
        bytes.reserve(3 + qsizetype(depth) * 9 + 1);
        for (int level = depth; level >= 1; --level) {
            char header[9];
            header[0] = char(0xd0);
            qToBigEndian<quint32>(quint32(9 * level - 4), header + 1); // count + what follows
            qToBigEndian<quint32>(1, header + 5);
            bytes.append(header, 9);
        }
        bytes.append(char(0x45)); // list0
        return bytes;
    }

    // A decoded message's application properties (after pn_message_decode).
    static QVariantMap applicationProperties(const QByteArray& encoded) {
        pn_message_t* message = pn_message();
        QVariantMap properties;
        if (pn_message_decode(message, encoded.constData(), size_t(encoded.size())) == 0)
            properties = amqp::readSingleAmqpValue(pn_message_properties(message)).toMap();
        pn_message_free(message);
        return properties;
    }

    // An error's condition and description from a described error list (a detach's field 2,
    // a rejected outcome's field 0).
    static std::pair<QByteArray, QString> error(const QVariant& described) {
        const auto fields = described.value<amqp::AmqpDescribed>().fields;
        return {fields.value(0).toString().toUtf8(), fields.value(1).toString()};
    }

    // A source (0x28) or target (0x29) with `address` (null when null) and `extras` after it.
    static void putTerminus(pn_data_t* d, quint64 descriptor, const QByteArray& address,
                            const std::function<void(pn_data_t*)>& extras) {
        pn_data_put_described(d);
        pn_data_enter(d);
        pn_data_put_ulong(d, descriptor);
        pn_data_put_list(d);
        pn_data_enter(d);
        if (address.isNull())
            pn_data_put_null(d);
        else
            pn_data_put_string(d, pn_bytes(size_t(address.size()), address.constData()));
        if (extras)
            extras(d);
        pn_data_exit(d);
        pn_data_exit(d);
    }

private:
    void writeFrame(quint64 performative, const std::function<void(pn_data_t*)>& fields,
                    const QByteArray& payload = {}, quint16 channel = 0, quint8 type = 0) {
        pn_data_t* d = pn_data(16);
        pn_data_put_described(d);
        pn_data_enter(d);
        pn_data_put_ulong(d, performative);
        pn_data_put_list(d);
        pn_data_enter(d);
        fields(d);
        pn_data_exit(d);
        pn_data_exit(d);
        QByteArray body(4096, Qt::Uninitialized);
        ssize_t size;
        while ((size = pn_data_encode(d, body.data(), size_t(body.size()))) == PN_OVERFLOW)
            body.resize(body.size() * 2);
        pn_data_free(d);
        body.truncate(qsizetype(size));
        QByteArray frame(8, '\0');
        qToBigEndian<quint32>(quint32(8 + body.size() + payload.size()), frame.data());
        frame[4] = 2;          // data offset, in 4-byte words
        frame[5] = char(type); // 0: AMQP, 1: SASL
        qToBigEndian<quint16>(channel, frame.data() + 6);
        write(frame + body + payload);
    }

    bool readSome(int ms) {
        pollfd p{m_fd, POLLIN, 0};
        if (m_closed || ::poll(&p, 1, ms) <= 0)
            return !m_closed;
        char buffer[65536];
        const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (got == 0) {
            m_closed = true;
            return false;
        }
        if (got < 0)
            return true;
        m_in.append(buffer, got);
        parseFrames();
        return true;
    }

    void parseFrames() {
        if (!m_headerSeen) {
            if (m_in.size() < 8)
                return;
            m_in.remove(0, 8);
            m_headerSeen = true;
        }
        while (m_in.size() >= 8) {
            const quint32 size = qFromBigEndian<quint32>(m_in.constData());
            if (size < 8 || quint32(m_in.size()) < size)
                return;
            AmqpFrame frame;
            frame.raw = m_in.left(qsizetype(size));
            m_in.remove(0, qsizetype(size));
            frame.channel = qFromBigEndian<quint16>(frame.raw.constData() + 6);
            const qsizetype offset = qsizetype(uchar(frame.raw[4])) * 4;
            if (frame.raw.size() == offset)
                continue; // an empty frame: a heartbeat
            pn_data_t* d = pn_data(16);
            const ssize_t used = pn_data_decode(d, frame.raw.constData() + offset,
                                                size_t(frame.raw.size() - offset));
            if (used > 0) {
                const auto described = amqp::readSingleAmqpValue(d).value<amqp::AmqpDescribed>();
                frame.performative = described.descriptor;
                frame.fields = described.fields;
                frame.payload = frame.raw.mid(offset + qsizetype(used));
            }
            pn_data_free(d);
            if (frame.performative == kTransfer)
                ++m_nextIncomingId;
            if (m_dropped && frame.performative == *m_dropped)
                ++m_droppedCount;
            else
                m_frames.append(std::move(frame));
        }
    }

    int m_fd = -1;
    bool m_connected = false;
    bool m_closed = false;
    bool m_headerSeen = false;
    QByteArray m_in;
    QList<AmqpFrame> m_frames;
    qsizetype m_scanned = 0;
    std::optional<quint64> m_dropped;
    qsizetype m_droppedCount = 0;
    quint32 m_nextDeliveryId = 0;
    quint32 m_nextIncomingId = 0;
};

} // namespace hourglass::testing
