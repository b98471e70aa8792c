#include "demo/ScenarioController.h"

#include "common/BrokerClient.h"
#include "demo/DemoHost.h"
#include "demo/ScenarioGallery.h"
#include "demo/ScenarioPanel.h"
#include "demo/ScenarioSession.h"
#include "demo/TimeControlBar.h"
#include "hourglass/Clock.h"
#include "tree/NamespaceTreePanel.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace hourglass::ui {

namespace {
// A story over in less wall time than this would end before the room has looked up.
constexpr Millis kShortStoryWall = minutes(1);

// The entity the story starts with: where the first message is sent ("ns:path").
QString firstEntityOfTheStory(const Scenario& scenario) {
    if (scenario.userConfig.namespaces.isEmpty())
        return {};
    for (const ScenarioStep& step : scenario.steps) {
        if (const auto* send = std::get_if<SendStep>(&step.action))
            return scenario.userConfig.namespaces.first().name + u':' + send->to;
    }
    return {};
}
} // namespace

ScenarioController::ScenarioController(DemoHost& host)
    : QObject(&host.hostWindow())
    , m_host(host)
    , m_galleryAction(new QAction(tr("Scenario &gallery…"), this))
    , m_openAction(new QAction(tr("&Open scenario file…"), this))
    , m_closeAction(new QAction(tr("&Close scenario"), this))
    , m_dock(new QDockWidget(tr("Scenario"), &host.hostWindow())) {
    m_galleryAction->setObjectName(QStringLiteral("scenarioGalleryAction"));
    m_galleryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_openAction->setObjectName(QStringLiteral("scenarioOpenAction"));
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_closeAction->setObjectName(QStringLiteral("scenarioCloseAction"));
    connect(m_galleryAction, &QAction::triggered, this, &ScenarioController::openGallery);
    connect(m_openAction, &QAction::triggered, this, &ScenarioController::chooseFile);
    connect(m_closeAction, &QAction::triggered, this, &ScenarioController::close);

    m_dock->setObjectName(QStringLiteral("scenarioDock"));
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    m_dock->hide();
    host.hostWindow().addDockWidget(Qt::RightDockWidgetArea, m_dock);
}

void ScenarioController::databaseOpened() {
    m_previousDatabase.clear();
    m_showing = false;
    endSession();
}

ScenarioController::~ScenarioController() {
    delete m_panel; // it reads the session
    delete m_session;
}

void ScenarioController::fillMenu(QMenu* menu) {
    menu->addAction(m_galleryAction);
    menu->addAction(m_openAction);
    if (!m_panel)
        return;
    menu->addSeparator();
    menu->addAction(m_panel->playAction());
    menu->addAction(m_panel->stepAction());
    menu->addAction(m_panel->restartAction());
    menu->addSeparator();
    menu->addAction(m_closeAction);
}

QDialog* ScenarioController::openGallery() {
    auto* gallery = new ScenarioGallery(&m_host.hostWindow());
    gallery->setAttribute(Qt::WA_DeleteOnClose);
    connect(gallery, &ScenarioGallery::chosen, this,
            [this](const QString& path, double speed) { openFile(path, speed); });
    gallery->open();
    return gallery;
}

void ScenarioController::chooseFile() {
    auto* dialog = new QFileDialog(&m_host.hostWindow(), tr("Open scenario"), QString(),
                                   tr("Scenario files (*.json);;All files (*)"));
    dialog->setObjectName(QStringLiteral("scenarioFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString& path) { openFile(path); });
    dialog->open();
}

void ScenarioController::openFile(const QString& path, double autoPlaySpeed, Start start) {
    QPointer<ScenarioController> self(this);
    QThreadPool::globalInstance()->start([self, path, autoPlaySpeed, start] {
        auto loaded = std::make_shared<Result<Scenario>>(loadScenarioFile(path));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, path, loaded, autoPlaySpeed, start] {
                if (!self)
                    return;
                if (!*loaded)
                    self->reportError(loaded->error(), tr("Cannot play %1").arg(path));
                else
                    self->play(std::move(*loaded).value(), autoPlaySpeed, start);
            },
            Qt::QueuedConnection);
    });
}

