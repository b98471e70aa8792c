#pragma once
// Lock tokens on the wire. A delivery's tag is the 16-byte lock token in .NET's Guid byte order
// (the first three groups little-endian), because that is how the Service Bus SDKs turn the tag
// back into the token they print and send; management requests carry the same token as an AMQP
// uuid, which is in RFC 4122 (big-endian) order. Getting one of the two wrong makes every
// settlement fail with MessageLockLost, so both conversions live here.

#include <QByteArray>
#include <QUuid>

namespace hourglass::amqp {

// The 16 bytes of `token` in .NET Guid order, for a delivery tag.
QByteArray lockTokenToDeliveryTag(const QUuid& token);
// The token named by a delivery tag; a null QUuid when the tag is not 16 bytes.
QUuid lockTokenFromDeliveryTag(const QByteArray& tag);

} // namespace hourglass::amqp
