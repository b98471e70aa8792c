#include "CommandLine.h"

#include "hourglass/amqp/AmqpEndpoint.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>

namespace hourglass::app {

CommandLineOptions parseCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "Hourglass, an Azure Service Bus explorer with its own broker.\n"
            "\n"
            "  hourglass [--db PATH]                  opens the explorer window on your default "
            "database (or PATH)\n"
            "  hourglass serve [options]              serves the broker over AMQP 1.0 without a "
            "window (see hourglass serve --help); --http-port P adds the administration API "
            "over HTTP\n"
            "  hourglass --scenario FILE [--report OUT.json]\n"
            "                                         plays a scenario headless on a virtual "
            "clock; exits 0 when every expectation held, 1 when one failed, 2 when the file "
            "or the command line cannot be used\n"
            "  hourglass --play FILE [--present]      plays a scenario in the window (--present: "
            "in presentation mode)\n"
            "  hourglass --headless                   plays the bundled traffic-spike scenario "
            "and prints its report\n"
            "\n"
            "Examples:\n"
            "  hourglass --db ~/orders.db\n"
            "  hourglass serve --port 5672 --config config.json\n"
            "  hourglass serve --port 5672 --http-port 5300\n"
            "  hourglass --scenario traffic-spike --report report.json\n"
            "  hourglass --play session-orders --present\n"
            "\n") +
        connectionLimitsHelp());
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Shows this help."));
    const QCommandLineOption scenario(
        QStringLiteral("scenario"),
        QStringLiteral("Plays the scenario FILE (or a bundled one: traffic-spike, "
                       "poison-message, reply-queues, session-orders)."),
        QStringLiteral("FILE"));
    const QCommandLineOption report(QStringLiteral("report"),
                                    QStringLiteral("Writes the final state as JSON to OUT."),
                                    QStringLiteral("OUT"));
    const QCommandLineOption db(QStringLiteral("db"),
                                QStringLiteral("Uses the database PATH (created when missing) "
                                               "instead of a fresh temporary one."),
                                QStringLiteral("PATH"));
    const QCommandLineOption durability(
        QStringLiteral("durability"),
        QStringLiteral("power-safe (default: every acknowledged operation survives a power loss) "
                       "or crash-only (survives a crash of the process, not of the OS)."),
        QStringLiteral("MODE"), QStringLiteral("power-safe"));
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      QStringLiteral("Runs without a window; without --scenario "
                                                     "it plays the traffic-spike scenario."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Opens the window, saves a picture of it "
                                                       "to FILE (PNG) once loaded, and quits."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("The window's size, for example 1024x700 "
                                                 "(default: the size it had last)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("system, light or dark (default: the one chosen "
                                                  "last in View > Theme)."),
                                   QStringLiteral("THEME"));
    const QCommandLineOption play(
        QStringLiteral("play"),
        QStringLiteral("Opens the window and plays the scenario FILE (or a bundled one) in it, "
                       "on a temporary database of its own."),
        QStringLiteral("FILE"));
    const QCommandLineOption speed(QStringLiteral("speed"),
                                   QStringLiteral("The speed --play starts at: 1, 10, 60 or 600 "
                                                  "(default 10)."),
                                   QStringLiteral("X"), QStringLiteral("10"));
    const QCommandLineOption present(
        QStringLiteral("present"),
        QStringLiteral("Starts in presentation mode: the first entity (with --play, the one the "
                       "story starts with) full screen, in large type."));
    parser.addOptions({help, scenario, report, db, durability, headless, screenshot, size, theme,
                       play, speed, present});

    CommandLineOptions options;
    options.helpText = helpNamingTheProgram(parser, QStringLiteral("hourglass [options]"));
    options.error = parseOptionsOnly(parser, arguments);
    if (!options.error.isEmpty())
        return options;
    options.showHelp = parser.isSet(help);
    options.scenarioFile = parser.value(scenario);
    options.reportFile = parser.value(report);
    options.databasePath = parser.value(db);
    options.headless = parser.isSet(headless);
    options.screenshotFile = parser.value(screenshot);
    options.theme = parser.value(theme);
    if (parser.isSet(size)) {
        // 640x480 up to 7680x4320: a window a screen can show.
        static const QRegularExpression form(QStringLiteral("^(\\d{3,4})x(\\d{3,4})$"));
        const QRegularExpressionMatch match = form.match(parser.value(size));
        const QSize asked = match.hasMatch()
                                ? QSize(match.captured(1).toInt(), match.captured(2).toInt())
                                : QSize();
        if (!asked.isValid() || asked.width() < 640 || asked.height() < 480 ||
            asked.width() > 7680 || asked.height() > 4320) {
            options.error = QStringLiteral("--size must be WIDTHxHEIGHT between 640x480 and "
                                           "7680x4320, not '%1'")
                                .arg(parser.value(size));
            return options;
        }
        options.windowSize = asked;
    }
    options.playFile = parser.value(play);
    options.present = parser.isSet(present);
    bool speedOk = false;
    options.playSpeed = parser.value(speed).toDouble(&speedOk);
    if (!speedOk || (options.playSpeed != 1 && options.playSpeed != 10 && options.playSpeed != 60 &&
                     options.playSpeed != 600)) {
        options.error =
            QStringLiteral("--speed must be 1, 10, 60 or 600, not '%1'").arg(parser.value(speed));
        return options;
    }
    if (!options.theme.isEmpty() && options.theme != QLatin1String("system") &&
        options.theme != QLatin1String("light") && options.theme != QLatin1String("dark")) {
        options.error =
            QStringLiteral("--theme must be system, light or dark, not '%1'").arg(options.theme);
        return options;
    }
    const QString mode = parser.value(durability);
    if (const auto chosen = durabilityFromName(mode))
        options.durability = *chosen;
    else
        options.error =
            QStringLiteral("--durability must be power-safe or crash-only, not '%1'").arg(mode);
    return options;
}

