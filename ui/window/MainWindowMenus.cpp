// The main window's menus: File (databases), Entity (EntityActions), Message (send, tabs),
// Scenario (ScenarioController, ScenarioRecording), View (presentation mode, theme) and Help
// (the bundled documents, keyboard shortcuts). Split from MainWindow.cpp, which arranges the
// panels.
#include "window/MainWindow.h"

#include "common/ActionRegistry.h"
#include "common/MessageTransferActions.h"
#include "common/Theme.h"
#include "connections/AmqpService.h"
#include "deadletter/DeadLetterPanel.h"
#include "demo/EntityChartsPanel.h"
#include "demo/PresentationMode.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioRecording.h"
#include "entities/EntityActions.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListPanel.h"
#include "messages/PeekPanel.h"
#include "send/SendDialog.h"
#include "settle/LockPanel.h"
#include "tree/NamespaceTreePanel.h"
#include "window/DocumentViewer.h"
#include "window/EntityWorkspace.h"
#include "window/MessageBar.h"
#include "window/RemoteNamespaceView.h"
#include "window/ShortcutsDialog.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QMenuBar>
#include <QStatusBar>
#include <QTreeView>

namespace hourglass::ui {

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* create = file->addAction(tr("&New database…"), this, [this] { chooseDatabase(true); });
    create->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("&Open database…"), this, [this] { chooseDatabase(false); });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    refreshRecentMenu();
    file->addSeparator();
    // Azure, Microsoft's emulator, another Hourglass: beside the database, in the tree column.
    QAction* connectTo =
        file->addAction(tr("&Connect to namespace…"), this, [this] { openConnectDialog(); });
    connectTo->setObjectName(QStringLiteral("connectNamespaceAction"));
    file->addSeparator();
    // The Entity menu's import, where people look for importing a file too.
    m_fileImport = file->addAction(tr("&Import emulator config.json…"), this, [this] {
        if (EntityActions* actions = activeActions())
            actions->importAction()->trigger();
    });
    m_fileImport->setObjectName(QStringLiteral("fileImportAction"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_entityMenu = menuBar()->addMenu(tr("&Entity"));
    m_messageMenu = menuBar()->addMenu(tr("&Message"));
    m_sendAction =
        m_messageMenu->addAction(tr("&Send message…"), this, [this] { openSendDialog(); });
    m_sendAction->setObjectName(QStringLiteral("sendMessageAction"));
    m_sendAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_sendAction->setEnabled(false);
    // Each namespace has its own key, so its own connection string (NamespaceKeys.h).
    m_copyConnectionString = new QAction(tr("Copy c&onnection string"), this);
    m_copyConnectionString->setObjectName(QStringLiteral("copyNamespaceConnectionString"));
    m_copyConnectionString->setEnabled(false);
    connect(m_copyConnectionString, &QAction::triggered, this,
            &MainWindow::copyConnectionStringOfSelection);
    // Move to… and Copy to… act on the messages selected in the current tab: they trigger that
    // panel's own command (MessageTransferActions), which asks for the target entity.
    struct Transfer {
        QString text;
        QString command; // the panel's (ActionRegistry.h)
        QString name;    // for tests
    };
    const QString copyTo = QString::fromLatin1(MessageTransferActions::kCopyToCommand);
    const QList<Transfer> transfers{
        {tr("Mo&ve to…"), QString::fromLatin1(MessageTransferActions::kMoveToCommand),
         QStringLiteral("menu-moveMessagesAction")},
        {tr("&Copy to…"), copyTo, QStringLiteral("menu-copyMessagesAction")}};
    for (const Transfer& transfer : transfers) {
        QAction* item =
            m_messageMenu->addAction(transfer.text, this, [this, id = transfer.command, copyTo] {
                EntityWorkspace* workspace = activeWorkspace();
                QWidget* panel = workspace ? workspace->currentPanel() : nullptr;
                QAction* command = panel ? actions::find(panel, id) : nullptr;
                if (command && command->isEnabled())
                    command->trigger();
                else if (panel && !command && actions::find(panel, copyTo))
                    // Receive & settle: a message in hand is settled, not moved from under its
                    // lock.
                    m_messageBar->showMessage(tr("This tab copies the messages in hand (Copy "
                                                 "to…); settle them to take them out of the "
                                                 "queue."));
                else
                    m_messageBar->showMessage(tr("Select messages in the current tab first."));
            });
        item->setObjectName(transfer.name);
    }
    m_messageMenu->addSeparator();
    const QList<QPair<QString, EntityWorkspace::Tab>> tabs{
        {tr("Go to &messages"), EntityWorkspace::MessagesTab},
        {tr("Go to &peek"), EntityWorkspace::PeekTab},
        {tr("Go to &receive and settle"), EntityWorkspace::ReceiveTab},
        {tr("Go to &dead letters"), EntityWorkspace::DeadLettersTab},
        {tr("Go to &charts"), EntityWorkspace::ChartsTab},
        {tr("Go to &sessions"), EntityWorkspace::SessionsTab},
    };
    int key = Qt::Key_1;
    for (const auto& [text, tab] : tabs) {
        QAction* go = m_messageMenu->addAction(text, this, [this, tab = tab] {
            if (EntityWorkspace* workspace = activeWorkspace())
                workspace->focusTab(tab);
        });
        go->setShortcut(QKeySequence(Qt::ALT | Qt::Key(key++)));
    }
    fillEntityMenus();

    m_scenarioMenu = menuBar()->addMenu(tr("&Scenario"));
    m_scenarios = new ScenarioController(*this);
    // Another database opened by the user ends the scenario (its database is left behind).
    connect(this, &MainWindow::databaseOpened, m_scenarios, &ScenarioController::databaseOpened);
    connect(m_scenarios, &ScenarioController::sessionChanged, this, &MainWindow::fillScenarioMenu);
    fillScenarioMenu();
    buildViewMenu();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    const QList<std::pair<QString, QString>> documents{
        {tr("Service Bus &rules"), DocumentViewer::rulesDocument()},
        {tr("&Scenario file format"), DocumentViewer::scenarioDocument()},
        {tr("&AMQP endpoint"), DocumentViewer::amqpDocument()},
    };
    for (const auto& [text, document] : documents) {
        QAction* open = help->addAction(
            text, this, [this, document = document] { DocumentViewer::open(document, this); });
        open->setObjectName(QStringLiteral("help:") + document);
    }
    help->addSeparator();
    QAction* shortcuts =
        help->addAction(tr("&Keyboard shortcuts"), this, [this] { openShortcutsDialog(); });
    shortcuts->setShortcut(QKeySequence::HelpContents);
}

void MainWindow::copyConnectionStringOfSelection() {
    QString name = m_selectedPath;
    if (m_selectedKind != NamespaceTreeModel::NodeKind::Namespace) {
        const auto parsed = EntityPath::parse(m_selectedPath);
        name = parsed ? parsed->namespaceName() : QString();
    }
    const amqp::AmqpEndpoint* endpoint = m_amqp ? m_amqp->endpoint() : nullptr;
    if (!endpoint) {
        m_messageBar->showMessage(
            tr("The AMQP endpoint is not serving: turn it on in View > AMQP endpoint…"));
        return;
    }
    // A namespace created a moment ago has its key made first, off the GUI thread.
    m_amqp->connectionStringOf(name, this, [this, name](const QString& text) {
        if (text.isEmpty()) {
            m_messageBar->showMessage(tr("The namespace '%1' has no key yet.").arg(name));
            return;
        }
        QApplication::clipboard()->setText(text);
        showStatus(tr("Copied the connection string of namespace '%1'").arg(name));
    });
}

void MainWindow::fillScenarioMenu() {
    // Playing (ScenarioController), then recording this database (ScenarioRecording).
    m_scenarioMenu->clear();
    if (m_activeRemote) {
        // One line: why, rather than commands that would act on another namespace than the
        // one in front.
        m_scenarioMenu
            ->addAction(tr("Scenarios and recording are the open database's: select "
                           "it in the tree to use them"))
            ->setEnabled(false);
        return;
    }
    m_scenarios->fillMenu(m_scenarioMenu);
    m_scenarioMenu->addSeparator();
    if (!m_recording) {
        m_scenarioMenu->addAction(tr("Open a database to record a scenario"))->setEnabled(false);
        return;
    }
    for (QAction* action : m_recording->actions())
        m_scenarioMenu->addAction(action);
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    QAction* focusTree = view->addAction(tr("Find &entity"), this, [this] {
        if (m_tree)
            m_tree->focusFilter();
    });
    focusTree->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_presentation = new PresentationMode(*this, *m_scenarios);
    view->addAction(m_presentation->action());
    view->addSeparator();
    m_amqpAction = view->addAction(tr("&AMQP endpoint…"), this, [this] { openAmqpSettings(); });
    m_amqpAction->setObjectName(QStringLiteral("amqpSettingsAction"));
    m_amqpAction->setEnabled(m_amqp != nullptr);
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(theme);
    const ThemeChoice current = savedTheme();
    const QList<QPair<QString, ThemeChoice>> choices{
        {tr("Follow the &system"), ThemeChoice::System},
        {tr("&Light"), ThemeChoice::Light},
        {tr("&Dark"), ThemeChoice::Dark}};
    for (const auto& [text, choice] : choices) {
        QAction* action = theme->addAction(text);
        action->setObjectName(QStringLiteral("theme-%1").arg(themeChoiceName(choice)));
        action->setCheckable(true);
        action->setChecked(choice == current);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [choice = choice] {
            applyTheme(choice);
            saveTheme(choice);
        });
    }
}

