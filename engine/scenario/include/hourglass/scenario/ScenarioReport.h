#pragma once
// The outcome of a scenario run (scenario-format.md "Report"): the clock at the end, the final
// state of every entity, and the expectations that held or failed.

#include "hourglass/Broker.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace hourglass {

struct ExpectationFailure {
    int step = 0;     // index in the file's Steps array
    QString stepPath; // "Scenario.Steps[7]"
    Millis at = 0;    // the step's offset
    QString field;    // "Active", "Messages[0].Where", "ExpectError", "Error"...
    QJsonValue expected;
    QJsonValue actual;
    QString context; // for the printed line only, e.g. "Expect jobs" or "message job-1"

    // "Scenario.Steps[7] (At PT16M, Expect jobs): Active: expected 0, actual 3"
    QString line() const;
};

struct EntityReport {
    QString path; // "namespace:path" for entities outside the first namespace
    EntityCounts counts;
    QMap<QString, qint64> deadLetterReasons;
};

struct ScenarioReport {
    Millis clock = 0; // offset from the start at the end of the run
    QList<EntityReport> entities;
    int passed = 0; // fields checked that held
    QList<ExpectationFailure> failures;
    // Checks as the window and a headless run count them: a step that checks (Expect, or a step
    // with ExpectError) passes when nothing it checked failed; any step that failed counts as
    // one failed check, however many of its fields differed.
    int checksPassed = 0;
    int checksFailed = 0;

    bool allPassed() const { return failures.isEmpty(); }
    QJsonObject toJson() const;
    QStringList failureLines() const;
};

// "5 checks passed, 1 failed": the words the window and a headless run both use.
QString checksSummary(int passed, int failed);

// Offsets from the scenario's start as ISO-8601 durations; a negative one gets a leading '-'.
QString formatOffset(Millis offset);

} // namespace hourglass
