// hourglass: an Azure Service Bus explorer with an embedded broker. Until the explorer window
// exists, the binary plays scenario files headless (SCENARIOS.md); without arguments it plays
// the bundled traffic-spike scenario and prints its report.

#include "CommandLine.h"
#include "HeadlessRun.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char* argv[]) {
    using namespace hourglass::app;
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("hourglass"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    const CommandLineOptions options = parseCommandLine(QCoreApplication::arguments());
    if (!options.error.isEmpty()) {
        err << options.error << Qt::endl << options.helpText;
        return ExitInvalidFile;
    }
    if (options.showHelp) {
        out << options.helpText;
        return ExitPassed;
    }
    if (options.scenarioFile.isEmpty())
        return runHeadless(options, kDefaultScenario, ReportOutput::AlsoToStdout, out, err);
    return runHeadless(options, resolveScenarioFile(options.scenarioFile), ReportOutput::FileOnly,
                       out, err);
}
