#include "hourglass/amqpcodec/LockTokenBytes.h"

#include <algorithm>

namespace hourglass::amqp {

namespace {
// Reverses the groups that .NET stores little-endian: 4, 2 and 2 bytes. Its own inverse.
QByteArray swapGuidGroups(QByteArray bytes) {
    std::reverse(bytes.begin(), bytes.begin() + 4);
    std::reverse(bytes.begin() + 4, bytes.begin() + 6);
    std::reverse(bytes.begin() + 6, bytes.begin() + 8);
    return bytes;
}
} // namespace

QByteArray lockTokenToDeliveryTag(const QUuid& token) {
    return swapGuidGroups(token.toRfc4122());
}

QUuid lockTokenFromDeliveryTag(const QByteArray& tag) {
    if (tag.size() != 16)
        return {};
    return QUuid::fromRfc4122(swapGuidGroups(tag));
}

} // namespace hourglass::amqp
