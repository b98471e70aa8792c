// gui_bench: the explorer window over a queue of 1,000,000 messages (the window's figures), in the
// real window, offscreen. It prints the time from selecting the queue to the first painted list,
// the GUI-thread time of a scroll step and of a countdown tick, and the resident memory the
// window adds per message. Timings are figures, not assertions; each comes with its target.
//
//   gui_bench [--messages N] [--quick]

#include "BenchSupport.h"
#include "common/BrokerClient.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace hourglass;
using namespace hourglass::bench;

namespace {

// Runs the event loop until `done` holds (or the limit passes); returns the seconds waited.
template <typename Done> double waitFor(Done done, double limitSeconds = 120) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (timer.elapsed() > limitSeconds * 1000)
            die(QStringLiteral("gave up waiting after %1 s").arg(limitSeconds));
    }
    return timer.nsecsElapsed() / 1e9;
}

// Counts the paints of a widget, so that "painted" can be waited for.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};

void row(const char* figure, double value, const char* unit, const char* target, bool pass) {
    const bool hasTarget = std::strcmp(target, "-") != 0;
    std::printf("%-58s %12.3f %-6s %-12s %s\n", figure, value, unit, target,
                hasTarget ? (pass ? "PASS" : "MISS") : "-");
}

} // namespace

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    // The window remembers layout and recent databases; keep the user's settings out of it.
    QStandardPaths::setTestModeEnabled(true);
    qint64 messages = 1000000;
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.contains(QStringLiteral("--quick")))
        messages = 20000;
    if (const int at = int(arguments.indexOf(QStringLiteral("--messages")));
        at > 0 && at + 1 < arguments.size())
        messages = arguments.at(at + 1).toLongLong();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gui.db"));
    std::printf("gui_bench: %lld messages of 1 KB in one queue, real window offscreen\n",
                static_cast<long long>(messages));
    {
        // Set-up only: written with ProcessCrashSafe in large batches.
        auto broker = openBroker(path, Durability::ProcessCrashSafe, {});
        EntityProperties properties;
        properties.maxSizeInMegabytes = 81920;
        createBenchQueue(*broker, properties);
        fillQueue(*broker, 0, messages, 5000,
                  [](qint64) -> std::optional<Millis> { return days(1); });
    }

    auto broker = openBroker(path, Durability::PowerSafe, {});
    const qint64 engineOnly = residentBytes();
    auto window = std::make_unique<ui::MainWindow>();
    window->resize(1280, 800);
    window->setClient(std::make_unique<ui::BrokerClient>(std::move(broker)));
    window->show();
    auto* tree = window->findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    auto* panel = window->findChild<ui::MessageListPanel*>();
    if (!tree || !panel)
        die(QStringLiteral("the window has no tree or message list"));
    const QString queuePath = QStringLiteral("bench:") + QLatin1String(kQueue);
    auto findQueue = [&] {
        const auto hits =
            tree->model()->match(tree->model()->index(0, 0), ui::NamespaceTreeModel::PathRole,
                                 queuePath, 1, Qt::MatchExactly | Qt::MatchRecursive);
        return hits.isEmpty() ? QModelIndex() : hits.first();
    };
    waitFor([&] { return findQueue().isValid(); });
    ui::MessageListModel* model = panel->model();
    QTableView* view = panel->view();
    // The tree selects the first queue by itself on load; start from nothing selected.
    waitFor([&] { return model->path() == queuePath && model->isRowLoaded(0); });
    tree->selectionModel()->clear();
    panel->setPath({});
    waitFor([&] { return model->rowCount() == 0; });
    PaintCounter paints;
    view->viewport()->installEventFilter(&paints);

    // 1. Selecting the queue to the first painted list.
    QElapsedTimer timer;
    timer.start();
    tree->setCurrentIndex(findQueue());
    waitFor([&] { return model->isRowLoaded(0); });
    const int paintsBefore = paints.paints;
    view->viewport()->update();
    waitFor([&] { return paints.paints > paintsBefore; });
    const double firstPaintMs = timer.nsecsElapsed() / 1e6;

    // 2. Scroll steps: jump anywhere in the million; the GUI-thread cost of showing the new rows
    //    (placeholders until their page arrives) is the repaint after the jump.
    std::vector<double> scrollMs;
    QScrollBar* bar = view->verticalScrollBar();
    auto* random = QRandomGenerator::global();
    for (int step = 0; step < 60; ++step) {
        const int target = step % 3 == 0 ? int(random->bounded(bar->maximum() + 1))
                                         : std::min(bar->maximum(), bar->value() + bar->pageStep());
        QElapsedTimer one;
        one.start();
        bar->setValue(target);
        view->viewport()->repaint();
        scrollMs.push_back(one.nsecsElapsed() / 1e6);
        // Let the page arrive so that the next step starts from a loaded screen.
        const int first = view->rowAt(0);
        waitFor([&] { return first < 0 || model->isRowLoaded(first); });
        QCoreApplication::processEvents();
    }

    // 3. A countdown tick: the shared ticker's work for the visible rows, then the repaint.
    std::vector<double> tickMs;
    for (int tick = 0; tick < 60; ++tick) {
        QElapsedTimer one;
        one.start();
        const int first = std::max(0, view->rowAt(0));
        const int last = std::max(first, view->rowAt(view->viewport()->height() - 1));
        model->refreshCountdowns(first, last);
        view->viewport()->repaint();
        tickMs.push_back(one.nsecsElapsed() / 1e6);
    }

    // 4. Memory: what the window holds beyond the engine, per message.
    window->client()->waitForIdle();
    QCoreApplication::processEvents();
    const qint64 withWindow = residentBytes();
    const double perMessage = double(withWindow - engineOnly) / double(messages);

    auto average = [](const std::vector<double>& v) {
        double sum = 0;
        for (double x : v)
            sum += x;
        return v.empty() ? 0.0 : sum / double(v.size());
    };
    const double scrollMax = *std::max_element(scrollMs.begin(), scrollMs.end());
    const double tickMax = *std::max_element(tickMs.begin(), tickMs.end());
    std::printf("%-58s %12s %-6s %-12s %s\n", "figure", "value", "unit", "target", "result");
    row("select the queue -> first painted list", firstPaintMs, "ms", "<= 400",
        firstPaintMs <= 400);
    row("scroll step, GUI thread (average of 60)", average(scrollMs), "ms", "<= 16",
        average(scrollMs) <= 16);
    row("scroll step, GUI thread (worst of 60)", scrollMax, "ms", "-", true);
    row("countdown tick, GUI thread (average of 60)", average(tickMs), "ms", "<= 16",
        average(tickMs) <= 16);
    row("countdown tick, GUI thread (worst of 60)", tickMax, "ms", "-", true);
    row("resident memory of the process", double(withWindow) / (1024.0 * 1024.0), "MiB", "-", true);
    row("memory the window adds per message", perMessage, "B", "<= 64", perMessage <= 64);
    std::printf("pages held by the list: %d of %lld rows\n", model->loadedPageCount(),
                static_cast<long long>(model->rowCount()));
    window.reset();
    return 0;
}
