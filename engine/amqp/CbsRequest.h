#pragma once
// A `$cbs` request read as what it must be: put-token's body is the token, one amqp-value
// section holding a string. The body is taken from the bytes without handing it to a decoder,
// so a body of any other shape (nested lists, a map) is never decoded at all: the request is
// answered 400 instead. The other sections are decoded as for `$management`.

#include "hourglass/amqpcodec/ManagementMessages.h"

#include <QByteArray>

namespace hourglass::amqp {

struct CbsRequest {
    ManagementRequest request; // its body: the token text when bodyIsString, else null
    bool bodyIsString = false;
};

Result<CbsRequest> decodeCbsRequest(const QByteArray& encoded);

} // namespace hourglass::amqp
