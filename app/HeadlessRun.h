#pragma once
// Plays one scenario without a window, as fast as virtual time allows, and turns the outcome
// into the exit codes and output of scenario-format.md.

#include "CommandLine.h"

#include <QTextStream>

namespace hourglass::app {

enum class ReportOutput {
    FileOnly,     // --report writes it; stdout gets only failed expectations
    AlsoToStdout, // the no-argument demo: the report goes to stdout as well
};

int runHeadless(const CommandLineOptions& options, const QString& scenarioFile, ReportOutput output,
                QTextStream& out, QTextStream& err);

} // namespace hourglass::app
