// Stored wire extras as a receive or the window reads them back (WireExtras): decodeWireExtras,
// wireBodyKind, and the annotation map split into items as encodeMessage merges it. The bytes
// come from the store, which holds what a peer sent (annotations, bodies, footer as received).

#include "FuzzInput.h"
#include "hourglass/amqpcodec/WireExtras.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = fuzz::bytesOf(data, size);
    amqp::wireBodyKind(bytes);
    if (const auto extras = amqp::decodeWireExtras(bytes)) {
        amqp::encodeWireExtras(*extras);
        if (const auto items = amqp::encodedMapItems(extras->annotations))
            for (const QByteArray& item : *items)
                amqp::encodedKeyText(item);
    }
    // The map reader on its own, on the raw bytes: annotations as a sender wrote them.
    if (const auto items = amqp::encodedMapItems(bytes)) {
        for (const QByteArray& item : *items)
            amqp::encodedKeyText(item);
        amqp::encodeMapOfItems(*items);
    }
    return 0;
}
