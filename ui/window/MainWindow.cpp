#include "window/MainWindow.h"

#include "common/BrokerClient.h"
#include "common/ElidedLabel.h"
#include "connections/AmqpService.h"
#include "connections/AmqpSettingsDialog.h"
#include "connections/AmqpStatusItem.h"
#include "connections/ClockAppsNote.h"
#include "connections/ConnectionsPanel.h"
#include "connections/HeldLocksQuestion.h"
#include "demo/PresentationMode.h"
#include "demo/ScenarioRecording.h"
#include "demo/TimeControlBar.h"
#include "entities/EntityActions.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreePanel.h"
#include "tree/SelectedNodeKind.h"
#include "window/ElidingStatusBar.h"
#include "window/EmptyDatabaseState.h"
#include "window/EntityWorkspace.h"
#include "window/LastSelection.h"
#include "window/MessageBar.h"
#include "window/RemoteNamespaceView.h"
#include "window/RemoteNamespaces.h"
#include "window/WelcomeStrip.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QPointer>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

template <typename Source> void MainWindow::reportFrom(Source* source, const QString& name) {
    connect(source, &Source::errorOccurred, this,
            [this, name](const Error& error) { m_messageBar->showError(error, {}, name); });
    if constexpr (requires { &Source::statusMessage; })
        connect(source, &Source::statusMessage, this, [this, name](const QString& text) {
            m_messageBar->sourceSucceeded(name);
            showStatus(text);
        });
}

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentDatabases");

QLabel* placeholder(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setEnabled(false);
    return label;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_messageBar(new MessageBar)
    , m_splitter(new QSplitter(Qt::Horizontal))
    , m_treeSlot(new QStackedWidget)
    , m_workspaceSlot(new QStackedWidget)
    , m_welcome(new WelcomeStrip)
    , m_databaseLabel(new ElidedLabel(Qt::ElideMiddle))
    , m_selectionLabel(new QLabel) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Hourglass"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_treeSlot->addWidget(placeholder(tr("No database open"), m_treeSlot));
    m_workspaceSlot->addWidget(
        placeholder(tr("Open or create a database (File menu)"), m_workspaceSlot));
    // The tree column: the open database's tree, then each saved namespace the window does
    // not host (RemoteNamespaces).
    auto* column = new QWidget;
    column->setObjectName(QStringLiteral("treeColumn"));
    auto* columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->setSpacing(2);
    columnLayout->addWidget(m_treeSlot, 1);
    m_remotes = new RemoteNamespaces(*columnLayout, *this, nullptr, this);
    m_splitter->addWidget(column);
    m_splitter->addWidget(m_workspaceSlot);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 5);
    m_splitter->setChildrenCollapsible(false);
    // The tree never gets narrower than its names and first count: a scenario dock or a small
    // window takes its room from the workspace, which scrolls, rather than from the tree.
    m_treeSlot->setMinimumWidth(fontMetrics().averageCharWidth() * 26);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_welcome);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    m_databaseLabel->setObjectName(QStringLiteral("databaseLabel"));
    // Messages get the room: a long path is elided in the middle (full path in its tooltip),
    // and a message longer than the rest is elided too (ElidingStatusBar).
    m_databaseLabel->setMaximumWidth(fontMetrics().averageCharWidth() * 48);
    setStatusBar(new ElidingStatusBar);
    m_selectionLabel->setObjectName(QStringLiteral("selectionCount"));
    m_selectionLabel->setContentsMargins(0, 0, 12, 0); // apart from the database's path
    m_selectionLabel->hide();
    statusBar()->addPermanentWidget(m_selectionLabel);
    statusBar()->addPermanentWidget(m_databaseLabel);
    buildMenus();
    for (RemoteNamespaceView* view : m_remotes->views())
        followRemote(view);
    connect(m_remotes, &RemoteNamespaces::viewAdded, this, &MainWindow::followRemote);
    connect(m_remotes, &RemoteNamespaces::openFailed, this,
            [this](const QString& name, const QString& problem) {
                m_messageBar->showMessage(tr("Cannot open %1: %2").arg(name, problem),
                                          MessageBar::Kind::Error);
            });
    resize(1280, 800);
    restoreLayout();
}

