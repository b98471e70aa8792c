#pragma once
// Typed application properties in JSON. JSON has one number type, so a plain value cannot say
// Int32 from Int64; these functions write a value so that reading it gives back its type.
//
// Two forms, both built on the type names of PropertyTypes.h:
// - the file form (scenario files, rules in config.json): a plain JSON string, boolean or
//   number where that reads back as the same type (a string is a String, an integral number
//   an Int64, any other number a Double), and otherwise an object naming the type:
//   `{"Type": "Int32", "Value": 250}`, `{"Type": "DateTime", "Value": "2026-01-31T12:00:00Z"}`.
// - the typed value alone (message export, send templates), whose callers keep the type name
//   beside it in their own member.
//
// Values of typed forms: numbers for the integer and floating types (Int64 and UInt64 also as
// decimal strings, written so, because a JSON number past 2^53 loses digits; non-finite
// floating values as "NaN", "Infinity", "-Infinity"), ISO-8601 text for DateTime (written in UTC
// with milliseconds), Guid text, base64 for Binary, one character for Char, null for Null.

#include "hourglass/PropertyTypes.h"
#include "hourglass/Status.h"

#include <QJsonValue>
#include <QVariant>

namespace hourglass {

// The file form of a value.
QJsonValue propertyToJson(const QVariant& value);
// A value in the file form; InvalidArgument says why not ("expected a string, number, boolean or
// {\"Type\", \"Value\"} object, got null", "Int32: 3000000000 is not a 32-bit integer").
Result<QVariant> propertyFromJson(const QJsonValue& json);

// A value's typed form, without its type name.
QJsonValue typedValueToJson(const QVariant& value);
// A typed form read as `type`; InvalidArgument says why not.
Result<QVariant> typedValueFromJson(PropertyType type, const QJsonValue& json);

} // namespace hourglass
