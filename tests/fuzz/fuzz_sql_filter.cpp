// SQL filter texts, as a peer's add-rule or a config file gives them (engine/sql SqlFilter):
// compiled, then evaluated against a sample message as a topic's fan-out and the routing
// preview do.

#include "FuzzInput.h"
#include "SampleMessage.h"
#include "sql/SqlFilter.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto filter = SqlFilter::compile(QString::fromUtf8(fuzz::bytesOf(data, size)));
    if (!filter)
        return 0;
    const OutgoingMessage message = fuzz::sampleMessage();
    (void)filter->matches(message, fuzz::sampleBrokerFields());
    (void)filter->truth(OutgoingMessage{});
    filter->propertyValues(message, fuzz::sampleBrokerFields());
    return 0;
}
