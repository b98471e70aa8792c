#pragma once
// Application properties as the store keeps them: one CBOR map from name to value, in the
// `app_properties` column. The type a property was sent with is kept (PropertyTypes.h).
//
// A value whose plain CBOR reads back as its own type is written plain, exactly as the first
// version of the store wrote every value (QCborMap::fromVariantMap): String (text), Int64
// (integer), Double, Boolean, Binary (bytes), Null, DateTime (tag 0, UTC) and Guid (tag 37).
// Every other type (Int32, Byte, UInt64, Single, Char...) is wrapped in the private tag
// kTypedPropertyTag around a two-element array [type name, plain value]: CBOR has one integer
// type, so without it an Int32 would come back an Int64. UInt64 past qint64's range is stored as
// the same 64 bits read as signed.
//
// Because the plain values are the old encoding, a database written before types were kept
// reads as it did (every integer an Int64) without a format change, and a message without such
// types costs the same bytes as before. A type added later is one more name in the tag.

#include <QByteArray>
#include <QVariantMap>
#include <QtCborCommon>

namespace hourglass {

// "HGls", as the database's application_id; in CBOR's first-come range of tags.
inline constexpr QCborTag kTypedPropertyTag = QCborTag(0x48476c73);

QByteArray encodeProperties(const QVariantMap& properties);
// Unknown type names (from a later version) and malformed entries keep their plain value.
QVariantMap decodeProperties(const QByteArray& cbor);

} // namespace hourglass