MainWindow::~MainWindow() {
    // Remote namespaces first, while the window they report to is whole.
    m_remotes->closeAll();
    // The endpoint stops before the broker it serves can go; applications are told why.
    if (m_amqp)
        m_amqp->attach(nullptr, amqp::kShuttingDownReason);
    // Panels and actions hold the client; let them go before it does.
    dropRecording();
    delete m_timeBar;
    delete m_entityActions;
    delete m_tree;
    delete m_workspace;
}

void MainWindow::setClient(std::unique_ptr<BrokerClient> client) {
    installClient(std::move(client));
    if (!m_client)
        return;
    const QString path = m_client->databasePath();
    m_databaseLabel->setText(QDir::toNativeSeparators(path));
    m_localTitle = tr("%1 — Hourglass").arg(QFileInfo(path).fileName());
    updateForActive();
    rememberRecent(path);
    // Back where the user left this database (a scenario's temporary one is not remembered).
    m_tree->setPreferredSelection(lastSelection(path));
    connect(m_tree, &NamespaceTreePanel::entitySelected, this,
            [path](const QString& selected) { rememberSelection(path, selected); });
}

void MainWindow::showScenarioClient(std::unique_ptr<BrokerClient> client, const QString& title) {
    installClient(std::move(client));
    if (!m_client)
        return;
    m_databaseLabel->setText(tr("Scenario on a temporary database"));
    m_databaseLabel->setToolTip(QDir::toNativeSeparators(m_client->databasePath()));
    m_localTitle = tr("Scenario: %1 — Hourglass").arg(title);
    updateForActive();
}

void MainWindow::installClient(std::unique_ptr<BrokerClient> client) {
    // Opening a database shows it, whichever namespace was in front.
    m_activeRemote = nullptr;
    if (m_presentation)
        m_presentation->clientClosing();
    if (m_workspace)
        m_workspaceState = m_workspace->splitter()->saveState();
    dropRecording();
    m_welcome->watch(nullptr);
    delete m_timeBar; // and the note it holds
    delete m_entityActions;
    delete m_tree;
    delete m_workspace;
    m_timeBar = nullptr;
    m_entityActions = nullptr;
    m_tree = nullptr;
    m_workspace = nullptr;
    m_selectionLabel->hide();
    // The endpoint leaves the old broker before it closes, and serves the new one.
    if (m_amqp)
        m_amqp->attach(client ? client->sharedBroker() : nullptr);
    m_client = std::move(client);
    // The selection belonged to the old database.
    m_selectedPath.clear();
    m_selectedKind = NamespaceTreeModel::NodeKind::Namespace;
    m_databaseLabel->setToolTip(QString());
    if (!m_client) {
        m_databaseLabel->clear();
        m_localTitle = tr("Hourglass");
        updateForActive();
        fillEntityMenus();
        fillScenarioMenu();
        return;
    }
    m_tree = new NamespaceTreePanel(*m_client);
    // A click in it brings the database's workspace back from a remote namespace's.
    m_tree->view()->installEventFilter(this);
    m_tree->view()->viewport()->installEventFilter(this);
    m_treeSlot->addWidget(m_tree);
    m_welcome->watch(m_tree->model());
    m_treeSlot->setCurrentWidget(m_tree);
    m_workspace = new EntityWorkspace(*m_client);
    m_workspaceSlot->addWidget(m_workspace);
    m_workspaceSlot->setCurrentWidget(m_workspace);
    if (!m_workspace->splitter()->restoreState(m_workspaceState))
        m_workspace->splitter()->setSizes({height() * 3 / 5, height() * 2 / 5});
    m_entityActions = new EntityActions(*m_client, this);
    // A new entity (or namespace) is where the user goes next.
    connect(m_entityActions, &EntityActions::created, m_tree, &NamespaceTreePanel::selectWhenShown);
    new EmptyDatabaseState(*m_tree, *m_entityActions, *m_workspaceSlot, *m_workspace);
    fillEntityMenus();
    // Recording observes this client's broker: a new one per database.
    m_recording = new ScenarioRecording(*m_client, this);
    statusBar()->insertPermanentWidget(0, m_recording->indicator());
    reportFrom(m_recording, QStringLiteral("recording"));
    fillScenarioMenu();
    m_timeBar = new TimeControlBar(*m_client, this);
    addToolBar(Qt::TopToolBarArea, m_timeBar);
    // Applications connected while the clock is not live see engine time: said under the bar.
    if (m_amqp) {
        auto* note = new ClockAppsNote(*m_amqp, *m_client, *m_timeBar);
        addToolBar(Qt::TopToolBarArea, note);
        insertToolBarBreak(note);
        note->refresh();
    }
    reportFrom(m_timeBar, QStringLiteral("clock"));
    reportNamespace(*m_workspace, *m_entityActions, *m_tree, QString());
    connect(m_tree, &NamespaceTreePanel::entitySelected, this,
            [this](const QString& path, EntityKind kind, bool deadLetter) {
                select(path, selectedNodeKind(kind, deadLetter));
            });
    m_presentation->clientReady();
    updateForActive();
    connect(m_tree, &NamespaceTreePanel::noEntitySelected, this, [this] {
        // A namespace row (or nothing): namespace-level actions create entities in it.
        const QModelIndex current = m_tree->view()->currentIndex();
        select(current.isValid() ? current.data(NamespaceTreeModel::PathRole).toString()
                                 : QString(),
               NamespaceTreeModel::NodeKind::Namespace);
    });
}

