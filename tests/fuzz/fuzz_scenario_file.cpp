// Scenario files as the window and `hourglass run` open them (engine/scenario parseScenario,
// with its UserConfig part through EmulatorConfig).

#include "FuzzInput.h"
#include "hourglass/scenario/ScenarioFile.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)parseScenario(fuzz::bytesOf(data, size));
    return 0;
}
