#include "demo/PresentationMode.h"

#include "demo/DemoHost.h"
#include "demo/PresentationView.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioPanel.h"
#include "demo/ScenarioSession.h"

#include <QAction>
#include <QMainWindow>

#include <utility>

namespace hourglass::ui {

PresentationMode::PresentationMode(DemoHost& host, ScenarioController& scenarios)
    : QObject(&host.hostWindow())
    , m_host(host)
    , m_scenarios(scenarios)
    , m_action(new QAction(tr("&Presentation mode"), this)) {
    m_action->setObjectName(QStringLiteral("presentationModeAction"));
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_action->setToolTip(tr("The selected entity full screen, in large type (Esc leaves)"));
    connect(m_action, &QAction::triggered, this, &PresentationMode::enter);
    connect(&scenarios, &ScenarioController::sessionChanged, this,
            &PresentationMode::bindScenarioKeys);
    connect(&scenarios, &ScenarioController::captionChanged, this, &PresentationMode::setCaption);
    connect(&scenarios, &ScenarioController::clockBadgeChanged, this,
            &PresentationMode::setClockBadge);
}

PresentationMode::~PresentationMode() {
    delete m_view;
}

PresentationView* PresentationMode::view() const {
    return m_view;
}

void PresentationMode::enter() {
    if (!m_host.client())
        return;
    if (m_view) {
        m_view->activateWindow();
        return;
    }
    open(m_host.selectedPath(), m_host.selectedKind());
}

void PresentationMode::enterWhenSelected() {
    m_pending = true;
    selectionChanged();
}

void PresentationMode::selectionChanged() {
    if (!m_pending || m_host.selectedPath().isEmpty() || !m_host.client())
        return;
    m_pending = false;
    enter();
}

void PresentationMode::open(const QString& path, NamespaceTreeModel::NodeKind kind) {
    m_view = new PresentationView(*m_host.client());
    m_view->setAttribute(Qt::WA_DeleteOnClose);
    m_view->setWindowTitle(tr("Hourglass — presentation"));
    m_view->setEntity(path, kind);
    m_view->setCaption(m_caption);
    m_view->setClockBadge(m_clockBadge);
    connect(m_view, &PresentationView::exitRequested, this, &PresentationMode::leave);
    connect(m_view, &PresentationView::errorOccurred, &m_host.hostWindow(),
            [this](const Error& error) { m_host.showError(error); });
    bindScenarioKeys();
    m_view->showFullScreen();
}

void PresentationMode::leave() {
    m_returning = false;
    if (m_view)
        m_view->close();
    m_host.hostWindow().activateWindow();
}

void PresentationMode::clientClosing() {
    if (!m_view)
        return;
    m_returning = true;
    m_returnPath = m_view->entityPath();
    m_returnKind = m_view->entityKind();
    delete m_view; // it reads the client that is going away
}

void PresentationMode::clientReady() {
    if (!std::exchange(m_returning, false) || !m_host.client())
        return;
    open(m_returnPath, m_returnKind);
}

void PresentationMode::setCaption(const QString& caption) {
    m_caption = caption;
    if (m_view)
        m_view->setCaption(caption);
}

void PresentationMode::setClockBadge(const QString& badge) {
    m_clockBadge = badge;
    if (m_view)
        m_view->setClockBadge(badge);
}

void PresentationMode::bindScenarioKeys() {
    if (!m_view)
        return;
    ScenarioPanel* panel = m_scenarios.panel();
    // The scenario drives the clock while it plays: Space then plays or pauses the scenario.
    m_view->playPauseAction()->setEnabled(panel == nullptr);
    for (QAction* old : m_view->QWidget::actions()) {
        if (!old->property("scenarioKey").toBool())
            continue;
        m_view->removeAction(old);
        if (old->parent() == m_view)
            delete old; // our Space key; the panel's actions stay the panel's
    }
    if (!panel)
        return;
    auto* space = new QAction(tr("Play or pause the scenario"), m_view);
    space->setObjectName(QStringLiteral("presentationScenarioPlay"));
    space->setProperty("scenarioKey", true);
    space->setShortcut(QKeySequence(Qt::Key_Space));
    space->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(space, &QAction::triggered, panel->playAction(), &QAction::trigger);
    m_view->addAction(space);
    for (QAction* action : {panel->playAction(), panel->stepAction(), panel->restartAction()}) {
        action->setProperty("scenarioKey", true);
        m_view->addAction(action); // F6, F7, Shift+F6 in the presentation window too
    }
}

} // namespace hourglass::ui