void MainWindow::fillEntityMenus() {
    m_entityMenu->clear();
    EntityActions* entityActions = activeActions();
    EntityWorkspace* workspace = activeWorkspace();
    m_fileImport->setEnabled(entityActions != nullptr);
    if (!entityActions) {
        m_entityMenu->addAction(tr("Open a database first"))->setEnabled(false);
        return;
    }
    NamespaceTreePanel* tree = m_activeRemote ? m_activeRemote->tree() : m_tree;
    QTreeView* view = tree ? tree->view() : nullptr;
    for (QAction* action : entityActions->actions()) {
        m_entityMenu->addAction(action);
        // The tree's context menu offers the same commands; Delete acts on the tree only when
        // it has focus, so the message lists keep Delete for their messages.
        if (view)
            view->addAction(action);
    }
    entityActions->deleteAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    // Purge… of the selected queue or subscription: the message list's command (it shows that
    // entity), so that its progress and Cancel show above the list.
    if (view && workspace)
        view->insertAction(entityActions->importAction(),
                           workspace->messages()->listActions()->purgeAction());
    if (view) {
        auto* separator = new QAction(view);
        separator->setSeparator(true);
        view->addAction(separator);
        view->addAction(m_sendAction);
        view->addAction(m_copyConnectionString);
        view->setContextMenuPolicy(Qt::ActionsContextMenu);
    }
}

