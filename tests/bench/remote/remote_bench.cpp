// remote_bench: the explorer window on a namespace it does not host, a real `hourglass serve`
// started here (emulator-style: plain AMQP and HTTP), with a queue of 100,000 messages of 1 KiB
// and a tree of 1,000 more entities. It prints each figure next to its target, or next to the
// baseline measured in the same run (the official JS SDK peeking the same messages from the same
// server), and the machine's load. Timings are figures, not assertions.
//
//   remote_bench [--messages N] [--peek N] [--entities N] [--sdk-modules DIR] [--quick]
//
// The window saves the namespace it opens (settings, keychain): run it in a home of its own,
// through tests/ui/namespaces/secret-service.sh without (as `make bench-remote` and ctest do).

#include "BenchSupport.h"
#include "GuiThreadProbe.h"
#include "RemoteSetup.h"
#include "RemoteWindowFigures.h"
#include "SdkPeeks.h"
#include "ServeProcess.h"
#include "messages/MessageListModel.h"

#include <QApplication>
#include <QFile>

#include <algorithm>
#include <cstdio>
#include <optional>

using namespace hourglass;
using namespace hourglass::bench;

namespace {

struct Options {
    qint64 messages = 100000;
    int peek = 10000;
    int entities = 1000;
    QString sdkModules = QStringLiteral(HOURGLASS_SDK_MODULES);
};

Options readOptions(const QStringList& arguments) {
    Options options;
    if (arguments.contains(QStringLiteral("--quick")))
        options = Options{2000, 1000, 50, options.sdkModules};
    auto value = [&](const char* name) -> std::optional<QString> {
        const int at = int(arguments.indexOf(QLatin1String(name)));
        if (at > 0 && at + 1 < arguments.size())
            return arguments.at(at + 1);
        return std::nullopt;
    };
    if (auto v = value("--messages"))
        options.messages = v->toLongLong();
    if (auto v = value("--peek"))
        options.peek = v->toInt();
    if (auto v = value("--entities"))
        options.entities = v->toInt();
    if (auto v = value("--sdk-modules"))
        options.sdkModules = *v;
    if (options.peek > options.messages || options.peek < 1 || options.entities < 10)
        die(QStringLiteral("--peek must be 1 to --messages, --entities at least 10"));
    return options;
}

QString loadAverage() {
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("unknown");
    const QList<QByteArray> parts = file.readAll().split(' ');
    return parts.size() < 3 ? QStringLiteral("unknown")
                            : QStringLiteral("%1 %2 %3")
                                  .arg(QString::fromLatin1(parts[0]), QString::fromLatin1(parts[1]),
                                       QString::fromLatin1(parts[2]));
}

// One line of the table: the figure, its value, and what it is held against.
void row(const char* figure, double value, const char* unit, const QString& against,
         std::optional<bool> pass) {
    std::printf("%-56s %10.1f %-3s %-24s %s\n", figure, value, unit, qPrintable(against),
                pass ? (*pass ? "PASS" : "MISS") : "-");
}

QString stretchText(const PhaseStretch& busy) {
    return QStringLiteral("%1 ms of the GUI thread's CPU in it; at most %2 ms between two ticks; "
                          "the longest event %3 ms, %4")
        .arg(busy.stretch.cpuMs, 0, 'f', 1)
        .arg(busy.stretch.maxCpuMs, 0, 'f', 1)
        .arg(busy.stretch.longestEventMs, 0, 'f', 1)
        .arg(busy.stretch.longestEvent);
}

} // namespace

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication application(argc, argv);
    if (qEnvironmentVariableIsEmpty("HOURGLASS_PRIVATE_HOME")) {
        std::fprintf(stderr, "remote_bench: run it through tests/ui/namespaces/secret-service.sh "
                             "without: the window saves the namespace it opens\n");
        return 2;
    }
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-bench"));
    const Options options = readOptions(QCoreApplication::arguments());
    std::printf("remote_bench: hourglass serve (emulator-style), %lld messages of %d B in one "
                "queue, %d more entities, %d peeked\n",
                static_cast<long long>(options.messages), kRemoteBodyBytes, options.entities,
                options.peek);
    std::printf("load average at the start: %s\n", qPrintable(loadAverage()));
    std::fflush(stdout);

    namespaces_test::ServeProcess serve(namespaces_test::ServeProcess::Transport::Plain);
    if (!serve.waitUntilReady())
        die(QStringLiteral("hourglass serve did not start: %1").arg(serve.problem().left(300)));
    const QString connection = serve.connectionText();
    const auto where = remote::parseConnectionString(connection);
    if (!where)
        die(QStringLiteral("serve's connection string: %1").arg(where.error().toString()));
    const double fillSeconds = fillRemoteQueue(*where, options.messages);
    const double createSeconds = createRemoteEntities(*where, options.entities);
    std::printf("set-up: %lld sends in %.1f s (sendBatch of 500), %d entities in %.1f s "
                "(administration API, 4 at once)\n",
                static_cast<long long>(options.messages), fillSeconds, options.entities,
                createSeconds);
    std::fflush(stdout);

    // The baseline and the wire's share, then the window, then the baseline again: the machine
    // is shared, so the SDK's two runs bracket the window's.
    const QString script = QStringLiteral(HOURGLASS_SDK_PEEKS_SCRIPT);
    const QString queue = QLatin1String(kRemoteQueue);
    const SdkPeekRun sdkBefore =
        sdkPeek(connection, queue, options.peek, options.sdkModules, script);
    const double wire200 = wirePeekMs(*where, options.peek, ui::MessageListModel::kPageSize);
    const double wire1000 = wirePeekMs(*where, options.peek, 1000);

    RemoteWindowFigures window;
    const auto opening = window.open(connection, options.entities + 1, queue, options.messages);
    auto first = window.pageThrough(queue, QStringLiteral("q-0000"), options.peek);
    first.busy.phase = QStringLiteral("select and page, run 1");
    auto second = window.pageThrough(queue, QStringLiteral("q-0001"), options.peek);
    second.busy.phase = QStringLiteral("select and page, run 2");
    const SdkPeekRun sdkAfter =
        sdkPeek(connection, queue, options.peek, options.sdkModules, script);

    std::printf("\n%-56s %10s %-3s %-24s %s\n", "figure", "value", "", "target or baseline",
                "result");
    std::optional<double> sdkBest;
    for (const SdkPeekRun* run : {&sdkBefore, &sdkAfter})
        if (run->milliseconds)
            sdkBest = std::min(sdkBest.value_or(*run->milliseconds), *run->milliseconds);
    const double listBest = std::min(first.allRowsMs, second.allRowsMs);
    const QString sdkText = sdkBest ? QStringLiteral("<= SDK %1 ms").arg(*sdkBest, 0, 'f', 1)
                                    : QStringLiteral("SDK skipped");
    row("peek N into the list, select to N rows (best of 2)", listBest, "ms", sdkText,
        sdkBest ? std::optional<bool>(listBest <= *sdkBest) : std::nullopt);
    row("  the list, run 1 (the first selection)", first.allRowsMs, "ms", QStringLiteral("-"), {});
    row("  the list, run 2", second.allRowsMs, "ms", QStringLiteral("-"), {});
    for (const SdkPeekRun* run : {&sdkBefore, &sdkAfter}) {
        const char* name = run == &sdkBefore ? "  JS SDK peekMessages, before the window"
                                             : "  JS SDK peekMessages, after the window";
        if (run->milliseconds)
            row(name, *run->milliseconds, "ms", QStringLiteral("baseline"), {});
        else
            std::printf("%-56s skipped: %s\n", name, qPrintable(run->problem));
    }
    row("  AmqpClient::peek alone, pages of 200 (the list's)", wire200, "ms", QStringLiteral("-"),
        {});
    row("  AmqpClient::peek alone, pages of 1000", wire1000, "ms", QStringLiteral("-"), {});
    row("select the queue -> first page painted (run 1)", first.firstPaintMs, "ms",
        QStringLiteral("< 1000"), first.firstPaintMs < 1000);
    row("  the same, run 2", second.firstPaintMs, "ms", QStringLiteral("< 1000"),
        second.firstPaintMs < 1000);
    row("Save in Connect -> tree of all entities with counts", opening.treeMs, "ms",
        QStringLiteral("< 2000"), opening.treeMs < 2000);
    row("  Save in Connect -> namespace connected", opening.connectedMs, "ms", QStringLiteral("-"),
        {});
    // Wall time between ticks is what a user sees; the GUI thread's own CPU time in it tells the
    // window's work from the scheduler's on a shared machine.
    auto most = [](std::initializer_list<const PhaseStretch*> phases, bool cpu) {
        double value = 0;
        for (const PhaseStretch* busy : phases)
            value = std::max(value, cpu ? busy->stretch.maxCpuMs : busy->stretch.wallMs);
        return value;
    };
    const double wallAll = most({&opening.busy, &first.busy, &second.busy}, false);
    const double wallPaging = most({&first.busy, &second.busy}, false);
    const double cpuAll = most({&opening.busy, &first.busy, &second.busy}, true);
    const double cpuPaging = most({&first.busy, &second.busy}, true);
    row("GUI thread: longest stretch between 1 ms ticks", wallAll, "ms", QStringLiteral("< 16"),
        wallAll < 16);
    row("  the same, selecting and paging only (after opening)", wallPaging, "ms",
        QStringLiteral("< 16"), wallPaging < 16);
    row("  its own CPU time between two ticks, at most", cpuAll, "ms", QStringLiteral("< 16"),
        cpuAll < 16);
    row("  the same, selecting and paging only", cpuPaging, "ms", QStringLiteral("< 16"),
        cpuPaging < 16);
    for (const PhaseStretch& busy : {window.localOpening(), opening.busy, first.busy, second.busy})
        std::printf("  %s: %.1f ms (%s)\n", qPrintable(busy.phase), busy.stretch.wallMs,
                    qPrintable(stretchText(busy)));
    std::printf("pages the list read: %d (run 1), %d (run 2)\n", first.pages, second.pages);
    std::printf("load average at the end: %s\n", qPrintable(loadAverage()));
    return 0;
}
