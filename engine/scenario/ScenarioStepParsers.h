#pragma once
// Parsers for the body of each scenario step type (the object under "Send", "Receive", ...).
// Internal to ScenarioFile.cpp; each records the first problem in the reader's ParseError.

#include "EmulatorConfigParsers.h"
#include "hourglass/scenario/ScenarioFile.h"

namespace hourglass::scenario_parsing {

// A step's values are judged by the engine when the step runs, not here (scenario-format.md): a
// well-formed value the engine refuses (a zero TTL, a lock duration out of bounds, a bad name)
// makes that step fail with the engine's code, so ExpectError can test the refusal. The parsers
// refuse only what is not well-formed (not a duration, a missing field, an unknown member).
struct StepContext {
    Tier tier = Tier::Standard; // of the first namespace: what unqualified paths resolve in
};

SendStep parseSend(JsonReader& reader);
ReceiveStep parseReceive(JsonReader& reader);
ReceiveDeferredStep parseReceiveDeferred(JsonReader& reader);
SettleStep parseSettle(JsonReader& reader);
CancelScheduledStep parseCancelScheduled(JsonReader& reader);
CreateStep parseCreate(JsonReader& reader, const StepContext& context);
UpdateStep parseUpdate(JsonReader& reader, const StepContext& context);
DeleteStep parseDelete(JsonReader& reader);
AddRuleStep parseAddRule(JsonReader& reader);
RemoveRuleStep parseRemoveRule(JsonReader& reader);
PeekStep parsePeek(JsonReader& reader);
AcceptSessionStep parseAcceptSession(JsonReader& reader);
ReleaseSessionStep parseReleaseSession(JsonReader& reader);
SessionStateStep parseSessionState(JsonReader& reader);
AdvanceClockStep parseAdvanceClock(JsonReader& reader);
ExpectStep parseExpect(JsonReader& reader);

} // namespace hourglass::scenario_parsing
