#pragma once
// The explorer's main window: it arranges the panels (the namespace tree on the left, the
// selected entity's workspace on the right: tabs for its messages, peek, receive and settle and
// its dead-letter queue above the message detail; the message bar on top) and the menus. It
// holds no broker logic; panels and actions talk to the engine through the BrokerClient.
//
// Menus: File (databases), Entity (EntityActions: create, edit, rules, delete, emulator config
// import/export), Message (send, go to a tab), View (theme), Help (keyboard shortcuts).

#include "Broker.h"
#include "NamespaceTreeModel.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;

namespace hourglass::ui {

class BrokerClient;
class EntityActions;
class EntityWorkspace;
class MessageBar;
class NamespaceTreePanel;
class TimeControlBar;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows the database behind `client` (the window takes it over).
    void setClient(std::unique_ptr<BrokerClient> client);
    BrokerClient* client() const { return m_client.get(); }
    MessageBar* messageBar() const { return m_messageBar; }
    EntityWorkspace* workspace() const { return m_workspace; }
    EntityActions* entityActions() const { return m_entityActions; }
    NamespaceTreePanel* tree() const { return m_tree; }
    // Opens (or creates) a database file off the GUI thread and shows it when it is ready
    // (databaseOpened); errors go to the message bar (databaseFailed).
    void openDatabase(const QString& path);
    // Opens the send dialog for the selected queue or topic (a subscription's topic); returns
    // it (null when nothing sendable is selected: the message bar says why).
    QDialog* openSendDialog();
    QDialog* openShortcutsDialog();

signals:
    void databaseOpened(const QString& path);
    void databaseFailed(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void finishOpening(const QString& path, Result<std::unique_ptr<Broker>> opened);
    void buildMenus();
    void buildViewMenu();
    void fillEntityMenus();
    void select(const QString& path, NamespaceTreeModel::NodeKind kind);
    void chooseDatabase(bool create);
    void rememberRecent(const QString& path);
    void refreshRecentMenu();
    void restoreLayout();
    void saveLayout();
    void showStatus(const QString& text);

    std::unique_ptr<BrokerClient> m_client;
    MessageBar* m_messageBar;
    QSplitter* m_splitter;
    NamespaceTreePanel* m_tree = nullptr;
    EntityWorkspace* m_workspace = nullptr;
    EntityActions* m_entityActions = nullptr;
    TimeControlBar* m_timeBar = nullptr; // the engine clock's controls, per database
    QByteArray m_workspaceState;         // the workspace splitter, restored once it exists
    QStackedWidget* m_treeSlot;
    QStackedWidget* m_workspaceSlot;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_entityMenu = nullptr;
    QMenu* m_messageMenu = nullptr;
    QAction* m_sendAction = nullptr;
    QLabel* m_databaseLabel;
    QString m_selectedPath;
    NamespaceTreeModel::NodeKind m_selectedKind = NamespaceTreeModel::NodeKind::Namespace;
};

} // namespace hourglass::ui
