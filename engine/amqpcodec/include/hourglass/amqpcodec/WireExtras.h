#pragma once
// What an AMQP message carries beyond the Service Bus properties the engine stores, so that a
// message reads back as it was sent (messages round-trip exactly): the header's
// durable and priority, the properties' user-id, content-encoding and group-sequence, message and
// correlation ids of other types than string (uuid, ulong, binary), the sender's message
// annotations (x-opt-partition-key...), an amqp-value or amqp-sequence body and the footer, the
// last three byte for byte as received. The engine keeps it opaque (Message.h wireExtras).

#include <QByteArray>
#include <QList>

#include <optional>

namespace hourglass::amqp {

struct WireExtras {
    std::optional<bool> durable;
    std::optional<quint8> priority;
    QByteArray userId;
    QByteArray contentEncoding; // a symbol
    std::optional<quint32> groupSequence;
    QByteArray typedMessageId;     // the encoded id when it is not a string
    QByteArray typedCorrelationId; // likewise
    QByteArray annotations;        // the message-annotations section as received
    QByteArray bodySections;       // amqp-value or amqp-sequence sections as received
    QByteArray footer;             // the footer section as received

    bool isEmpty() const;
    bool operator==(const WireExtras&) const = default;
};

// An AMQP list; empty for WireExtras{} (a message without extras stores nothing).
QByteArray encodeWireExtras(const WireExtras& extras);
// nullopt for bytes that encodeWireExtras did not write; WireExtras{} for empty bytes.
std::optional<WireExtras> decodeWireExtras(const QByteArray& stored);

// What a message's body was on the wire, read from its stored extras, for the window to say it
// (the engine's body holds only what the window shows: a string's text, binary bytes, else
// JSON). A plain data body, or extras that are not ours, read as Data.
struct WireBodyKind {
    enum class Section { Data, Value, Sequence };
    Section section = Section::Data;
    // For a Value body: the AMQP type of the value ("string", "binary", "map", "list", "int",
    // "long", "symbol", "uuid", "timestamp"...). Empty for Data and Sequence.
    QByteArray valueType;
    bool operator==(const WireBodyKind&) const = default;
};
WireBodyKind wireBodyKind(const QByteArray& storedExtras);

// The items of an encoded AMQP map (a map8 or map32 constructor), each key and each value as
// its own encoded bytes, in order: key, value, key, value... nullopt when the bytes are not one.
std::optional<QList<QByteArray>> encodedMapItems(const QByteArray& map);
// A map32 of encoded items (as encodedMapItems returns them).
QByteArray encodeMapOfItems(const QList<QByteArray>& items);
// The key's text when `item` is an encoded symbol or string, else empty.
QByteArray encodedKeyText(const QByteArray& item);

} // namespace hourglass::amqp
