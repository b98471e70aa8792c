#pragma once
// AMQP values <-> QVariant, in the meta types the engine's PropertyTypes.h uses (int for AMQP
// int, qlonglong for long, QDateTime UTC for timestamp, QUuid for uuid, QByteArray for binary,
// nullptr for null...), so an application property keeps its AMQP type through the engine and
// back. Maps, lists and arrays nest. Two wrappers say what a QVariant alone cannot: a symbol,
// and an array (one element type) instead of a list.

#include <QByteArray>
#include <QMetaType>
#include <QVariant>
#include <QVariantList>

#include <proton/codec.h>

namespace hourglass::amqp {

struct AmqpSymbol {
    QByteArray name;
};

// Encoded as an AMQP array of the first element's type (every element must share it); an empty
// one needs `elementType`, a pn_type_t.
struct AmqpArray {
    QVariantList items;
    int elementType = PN_NULL;
};

// A described list, as Service Bus encodes rule descriptions and filters: a numeric descriptor
// and the list's fields.
struct AmqpDescribed {
    quint64 descriptor = 0;
    QVariantList fields;
};

// Reads the value at the current node of `data` (after pn_data_next). A described list comes
// back as an AmqpDescribed; other described values and decimals as an invalid QVariant.
QVariant readAmqpValue(pn_data_t* data);
// Reads a whole pn_data_t holding one value (rewinds first); an invalid QVariant when empty.
QVariant readSingleAmqpValue(pn_data_t* data);

// Appends `value` to `data`. Returns false for a type AMQP cannot carry (then nothing usable
// was written for it: a null stands in).
bool writeAmqpValue(pn_data_t* data, const QVariant& value);

} // namespace hourglass::amqp

Q_DECLARE_METATYPE(hourglass::amqp::AmqpSymbol)
Q_DECLARE_METATYPE(hourglass::amqp::AmqpArray)
Q_DECLARE_METATYPE(hourglass::amqp::AmqpDescribed)
