// The main window and the namespaces it does not host (RemoteNamespaces): the workspace, the
// Entity and Message menus and the title follow the namespace whose tree the user acted in last;
// what only the open database has (its virtual clock, scenarios, recording, the AMQP endpoint's
// connection string) says so while a remote namespace is in front. Split from MainWindow.cpp,
// which arranges the panels.
#include "window/MainWindow.h"

#include "common/BrokerClient.h"
#include "demo/ScenarioRecording.h"
#include "demo/TimeControlBar.h"
#include "entities/EntityActions.h"
#include "tree/NamespaceTreePanel.h"
#include "window/EntityWorkspace.h"
#include "window/MessageBar.h"
#include "window/RemoteNamespaceView.h"
#include "window/RemoteNamespaces.h"

#include <QAction>
#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolBar>
#include <QTreeView>

namespace hourglass::ui {

RemoteNamespaceView* MainWindow::activeRemote() const {
    return m_activeRemote;
}

BrokerClient* MainWindow::activeClient() const {
    return m_activeRemote ? m_activeRemote->client() : m_client.get();
}

EntityWorkspace* MainWindow::activeWorkspace() const {
    return m_activeRemote ? m_activeRemote->workspace() : m_workspace;
}

EntityActions* MainWindow::activeActions() const {
    return m_activeRemote ? m_activeRemote->actions() : m_entityActions;
}

QString MainWindow::activeSelectedPath() const {
    return m_activeRemote ? m_activeRemote->selectedPath() : m_selectedPath;
}

NamespaceTreeModel::NodeKind MainWindow::activeSelectedKind() const {
    return m_activeRemote ? m_activeRemote->selectedKind() : m_selectedKind;
}

QDialog* MainWindow::openConnectDialog() {
    return m_remotes->openConnectDialog();
}

void MainWindow::followRemote(RemoteNamespaceView* view) {
    const QString prefix = QStringLiteral("remote:%1:").arg(view->saved().id);
    connect(view, &RemoteNamespaceView::activated, this, [this, view] { activateRemote(view); });
    connect(view, &RemoteNamespaceView::attached, this, [this, view, prefix] {
        EntityWorkspace* workspace = view->workspace();
        m_workspaceSlot->addWidget(workspace);
        if (!workspace->splitter()->restoreState(m_workspaceState))
            workspace->splitter()->setSizes({height() * 3 / 5, height() * 2 / 5});
        reportNamespace(*workspace, *view->actions(), *view->tree(), prefix);
        connect(view->actions(), &EntityActions::created, view->tree(),
                &NamespaceTreePanel::selectWhenShown);
        activateRemote(view);
    });
    // Its panels go next: nothing may still point at them.
    connect(view, &RemoteNamespaceView::detaching, this, [this, view] {
        if (m_activeRemote == view)
            activateLocal();
    });
}

void MainWindow::activateRemote(RemoteNamespaceView* view) {
    if (!view->isConnected())
        return;
    const bool changed = m_activeRemote != view;
    m_activeRemote = view;
    m_workspaceSlot->setCurrentWidget(view->workspace());
    if (changed) {
        // The message bar spoke of the namespace in front before.
        m_messageBar->dismissError();
        m_selectionLabel->setVisible(view->workspace()->selectedCount() > 0);
        fillEntityMenus();
    }
    updateForActive();
}

void MainWindow::activateLocal() {
    if (!m_activeRemote)
        return;
    m_activeRemote = nullptr;
    if (m_workspace) {
        m_workspaceSlot->setCurrentWidget(m_workspace);
        m_selectionLabel->setVisible(m_workspace->selectedCount() > 0);
    } else {
        m_workspaceSlot->setCurrentIndex(0);
        m_selectionLabel->hide();
    }
    fillEntityMenus();
    updateForActive();
}

void MainWindow::updateForActive() {
    const bool remote = m_activeRemote != nullptr;
    setWindowTitle(remote ? tr("%1 — Hourglass").arg(m_activeRemote->title()) : m_localTitle);
    if (m_timeBar)
        m_timeBar->setEnabled(!remote);
    if (!m_remoteClockNote && remote) {
        // A line of its own under the bar (as ClockAppsNote): at the bar's end it would go to
        // the overflow menu of a narrow window.
        m_remoteClockNote = new QToolBar(tr("Remote namespace"), this);
        m_remoteClockNote->setObjectName(QStringLiteral("remoteClockNoteBar"));
        m_remoteClockNote->setMovable(false);
        auto* note = new QLabel(tr("The clock, scenarios and recording are the open database's: "
                                   "a remote namespace keeps its own time."));
        note->setObjectName(QStringLiteral("remoteClockNote"));
        note->setContentsMargins(8, 2, 8, 2);
        note->setEnabled(false);
        m_remoteClockNote->addWidget(note);
        addToolBarBreak(Qt::TopToolBarArea);
        addToolBar(Qt::TopToolBarArea, m_remoteClockNote);
    }
    if (m_remoteClockNote)
        m_remoteClockNote->setVisible(remote && m_timeBar);
    if (m_recording) {
        const QString why = tr("Recording is the open database's: select it in the tree");
        for (QAction* action : m_recording->actions()) {
            action->setEnabled(!remote);
            action->setToolTip(remote ? why : QString());
        }
    }
    fillScenarioMenu();
    // The endpoint's connection string is the database's namespaces'.
    if (m_copyConnectionString)
        m_copyConnectionString->setEnabled(!remote && !m_selectedPath.isEmpty());
    updateSendAction();
}

void MainWindow::updateSendAction() {
    using NodeKind = NamespaceTreeModel::NodeKind;
    if (!m_sendAction)
        return;
    const NodeKind kind = activeSelectedKind();
    m_sendAction->setEnabled(activeClient() && kind != NodeKind::Namespace &&
                             kind != NodeKind::DeadLetterQueue);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // A click in the database's tree (or the keyboard entering it) brings its workspace back,
    // even on the row already selected, which selects nothing new.
    if (m_activeRemote && m_tree &&
        (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn) &&
        (watched == m_tree->view() || watched == m_tree->view()->viewport()))
        activateLocal();
    return QMainWindow::eventFilter(watched, event);
}

} // namespace hourglass::ui
