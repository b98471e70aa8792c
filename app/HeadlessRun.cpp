#include "HeadlessRun.h"

#include "hourglass/scenario/ScenarioRunner.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace hourglass::app {

namespace {

bool writeReport(const QString& fileName, const QByteArray& json, QString* why) {
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *why = file.errorString();
        return false;
    }
    return true;
}

} // namespace

int runHeadless(const CommandLineOptions& options, const QString& scenarioFile, ReportOutput output,
                QTextStream& out, QTextStream& err) {
    auto scenario = loadScenarioFile(scenarioFile);
    if (!scenario) {
        err << scenarioFile << ": " << scenario.error().description << Qt::endl;
        return ExitInvalidFile;
    }
    ScenarioRunOptions runOptions;
    runOptions.databasePath = options.databasePath;
    runOptions.durability = options.durability;
    runOptions.owner = QStringLiteral("hourglass --scenario");
    auto runner = ScenarioRunner::create(std::move(scenario).value(), runOptions);
    if (!runner) {
        // A corrupt or foreign --db file is refused by Broker::open and left as it was.
        err << scenarioFile << ": " << runner.error().toString() << Qt::endl;
        return ExitInvalidFile;
    }
    const ScenarioReport report = (*runner)->run();
    QTextStream& failures = output == ReportOutput::AlsoToStdout ? err : out;
    for (const QString& line : report.failureLines())
        failures << line << Qt::endl;

    const QJsonDocument json(report.toJson());
    if (output == ReportOutput::AlsoToStdout)
        out << json.toJson(QJsonDocument::Indented) << Qt::flush;
    if (!options.reportFile.isEmpty()) {
        QString why;
        if (!writeReport(options.reportFile, json.toJson(QJsonDocument::Indented), &why)) {
            err << "cannot write the report to " << options.reportFile << ": " << why << Qt::endl;
            return ExitInvalidFile;
        }
    }
    err << QFileInfo(scenarioFile).completeBaseName() << ": "
        << checksSummary(report.checksPassed, report.checksFailed) << Qt::endl;
    return report.allPassed() ? ExitPassed : ExitFailed;
}

} // namespace hourglass::app