void MainWindow::reportNamespace(EntityWorkspace& workspace, EntityActions& actions,
                                 NamespaceTreePanel& tree, const QString& prefix) {
    // Each tab's panel, by the name its errors go by in the message bar (EntityPanel.h), as the
    // workspace builds it.
    workspace.onEachPanel(this, [this, prefix](EntityWorkspace::Tab tab, EntityPanel* panel) {
        static const QHash<EntityWorkspace::Tab, QString> names{
            {EntityWorkspace::MessagesTab, QStringLiteral("messages")},
            {EntityWorkspace::PeekTab, QStringLiteral("peek")},
            {EntityWorkspace::ReceiveTab, QStringLiteral("locks")},
            {EntityWorkspace::DeadLettersTab, QStringLiteral("deadletters")},
            {EntityWorkspace::SessionsTab, QStringLiteral("sessions")},
            {EntityWorkspace::ChartsTab, QStringLiteral("charts")}};
        reportFrom(panel, prefix + names.value(tab));
    });
    reportFrom(&actions, prefix + QStringLiteral("entities"));
    // Drops on the tree (messages moved, copied or resubmitted; files sent) report here.
    reportFrom(&tree, prefix + QStringLiteral("tree"));
    connect(&workspace, &EntityWorkspace::selectedCountChanged, this,
            [this, workspace = &workspace](qint64 count) {
                if (workspace != activeWorkspace())
                    return;
                m_selectionLabel->setText(tr("%1 selected").arg(QLocale().toString(count)));
                m_selectionLabel->setVisible(count > 0);
            });
}

void MainWindow::dropRecording() {
    if (!m_recording)
        return;
    // The recording belongs to the database going away; what it holds is written to a file
    // rather than lost.
    m_recording->keepUnsaved(this, [this](Result<QString> kept) {
        if (!kept) {
            m_messageBar->showError(kept.error(), tr("The unsaved recording"));
            return;
        }
        m_messageBar->showMessage(
            tr("The recording was not saved yet: it was kept in %1. Open it with Scenario > Open "
               "scenario file to play it back.")
                .arg(QDir::toNativeSeparators(*kept)));
    });
    delete m_recording->indicator(); // the status bar holds it
    delete m_recording;              // stops observing the broker
    m_recording = nullptr;
}

