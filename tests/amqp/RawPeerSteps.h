#pragma once
// The steps of a hand-written AMQP client (RawAmqpPeer) that the endpoint's socket tests share:
// messages and $cbs requests as bytes, a connection authenticated with put-token, a sender
// attached with its credit, and what a disposition frame says.

#include "RawAmqpPeer.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <QDateTime>

#include <optional>
#include <tuple>

namespace hourglass::testing {

// The peer's link handles for $cbs: requests on kCbsSender, answers on kCbsReplies.
constexpr quint32 kCbsSender = 0;
constexpr quint32 kCbsReplies = 1;

inline void putString(pn_data_t* data, const QByteArray& text) {
    pn_data_put_string(data, pn_bytes(size_t(text.size()), text.constData()));
}
inline void putSymbol(pn_data_t* data, const QByteArray& text) {
    pn_data_put_symbol(data, pn_bytes(size_t(text.size()), text.constData()));
}

// An amqp-value section holding `text` (str32).
inline QByteArray stringBody(const QByteArray& text) {
    QByteArray section("\x00\x53\x77\xb1", 4);
    char size[4];
    qToBigEndian<quint32>(quint32(text.size()), size);
    return section + QByteArray(size, 4) + text;
}

// A $cbs request for `operation` answered on "cbs-replies", with `body` (encoded sections), a
// token of `type` offered for `name`.
inline QByteArray cbsRequest(const QByteArray& operation, const QByteArray& body,
                             const QByteArray& type = "servicebus.windows.net:sastoken",
                             const QByteArray& name = "sb://localhost/") {
    pn_message_t* message = pn_message();
    pn_message_set_reply_to(message, "cbs-replies");
    pn_data_put_ulong(pn_message_id(message), 7);
    pn_data_t* properties = pn_message_properties(message);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    for (const auto& [name, value] : {std::pair<QByteArray, QByteArray>{"operation", operation},
                                      {"type", type},
                                      {"name", name}}) {
        putString(properties, name);
        putString(properties, value);
    }
    pn_data_exit(properties);
    const QByteArray encoded = RawAmqpPeer::encode(message, body);
    pn_message_free(message);
    return encoded;
}

// A plain message with `body` as its data section, or `sections` as its body.
inline QByteArray message(const QByteArray& body, const QByteArray& sections = {}) {
    pn_message_t* m = pn_message();
    putString(pn_message_id(m), "m");
    if (sections.isEmpty())
        pn_data_put_binary(pn_message_body(m), pn_bytes(size_t(body.size()), body.constData()));
    const QByteArray encoded = RawAmqpPeer::encode(m, sections);
    pn_message_free(m);
    return encoded;
}

// The outcome a disposition frame gives (accepted 0x24, rejected 0x25) and, rejected, its error.
struct Outcome {
    quint64 state = 0;
    QByteArray condition;
    QString description;
};
inline Outcome outcomeOf(const AmqpFrame& disposition) {
    const auto state = disposition.field(4).value<amqp::AmqpDescribed>();
    Outcome outcome{state.descriptor, {}, {}};
    if (!state.fields.isEmpty())
        std::tie(outcome.condition, outcome.description) = RawAmqpPeer::error(state.fields[0]);
    return outcome;
}

// Matches the disposition of delivery `id` from the endpoint (the receiver).
inline std::function<bool(const AmqpFrame&)> settles(quint32 id) {
    return [id](const AmqpFrame& frame) {
        const quint32 first = frame.field(1).toUInt();
        const QVariant lastField = frame.field(2);
        const quint32 last = lastField.typeId() == QMetaType::UInt ? lastField.toUInt() : first;
        return first <= id && id <= last;
    };
}

inline std::function<bool(const AmqpFrame&)> named(const QByteArray& name) {
    return [name](const AmqpFrame& frame) { return frame.field(0).toString().toUtf8() == name; };
}
// Open, and the two $cbs links: requests on kCbsSender, answers (credit 100) on kCbsReplies.
inline bool openWithCbs(RawAmqpPeer& peer) {
    if (!peer.connected() || !peer.open())
        return false;
    peer.attach(kCbsSender, "cbs-requests", "$cbs", true);
    peer.attach(kCbsReplies, "cbs-replies", "$cbs", false);
    peer.flow(kCbsReplies, 100);
    return peer.waitFor(kAttach, 5000, named("cbs-requests")) &&
           peer.waitFor(kAttach, 5000, named("cbs-replies"));
}

// A valid put-token for the whole namespace; true once answered 200.
inline bool putToken(RawAmqpPeer& peer) {
    const QByteArray token =
        amqp::makeSasToken(QStringLiteral("sb://localhost/"), amqp::wellKnownEmulatorKey(),
                           QDateTime::currentSecsSinceEpoch() + 3600)
            .toUtf8();
    peer.transfer(kCbsSender, cbsRequest("put-token", stringBody(token)));
    const auto reply = peer.waitFor(kTransfer, 10000);
    return reply && RawAmqpPeer::applicationProperties(reply->payload)
                            .value(QStringLiteral("status-code"))
                            .toInt() == 200;
}

// A sender the endpoint attached: its handle there and the credit it first granted.
struct AttachedSender {
    quint32 endpointHandle = 0;
    quint32 credit = 0;
};

// Attaches a sender named `name` to `address` on the peer's `handle`; once the endpoint
// attached it and granted credit.
inline std::optional<AttachedSender>
attachSender(RawAmqpPeer& peer, quint32 handle, const QByteArray& name, const QByteArray& address) {
    peer.attach(handle, name, address, true);
    const auto attach = peer.waitFor(kAttach, 5000, named(name));
    if (!attach)
        return std::nullopt;
    const quint32 endpointHandle = attach->field(1).toUInt();
    const auto flow = peer.waitFor(kFlow, 5000, [endpointHandle](const AmqpFrame& f) {
        return f.field(4).toUInt() == endpointHandle && f.field(6).toUInt() > 0;
    });
    if (!flow)
        return std::nullopt;
    return AttachedSender{endpointHandle, flow->field(6).toUInt()};
}

} // namespace hourglass::testing
