// Microsoft emulator config.json files as an import or `hourglass serve --config` reads them
// (engine/scenario parseEmulatorConfigDocument).

#include "FuzzInput.h"
#include "hourglass/scenario/EmulatorConfig.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)parseEmulatorConfigDocument(fuzz::bytesOf(data, size));
    return 0;
}