void MainWindow::select(const QString& path, NamespaceTreeModel::NodeKind kind) {
    // The user moved on: an error about what was selected before no longer stands above it.
    // The first selection of a database is the tree's own (its first queue), not a move: an
    // error from opening it (the sample namespace, a scenario) stays readable.
    if (!m_selectedPath.isEmpty() && path != m_selectedPath)
        m_messageBar->dismissError();
    if (m_activeRemote)
        activateLocal();
    m_selectedPath = path;
    m_selectedKind = kind;
    if (m_recording)
        m_recording->setEntity(path, kind);
    if (m_entityActions)
        m_entityActions->setSelection(path, kind);
    if (m_workspace)
        m_workspace->setEntity(kind == NamespaceTreeModel::NodeKind::Namespace ? QString() : path,
                               kind);
    if (m_presentation)
        m_presentation->selectionChanged();
    if (m_copyConnectionString)
        m_copyConnectionString->setEnabled(!path.isEmpty());
    updateSendAction();
}

void MainWindow::serveAmqp() {
    if (m_amqp)
        return;
    m_amqp = new AmqpService(this);
    auto* item = new AmqpStatusItem(*m_amqp);
    statusBar()->addPermanentWidget(item);
    connect(item, &AmqpStatusItem::copied, this, &MainWindow::showStatus);
    connect(m_amqp, &AmqpService::failed, this, [this](const QString& message) {
        m_messageBar->showMessage(message, MessageBar::Kind::Error);
    });
    m_amqpAction->setEnabled(true);
    m_amqp->attach(m_client ? m_client->sharedBroker() : nullptr);

    // View > Connections: who is connected, their links and locks (below the workspace).
    auto* dock = new QDockWidget(tr("Connections"), this);
    dock->setObjectName(QStringLiteral("connectionsDock"));
    auto* connections = new ConnectionsPanel(*m_amqp, [this] {
        return m_client ? m_client->clock().now() : QDateTime::currentMSecsSinceEpoch();
    });
    connect(connections, &ConnectionsPanel::settingsRequested, this, &MainWindow::openAmqpSettings);
    // It scrolls rather than claim its full height from the tabs and the detail above it.
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("connectionsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(connections);
    dock->setWidget(scroll);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    // Open or closed as it was left.
    const QString visibleKey = QStringLiteral("window/connectionsVisible");
    dock->setVisible(QSettings().value(visibleKey, false).toBool());
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock, visibleKey](bool shown) {
        if (!isMinimized() && isVisible())
            QSettings().setValue(visibleKey, dock->isVisible());
        // Its share of the height, not what its panel would like: the tabs and the message
        // detail above it keep their room (at 1024x700 too); the user may drag it taller.
        if (shown)
            QTimer::singleShot(0, dock, [this, dock] {
                if (dock->isVisible() && !dock->isFloating())
                    resizeDocks({dock}, {std::max(dock->minimumSizeHint().height(), height() / 5)},
                                Qt::Vertical);
            });
    });
    QAction* toggle = dock->toggleViewAction();
    toggle->setObjectName(QStringLiteral("connectionsAction"));
    toggle->setText(tr("&Connections"));
    m_viewMenu->insertAction(m_amqpAction, toggle);
}

QDialog* MainWindow::openAmqpSettings() {
    if (!m_amqp)
        return nullptr;
    auto* dialog = new AmqpSettingsDialog(m_amqp->settings(), m_amqp->problem(), this);
    dialog->setTlsTrust(m_amqp->tlsTrust(), m_amqp->tlsProblem());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_messageBar->hide();
        m_amqp->apply(dialog->settings());
    });
    dialog->open();
    return dialog;
}

void MainWindow::showError(const Error& error, const QString& context) {
    m_messageBar->showError(error, context);
}

