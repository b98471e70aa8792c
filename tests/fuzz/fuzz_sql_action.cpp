// SQL rule actions, as a peer's add-rule or a config file gives them (engine/sql SqlAction):
// compiled, then applied to a sample message as a subscription's copy gets them.

#include "FuzzInput.h"
#include "SampleMessage.h"
#include "sql/SqlAction.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto action = SqlAction::compile(QString::fromUtf8(fuzz::bytesOf(data, size)));
    if (!action)
        return 0;
    (void)action->applyTo(fuzz::sampleMessage(), fuzz::sampleBrokerFields());
    (void)action->applyTo(OutgoingMessage{});
    return 0;
}
