#pragma once
// The explorer's main window: it arranges the panels (the namespace tree on the left, the
// selected entity's workspace on the right: tabs for its messages, peek, receive and settle and
// its dead-letter queue above the message detail; the message bar on top) and the menus. It
// holds no broker logic; panels and actions talk to the engine through the BrokerClient.
//
// Menus: File (databases, import), Entity (EntityActions: create, edit, rules, delete, emulator
// config import/export), Message (send, go to a tab), Scenario (ScenarioController: gallery,
// player), View (presentation mode, theme), Help (keyboard shortcuts).

#include "demo/DemoHost.h"
#include "hourglass/Broker.h"
#include "tree/NamespaceTreeModel.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;
class QToolBar;

namespace hourglass::ui {

class AmqpService;
class BrokerClient;
class EntityActions;
class EntityWorkspace;
class MessageBar;
class NamespaceTreePanel;
class PresentationMode;
class RemoteNamespaceView;
class RemoteNamespaces;
class ScenarioController;
class ScenarioRecording;
class TimeControlBar;
class WelcomeStrip;

class MainWindow : public QMainWindow, public DemoHost {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows the database behind `client` (the window takes it over) and remembers it among the
    // recent databases. Null shows the empty window.
    void setClient(std::unique_ptr<BrokerClient> client) override;
    // Shows a scenario's temporary database: not remembered, titled after the scenario.
    void showScenarioClient(std::unique_ptr<BrokerClient> client, const QString& title) override;
    BrokerClient* client() const override { return m_client.get(); }
    MessageBar* messageBar() const { return m_messageBar; }
    EntityWorkspace* workspace() const { return m_workspace; }
    EntityActions* entityActions() const { return m_entityActions; }
    NamespaceTreePanel* tree() const override { return m_tree; }
    TimeControlBar* timeBar() const override { return m_timeBar; }
    ScenarioController* scenarios() const { return m_scenarios; }
    ScenarioRecording* recording() const { return m_recording; }
    PresentationMode* presentation() const { return m_presentation; }
    // The tree's selection ("ns:path"; empty for none) and its kind.
    QString selectedPath() const override { return m_selectedPath; }
    NamespaceTreeModel::NodeKind selectedKind() const override { return m_selectedKind; }
    // Opens (or creates) a database file off the GUI thread and shows it when it is ready
    // (databaseOpened); errors go to the message bar (databaseFailed).
    void openDatabase(const QString& path) override;
    // Opens the send dialog for the selected queue or topic (a subscription's topic); returns
    // it (null when nothing sendable is selected: the message bar says why).
    QDialog* openSendDialog();
    QDialog* openShortcutsDialog();
    // Serves the open database (and each one opened later) over AMQP 1.0 for applications using
    // the Azure SDKs, as View > AMQP endpoint… configures it. The application turns it on;
    // windows made by tests serve nothing unless they ask.
    void serveAmqp();
    AmqpService* amqp() const { return m_amqp; }
    QDialog* openAmqpSettings();
    // Namespaces the window does not host, under the database in the tree column
    // (File > Connect to namespace…).
    RemoteNamespaces* remotes() const { return m_remotes; }
    QDialog* openConnectDialog();
    // The remote namespace whose tree the user acted in last; null while it is the database's.
    RemoteNamespaceView* activeRemote() const;
    // What the Entity and Message menus act on: the active remote namespace's, else the
    // database's.
    BrokerClient* activeClient() const;
    EntityWorkspace* activeWorkspace() const;
    EntityActions* activeActions() const;

    // The rest of what the demo tools use (DemoHost.h).
    QMainWindow& hostWindow() override { return *this; }
    void showError(const Error& error, const QString& context = {}) override;
    void giveTreeItsWidth() override;

signals:
    void databaseOpened(const QString& path);
    void databaseFailed(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void installClient(std::unique_ptr<BrokerClient> client);
    void finishOpening(const QString& path, Result<std::unique_ptr<Broker>> opened);
    void buildMenus();
    void buildViewMenu();
    void fillEntityMenus();
    void fillScenarioMenu();
    void dropRecording();
    void select(const QString& path, NamespaceTreeModel::NodeKind kind);
    // The remote namespaces (MainWindowRemotes.cpp): a new view's signals, switching the
    // workspace and menus between the database and a remote namespace, and what cannot apply
    // to a remote one.
    void followRemote(RemoteNamespaceView* view);
    // The errors and successes of a namespace's panels, actions and tree for the message bar
    // (`prefix` keeps a remote namespace's sources apart from the database's), and the visible
    // tab's selection count for the status bar.
    void reportNamespace(EntityWorkspace& workspace, EntityActions& actions,
                         NamespaceTreePanel& tree, const QString& prefix);
    void activateRemote(RemoteNamespaceView* view);
    void activateLocal();
    void updateForActive();
    void updateSendAction();
    QString activeSelectedPath() const;
    NamespaceTreeModel::NodeKind activeSelectedKind() const;
    void chooseDatabase(bool create);
    void rememberRecent(const QString& path);
    void refreshRecentMenu();
    void restoreLayout();
    void saveLayout();
    void showStatus(const QString& text);
    // The AMQP connection string of the selected node's namespace (its own key) to the clipboard.
    void copyConnectionStringOfSelection();
    // `source`'s errors go to the message bar as its own, and its successes (its status
    // messages) to the status bar, taking its error down (MessageBar).
    template <typename Source> void reportFrom(Source* source, const QString& name);

    std::unique_ptr<BrokerClient> m_client;
    AmqpService* m_amqp = nullptr; // null until serveAmqp()
    QAction* m_amqpAction = nullptr;
    QMenu* m_viewMenu = nullptr;
    MessageBar* m_messageBar;
    QSplitter* m_splitter;
    NamespaceTreePanel* m_tree = nullptr;
    EntityWorkspace* m_workspace = nullptr;
    EntityActions* m_entityActions = nullptr;
    TimeControlBar* m_timeBar = nullptr; // the engine clock's controls, per database
    QByteArray m_workspaceState;         // the workspace splitter, restored once it exists
    QStackedWidget* m_treeSlot;
    RemoteNamespaces* m_remotes = nullptr;
    QPointer<RemoteNamespaceView> m_activeRemote;
    QToolBar* m_remoteClockNote = nullptr; // under the time bar: why it does not apply
    QString m_localTitle;                  // the database's (or scenario's) window title
    QStackedWidget* m_workspaceSlot;
    WelcomeStrip* m_welcome; // the first launch's note, while the sample namespace is there
    QMenu* m_recentMenu = nullptr;
    QMenu* m_entityMenu = nullptr;
    QMenu* m_messageMenu = nullptr;
    QMenu* m_scenarioMenu = nullptr;
    ScenarioController* m_scenarios = nullptr;  // scenario playback (gallery, player dock)
    ScenarioRecording* m_recording = nullptr;   // records this database's operations
    PresentationMode* m_presentation = nullptr; // the selected entity full screen
    QAction* m_sendAction = nullptr;
    QAction* m_fileImport = nullptr;           // File > Import: the entity actions' import
    QAction* m_copyConnectionString = nullptr; // the selected namespace's (tree context menu)
    QLabel* m_databaseLabel;
    QLabel* m_selectionLabel; // "5,000 selected" in the visible tab; hidden when none
    QString m_selectedPath;
    NamespaceTreeModel::NodeKind m_selectedKind = NamespaceTreeModel::NodeKind::Namespace;
    // The user said yes to letting applications' locks go (HeldLocksQuestion.h).
    bool m_quitConfirmed = false;
    bool m_switchConfirmed = false;
};

} // namespace hourglass::ui
