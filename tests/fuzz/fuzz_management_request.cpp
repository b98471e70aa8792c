// A request on $cbs or <entity>/$management as the endpoint reads it (ManagementMessages
// decodeManagementRequest), and the response that echoes its message-id in its own type.

#include "FuzzInput.h"
#include "ManagementMessages.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
