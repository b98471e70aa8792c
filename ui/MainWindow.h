#pragma once
// The explorer's main window: it arranges the panels (namespace tree on the left, the selected
// entity's messages on the right above the selected message's detail, the message bar on top) and
// the File menu. It holds no broker
// logic; panels talk to the engine through the BrokerClient.

#include "Broker.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace hourglass::ui {

class BrokerClient;
class MessageBar;
class MessageDetailPanel;
class MessageListPanel;
class NamespaceTreePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows the database behind `client` (the window takes it over).
    void setClient(std::unique_ptr<BrokerClient> client);
    BrokerClient* client() const { return m_client.get(); }
    MessageBar* messageBar() const { return m_messageBar; }
    // Opens (or creates) a database file off the GUI thread and shows it when it is ready
    // (databaseOpened); errors go to the message bar (databaseFailed).
    void openDatabase(const QString& path);

signals:
    void databaseOpened(const QString& path);
    void databaseFailed(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void finishOpening(const QString& path, Result<std::unique_ptr<Broker>> opened);
    void buildMenus();
    void chooseDatabase(bool create);
    void rememberRecent(const QString& path);
    void refreshRecentMenu();
    void restoreLayout();
    void saveLayout();

    std::unique_ptr<BrokerClient> m_client;
    MessageBar* m_messageBar;
    QSplitter* m_splitter;
    NamespaceTreePanel* m_tree = nullptr;
    MessageListPanel* m_messages = nullptr;
    MessageDetailPanel* m_detail = nullptr;
    QSplitter* m_rightSplitter;
    QByteArray m_messageSplitterState; // restored once the detail panel is in the splitter
    QStackedWidget* m_treeSlot;
    QStackedWidget* m_messagesSlot;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_databaseLabel;
};

} // namespace hourglass::ui
