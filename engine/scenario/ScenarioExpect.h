#pragma once
// Checking scenario expectations: each field an Expect step gives is one expectation, passed or
// failed into the report; a failure never stops the run.

#include "hourglass/Broker.h"
#include "hourglass/scenario/ScenarioFile.h"
#include "hourglass/scenario/ScenarioReport.h"

namespace hourglass {

// Records the outcome of the expectations of one step.
class ExpectationRecorder {
public:
    ExpectationRecorder(ScenarioReport& report, const ScenarioStep& step, const QString& context);

    // Passes when the two values are equal, fails otherwise.
    void check(const QString& field, const QJsonValue& expected, const QJsonValue& actual);
    void pass();
    void fail(const QString& field, const QJsonValue& expected, const QJsonValue& actual,
              const QString& context = {});

private:
    ScenarioReport& m_report;
    const ScenarioStep& m_step;
    QString m_context;
};

// Checks every field of `expect` against the broker's state; times are offsets from `start`.
void checkExpectations(const Broker& broker, Instant start, const ExpectStep& expect,
                       ExpectationRecorder& recorder);

} // namespace hourglass