void ScenarioController::play(Scenario scenario, double autoPlaySpeed, Start start) {
    if (!m_session && m_host.client())
        m_previousDatabase = m_host.client()->databasePath();
    // The window lets go of the old scenario's broker before its session (and its temporary
    // folder) goes away, as close() does.
    if (m_showing) {
        m_host.setClient(nullptr);
        m_showing = false;
    }
    endSession();
    m_session = new ScenarioSession(std::move(scenario), this);
    m_panel = new ScenarioPanel(*m_session);
    m_dock->setWidget(m_panel);
    m_dock->setWindowTitle(tr("Scenario: %1").arg(m_session->scenario().title));
    const bool wasHidden = m_dock->isHidden();
    m_dock->show();
    if (wasHidden) {
        // Room for the step texts, taken from the message workspace rather than the tree: once
        // the dock has its place, the tree gets back a width that shows its names and counts.
        // A third of the window at most, so that a 1024-pixel window keeps room for the tree.
        QMainWindow& window = m_host.hostWindow();
        window.resizeDocks({m_dock}, {std::clamp(window.width() / 4, 280, 400)}, Qt::Horizontal);
        QTimer::singleShot(0, this, [this] { m_host.giveTreeItsWidth(); });
    }

    connect(m_session, &ScenarioSession::ready, this, &ScenarioController::showBroker);
    connect(m_session, &ScenarioSession::brokerClosing, this, [this] {
        // The broker is about to be replaced (restart): every panel lets go of it now.
        m_showing = false;
        m_host.setClient(nullptr);
    });
    connect(m_session, &ScenarioSession::failed, this,
            [this](const Error& error) { reportError(error, tr("The scenario stopped")); });
    connect(m_session, &ScenarioSession::stateChanged, this, [this] {
        if (m_waitingForKey && (m_session->isPlaying() || m_session->nextStep() > 0)) {
            m_waitingForKey = false; // the presenter started it
            relayCaption();
        }
        updateClockBadge();
    });
    connect(m_session, &ScenarioSession::finished, this, [this] {
        const bool live = handClockBack();
        m_host.hostWindow().statusBar()->showMessage(
            (live ? tr("Scenario finished: %1. The clock is yours again: back to LIVE.")
                  : tr("Scenario finished: %1. The clock is yours again: it runs on in real time "
                       "from where the story ended."))
                .arg(checksSummary(m_session->passedCount(), m_session->failedCount())),
            10000);
    });
    connect(m_panel, &ScenarioPanel::closeRequested, this, &ScenarioController::close);
    connect(m_panel, &ScenarioPanel::captionChanged, this, &ScenarioController::relayCaption);
    m_autoPlaySpeed = autoPlaySpeed;
    m_start = start;
    m_waitingForKey = false;
    m_session->start();
    emit sessionChanged();
    relayCaption();
}

void ScenarioController::close() {
    const bool hadSession = m_session != nullptr;
    if (m_showing)
        m_host.setClient(nullptr);
    m_showing = false;
    endSession();
    if (hadSession && !m_previousDatabase.isEmpty())
        m_host.openDatabase(m_previousDatabase);
    m_previousDatabase.clear();
}

void ScenarioController::endSession() {
    if (!m_session)
        return;
    m_dock->hide();
    delete m_panel;
    m_panel = nullptr;
    // The session waits for its step in flight; the runner's small database closes with it.
    delete m_session;
    m_session = nullptr;
    m_waitingForKey = false;
    emit sessionChanged();
    emit captionChanged(QString());
    emit clockBadgeChanged(QString());
}

void ScenarioController::showBroker(std::shared_ptr<Broker> broker) {
    m_host.showScenarioClient(std::make_unique<BrokerClient>(std::move(broker)),
                              m_session->scenario().title);
    if (NamespaceTreePanel* tree = m_host.tree())
        tree->setPreferredSelection(firstEntityOfTheStory(m_session->scenario()));
    m_showing = true;
    updateClockBadge();
    if (m_autoPlaySpeed > 0) {
        const double speed = std::exchange(m_autoPlaySpeed, 0);
        m_session->setSpeed(speed);
        const Millis wall = Millis(double(m_session->length()) / speed);
        if (m_start == Start::KeyWhenShort && wall < kShortStoryWall) {
            m_waitingForKey = true;
            relayCaption();
        } else {
            m_session->play();
        }
    }
}

void ScenarioController::relayCaption() {
    if (!m_panel)
        return;
    const QString caption = m_panel->caption();
    emit captionChanged(m_waitingForKey ? tr("Press Space to start · %1").arg(caption) : caption);
}

bool ScenarioController::handClockBack() {
    // The session kept the clock paused to move it step by step; the story is over, so the
    // clock runs again at 1x and the toolbar's controls take over (updateClockBadge).
    if (!m_showing || !m_host.client())
        return false;
    bool live = false;
    if (VirtualClock* clock = m_host.client()->virtualClock()) {
        // Back to LIVE when the story ended at or before the real time (a jump forward);
        // a story that ended ahead of it runs on at 1x from there, since going back to the
        // real time would move time backwards under the story's messages.
        live = clock->now() <= VirtualClock::realNow();
        if (live) {
            clock->resetToRealTime();
        } else {
            clock->setSpeed(1.0);
            clock->play();
        }
    }
    if (TimeControlBar* bar = m_host.timeBar())
        bar->refresh();
    return live;
}

void ScenarioController::updateClockBadge() {
    TimeControlBar* bar = m_host.timeBar();
    if (!bar || !m_session || !m_showing) {
        emit clockBadgeChanged(QString());
        return;
    }
    // At the end the clock goes back to the toolbar: the presenter may keep time running.
    QString badge;
    if (!m_session->atEnd())
        badge = m_session->isPlaying() ? tr("SCENARIO · %1×").arg(m_session->speed())
                                       : tr("SCENARIO · PAUSED");
    bar->setScenarioDriven(badge);
    emit clockBadgeChanged(badge);
}

void ScenarioController::reportError(const Error& error, const QString& context) {
    m_host.showError(error, context);
}

} // namespace hourglass::ui
