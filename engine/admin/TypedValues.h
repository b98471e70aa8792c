#pragma once
// Typed values as the administration API writes them: a correlation filter's properties and an
// SQL rule's parameters are <KeyValueOfstringanyType> items whose <Value> carries its XML schema
// type (`i:type="d6p1:int"`). Service Bus property types map onto the XML schema's names (Int32
// is `int`, Int64 `long`, DateTime `dateTime`, Guid the serializer's `guid`...).

#include <QString>
#include <QVariant>

#include <optional>

namespace hourglass::admin {

struct XmlTypedValue {
    QString type; // the schema type's local name: "int", "string", "dateTime"
    QString text;
    bool serializationNamespace = false; // `guid` and `char` are the .NET serializer's types
};

// A value from its schema type's local name and its text; nullopt for an unknown type or a
// text that is not of that type.
std::optional<QVariant> typedValueFromXml(const QString& type, const QString& text);

// How a property value is written; nullopt for a value of no Service Bus type.
std::optional<XmlTypedValue> typedValueToXml(const QVariant& value);

} // namespace hourglass::admin
