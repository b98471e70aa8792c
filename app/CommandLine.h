#pragma once
// The hourglass command line:
//   hourglass [--db PATH]                      the explorer window
//   hourglass serve [options]                  the broker without a window (ServeCommand.h)
//   hourglass --headless                       plays the bundled traffic-spike scenario
//   hourglass --scenario FILE [--report OUT.json] [--db PATH] [--durability MODE]
// A scenario always plays headless (playing in the window comes with the demo tools).
// FILE may also name a bundled scenario ("traffic-spike") or a resource (":/scenarios/x.json").

#include "hourglass/Broker.h"

#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass::app {

// Exit codes of a headless run (scenario-format.md).
enum ExitCode : int {
    ExitPassed = 0,      // every expectation held
    ExitFailed = 1,      // an expectation failed
    ExitInvalidFile = 2, // the file (or the command line, or the database) cannot be used
    ExitUsage = 2,       // the command line cannot be used (as for any command-line tool)
};

struct CommandLineOptions {
    QString scenarioFile; // empty: none given
    QString reportFile;
    QString databasePath; // empty: a fresh temporary database
    Durability durability = Durability::PowerSafe;
    bool headless = false;  // --headless: no window even without --scenario
    QString screenshotFile; // --screenshot: save a picture of the window, then quit
    QString theme;          // --theme: system, light or dark; empty: the saved choice
    QSize windowSize;       // --size WxH: the window's size; invalid: the remembered one
    QString playFile;       // --play: a scenario to play in the window
    double playSpeed = 10;  // --speed: what --play starts at
    bool present = false;   // --present: start in presentation mode
    bool showHelp = false;
    QString helpText;
    QString error; // non-empty when the command line is unusable
};

CommandLineOptions parseCommandLine(const QStringList& arguments);

// Shared by every command's parser: parses `arguments` and refuses positional ones. Returns the
// error text, empty when the arguments are usable.
QString parseOptionsOnly(QCommandLineParser& parser, const QStringList& arguments);
// "power-safe" or "crash-only" (the --durability values); nullopt for anything else.
std::optional<Durability> durabilityFromName(const QString& name);

// `parser`'s help with its usage line naming the command as typed: "Usage: " + `usage`.
QString helpNamingTheProgram(const QCommandLineParser& parser, const QString& usage);

// What an unusable command line prints on stderr: the one-line `reason` and where the help is
// ("hourglass --help", or "hourglass serve --help" for `command` "serve").
QString usageErrorText(const QString& reason, const QString& command = {});

// The AMQP endpoint's limits on connections (the window's and `serve`'s alike), for --help.
QString connectionLimitsHelp();

// Whether the command line asks for the explorer window (else a headless run).
bool wantsWindow(const CommandLineOptions& options);

// The resource path of a bundled scenario such as "traffic-spike", or `name` itself when it is
// a file (or not a bundled name).
QString resolveScenarioFile(const QString& name);

inline const QString kDefaultScenario = QStringLiteral(":/scenarios/traffic-spike.json");

} // namespace hourglass::app
