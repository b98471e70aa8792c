#include "hourglass/PropertyTypes.h"

#include <QDateTime>
#include <QUuid>

#include <cmath>
#include <limits>

namespace hourglass {

namespace {

struct TypeRow {
    PropertyType type;
    const char* name;
    QMetaType::Type metaType;
    const char* expectation;
};

// The one table: Service Bus name, meta type in memory, and the words for an error message.
constexpr TypeRow kRows[] = {
    {PropertyType::String, "String", QMetaType::QString, "text"},
    {PropertyType::Int32, "Int32", QMetaType::Int, "a 32-bit integer"},
    {PropertyType::Int64, "Int64", QMetaType::LongLong, "a 64-bit integer"},
    {PropertyType::Double, "Double", QMetaType::Double, "a number such as 2.5"},
    {PropertyType::Boolean, "Boolean", QMetaType::Bool, "true or false"},
    {PropertyType::DateTime, "DateTime", QMetaType::QDateTime,
     "an ISO-8601 date and time such as 2026-01-31T12:00:00Z"},
    {PropertyType::Guid, "Guid", QMetaType::QUuid, "a GUID"},
    {PropertyType::Binary, "Binary", QMetaType::QByteArray, "bytes in hex pairs"},
    {PropertyType::Byte, "Byte", QMetaType::UChar, "an integer from 0 to 255"},
    {PropertyType::SByte, "SByte", QMetaType::SChar, "an integer from -128 to 127"},
    {PropertyType::Int16, "Int16", QMetaType::Short, "a 16-bit integer"},
    {PropertyType::UInt16, "UInt16", QMetaType::UShort, "an unsigned 16-bit integer"},
    {PropertyType::UInt32, "UInt32", QMetaType::UInt, "an unsigned 32-bit integer"},
    {PropertyType::UInt64, "UInt64", QMetaType::ULongLong, "an unsigned 64-bit integer"},
    {PropertyType::Single, "Single", QMetaType::Float, "a number such as 2.5"},
    {PropertyType::Char, "Char", QMetaType::QChar, "one character"},
    {PropertyType::Null, "Null", QMetaType::Nullptr, "nothing (an empty value)"},
};

// Other spellings accepted when reading: C# keywords, AMQP names, and the names older
// Hourglass files wrote (send templates: "datetime", "uuid", "bytes").
constexpr std::pair<const char*, PropertyType> kAliases[] = {
    {"string", PropertyType::String},      {"bool", PropertyType::Boolean},
    {"byte", PropertyType::Byte},          {"ubyte", PropertyType::Byte},
    {"sbyte", PropertyType::SByte},        {"short", PropertyType::Int16},
    {"ushort", PropertyType::UInt16},      {"int", PropertyType::Int32},
    {"uint", PropertyType::UInt32},        {"long", PropertyType::Int64},
    {"ulong", PropertyType::UInt64},       {"float", PropertyType::Single},
    {"double", PropertyType::Double},      {"char", PropertyType::Char},
    {"timestamp", PropertyType::DateTime}, {"uuid", PropertyType::Guid},
    {"byte[]", PropertyType::Binary},      {"bytes", PropertyType::Binary},
    {"null", PropertyType::Null},
};

const TypeRow& rowOf(PropertyType type) {
    for (const TypeRow& row : kRows)
        if (row.type == type)
            return row;
    return kRows[0];
}

// An integer in [low, high] as the meta type `T`, from any numeric value or decimal text.
template <typename T>
std::optional<QVariant> integerIn(const QVariant& value, qint64 low, qint64 high) {
    bool ok = false;
    qint64 v = 0;
    if (value.typeId() == QMetaType::Double || value.typeId() == QMetaType::Float) {
        const double d = value.toDouble();
        // 2^63 is the first double past qint64: converting it would overflow.
        if (std::floor(d) != d || d < double(low) || d > double(high) || d >= 9223372036854775808.0)
            return std::nullopt;
        v = qint64(d);
        ok = true;
    } else if (value.typeId() == QMetaType::ULongLong || value.typeId() == QMetaType::ULong) {
        const quint64 u = value.toULongLong(&ok);
        ok = ok && u <= quint64(std::numeric_limits<qint64>::max());
        v = qint64(u);
    } else if (value.typeId() != QMetaType::Bool) {
        v = value.toLongLong(&ok);
    }
    if (!ok || v < low || v > high)
        return std::nullopt;
    return QVariant::fromValue(T(v));
}

std::optional<QVariant> unsigned64(const QVariant& value) {
    bool ok = false;
    quint64 u = 0;
    switch (value.typeId()) {
    case QMetaType::Bool:
        return std::nullopt;
    case QMetaType::Double:
    case QMetaType::Float: {
        const double d = value.toDouble();
        if (std::floor(d) != d || d < 0 || d >= 18446744073709551616.0)
            return std::nullopt;
        return QVariant::fromValue(quint64(d));
    }
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::Long:
    case QMetaType::Short:
    case QMetaType::SChar: {
        const qint64 v = value.toLongLong(&ok);
        if (!ok || v < 0)
            return std::nullopt;
        return QVariant::fromValue(quint64(v));
    }
    default:
        u = value.toULongLong(&ok);
        return ok ? std::optional<QVariant>(QVariant::fromValue(u)) : std::nullopt;
    }
}

std::optional<QVariant> number(const QVariant& value, PropertyType type) {
    if (value.typeId() == QMetaType::Bool)
        return std::nullopt;
    bool ok = false;
    const double d = value.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    if (type == PropertyType::Single)
        return QVariant::fromValue(float(d));
    return QVariant(d);
}

} // namespace

const QList<PropertyType>& allPropertyTypes() {
    static const QList<PropertyType> types = [] {
        QList<PropertyType> list;
        for (const TypeRow& row : kRows)
            list.append(row.type);
        return list;
    }();
    return types;
}

QString propertyTypeName(PropertyType type) {
    return QLatin1String(rowOf(type).name);
}

std::optional<PropertyType> propertyTypeFromName(QStringView name) {
    const QStringView trimmed = name.trimmed();
    for (const TypeRow& row : kRows)
        if (trimmed.compare(QLatin1String(row.name), Qt::CaseInsensitive) == 0)
            return row.type;
    for (const auto& [alias, type] : kAliases)
        if (trimmed.compare(QLatin1String(alias), Qt::CaseInsensitive) == 0)
            return type;
    return std::nullopt;
}

std::optional<PropertyType> propertyTypeOf(const QVariant& value) {
    if (!value.isValid())
        return PropertyType::Null;
    switch (value.typeId()) {
    case QMetaType::Long:
        return PropertyType::Int64;
    case QMetaType::ULong:
        return PropertyType::UInt64;
    case QMetaType::Char: // plain `char`: a byte, as .NET's sbyte would be
        return PropertyType::SByte;
    default:
        break;
    }
    for (const TypeRow& row : kRows)
        if (value.typeId() == row.metaType)
            return row.type;
    return std::nullopt;
}

QString propertyTypeNameOf(const QVariant& value) {
    if (const auto type = propertyTypeOf(value))
        return propertyTypeName(*type);
    return QString::fromLatin1(value.typeName());
}

QMetaType propertyMetaType(PropertyType type) {
    return QMetaType(rowOf(type).metaType);
}

std::optional<QVariant> convertProperty(const QVariant& value, PropertyType type) {
    if (propertyTypeOf(value) == type && value.typeId() == rowOf(type).metaType &&
        type != PropertyType::DateTime)
        return value;
    switch (type) {
    case PropertyType::Null:
        if (!value.isValid() || value.typeId() == QMetaType::Nullptr)
            return QVariant::fromValue(nullptr);
        return std::nullopt;
    case PropertyType::String:
        if (value.typeId() != QMetaType::QString)
            return std::nullopt;
        return value;
    case PropertyType::Boolean:
        if (value.typeId() != QMetaType::Bool)
            return std::nullopt;
        return value;
    case PropertyType::Byte:
        return integerIn<uchar>(value, 0, 255);
    case PropertyType::SByte:
        return integerIn<signed char>(value, -128, 127);
    case PropertyType::Int16:
        return integerIn<short>(value, -32768, 32767);
    case PropertyType::UInt16:
        return integerIn<ushort>(value, 0, 65535);
    case PropertyType::Int32:
        return integerIn<int>(value, std::numeric_limits<int>::min(),
                              std::numeric_limits<int>::max());
    case PropertyType::UInt32:
        return integerIn<uint>(value, 0, std::numeric_limits<uint>::max());
    case PropertyType::Int64:
        return integerIn<qlonglong>(value, std::numeric_limits<qint64>::min(),
                                    std::numeric_limits<qint64>::max());
    case PropertyType::UInt64:
        return unsigned64(value);
    case PropertyType::Single:
    case PropertyType::Double:
        return number(value, type);
    case PropertyType::Char: {
        if (value.typeId() == QMetaType::QChar)
            return value;
        const QString text = value.typeId() == QMetaType::QString ? value.toString() : QString();
        if (text.size() != 1)
            return std::nullopt;
        return QVariant(text.at(0));
    }
    case PropertyType::DateTime: {
        if (value.typeId() != QMetaType::QDateTime || !value.toDateTime().isValid())
            return std::nullopt;
        return QVariant(value.toDateTime().toUTC());
    }
    case PropertyType::Guid:
        if (value.typeId() != QMetaType::QUuid)
            return std::nullopt;
        return value;
    case PropertyType::Binary:
        if (value.typeId() != QMetaType::QByteArray)
            return std::nullopt;
        return value;
    }
    return std::nullopt;
}

QVariant normalizedProperty(const QVariant& value) {
    const auto type = propertyTypeOf(value);
    if (!type)
        return value;
    return convertProperty(value, *type).value_or(value);
}

QString propertyText(const QVariant& value) {
    switch (propertyTypeOf(value).value_or(PropertyType::String)) {
    case PropertyType::Null:
        return {};
    case PropertyType::Boolean:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case PropertyType::Byte:
    case PropertyType::UInt16:
    case PropertyType::UInt32:
    case PropertyType::UInt64:
        return QString::number(value.toULongLong());
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::Int32:
    case PropertyType::Int64:
        return QString::number(value.toLongLong());
    case PropertyType::Single:
        return QString::number(value.toFloat(), 'g', 9);
    case PropertyType::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case PropertyType::DateTime:
        return value.toDateTime().toUTC().toString(Qt::ISODateWithMs);
    case PropertyType::Guid:
        return value.toUuid().toString(QUuid::WithoutBraces);
    case PropertyType::Binary:
        return QString::fromLatin1(value.toByteArray().toHex(' '));
    case PropertyType::Char:
    case PropertyType::String:
        break;
    }
    return value.toString();
}

std::optional<QVariant> propertyFromText(PropertyType type, const QString& text) {
    const QString t = text.trimmed();
    switch (type) {
    case PropertyType::String:
        return QVariant(text);
    case PropertyType::Char:
        return text.size() == 1 ? std::optional<QVariant>(QVariant(text.at(0))) : std::nullopt;
    case PropertyType::Null:
        return t.isEmpty() ? std::optional<QVariant>(QVariant::fromValue(nullptr)) : std::nullopt;
    case PropertyType::Boolean:
        if (t.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0 || t == QLatin1String("1"))
            return QVariant(true);
        if (t.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0 || t == QLatin1String("0"))
            return QVariant(false);
        return std::nullopt;
    case PropertyType::Byte:
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::UInt16:
    case PropertyType::Int32:
    case PropertyType::UInt32:
    case PropertyType::Int64: {
        bool ok = false;
        const qlonglong v = t.toLongLong(&ok);
        return ok ? convertProperty(QVariant(v), type) : std::nullopt;
    }
    case PropertyType::UInt64: {
        bool ok = false;
        const qulonglong v = t.toULongLong(&ok);
        return ok && !t.startsWith(u'-') ? std::optional<QVariant>(QVariant::fromValue(v))
                                         : std::nullopt;
    }
    case PropertyType::Single:
    case PropertyType::Double: {
        bool ok = false;
        const double v = t.toDouble(&ok);
        return ok ? convertProperty(QVariant(v), type) : std::nullopt;
    }
    case PropertyType::DateTime: {
        const QDateTime v = QDateTime::fromString(t, Qt::ISODateWithMs);
        return v.isValid() ? std::optional<QVariant>(QVariant(v.toUTC())) : std::nullopt;
    }
    case PropertyType::Guid: {
        const QUuid v(t);
        if (v.isNull() && t != QUuid().toString(QUuid::WithoutBraces) &&
            t != QUuid().toString(QUuid::WithBraces))
            return std::nullopt;
        return QVariant(v);
    }
    case PropertyType::Binary: {
        QString hex = t;
        hex.remove(u' ');
        const QByteArray bytes = QByteArray::fromHex(hex.toLatin1());
        // fromHex skips what is not hex; a round trip tells a clean input from a bad one.
        if (hex.size() % 2 != 0 || bytes.toHex() != hex.toLower().toLatin1())
            return std::nullopt;
        return QVariant(bytes);
    }
    }
    return std::nullopt;
}

QString propertyTypeExpectation(PropertyType type) {
    return QLatin1String(rowOf(type).expectation);
}

} // namespace hourglass
