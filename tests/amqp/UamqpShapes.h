#pragma once
// What Azure's C AMQP library, uAMQP (Azure/azure-uamqp-c, under the Python SDK), writes on the
// wire, written by hand with RawAmqpPeer. Each shape names the uAMQP source it was read from.
//
// The differences from the JavaScript SDK that matter to the endpoint: its request/response
// client (amqp_management.c) attaches both links with source AND target set to the node
// ("$cbs", "<entity>/$management"), names them "<node>-sender" and "<node>-receiver", sets no
// reply-to, numbers its requests with a ulong message-id from 0, and matches an answer by a
// ulong correlation-id; it reads the status from the application properties "statusCode" and
// "statusDescription" (cbs.c overrides them to "status-code" and "status-description" for
// $cbs), the code as an AMQP int.

#include "RawAmqpPeer.h"
#include "RawPeerSteps.h"

#include <QUuid>

#include <optional>

namespace hourglass::testing::uamqp {

// The open of connection.c (connection_open → send_open_frame): container-id, hostname,
// max-frame-size, channel-max 65535, no idle time-out, and the properties the Python SDK gives
// it (symbol keys).
inline void openFields(pn_data_t* d) {
    putString(d, "uamqp-container-3f1c");
    putString(d, "localhost");
    pn_data_put_uint(d, 65536);   // max-frame-size
    pn_data_put_ushort(d, 65535); // channel-max
    pn_data_put_null(d);          // idle-time-out: none set
    pn_data_put_null(d);          // outgoing-locales
    pn_data_put_null(d);          // incoming-locales
    pn_data_put_null(d);          // offered-capabilities
    pn_data_put_null(d);          // desired-capabilities
    pn_data_put_map(d);
    pn_data_enter(d);
    putSymbol(d, "product");
    putString(d, "azsdk-python-servicebus");
    putSymbol(d, "platform");
    putString(d, "Debian");
    pn_data_exit(d);
}

// The attach of link.c (send_attach) for a link of amqp_management_create: named
// "<node>-sender" / "<node>-receiver", snd-settle-mode unsettled and rcv-settle-mode first written
// out, source and target both the node, initial-delivery-count on the sender only, and
// max-message-size always written, 0 when the application set none.
inline QByteArray attachNode(RawAmqpPeer& peer, quint32 handle, const QByteArray& node,
                             bool peerSends) {
    const QByteArray name = node + (peerSends ? "-sender" : "-receiver");
    peer.sendFrame(kAttach, [&](pn_data_t* d) {
        putString(d, name);
        pn_data_put_uint(d, handle);
        pn_data_put_bool(d, !peerSends); // role: true is the receiver
        pn_data_put_ubyte(d, 0);         // snd-settle-mode: unsettled
        pn_data_put_ubyte(d, 0);         // rcv-settle-mode: first
        RawAmqpPeer::putTerminus(d, 0x28, node, {});
        RawAmqpPeer::putTerminus(d, 0x29, node, {});
        pn_data_put_null(d); // unsettled
        pn_data_put_null(d); // incomplete-unsettled
        if (peerSends)
            pn_data_put_uint(d, 0); // initial-delivery-count
        else
            pn_data_put_null(d);
        pn_data_put_ulong(d, 0); // max-message-size: none
    });
    return name;
}

// A request as amqp_management_execute_operation_async builds it: the caller's message (its
// application properties and body), "operation" and "type" added as strings, the message-id
// set by `putId` (uAMQP: set_message_id, a ulong counting from 0), no reply-to (the Python SDK
// sets one on its $management requests: the node itself, `replyTo`).
inline QByteArray request(const std::function<void(pn_data_t*)>& putId, const QByteArray& operation,
                          const QByteArray& type,
                          const QList<std::pair<QByteArray, QByteArray>>& extraProperties,
                          const std::function<void(pn_data_t*)>& body,
                          const QByteArray& replyTo = {}) {
    pn_message_t* message = pn_message();
    putId(pn_message_id(message));
    if (!replyTo.isEmpty())
        pn_message_set_reply_to(message, replyTo.constData());
    pn_data_t* properties = pn_message_properties(message);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    for (const auto& [name, value] : extraProperties) {
        putString(properties, name);
        putString(properties, value);
    }
    putString(properties, "operation");
    putString(properties, operation);
    putString(properties, "type");
    putString(properties, type);
    pn_data_exit(properties);
    body(pn_message_body(message));
    const QByteArray encoded = RawAmqpPeer::encode(message);
    pn_message_free(message);
    return encoded;
}

inline std::function<void(pn_data_t*)> ulongId(quint64 id) {
    return [id](pn_data_t* d) { pn_data_put_ulong(d, id); };
}

// cbs_put_token_async (cbs.c): the token as an amqp-value string, the audience in "name",
// operation "put-token" and the token type the Python SDK passes.
inline QByteArray putToken(quint64 id, const QByteArray& token, const QByteArray& audience) {
    return request(ulongId(id), "put-token", "servicebus.windows.net:sastoken",
                   {{"name", audience}}, [&](pn_data_t* d) { putString(d, token); });
}

inline QByteArray validToken(const QString& audience) {
    return amqp::makeSasToken(audience, amqp::wellKnownEmulatorKey(),
                              QDateTime::currentSecsSinceEpoch() + 3600)
        .toUtf8();
}

// What uAMQP reads of an answer (amqp_management.c, on_message_received).
struct Reply {
    QVariant correlationId;
    QVariantMap properties;
    QVariant body;
    quint32 linkHandle = 0; // the endpoint's handle of the link it came on
};
inline Reply readReply(const AmqpFrame& transfer) {
    Reply reply;
    reply.linkHandle = transfer.field(0).toUInt();
    pn_message_t* message = pn_message();
    if (pn_message_decode(message, transfer.payload.constData(), size_t(transfer.payload.size())) ==
        0) {
        reply.correlationId = amqp::readSingleAmqpValue(pn_message_correlation_id(message));
        reply.properties = amqp::readSingleAmqpValue(pn_message_properties(message)).toMap();
        reply.body = amqp::readSingleAmqpValue(pn_message_body(message));
    }
    pn_message_free(message);
    return reply;
}

// The endpoint's handle for the link it attached under `name` (from its attach).
inline std::optional<quint32> attachedHandle(RawAmqpPeer& peer, const QByteArray& name) {
    const auto attach = peer.waitFor(kAttach, 5000, named(name));
    if (!attach)
        return std::nullopt;
    return attach->field(1).toUInt();
}

// The position among the frames read of the first one of `performative` that `match` takes.
inline qsizetype indexOf(const RawAmqpPeer& peer, quint64 performative,
                         const std::function<bool(const AmqpFrame&)>& match) {
    const auto& frames = peer.received();
    for (qsizetype i = 0; i < frames.size(); ++i) {
        if (frames[i].performative == performative && match(frames[i]))
            return i;
    }
    return -1;
}

} // namespace hourglass::testing::uamqp
