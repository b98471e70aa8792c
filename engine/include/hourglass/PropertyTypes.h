#pragma once
// The types of application property values, named as Service Bus names them (.NET's type names:
// Int32, Int64, String, DateTime...). Service Bus and AMQP keep the type a property was sent
// with, and a correlation filter compares type and value (service-bus-rules.md R2: Int64 250 does
// not match Int32 250), so the type travels with the value everywhere: the store, scenario files,
// export, the window. This is the one table of those types and their names; every place that
// shows or reads a type name goes through it.
//
// In memory a property is a QVariant whose meta type is the type's own (propertyMetaType):
// Int32 is int, Int64 is qlonglong, DateTime a UTC QDateTime, Guid a QUuid, Binary a QByteArray,
// Null a nullptr (or an invalid QVariant).

#include <QList>
#include <QMetaType>
#include <QString>
#include <QVariant>

#include <optional>

namespace hourglass {

// The AMQP simple types a Service Bus application property can carry. Decimal, DateTimeOffset,
// TimeSpan and Uri (which .NET senders map onto described types) are not carried yet; adding one
// is a row here: the store and the files name types by their names, not by these numbers.
enum class PropertyType {
    Null,
    String,
    Boolean,
    Byte,   // AMQP ubyte
    SByte,  // AMQP byte
    Int16,  // AMQP short
    UInt16, // AMQP ushort
    Int32,  // AMQP int
    UInt32, // AMQP uint
    Int64,  // AMQP long
    UInt64, // AMQP ulong
    Single, // AMQP float
    Double,
    Char,     // AMQP char (a UTF-16 unit here)
    DateTime, // AMQP timestamp (milliseconds, UTC)
    Guid,     // AMQP uuid
    Binary,   // AMQP binary (.NET byte[])
};

// Every type, in the order a type chooser lists them (the common ones first).
const QList<PropertyType>& allPropertyTypes();

// "Int32", "Int64", "String", "DateTime", "Guid", "Binary", "Null", ...
QString propertyTypeName(PropertyType type);
// A type from its name, ignoring case. Also takes the C# keywords (int, long, bool, string,
// byte[]...) and the AMQP names (timestamp, uuid, binary...), which older template files and
// hand-written scenarios use.
std::optional<PropertyType> propertyTypeFromName(QStringView name);

// The type of a value; nullopt for a value Service Bus cannot carry (a QPoint). `long` and
// `unsigned long` count as Int64 and UInt64.
std::optional<PropertyType> propertyTypeOf(const QVariant& value);
// The Service Bus name of a value's type, or Qt's name for one Service Bus cannot carry.
QString propertyTypeNameOf(const QVariant& value);
// The meta type that holds a value of `type` in memory (Nullptr for Null).
QMetaType propertyMetaType(PropertyType type);

// `value` as `type` (an int 250 as Int64 250, a local time as UTC), or nullopt when it does not
// fit (300 as Byte, "abc" as Int32, a fraction as an integer type).
std::optional<QVariant> convertProperty(const QVariant& value, PropertyType type);
// `value` in its type's own meta type (a `long` as qlonglong, a DateTime in UTC); values of
// other types are returned unchanged.
QVariant normalizedProperty(const QVariant& value);

// A value as text, the way the window shows and edits it: numbers in full, DateTime as
// ISO-8601 UTC with milliseconds, Guid without braces, Binary as hex pairs, Null empty.
QString propertyText(const QVariant& value);
// Text typed by a user (or read from a text field of a file) as `type`; nullopt when it does not
// parse. Booleans take true/false/1/0; Binary takes hex pairs (spaces allowed); Null takes "".
std::optional<QVariant> propertyFromText(PropertyType type, const QString& text);
// What a value of `type` looks like, for error messages: "a 32-bit integer", "true or false".
QString propertyTypeExpectation(PropertyType type);

} // namespace hourglass