void MainWindow::giveTreeItsWidth() {
    if (m_splitter->sizes().size() != 2)
        return;
    const int total = m_splitter->sizes().at(0) + m_splitter->sizes().at(1);
    const int tree = std::min(360, total * 2 / 5);
    m_splitter->setSizes({tree, total - tree});
}

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text, 8000);
}

void MainWindow::openDatabase(const QString& path) {
    // The open database is this window's own: opening it again would only be refused by its
    // own owner lock.
    if (m_client && QFileInfo(path).canonicalFilePath() ==
                        QFileInfo(m_client->databasePath()).canonicalFilePath()) {
        showStatus(tr("%1 is already open").arg(QDir::toNativeSeparators(path)));
        return;
    }
    // Applications holding locks lose them with the database: asked first.
    if (!std::exchange(m_switchConfirmed, false) && m_amqp && m_client &&
        askBeforeLettingGo(*m_amqp, this, LettingGo::OpenAnotherDatabase, [this, path] {
            m_switchConfirmed = true;
            openDatabase(path);
        }))
        return;
    // Opening reads the whole database into the engine's index (about half a second for a
    // million messages): never on the GUI thread.
    m_databaseLabel->setText(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
    QPointer<MainWindow> self(this);
    QThread* gui = thread();
    QThreadPool::globalInstance()->start([self, path, gui] {
        BrokerOptions options;
        options.databasePath = path;
        options.owner = QStringLiteral("the Hourglass window");
        // A virtual clock that starts at, and runs with, real time: the window's time control
        // can then pause it, speed it up or jump ahead for a demo, and return to real time.
        auto clock = std::make_shared<VirtualClock>();
        clock->resetToRealTime();
        options.clock = clock;
        auto opened = std::make_shared<Result<std::unique_ptr<Broker>>>(Broker::open(options));
        // The change feed belongs to the thread that opened the broker; hand it to the GUI's.
        if (*opened)
            (*opened)->get()->changes()->moveToThread(gui);
        QMetaObject::invokeMethod(
            qApp,
            [self, path, opened] {
                if (self)
                    self->finishOpening(path, std::move(*opened));
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::finishOpening(const QString& path, Result<std::unique_ptr<Broker>> opened) {
    if (!opened) {
        m_databaseLabel->setText(m_client ? QDir::toNativeSeparators(m_client->databasePath())
                                          : QString());
        m_messageBar->showError(opened.error(), tr("Cannot open %1").arg(path));
        emit databaseFailed(path);
        return;
    }
    // What the last database left in the bar goes; what opening this one says (a busy AMQP
    // port) stays.
    m_messageBar->hide();
    setClient(std::make_unique<BrokerClient>(std::move(opened).value()));
    emit databaseOpened(path);
}

void MainWindow::chooseDatabase(bool create) {
    const QString filter = tr("Hourglass databases (*.db *.sqlite);;All files (*)");
    const QString path = create
                             ? QFileDialog::getSaveFileName(this, tr("New database"), {}, filter)
                             : QFileDialog::getOpenFileName(this, tr("Open database"), {}, filter);
    if (!path.isEmpty())
        openDatabase(path);
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this,
                                [this, path] { openDatabase(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // First start: room for the tree's count columns, the rest for the messages.
    if (!m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray()))
        m_splitter->setSizes({500, 780});
    m_workspaceState = settings.value(QStringLiteral("window/workspaceSplitter")).toByteArray();
}

void MainWindow::saveLayout() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    if (m_workspace)
        settings.setValue(QStringLiteral("window/workspaceSplitter"),
                          m_workspace->splitter()->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Applications holding locks lose them when the window goes: asked first.
    if (!m_quitConfirmed && m_amqp && askBeforeLettingGo(*m_amqp, this, LettingGo::Quit, [this] {
            m_quitConfirmed = true;
            close();
        })) {
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
}

} // namespace hourglass::ui
