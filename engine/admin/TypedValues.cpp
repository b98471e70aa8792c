#include "TypedValues.h"

#include "hourglass/PropertyTypes.h"

#include <array>

namespace hourglass::admin {

namespace {
struct TypeName {
    PropertyType type;
    const char* xml;
    bool serialization;
};

constexpr std::array<TypeName, 16> kTypes{{
    {PropertyType::String, "string", false},
    {PropertyType::Boolean, "boolean", false},
    {PropertyType::Byte, "unsignedByte", false},
    {PropertyType::SByte, "byte", false},
    {PropertyType::Int16, "short", false},
    {PropertyType::UInt16, "unsignedShort", false},
    {PropertyType::Int32, "int", false},
    {PropertyType::UInt32, "unsignedInt", false},
    {PropertyType::Int64, "long", false},
    {PropertyType::UInt64, "unsignedLong", false},
    {PropertyType::Single, "float", false},
    {PropertyType::Double, "double", false},
    {PropertyType::DateTime, "dateTime", false},
    {PropertyType::Binary, "base64Binary", false},
    {PropertyType::Guid, "guid", true},
    {PropertyType::Char, "char", true},
}};
} // namespace

std::optional<QVariant> typedValueFromXml(const QString& type, const QString& text) {
    for (const TypeName& name : kTypes) {
        if (type != QLatin1String(name.xml))
            continue;
        if (name.type == PropertyType::Binary) {
            const auto decoded = QByteArray::fromBase64Encoding(
                text.trimmed().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            return decoded ? std::optional<QVariant>(QVariant(*decoded)) : std::nullopt;
        }
        if (name.type == PropertyType::Char) {
            // The serializer writes a char as its UTF-16 code.
            bool ok = false;
            const uint code = text.trimmed().toUInt(&ok);
            return ok && code <= 0xFFFF ? std::optional<QVariant>(QVariant(QChar(char16_t(code))))
                                        : std::nullopt;
        }
        return propertyFromText(name.type, text);
    }
    return std::nullopt;
}

std::optional<XmlTypedValue> typedValueToXml(const QVariant& value) {
    const std::optional<PropertyType> type = propertyTypeOf(value);
    if (!type)
        return std::nullopt;
    for (const TypeName& name : kTypes) {
        if (name.type != *type)
            continue;
        XmlTypedValue written{QLatin1String(name.xml), propertyText(value), name.serialization};
        if (name.type == PropertyType::Binary)
            written.text = QString::fromLatin1(value.toByteArray().toBase64());
        else if (name.type == PropertyType::Char)
            written.text = QString::number(value.toChar().unicode());
        return written;
    }
    return std::nullopt;
}

} // namespace hourglass::admin
