#include "hourglass/amqpcodec/AmqpValue.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QDateTime>
#include <QUuid>
#include <QVariantMap>

#include <cstring>

namespace hourglass::amqp {

namespace {
QString text(pn_bytes_t bytes) {
    return QString::fromUtf8(bytes.start, qsizetype(bytes.size));
}

QVariant readAt(pn_data_t* data, int depth);

QVariantMap readMap(pn_data_t* data, int depth) {
    QVariantMap map;
    const size_t count = pn_data_get_map(data);
    pn_data_enter(data);
    // The declared count is the peer's word: stop where Proton's nodes end.
    for (size_t i = 0; i + 1 < count; i += 2) {
        if (!pn_data_next(data))
            break;
        const QVariant key = readAt(data, depth);
        if (!pn_data_next(data))
            break;
        map.insert(key.toString(), readAt(data, depth));
    }
    pn_data_exit(data);
    return map;
}

QVariantList readItems(pn_data_t* data, size_t count, int depth) {
    QVariantList items;
    pn_data_enter(data);
    // The declared count is the peer's word (an array of a million nulls takes no bytes for
    // its items): read only the nodes Proton holds.
    for (size_t i = 0; i < count && pn_data_next(data); ++i)
        items.append(readAt(data, depth));
    pn_data_exit(data);
    return items;
}

void putUuid(pn_data_t* data, const QUuid& uuid) {
    pn_uuid_t raw;
    const QByteArray bytes = uuid.toRfc4122();
    std::memcpy(raw.bytes, bytes.constData(), 16);
    pn_data_put_uuid(data, raw);
}

pn_bytes_t bytesOf(const QByteArray& bytes) {
    return pn_bytes(size_t(bytes.size()), bytes.constData());
}

pn_type_t arrayElementType(const AmqpArray& array) {
    if (array.items.isEmpty())
        return pn_type_t(array.elementType);
    pn_data_t* probe = pn_data(1);
    writeAmqpValue(probe, array.items.first());
    pn_data_rewind(probe);
    pn_data_next(probe);
    const pn_type_t type = pn_data_type(probe);
    pn_data_free(probe);
    return type;
}
} // namespace

QVariant readAmqpValue(pn_data_t* data) {
    return readAt(data, 1);
}

namespace {
// `depth` counts the levels down to this value (1 for a value at the top). Past kMaxNesting the
// value reads as nothing: peers' bytes are checked before Proton decodes them
// (AmqpNesting.h), but Proton decodes the frames themselves (an attach's filter and
// properties) before the endpoint sees them, and this reader must not recurse without end.
QVariant readAt(pn_data_t* data, int depth) {
    const pn_type_t type = pn_data_type(data);
    const bool nests =
        type == PN_MAP || type == PN_LIST || type == PN_ARRAY || type == PN_DESCRIBED;
    if (nests && depth >= kMaxNesting)
        return {};
    ++depth;
    switch (type) {
    case PN_NULL:
        return QVariant::fromValue(nullptr);
    case PN_BOOL:
        return QVariant(bool(pn_data_get_bool(data)));
    case PN_UBYTE:
        return QVariant::fromValue(uchar(pn_data_get_ubyte(data)));
    case PN_BYTE:
        return QVariant::fromValue(static_cast<signed char>(pn_data_get_byte(data)));
    case PN_USHORT:
        return QVariant::fromValue(ushort(pn_data_get_ushort(data)));
    case PN_SHORT:
        return QVariant::fromValue(short(pn_data_get_short(data)));
    case PN_UINT:
        return QVariant::fromValue(uint(pn_data_get_uint(data)));
    case PN_INT:
        return QVariant(int(pn_data_get_int(data)));
    case PN_CHAR:
        return QVariant::fromValue(QChar(char16_t(pn_data_get_char(data))));
    case PN_ULONG:
        return QVariant::fromValue(qulonglong(pn_data_get_ulong(data)));
    case PN_LONG:
        return QVariant::fromValue(qlonglong(pn_data_get_long(data)));
    case PN_TIMESTAMP:
        return QDateTime::fromMSecsSinceEpoch(pn_data_get_timestamp(data), Qt::UTC);
    case PN_FLOAT:
        return QVariant::fromValue(pn_data_get_float(data));
    case PN_DOUBLE:
        return QVariant(pn_data_get_double(data));
    case PN_UUID: {
        const pn_uuid_t raw = pn_data_get_uuid(data);
        return QUuid::fromRfc4122(QByteArray(raw.bytes, 16));
    }
    case PN_BINARY: {
        const pn_bytes_t bytes = pn_data_get_binary(data);
        return QByteArray(bytes.start, qsizetype(bytes.size));
    }
    case PN_STRING:
        return text(pn_data_get_string(data));
    case PN_SYMBOL:
        return text(pn_data_get_symbol(data));
    case PN_MAP:
        return readMap(data, depth);
    case PN_LIST:
        return readItems(data, pn_data_get_list(data), depth);
    case PN_ARRAY: {
        const size_t count = pn_data_get_array(data);
        // An array may be described; its items follow the descriptor.
        if (pn_data_is_array_described(data)) {
            pn_data_enter(data);
            pn_data_next(data);
            QVariantList items;
            for (size_t i = 0; i < count && pn_data_next(data); ++i)
                items.append(readAt(data, depth));
            pn_data_exit(data);
            return items;
        }
        return readItems(data, count, depth);
    }
    case PN_DESCRIBED: {
        AmqpDescribed described;
        pn_data_enter(data);
        pn_data_next(data);
        if (pn_data_type(data) == PN_ULONG)
            described.descriptor = pn_data_get_ulong(data);
        pn_data_next(data);
        const bool isList = pn_data_type(data) == PN_LIST;
        if (isList)
            described.fields = readItems(data, pn_data_get_list(data), depth + 1);
        pn_data_exit(data);
        return isList ? QVariant::fromValue(described) : QVariant();
    }
    default:
        return {};
    }
}
} // namespace

QVariant readSingleAmqpValue(pn_data_t* data) {
    pn_data_rewind(data);
    if (!pn_data_next(data))
        return {};
    return readAmqpValue(data);
}

bool writeAmqpValue(pn_data_t* data, const QVariant& value) {
    switch (value.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        pn_data_put_null(data);
        return true;
    case QMetaType::Bool:
        pn_data_put_bool(data, value.toBool());
        return true;
    case QMetaType::UChar:
        pn_data_put_ubyte(data, value.value<uchar>());
        return true;
    case QMetaType::SChar:
    case QMetaType::Char:
        pn_data_put_byte(data, int8_t(value.value<signed char>()));
        return true;
    case QMetaType::UShort:
        pn_data_put_ushort(data, value.value<ushort>());
        return true;
    case QMetaType::Short:
        pn_data_put_short(data, value.value<short>());
        return true;
    case QMetaType::UInt:
        pn_data_put_uint(data, value.toUInt());
        return true;
    case QMetaType::Int:
        pn_data_put_int(data, value.toInt());
        return true;
    case QMetaType::QChar:
        pn_data_put_char(data, value.toChar().unicode());
        return true;
    case QMetaType::ULongLong:
    case QMetaType::ULong:
        pn_data_put_ulong(data, value.toULongLong());
        return true;
    case QMetaType::LongLong:
    case QMetaType::Long:
        pn_data_put_long(data, value.toLongLong());
        return true;
    case QMetaType::Float:
        pn_data_put_float(data, value.toFloat());
        return true;
    case QMetaType::Double:
        pn_data_put_double(data, value.toDouble());
        return true;
    case QMetaType::QDateTime:
        pn_data_put_timestamp(data, value.toDateTime().toMSecsSinceEpoch());
        return true;
    case QMetaType::QUuid:
        putUuid(data, value.toUuid());
        return true;
    case QMetaType::QByteArray:
        pn_data_put_binary(data, bytesOf(value.toByteArray()));
        return true;
    case QMetaType::QString: {
        const QByteArray utf8 = value.toString().toUtf8();
        pn_data_put_string(data, bytesOf(utf8));
        return true;
    }
    case QMetaType::QVariantMap: {
        const QVariantMap map = value.toMap();
        pn_data_put_map(data);
        pn_data_enter(data);
        bool ok = true;
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            const QByteArray key = it.key().toUtf8();
            pn_data_put_string(data, bytesOf(key));
            ok = writeAmqpValue(data, it.value()) && ok;
        }
        pn_data_exit(data);
        return ok;
    }
    case QMetaType::QVariantList: {
        pn_data_put_list(data);
        pn_data_enter(data);
        bool ok = true;
        for (const QVariant& item : value.toList())
            ok = writeAmqpValue(data, item) && ok;
        pn_data_exit(data);
        return ok;
    }
    default:
        break;
    }
    if (value.canConvert<AmqpSymbol>() && value.typeId() == qMetaTypeId<AmqpSymbol>()) {
        pn_data_put_symbol(data, bytesOf(value.value<AmqpSymbol>().name));
        return true;
    }
    if (value.typeId() == qMetaTypeId<AmqpArray>()) {
        const AmqpArray array = value.value<AmqpArray>();
        pn_data_put_array(data, false, arrayElementType(array));
        pn_data_enter(data);
        bool ok = true;
        for (const QVariant& item : array.items)
            ok = writeAmqpValue(data, item) && ok;
        pn_data_exit(data);
        return ok;
    }
    if (value.typeId() == qMetaTypeId<AmqpDescribed>()) {
        const AmqpDescribed described = value.value<AmqpDescribed>();
        pn_data_put_described(data);
        pn_data_enter(data);
        pn_data_put_ulong(data, described.descriptor);
        pn_data_put_list(data);
        pn_data_enter(data);
        bool ok = true;
        for (const QVariant& field : described.fields)
            ok = writeAmqpValue(data, field) && ok;
        pn_data_exit(data);
        pn_data_exit(data);
        return ok;
    }
    pn_data_put_null(data);
    return false;
}

} // namespace hourglass::amqp
