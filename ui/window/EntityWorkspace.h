#pragma once
// The right-hand side of the main window for the entity selected in the tree: tabs for what one
// does with it (its message list, peek, receive and settle, its dead-letter queue, charts) above
// one shared message detail panel, so that a message picked in any tab shows its properties and
// body in the same place, and beside it (a second tab) the routing preview of that message:
// which subscriptions of a topic would get it, and why. It only routes: each panel talks to the
// engine itself.
//
// Object names for tests: "entityTabs", "messageSplitter", "workspaceEmpty", "detailTabs"; the
// panels keep their own ("messageList", "peekList", "lockList", "deadLetterList",
// "messageDetail", "routingPreview", ...).

#include "common/CurrentMessage.h"
#include "tree/NamespaceTreeModel.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace hourglass::ui {

class BrokerClient;
class DeadLetterPanel;
class EntityPanel;
class EntityChartsPanel;
class LockPanel;
class MessageDetailPanel;
class MessageListPanel;
class PeekPanel;
class RoutingPreviewPanel;
class SessionsPanel;

class EntityWorkspace : public QWidget {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;
    // The tabs, in order. Sessions comes last so that the others keep their index (and their
    // Alt+1..5); it is enabled only for an entity that requires sessions.
    enum Tab { MessagesTab, PeekTab, ReceiveTab, DeadLettersTab, ChartsTab, SessionsTab };
    // The tabs under them, for the selected message.
    enum DetailTab { MessageDetailTab, RoutingTab };

    explicit EntityWorkspace(BrokerClient& client, QWidget* parent = nullptr);

    // The tree's selection: "ns:path" (or ".../$deadletterqueue") and its kind; an empty path or
    // a namespace shows the empty state.
    void setEntity(const QString& qualifiedPath, NodeKind kind);
    QString path() const { return m_path; }
    NodeKind kind() const { return m_kind; }
    void showTab(Tab tab);
    // Alt+1..6: shows the tab and puts the keyboard focus on its list (the first with rows),
    // else on its first field.
    void focusTab(Tab tab);

    QTabWidget* tabs() const { return m_tabs; }
    // The panel of a tab, and of the visible one (Receive & settle's is inside its scroll
    // area). The workspace hands them the selection and follows their messages through this
    // interface (tree/EntityPanel.h); the typed accessors below are for what one panel alone
    // does.
    //
    // Only the Messages tab's panel is built with the workspace; the others follow one a turn of
    // the event loop, and any of them at once when its tab is shown or its accessor called.
    EntityPanel* panel(Tab tab) const { return buildPanel(tab); }
    EntityPanel* currentPanel() const;
    QSplitter* splitter() const { return m_splitter; }
    MessageListPanel* messages() const { return m_messages; }
    PeekPanel* peek() const { return (buildPanel(PeekTab), m_peek); }
    LockPanel* locks() const { return (buildPanel(ReceiveTab), m_locks); }
    DeadLetterPanel* deadLetters() const { return (buildPanel(DeadLettersTab), m_deadLetters); }
    EntityChartsPanel* charts() const { return (buildPanel(ChartsTab), m_charts); }
    SessionsPanel* sessions() const { return (buildPanel(SessionsTab), m_sessions); }
    // Calls `each` for every tab's panel: those built now at once, the others as they are
    // built, while `context` lives (the window hears each panel's errors this way).
    void onEachPanel(QObject* context, std::function<void(Tab, EntityPanel*)> each);
    MessageDetailPanel* detail() const { return m_detail; }
    QTabWidget* detailTabs() const { return m_detailTabs; }
    RoutingPreviewPanel* routing() const { return m_routing; }
    // How many messages are selected in the visible tab (0 on a tab without messages).
    qint64 selectedCount() const;

signals:
    // selectedCount() changed: the selection moved, or another tab is shown.
    void selectedCountChanged(qint64 count);

private:
    struct PanelFollower {
        QPointer<QObject> context;
        std::function<void(Tab, EntityPanel*)> each;
    };

    // An empty page that a panel built later goes into.
    static QWidget* pageHolder(const QString& name);
    // The panel of `tab`, built now if it was not yet.
    EntityPanel* buildPanel(Tab tab) const;
    // Builds the next panel not built yet, then asks for another turn of the event loop.
    void buildNextPanel();
    // Wires a built panel in: the detail follows it, followers hear of it, it gets the selection.
    void adoptPanel(Tab tab, EntityPanel* panel);
    void sizeTabsToCurrent();
    // The message the detail should show: the visible tab's selected current row.
    std::optional<MessageRef> visibleTabMessage() const;
    void queueDetailSync();
    void syncDetail();
    void updatePeek();

    BrokerClient& m_client;
    QString m_path;
    NodeKind m_kind = NodeKind::Namespace;
    bool m_peekPending = false; // the peek panel has not been given m_path yet
    bool m_detailSyncQueued = false;
    qint64 m_selectedCount = 0; // as last announced
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QSplitter* m_splitter;
    QTabWidget* m_tabs;
    MessageListPanel* m_messages;
    // Built later (buildPanel): a cache the const accessors fill.
    mutable PeekPanel* m_peek = nullptr;
    mutable LockPanel* m_locks = nullptr;
    mutable DeadLetterPanel* m_deadLetters = nullptr;
    mutable EntityChartsPanel* m_charts = nullptr;
    mutable SessionsPanel* m_sessions = nullptr;
    MessageDetailPanel* m_detail;
    RoutingPreviewPanel* m_routing;
    QTabWidget* m_detailTabs;
    QList<EntityPanel*> m_panels; // by Tab; null until built
    QList<PanelFollower> m_followers;
};

} // namespace hourglass::ui
