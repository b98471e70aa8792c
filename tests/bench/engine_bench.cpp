// engine_bench: throughput, latency and memory figures of the broker engine for 1 KB messages on
// one queue, each next to a raw SQLite baseline measured in the same run (BenchFigures.h).
//
//   engine_bench [--messages N] [--quick] [--figures sends,settle,scale,rules]
//
// --messages sizes the large database of figures 4-7 (default 1,000,000); --quick shrinks every
// figure (20,000 messages) for a smoke run. Databases go in a temporary directory, removed at
// the end. Exit status 0 when every figure was measured (a missed target is reported, not an
// error); 1 when the engine failed.

#include "BenchFigures.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTemporaryDir>
#include <QThread>

#include <sqlite3.h>

#include <cstdio>

using namespace hourglass;
using namespace hourglass::bench;

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Hourglass engine benchmark"));
    parser.addHelpOption();
    const QCommandLineOption messagesOption(
        QStringLiteral("messages"), QStringLiteral("messages in the large database (figures 4-7)"),
        QStringLiteral("N"));
    const QCommandLineOption quickOption(QStringLiteral("quick"),
                                         QStringLiteral("small sizes, for a smoke run"));
    // Profiling one part means running only that part.
    const QCommandLineOption figuresOption(
        QStringLiteral("figures"),
        QStringLiteral("the groups to run, comma-separated: sends (1-2), settle (3), scale (4-7), "
                       "rules (8-9); all by default"),
        QStringLiteral("groups"), QStringLiteral("sends,settle,scale,rules"));
    // Internal: the fresh process of figure 7.
    QCommandLineOption measureOpenOption(QStringLiteral("measure-open"),
                                         QStringLiteral("(internal)"), QStringLiteral("db"));
    measureOpenOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(messagesOption);
    parser.addOption(quickOption);
    parser.addOption(figuresOption);
    parser.addOption(measureOpenOption);
    parser.process(app);

    if (parser.isSet(measureOpenOption))
        return measureOpenInThisProcess(parser.value(measureOpenOption));

    BenchOptions options;
    options.quick = parser.isSet(quickOption);
    if (options.quick)
        options.messages = 20000;
    if (parser.isSet(messagesOption)) {
        bool ok = false;
        options.messages = parser.value(messagesOption).toLongLong(&ok);
        if (!ok || options.messages < 10) {
            std::fprintf(stderr, "engine_bench: --messages needs a number >= 10\n");
            return 2;
        }
    }
    QTemporaryDir dir;
    if (!dir.isValid())
        die(QStringLiteral("cannot create a temporary directory"));
    options.directory = dir.path();

#ifdef NDEBUG
    const char* build = "optimised (NDEBUG)";
#else
    const char* build = "NOT optimised: figures of a debug build";
#endif
    std::printf("engine_bench: %s run, 1 KB bodies, one queue, %lld messages for figures 4-7\n",
                options.quick ? "quick" : "full", static_cast<long long>(options.messages));
    std::printf("build %s, SQLite %s, %d CPU threads, databases in %s\n", build,
                sqlite3_libversion(), QThread::idealThreadCount(), qPrintable(options.directory));
    std::fflush(stdout);

    const QStringList groups = parser.value(figuresOption).split(QLatin1Char(','));
    for (const QString& group : groups) {
        if (group != QLatin1String("sends") && group != QLatin1String("settle") &&
            group != QLatin1String("scale") && group != QLatin1String("rules")) {
            std::fprintf(stderr, "engine_bench: unknown figure group '%s'\n", qPrintable(group));
            return 2;
        }
    }
    BenchReport report;
    if (groups.contains(QLatin1String("sends")))
        measureSends(options, report);
    if (groups.contains(QLatin1String("settle")))
        measureSettlement(options, report);
    if (groups.contains(QLatin1String("scale")))
        measureScale(options, report);
    if (groups.contains(QLatin1String("rules")))
        measureRules(options, report);
    report.note(QStringLiteral("durable sends and settlements use Durability::PowerSafe "
                               "(WAL, synchronous=FULL); the raw SQLite baselines use the same "
                               "pragmas. Baselines write rows only, not the engine's per-commit "
                               "entity progress row."));
    report.print();
    return 0;
}