QDialog* MainWindow::openSendDialog() {
    using NodeKind = NamespaceTreeModel::NodeKind;
    BrokerClient* client = activeClient();
    if (!client)
        return nullptr;
    const NodeKind kind = activeSelectedKind();
    QString target = activeSelectedPath();
    if (kind == NodeKind::Subscription)
        // Messages reach a subscription through its topic (R1).
        target = EntityPath::of(target).topic().toString();
    if (target.isEmpty() || kind == NodeKind::Namespace || kind == NodeKind::DeadLetterQueue) {
        m_messageBar->showMessage(tr("Select a queue or a topic to send to."));
        return nullptr;
    }
    auto* dialog = new SendDialog(*client, target, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SendDialog::statusMessage, this, &MainWindow::showStatus);
    dialog->show();
    return dialog;
}

QDialog* MainWindow::openShortcutsDialog() {
    ShortcutsDialog::Groups groups;
    for (QAction* menu : menuBar()->actions())
        if (menu->menu()) {
            QString title = menu->text();
            title.remove(QLatin1Char('&'));
            groups.append({tr("%1 menu").arg(title), menu->menu()->actions()});
        }
    if (EntityWorkspace* workspace = activeWorkspace()) {
        // The actions each panel added to itself: the ones its shortcuts work through.
        groups.append({tr("Message list"), workspace->messages()->QWidget::actions()});
        groups.append({tr("Peek"), workspace->peek()->QWidget::actions()});
        groups.append({tr("Receive and settle"), workspace->locks()->QWidget::actions()});
        groups.append({tr("Dead letters"), workspace->deadLetters()->QWidget::actions()});
        groups.append({tr("Charts"), workspace->charts()->QWidget::actions()});
    }
    auto* dialog = new ShortcutsDialog(groups, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

} // namespace hourglass::ui
