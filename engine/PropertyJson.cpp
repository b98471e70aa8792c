#include "hourglass/PropertyJson.h"

#include "hourglass/JsonText.h"

#include <QDateTime>
#include <QJsonObject>
#include <QUuid>

#include <cmath>

namespace hourglass {

namespace {

// Integers beyond this are not exact as JSON numbers (doubles).
constexpr double kExactLimit = 9007199254740992.0; // 2^53

Error invalid(const QString& why) {
    return makeError(ErrorCode::InvalidArgument, why);
}

Error notA(PropertyType type, const QJsonValue& json) {
    const QString shown = json.isString()   ? QStringLiteral("'%1'").arg(json.toString())
                          : json.isDouble() ? QString::number(json.toDouble(), 'g', 17)
                                            : jsonTypeName(json);
    return invalid(QStringLiteral("%1: %2 is not %3")
                       .arg(propertyTypeName(type), shown, propertyTypeExpectation(type)));
}

QJsonValue floating(double d) {
    if (std::isnan(d))
        return QStringLiteral("NaN");
    if (std::isinf(d))
        return d > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    return d;
}

// A plain JSON value read as the file form reads it.
QVariant plainValue(const QJsonValue& json) {
    if (json.isString())
        return json.toString();
    if (json.isBool())
        return json.toBool();
    const double number = json.toDouble();
    if (std::floor(number) == number && std::abs(number) < kExactLimit)
        return QVariant(static_cast<qint64>(number));
    return QVariant(number);
}

bool isPlain(const QJsonValue& json) {
    return json.isString() || json.isBool() || json.isDouble();
}

} // namespace

QJsonValue typedValueToJson(const QVariant& value) {
    switch (propertyTypeOf(value).value_or(PropertyType::String)) {
    case PropertyType::Null:
        return QJsonValue::Null;
    case PropertyType::Boolean:
        return value.toBool();
    case PropertyType::Byte:
    case PropertyType::UInt16:
    case PropertyType::UInt32:
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::Int32:
        return value.toLongLong();
    case PropertyType::Int64:
    case PropertyType::UInt64:
        return propertyText(value);
    case PropertyType::Single:
    case PropertyType::Double:
        return floating(value.toDouble());
    case PropertyType::DateTime:
    case PropertyType::Guid:
    case PropertyType::Char:
    case PropertyType::String:
        return propertyText(value);
    case PropertyType::Binary:
        return QString::fromLatin1(value.toByteArray().toBase64());
    }
    return value.toString();
}

Result<QVariant> typedValueFromJson(PropertyType type, const QJsonValue& json) {
    std::optional<QVariant> value;
    switch (type) {
    case PropertyType::Null:
        if (json.isNull() || json.isUndefined())
            value = QVariant::fromValue(nullptr);
        break;
    case PropertyType::String:
        if (json.isString())
            value = json.toString();
        break;
    case PropertyType::Boolean:
        if (json.isBool())
            value = json.toBool();
        break;
    case PropertyType::Byte:
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::UInt16:
    case PropertyType::Int32:
    case PropertyType::UInt32:
        if (json.isDouble())
            value = convertProperty(json.toDouble(), type);
        break;
    case PropertyType::Int64:
    case PropertyType::UInt64:
        if (json.isDouble())
            value = convertProperty(json.toDouble(), type);
        else if (json.isString())
            value = propertyFromText(type, json.toString());
        break;
    case PropertyType::Single:
    case PropertyType::Double:
        if (json.isDouble())
            value = convertProperty(json.toDouble(), type);
        else if (json.toString() == QLatin1String("NaN"))
            value = convertProperty(std::nan(""), type);
        else if (json.toString() == QLatin1String("Infinity"))
            value = convertProperty(HUGE_VAL, type);
        else if (json.toString() == QLatin1String("-Infinity"))
            value = convertProperty(-HUGE_VAL, type);
        break;
    case PropertyType::Binary:
        if (json.isString()) {
            auto decoded = QByteArray::fromBase64Encoding(json.toString().toLatin1(),
                                                          QByteArray::AbortOnBase64DecodingErrors);
            if (decoded)
                value = QVariant(*decoded);
        }
        break;
    case PropertyType::Char:
    case PropertyType::DateTime:
    case PropertyType::Guid:
        if (json.isString())
            value = propertyFromText(type, json.toString());
        break;
    }
    if (!value)
        return notA(type, json);
    return *value;
}

QJsonValue propertyToJson(const QVariant& value) {
    const PropertyType type = propertyTypeOf(value).value_or(PropertyType::String);
    const QJsonValue typed = typedValueToJson(value);
    bool plain = false;
    switch (type) {
    case PropertyType::String:
    case PropertyType::Boolean:
        plain = true;
        break;
    case PropertyType::Int64: {
        const qint64 v = value.toLongLong();
        plain = double(v)<kExactLimit&& double(v)> - kExactLimit;
        if (plain)
            return double(v);
        break;
    }
    case PropertyType::Double: {
        const double d = value.toDouble();
        plain = std::isfinite(d) && (std::floor(d) != d || std::abs(d) >= kExactLimit);
        break;
    }
    default:
        break;
    }
    if (plain)
        return typed;
    return QJsonObject{{QStringLiteral("Type"), propertyTypeName(type)},
                       {QStringLiteral("Value"), typed}};
}

Result<QVariant> propertyFromJson(const QJsonValue& json) {
    if (isPlain(json))
        return plainValue(json);
    if (!json.isObject())
        return invalid(QStringLiteral("expected a string, number, boolean or {\"Type\", \"Value\"} "
                                      "object, got %1")
                           .arg(jsonTypeName(json)));
    const QJsonObject object = json.toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        if (it.key() != QLatin1String("Type") && it.key() != QLatin1String("Value"))
            return invalid(QStringLiteral("%1: unknown member (known: Type, Value)").arg(it.key()));
    const QJsonValue name = object.value(QStringLiteral("Type"));
    if (!name.isString())
        return invalid(QStringLiteral("Type: expected a type name such as Int32, got %1")
                           .arg(jsonTypeName(name)));
    const auto type = propertyTypeFromName(name.toString());
    if (!type) {
        QStringList names;
        for (PropertyType t : allPropertyTypes())
            names << propertyTypeName(t);
        return invalid(QStringLiteral("Type: '%1' is not a property type (known: %2)")
                           .arg(name.toString(), names.join(QStringLiteral(", "))));
    }
    const QJsonValue value = object.value(QStringLiteral("Value"));
    if (value.isUndefined() && *type != PropertyType::Null)
        return invalid(QStringLiteral("Value: missing"));
    return typedValueFromJson(*type, value);
}

} // namespace hourglass
