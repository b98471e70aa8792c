#pragma once
// The head of a saved namespace's place in the tree column: its name, marks that say it is
// remote (and read-only when it is), a status line (not connected, connecting, how often its
// counts are read and when they last were, or why it cannot be opened), Connect / Disconnect, and
// a menu with the poll interval, Refresh counts, Edit... is not here (the Connect dialog saves a
// new one) and Forget.
//
// Test handles: "namespaceHeader", "namespaceName", "remoteMark", "readOnlyMark",
// "namespaceStatus" (QLabel), "namespaceConnect" (QToolButton), "namespaceMenu" (QToolButton),
// "pollInterval-<seconds>" and "refreshCounts", "nameEntities", "forgetNamespace" (QAction).

#include <QFrame>

#include <chrono>

class QAction;
class QLabel;
class QMenu;
class QToolButton;

namespace hourglass::ui {

struct SavedNamespace;

class NamespaceHeader : public QFrame {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Failed };

    explicit NamespaceHeader(const SavedNamespace& saved, QWidget* parent = nullptr);

    State state() const { return m_state; }
    void setState(State state, const QString& problem = {});
    // What the status line says while connected.
    void setPollInterval(std::chrono::milliseconds interval);
    void setLastPoll(qint64 lastPollAtMs, const QString& listProblem);
    // The key cannot list the namespace: the tree holds the entities the user named.
    void setNamedOnly(bool namedOnly);
    // The connection broke at `lostAtMs` and is being made again (0: it is up); `problem` why,
    // shown as the line's tooltip.
    void setConnectionLost(qint64 lostAtMs, const QString& problem);
    // The poll intervals offered, in seconds.
    static QList<int> pollChoices();

signals:
    void connectRequested();
    void disconnectRequested();
    void forgetRequested();
    void refreshRequested();
    // The user asks to name the entities to browse (a key without the Manage right).
    void namedEntitiesRequested();
    void pollIntervalChosen(std::chrono::milliseconds interval);

private:
    void updateStatus();

    QLabel* m_name;
    QLabel* m_status;
    QToolButton* m_connect;
    QToolButton* m_menuButton;
    QMenu* m_menu;
    QList<QAction*> m_intervals;
    QAction* m_refresh;
    State m_state = State::Disconnected;
    QString m_problem;
    QString m_where;
    std::chrono::milliseconds m_interval{5000};
    bool m_namedOnly = false;
    qint64 m_lastPollAt = 0;
    QString m_listProblem;
    qint64 m_lostAt = 0;
    QString m_lostProblem;
};

} // namespace hourglass::ui
