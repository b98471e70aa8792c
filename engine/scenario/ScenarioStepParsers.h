#pragma once
// Parsers for the body of each scenario step type (the object under "Send", "Receive", ...).
// Internal to ScenarioFile.cpp; each records the first problem in the reader's ParseError.

#include "ScenarioFile.h"

namespace hourglass::scenario_parsing {

struct StepContext {
    Tier tier = Tier::Standard; // of the first namespace: what unqualified paths resolve in
    // Skip when the step expects an error, so that the broker's refusal can be observed.
    BoundsCheck check = BoundsCheck::Check;
};

SendStep parseSend(JsonReader& reader);
ReceiveStep parseReceive(JsonReader& reader);
ReceiveDeferredStep parseReceiveDeferred(JsonReader& reader);
SettleStep parseSettle(JsonReader& reader);
CancelScheduledStep parseCancelScheduled(JsonReader& reader);
CreateStep parseCreate(JsonReader& reader, const StepContext& context);
UpdateStep parseUpdate(JsonReader& reader, const StepContext& context);
DeleteStep parseDelete(JsonReader& reader);
AddRuleStep parseAddRule(JsonReader& reader, const StepContext& context);
RemoveRuleStep parseRemoveRule(JsonReader& reader);
PeekStep parsePeek(JsonReader& reader);
ExpectStep parseExpect(JsonReader& reader);

} // namespace hourglass::scenario_parsing
