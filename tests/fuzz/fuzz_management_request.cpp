// A request on $cbs (CbsRequest) or <entity>/$management as the endpoint reads it
// (ManagementMessages decodeManagementRequest), and the response that echoes its message-id in its
// own type. The same bytes as a response the remote client reads (decodeManagementResponse).

#include "CbsRequest.h"
#include "FuzzInput.h"
#include "hourglass/amqpcodec/ManagementMessages.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The same bytes as a $cbs request: put-token's body taken from the bytes, never decoded.
    (void)amqp::decodeCbsRequest(fuzz::bytesOf(data, size));
    (void)amqp::decodeManagementResponse(fuzz::bytesOf(data, size));
    const auto request = amqp::decodeManagementRequest(fuzz::bytesOf(data, size));
    if (!request)
        return 0;
    amqp::ManagementResponse response;
    response.body = request->body;
    amqp::encodeManagementResponse(*request, response, amqp::StatusNames::Management);
    amqp::encodeManagementResponse(
        *request, amqp::ManagementResponse::failure(400, "amqp:invalid-field", QStringLiteral("x")),
        amqp::StatusNames::Cbs);
    return 0;
}
