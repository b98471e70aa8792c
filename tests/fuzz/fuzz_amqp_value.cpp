// AMQP values as the endpoint reads them (AmqpValue: application properties, management bodies,
// ids), then written back, as a response echoes what a request sent.

#include "FuzzInput.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QVariant value = fuzz::decodeAmqpValue(fuzz::bytesOf(data, size));
    if (!value.isValid())
        return 0;
    pn_data_t* out = pn_data(16);
    amqp::writeAmqpValue(out, value);
    char buffer[8192];
    pn_data_encode(out, buffer, sizeof buffer);
    pn_data_free(out);
    return 0;
}
