#include "hourglass/amqpcodec/WireExtras.h"

#include "hourglass/amqpcodec/AmqpNesting.h"

#include <QtEndian>

#include <proton/codec.h>

#include <memory>

namespace hourglass::amqp {

namespace {
struct DataFree {
    void operator()(pn_data_t* data) const { pn_data_free(data); }
};
using DataPtr = std::unique_ptr<pn_data_t, DataFree>;

// Tells our list from any other bytes in the column: "HG" and a format version.
constexpr quint64 kDescriptor = 0x4847'0001;

void putBinary(pn_data_t* data, const QByteArray& bytes) {
    if (bytes.isEmpty())
        pn_data_put_null(data);
    else
        pn_data_put_binary(data, pn_bytes(size_t(bytes.size()), bytes.constData()));
}

QByteArray readBinary(pn_data_t* data) {
    if (pn_data_type(data) != PN_BINARY)
        return {};
    const pn_bytes_t bytes = pn_data_get_binary(data);
    return QByteArray(bytes.start, qsizetype(bytes.size));
}

QByteArray encodeData(pn_data_t* data) {
    QByteArray buffer(256, Qt::Uninitialized);
    for (;;) {
        const ssize_t size = pn_data_encode(data, buffer.data(), size_t(buffer.size()));
        if (size == PN_OVERFLOW) {
            buffer.resize(buffer.size() * 4);
            continue;
        }
        return size > 0 ? buffer.left(qsizetype(size)) : QByteArray();
    }
}
} // namespace

bool WireExtras::isEmpty() const {
    return *this == WireExtras{};
}

QByteArray encodeWireExtras(const WireExtras& extras) {
    if (extras.isEmpty())
        return {};
    DataPtr data(pn_data(16));
    pn_data_t* d = data.get();
    pn_data_put_described(d);
    pn_data_enter(d);
    pn_data_put_ulong(d, kDescriptor);
    pn_data_put_list(d);
    pn_data_enter(d);
    if (extras.durable)
        pn_data_put_bool(d, *extras.durable);
    else
        pn_data_put_null(d);
    if (extras.priority)
        pn_data_put_ubyte(d, *extras.priority);
    else
        pn_data_put_null(d);
    putBinary(d, extras.userId);
    if (extras.contentEncoding.isEmpty())
        pn_data_put_null(d);
    else
        pn_data_put_symbol(
            d, pn_bytes(size_t(extras.contentEncoding.size()), extras.contentEncoding.constData()));
    if (extras.groupSequence)
        pn_data_put_uint(d, *extras.groupSequence);
    else
        pn_data_put_null(d);
    for (const QByteArray* bytes : {&extras.typedMessageId, &extras.typedCorrelationId,
                                    &extras.annotations, &extras.bodySections, &extras.footer})
        putBinary(d, *bytes);
    pn_data_exit(d);
    pn_data_exit(d);
    return encodeData(d);
}

std::optional<WireExtras> decodeWireExtras(const QByteArray& stored) {
    if (stored.isEmpty())
        return WireExtras{};
    // Stored bytes come from a file, and first from a peer: checked like the wire's.
    if (checkNesting(stored) != Nesting::Within)
        return std::nullopt;
    DataPtr data(pn_data(16));
    pn_data_t* d = data.get();
    if (pn_data_decode(d, stored.constData(), size_t(stored.size())) != ssize_t(stored.size()))
        return std::nullopt;
    pn_data_rewind(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_DESCRIBED)
        return std::nullopt;
    pn_data_enter(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_ULONG || pn_data_get_ulong(d) != kDescriptor ||
        !pn_data_next(d) || pn_data_type(d) != PN_LIST || pn_data_get_list(d) != 10)
        return std::nullopt;
    pn_data_enter(d);
    WireExtras extras;
    pn_data_next(d);
    if (pn_data_type(d) == PN_BOOL)
        extras.durable = pn_data_get_bool(d);
    pn_data_next(d);
    if (pn_data_type(d) == PN_UBYTE)
        extras.priority = pn_data_get_ubyte(d);
    pn_data_next(d);
    extras.userId = readBinary(d);
    pn_data_next(d);
    if (pn_data_type(d) == PN_SYMBOL) {
        const pn_bytes_t symbol = pn_data_get_symbol(d);
        extras.contentEncoding = QByteArray(symbol.start, qsizetype(symbol.size));
    }
    pn_data_next(d);
    if (pn_data_type(d) == PN_UINT)
        extras.groupSequence = pn_data_get_uint(d);
    for (QByteArray* bytes : {&extras.typedMessageId, &extras.typedCorrelationId,
                              &extras.annotations, &extras.bodySections, &extras.footer}) {
        pn_data_next(d);
        *bytes = readBinary(d);
    }
    return extras;
}

namespace {
// AMQP 1.0's names for the types (part 1.6), as a reader of the spec or the SDK knows them.
QByteArray amqpTypeName(pn_type_t type) {
    switch (type) {
    case PN_NULL:
        return "null";
    case PN_BOOL:
        return "boolean";
    case PN_UBYTE:
        return "ubyte";
    case PN_BYTE:
        return "byte";
    case PN_USHORT:
        return "ushort";
    case PN_SHORT:
        return "short";
    case PN_UINT:
        return "uint";
    case PN_INT:
        return "int";
    case PN_CHAR:
        return "char";
    case PN_ULONG:
        return "ulong";
    case PN_LONG:
        return "long";
    case PN_TIMESTAMP:
        return "timestamp";
    case PN_FLOAT:
        return "float";
    case PN_DOUBLE:
        return "double";
    case PN_DECIMAL32:
        return "decimal32";
    case PN_DECIMAL64:
        return "decimal64";
    case PN_DECIMAL128:
        return "decimal128";
    case PN_UUID:
        return "uuid";
    case PN_BINARY:
        return "binary";
    case PN_STRING:
        return "string";
    case PN_SYMBOL:
        return "symbol";
    case PN_DESCRIBED:
        return "described";
    case PN_ARRAY:
        return "array";
    case PN_LIST:
        return "list";
    case PN_MAP:
        return "map";
    default:
        return "value";
    }
}

constexpr quint64 kSequenceSection = 0x76;
constexpr quint64 kValueSection = 0x77;
} // namespace

WireBodyKind wireBodyKind(const QByteArray& storedExtras) {
    const auto extras = decodeWireExtras(storedExtras);
    if (!extras || extras->bodySections.isEmpty())
        return {};
    // The first section says which kind: a body is one amqp-value, or amqp-sequences only.
    DataPtr data(pn_data(4));
    pn_data_t* d = data.get();
    const QByteArray& sections = extras->bodySections;
    if (pn_data_decode(d, sections.constData(), size_t(sections.size())) <= 0)
        return {};
    pn_data_rewind(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_DESCRIBED)
        return {};
    pn_data_enter(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_ULONG)
        return {};
    const quint64 descriptor = pn_data_get_ulong(d);
    if (descriptor == kSequenceSection)
        return {WireBodyKind::Section::Sequence, {}};
    if (descriptor != kValueSection || !pn_data_next(d))
        return {};
    return {WireBodyKind::Section::Value, amqpTypeName(pn_data_type(d))};
}

std::optional<QList<QByteArray>> encodedMapItems(const QByteArray& map) {
    if (map.isEmpty())
        return std::nullopt;
    const auto* bytes = reinterpret_cast<const uchar*>(map.constData());
    qsizetype at = 0;
    quint32 count = 0;
    if (bytes[0] == 0xc1 && map.size() >= 3) {
        count = bytes[2];
        at = 3;
    } else if (bytes[0] == 0xd1 && map.size() >= 9) {
        count = qFromBigEndian<quint32>(bytes + 5);
        at = 9;
    } else {
        return std::nullopt;
    }
    if (count % 2 != 0)
        return std::nullopt;
    QList<QByteArray> items;
    DataPtr item(pn_data(4));
    for (quint32 i = 0; i < count; ++i) {
        if (at >= map.size())
            return std::nullopt;
        pn_data_clear(item.get());
        const ssize_t used =
            pn_data_decode(item.get(), map.constData() + at, size_t(map.size() - at));
        if (used <= 0)
            return std::nullopt;
        items.append(map.mid(at, qsizetype(used)));
        at += qsizetype(used);
    }
    return items;
}

QByteArray encodeMapOfItems(const QList<QByteArray>& items) {
    qsizetype length = 0;
    for (const QByteArray& item : items)
        length += item.size();
    QByteArray map(9, Qt::Uninitialized);
    map[0] = char(0xd1);
    qToBigEndian<quint32>(quint32(4 + length), map.data() + 1);
    qToBigEndian<quint32>(quint32(items.size()), map.data() + 5);
    for (const QByteArray& item : items)
        map += item;
    return map;
}

QByteArray encodedKeyText(const QByteArray& item) {
    DataPtr data(pn_data(1));
    if (pn_data_decode(data.get(), item.constData(), size_t(item.size())) <= 0)
        return {};
    pn_data_rewind(data.get());
    if (!pn_data_next(data.get()))
        return {};
    pn_bytes_t text{0, nullptr};
    if (pn_data_type(data.get()) == PN_SYMBOL)
        text = pn_data_get_symbol(data.get());
    else if (pn_data_type(data.get()) == PN_STRING)
        text = pn_data_get_string(data.get());
    return QByteArray(text.start, qsizetype(text.size));
}

} // namespace hourglass::amqp
