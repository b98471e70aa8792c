// A batch transfer as the endpoint splits it (MessageCodec splitBatch), then each inner message
// decoded as a sent one.

#include "FuzzInput.h"
#include "hourglass/amqpcodec/MessageCodec.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = fuzz::bytesOf(data, size);
    if (!amqp::isBatchEnvelope(bytes))
        return 0;
    const auto inner = amqp::splitBatch(bytes);
    if (!inner)
        return 0;
    for (const QByteArray& message : *inner)
        (void)amqp::decodeMessage(message);
    return 0;
}
