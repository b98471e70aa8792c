#pragma once
// One saved namespace the window does not host, in the tree column under the open database: its
// header (NamespaceHeader: name, remote and read-only marks, status, Connect) and, once
// connected, its own tree, workspace (the same tabs as the database's) and entity actions over a
// BrokerClient on its RemoteBroker. The main window shows the workspace of the namespace whose
// tree the user last acted in (activated).
//
// Test handles: "remoteNamespace-<id>" (this widget), "remoteTreePlaceholder" (QLabel); the
// tree panel keeps its own names ("namespaceTree", ...).

#include "namespaces/NamespaceHeader.h"
#include "namespaces/SavedNamespace.h"
#include "tree/NamespaceTreeModel.h"

#include <QWidget>

#include <memory>

class QLabel;
class QStackedWidget;
class QTimer;

namespace hourglass {
class Broker;
namespace remote {
class RemoteBroker;
}
} // namespace hourglass

namespace hourglass::ui {

class BrokerClient;
class EntityActions;
class EntityWorkspace;
class NamespaceTreePanel;

class RemoteNamespaceView : public QWidget {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;

    // `dialogParent`: where the entity actions' dialogs open (the main window).
    RemoteNamespaceView(const SavedNamespace& saved, QWidget* dialogParent,
                        QWidget* parent = nullptr);
    // Closes the connection now (detach(Closing::Now)).
    ~RemoteNamespaceView() override;

    const SavedNamespace& saved() const { return m_saved; }
    // The entities to browse changed (saved already): the next opening uses them.
    void setNamedEntities(const QString& text) { m_saved.namedEntities = text; }
    NamespaceHeader* header() const { return m_header; }
    bool isConnected() const { return m_client != nullptr; }
    // Null unless connected. The workspace is not a child of this widget: the main window shows
    // it in its workspace area, and it goes when the connection does.
    BrokerClient* client() const { return m_client.get(); }
    NamespaceTreePanel* tree() const { return m_tree; }
    EntityWorkspace* workspace() const { return m_workspace; }
    EntityActions* actions() const { return m_actions; }
    // What is selected in this namespace's tree ("ns:path", empty for none) and its kind.
    QString selectedPath() const { return m_selectedPath; }
    NodeKind selectedKind() const { return m_selectedKind; }
    // The window's title for it: "name (remote, read-only)".
    QString title() const;

    // Shows the namespace behind `broker` (a RemoteBroker); attached() follows.
    void attach(std::shared_ptr<Broker> broker);
    // Closes the connection: the panels go at once and the broker closes (its connection ends,
    // abandoning the locks it holds); detached() follows. In the background by default, off the
    // GUI thread; Now waits for it (the window is closing: nothing would run a background close).
    enum class Closing { InBackground, Now };
    void detach(Closing closing = Closing::InBackground);

signals:
    void attached();
    // Emitted before the pieces go, while they can still be disconnected from.
    void detaching();
    void detached();
    // The user selected or clicked in this namespace's tree.
    void activated();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void select(const QString& path, NodeKind kind);
    void showPollState();

    SavedNamespace m_saved;
    QWidget* m_dialogParent;
    NamespaceHeader* m_header;
    QStackedWidget* m_body;
    QLabel* m_placeholder;
    std::unique_ptr<BrokerClient> m_client;
    remote::RemoteBroker* m_remote = nullptr; // m_client's broker, for its poll
    NamespaceTreePanel* m_tree = nullptr;
    EntityWorkspace* m_workspace = nullptr;
    EntityActions* m_actions = nullptr;
    QTimer* m_pollState;
    qint64 m_breakSeen = 0; // the connection's last break the panels were told of
    QString m_selectedPath;
    NodeKind m_selectedKind = NodeKind::Namespace;
};

} // namespace hourglass::ui
