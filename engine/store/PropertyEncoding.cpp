#include "PropertyEncoding.h"

#include "hourglass/PropertyTypes.h"

#include <QCborArray>
#include <QCborMap>
#include <QCborValue>
#include <QDateTime>
#include <QUuid>

namespace hourglass {

namespace {

// The types whose plain CBOR decodes back to themselves.
bool isPlain(PropertyType type) {
    switch (type) {
    case PropertyType::Null:
    case PropertyType::String:
    case PropertyType::Boolean:
    case PropertyType::Int64:
    case PropertyType::Double:
    case PropertyType::DateTime:
    case PropertyType::Guid:
    case PropertyType::Binary:
        return true;
    default:
        return false;
    }
}

QCborValue plainValue(PropertyType type, const QVariant& value) {
    switch (type) {
    case PropertyType::Null:
        return QCborValue(nullptr);
    case PropertyType::String:
        return value.toString();
    case PropertyType::Char:
        return QString(value.toChar());
    case PropertyType::Boolean:
        return value.toBool();
    case PropertyType::Double:
    case PropertyType::Single:
        return value.toDouble();
    case PropertyType::UInt64:
        return qint64(value.toULongLong()); // the same 64 bits; the tag says how to read them
    case PropertyType::DateTime:
        return QCborValue(value.toDateTime().toUTC());
    case PropertyType::Guid:
        return QCborValue(value.toUuid());
    case PropertyType::Binary:
        return value.toByteArray();
    default: // the signed and small integer types
        return value.toLongLong();
    }
}

QVariant typedValue(const QCborValue& tagged) {
    const QCborValue content = tagged.taggedValue();
    if (!content.isArray() || content.toArray().size() != 2)
        return content.toVariant(); // not ours after all: what the tag holds, as it is
    const QCborArray pair = content.toArray();
    const auto type = propertyTypeFromName(pair.at(0).toString());
    const QCborValue plain = pair.at(1);
    if (!type)
        return plain.toVariant(); // a type from a later version: its value, as best we can
    if (*type == PropertyType::UInt64 && plain.isInteger())
        return QVariant::fromValue(quint64(plain.toInteger()));
    if (*type == PropertyType::Char)
        return propertyFromText(*type, plain.toString()).value_or(plain.toVariant());
    return convertProperty(plain.toVariant(), *type).value_or(plain.toVariant());
}

} // namespace

QByteArray encodeProperties(const QVariantMap& properties) {
    if (properties.isEmpty())
        return {};
    QCborMap map;
    for (auto it = properties.cbegin(); it != properties.cend(); ++it) {
        const PropertyType type = propertyTypeOf(it.value()).value_or(PropertyType::String);
        QCborValue value = plainValue(type, it.value());
        if (!isPlain(type))
            value = QCborValue(kTypedPropertyTag, QCborArray{propertyTypeName(type), value});
        map.insert(it.key(), value);
    }
    return QCborValue(map).toCbor();
}

QVariantMap decodeProperties(const QByteArray& cbor) {
    if (cbor.isEmpty())
        return {};
    const QCborMap map = QCborValue::fromCbor(cbor).toMap();
    QVariantMap properties;
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        const QCborValue value = it.value();
        const bool typed = value.isTag() && value.tag() == kTypedPropertyTag;
        properties.insert(it.key().toString(),
                          typed ? typedValue(value) : normalizedProperty(value.toVariant()));
    }
    return properties;
}

} // namespace hourglass
