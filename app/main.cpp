// hourglass: an Azure Service Bus explorer with an embedded broker. Without arguments it opens
// the explorer window; with --scenario (or --headless) it plays a scenario file without a window
// (scenario-format.md).

#include "CommandLine.h"
#include "HeadlessRun.h"
#include "ServeCommand.h"
#include "WindowRun.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <memory>

int main(int argc, char* argv[]) {
    using namespace hourglass::app;
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    if (isServeCommand(arguments)) {
        // Headless: no display needed.
        QCoreApplication application(argc, argv);
        QTextStream out(stdout);
        QTextStream err(stderr);
        const ServeOptions serve = parseServeCommandLine(arguments);
        if (!serve.error.isEmpty()) {
            err << usageErrorText(serve.error, QStringLiteral("serve"));
            return ExitUsage;
        }
        if (serve.showHelp) {
            out << serve.helpText;
            return ExitPassed;
        }
        return runServe(serve, out, err);
    }
    const CommandLineOptions options = parseCommandLine(arguments);
    const bool window = options.error.isEmpty() && !options.showHelp && wantsWindow(options);

    // A window needs QApplication; a headless run must not require a display.
    std::unique_ptr<QCoreApplication> application;
    if (window)
        application = std::make_unique<QApplication>(argc, argv);
    else
        application = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass"));
    QCoreApplication::setApplicationName(QStringLiteral("hourglass"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    if (!options.error.isEmpty()) {
        err << usageErrorText(options.error);
        return ExitUsage;
    }
    if (options.showHelp) {
        out << options.helpText;
        return ExitPassed;
    }
    if (window)
        return runWindow(options, err);
    if (options.scenarioFile.isEmpty())
        return runHeadless(options, kDefaultScenario, ReportOutput::AlsoToStdout, out, err);
    return runHeadless(options, resolveScenarioFile(options.scenarioFile), ReportOutput::FileOnly,
                       out, err);
}
