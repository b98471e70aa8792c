#pragma once
// How the scenario panel names a step and its offset: one line a room can read
// ("Send 20 to jobs · TTL 5m", "Expect jobs: Active 12, Dead-lettered 0"), unlike the file's
// JSON. Pure functions.

#include "hourglass/scenario/ScenarioFile.h"

#include <QString>

namespace hourglass::ui {

// An offset from the scenario's start as a clock reading: "0:00", "9:45", "1:02:03".
QString scenarioClockText(Millis offset);

// The step's action in one line, with "(expects CODE)" when it must fail.
QString describeScenarioStep(const ScenarioStep& step);

// The step's kind as written in files ("Send", "Expect"...).
QString scenarioStepKind(const ScenarioStep& step);

} // namespace hourglass::ui
