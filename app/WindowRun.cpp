#include "WindowRun.h"

#include "FirstStart.h"
#include "common/Theme.h"
#include "demo/PresentationMode.h"
#include "demo/PresentationView.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioSession.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>

#include <memory>
#include <utility>

namespace hourglass::app {

namespace {
// How long --screenshot lets the window load its data before taking the picture.
constexpr int kScreenshotDelayMs = 2500;
} // namespace

QString defaultDatabasePath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(folder).filePath(QStringLiteral("hourglass/hourglass.db"));
}

int runWindow(const CommandLineOptions& options, QTextStream& err) {
    const QString path =
        options.databasePath.isEmpty() ? defaultDatabasePath() : options.databasePath;
    QDir().mkpath(QFileInfo(path).absolutePath());
    const bool firstStart = !QFileInfo::exists(path);

    ui::applyTheme(options.theme.isEmpty() ? ui::savedTheme()
                                           : ui::themeChoiceFromName(options.theme));
    ui::MainWindow window;
    // Applications using the Azure SDKs reach the open database over AMQP (View > AMQP endpoint…).
    window.serveAmqp();
    if (firstStart && options.databasePath.isEmpty())
        createSampleWhenOpened(window, path);
    if (!options.playFile.isEmpty()) {
        // Once the user's database is open (closing the scenario returns to it), or has failed
        // to open (the scenario plays on a database of its own all the same).
        const QString scenario = resolveScenarioFile(options.playFile);
        const double speed = options.playSpeed;
        // Presenting, a story shorter than a minute waits for the presenter's Space.
        const auto start = options.present ? ui::ScenarioController::Start::KeyWhenShort
                                           : ui::ScenarioController::Start::AtOnce;
        auto started = std::make_shared<bool>(false);
        const auto startOnce = [&window, scenario, speed, start, started] {
            if (!std::exchange(*started, true))
                window.scenarios()->openFile(scenario, speed, start);
        };
        QObject::connect(&window, &ui::MainWindow::databaseOpened, &window, startOnce);
        QObject::connect(&window, &ui::MainWindow::databaseFailed, &window, startOnce);
    }
    if (options.present) {
        // On the scenario's database when one plays, else on the user's.
        auto entered = std::make_shared<bool>(false);
        const auto enterOnce = [&window, entered] {
            if (!std::exchange(*entered, true))
                window.presentation()->enterWhenSelected();
        };
        if (options.playFile.isEmpty()) {
            QObject::connect(&window, &ui::MainWindow::databaseOpened, &window, enterOnce);
        } else {
            QObject::connect(window.scenarios(), &ui::ScenarioController::sessionChanged, &window,
                             [&window, enterOnce] {
                                 if (auto* session = window.scenarios()->session())
                                     QObject::connect(session, &ui::ScenarioSession::ready, &window,
                                                      enterOnce);
                             });
        }
    }
    window.openDatabase(path);
    if (options.windowSize.isValid())
        window.resize(options.windowSize);
    window.show();
    if (!options.screenshotFile.isEmpty()) {
        // As a user would before taking the picture: open the first message of the list.
        QTimer::singleShot(kScreenshotDelayMs / 2, &window, [&window] {
            if (auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
                list && list->model() && list->model()->rowCount() > 0)
                list->setCurrentIndex(list->model()->index(0, 1));
        });
        QTimer::singleShot(kScreenshotDelayMs, &window, [&window, &options, &err] {
            // Presentation mode, when on, is what the screen shows.
            QWidget* shown = window.presentation()->view();
            if (!(shown ? shown : &window)->grab().save(options.screenshotFile))
                err << "cannot write " << options.screenshotFile << Qt::endl;
            QApplication::quit();
        });
    }
    return QApplication::exec();
}

} // namespace hourglass::app