QString helpNamingTheProgram(const QCommandLineParser& parser, const QString& usage) {
    // QCommandLineParser names the executable as it was started (or not at all before the
    // application object exists): the help names the command a user types.
    QString help = parser.helpText();
    const qsizetype firstLineEnd = help.indexOf(QLatin1Char('\n'));
    return QStringLiteral("Usage: %1").arg(usage) + help.mid(firstLineEnd);
}

QString usageErrorText(const QString& reason, const QString& command) {
    // One line that says what is wrong, one that says where the rest is: the whole help would
    // bury the reason.
    const QString help = command.isEmpty() ? QStringLiteral("hourglass --help")
                                           : QStringLiteral("hourglass %1 --help").arg(command);
    return QStringLiteral("hourglass: %1\nSee %2 for the options.\n").arg(reason, help);
}

QString connectionLimitsHelp() {
    const amqp::EndpointOptions defaults;
    return QStringLiteral(
               "Limits on connections to the AMQP endpoint: a client must put a valid token on "
               "$cbs within %1 s of connecting, and at most %2 connections without one are kept "
               "(past that the oldest is closed); at most %3 connections in all (fewer when the "
               "open-file limit, raised to its hard limit at start, is lower); a peer silent for "
               "%4 s is dropped.")
        .arg(defaults.authenticateWithinMs / 1000)
        .arg(defaults.maxUnauthenticatedConnections)
        .arg(defaults.maxConnections)
        .arg(defaults.idleTimeoutMs / 1000);
}

QString parseOptionsOnly(QCommandLineParser& parser, const QStringList& arguments) {
    if (!parser.parse(arguments))
        return parser.errorText();
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());
    return {};
}

std::optional<Durability> durabilityFromName(const QString& name) {
    if (name == QLatin1String("power-safe"))
        return Durability::PowerSafe;
    if (name == QLatin1String("crash-only"))
        return Durability::ProcessCrashSafe;
    return std::nullopt;
}

bool wantsWindow(const CommandLineOptions& options) {
    return !options.headless && options.scenarioFile.isEmpty() && options.reportFile.isEmpty();
}

QString resolveScenarioFile(const QString& name) {
    if (QFileInfo::exists(name))
        return name;
    const QString bundled = QStringLiteral(":/scenarios/%1.json").arg(name);
    if (QFileInfo::exists(bundled))
        return bundled;
    return name;
}

} // namespace hourglass::app
