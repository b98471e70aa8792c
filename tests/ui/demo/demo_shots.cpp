// demo_shots <directory>: pictures of the demo tools in the real window (offscreen), to look at
// before calling the work done. Not a test: nothing is asserted. For each size (1024x700,
// 1600x1000) and theme (light, dark) writes
//   gallery-SIZE-THEME.png     the scenario gallery with its speed box, over the window
//   end-SIZE-THEME.png         the traffic spike played to its end at 600x: the Charts tab of jobs,
//                              the clock running again, the end message with the checks
//   charts-last1-SIZE-THEME.png the same charts showing only the last minute
//   present-SIZE-THEME.png     presentation mode waiting for Space before a short story
// and saved-charts-THEME.png, the three charts as "Save Charts as PNG..." writes them.
// Build it with `ninja -C build demo_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "demo/EntityChartsPanel.h"
#include "demo/PresentationMode.h"
#include "demo/PresentationView.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioSession.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

const QString kTrafficSpike = QStringLiteral(":/scenarios/traffic-spike.json");

void require(bool ok, const char* what) {
    if (!ok)
        qFatal("demo_shots: %s", what);
}

void write(const QImage& image, const QDir& directory, const QString& name) {
    const QString file = directory.filePath(name);
    QTextStream(stdout) << (image.save(file) ? "wrote " : "could not write ") << file << Qt::endl;
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(400); // the layout settled, a countdown tick
    write(widget->grab().toImage(), directory, name);
}

// The window with a dialog over it, as the screen would show them.
void saveWithDialog(QWidget* window, QWidget* dialog, const QDir& directory, const QString& name) {
    QTest::qWait(400);
    QImage image = window->grab().toImage();
    QPainter painter(&image);
    const QPoint at = dialog->mapToGlobal(QPoint(0, 0)) - window->mapToGlobal(QPoint(0, 0));
    painter.drawImage(at, dialog->grab().toImage());
    painter.end();
    write(image, directory, name);
}

void select(MainWindow& window, const QString& path) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    auto find = [&] {
        return tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole, path,
                                    1, Qt::MatchExactly | Qt::MatchRecursive);
    };
    require(QTest::qWaitFor([&] { return !find().isEmpty(); }, 10000), "the entity in the tree");
    tree->setCurrentIndex(find().first());
}

void shoot(const QDir& directory, const QSize& size, const QString& theme) {
    const QString tag = QStringLiteral("%1x%2-%3").arg(size.width()).arg(size.height()).arg(theme);
    QTemporaryDir dir;
    MainWindow window;
    window.setClient(std::make_unique<BrokerClient>(testing::openUiTestBroker(dir, nullptr)));
    window.resize(size);
    window.show();

    QDialog* gallery = window.scenarios()->openGallery();
    saveWithDialog(&window, gallery, directory, QStringLiteral("gallery-%1.png").arg(tag));
    gallery->reject();

    window.scenarios()->openFile(kTrafficSpike, 600);
    require(QTest::qWaitFor(
                [&] {
                    return window.scenarios()->session() &&
                           window.scenarios()->session()->isReady();
                },
                20000),
            "the scenario ready");
    select(window, QStringLiteral("webshop:jobs"));
    window.workspace()->showTab(EntityWorkspace::ChartsTab);
    require(QTest::qWaitFor([&] { return window.scenarios()->session()->atEnd(); }, 60000),
            "the end of the story");
    QTest::qWait(1500); // the clock runs again: a sample or two after the end
    save(&window, directory, QStringLiteral("end-%1.png").arg(tag));
    EntityChartsPanel* charts = window.workspace()->charts();
    auto* span = charts->findChild<QComboBox*>(QStringLiteral("chartsTimeWindow"));
    span->setCurrentIndex(1);
    save(&window, directory, QStringLiteral("charts-last1-%1.png").arg(tag));
    span->setCurrentIndex(0);
    QTest::qWait(400); // the axes laid out again before the picture
    if (size.width() == 1600)
        require(charts->saveAllCharts(
                    directory.filePath(QStringLiteral("saved-charts-%1.png").arg(theme))),
                "the saved charts");

    window.scenarios()->openFile(kTrafficSpike, 60, ScenarioController::Start::KeyWhenShort);
    require(QTest::qWaitFor([&] { return window.scenarios()->isWaitingForKey(); }, 20000),
            "the story waiting");
    select(window, QStringLiteral("webshop:jobs"));
    window.presentation()->enter();
    require(QTest::qWaitFor([&] { return window.presentation()->view() != nullptr; }, 5000),
            "presentation mode");
    window.presentation()->view()->resize(size);
    save(window.presentation()->view(), directory, QStringLiteral("present-%1.png").arg(tag));
    window.presentation()->leave();
    window.scenarios()->close();
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        QTextStream(stderr) << "usage: demo_shots DIRECTORY" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("window"));
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());
    for (const QString& theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
        applyTheme(themeChoiceFromName(theme));
        for (const QSize& size : {QSize(1024, 700), QSize(1600, 1000)})
            shoot(directory, size, theme);
    }
    return 0;
}
