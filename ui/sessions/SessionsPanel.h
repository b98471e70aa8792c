#pragma once
// The Sessions tab of an entity that requires sessions: every session with its
// counts, its holder and its session lock's live countdown, its state's size and when it was
// set; sorted by any column (click a header) and filtered by the text in the filter box (session
// id or holder). Under the table, the selected session's state as text, JSON or hex, read off
// the GUI thread, with "Edit state…" (SessionStateDialog, with its confirmation) and "Show
// messages" (the Messages tab filtered to the session: SessionId=<id>).
//
// Writing a state. S4 lets only a session's holder write its state, so the explorer takes the
// session's lock for the write as the receiver "explorer (state editor)" and gives it back at
// once, in one call off the GUI thread. A session another receiver holds is refused in words
// (who holds it, what to do) and nothing changes.
//
// An entity without sessions, or none selected, shows an empty state that says why.
//
// Object names for tests: "sessionsTitle", "sessionFilter", "sessionList", "sessionsEmpty",
// "sessionStateTitle", "sessionStateFormat", "sessionStateView", "sessionEditState",
// "sessionShowMessages", "sessionsStatus".

#include "hourglass/Broker.h"
#include "tree/EntityPanel.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class SessionListModel;
class SessionStateDialog;

class SessionsPanel : public EntityPanel {
    Q_OBJECT
public:
    // The receiver the explorer writes a session's state as.
    static const QString kStateEditor;

    explicit SessionsPanel(BrokerClient& client, QWidget* parent = nullptr);

    // A queue or subscription ("ns:path"); empty, a topic or a dead-letter queue shows nothing.
    void setEntity(const QString& qualifiedPath);
    // The tree's selection (EntityPanel): a queue's or a subscription's path, else nothing.
    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    QString path() const { return m_path; }

    SessionListModel* model() const { return m_model; }
    QSortFilterProxyModel* sorted() const { return m_sorted; }
    QTableView* view() const { return m_view; }
    // The session of the selected current row; none without one.
    std::optional<QString> currentSession() const;
    void selectSession(const QString& sessionId);
    // The state of the current session as last read (none: no state, or not read yet).
    std::optional<QByteArray> shownState() const { return m_state; }
    // Opens the state editor for the current session (the "Edit state…" button).
    void editState();

signals:
    // The entity shown turned out to require sessions, or not (the tab's enabled state).
    void sessionsAvailable(bool available);
    // "Show messages": the Messages tab should list this session's messages.
    void showMessagesRequested(const QString& sessionId);

private:
    QWidget* buildStatePane();
    void fitColumns();
    void onRefreshed();
    void readCurrentState();
    void showState();
    void writeState(SessionStateDialog* dialog, const QString& sessionId,
                    const std::optional<QByteArray>& state);
    void updateButtons();
    void showResult(const QString& text);
    void showError(const Error& error);

    BrokerClient& m_client;
    QString m_path;
    quint64 m_stateGeneration = 0; // bumped per state read: drops replies for another session
    SessionListModel* m_model;
    QSortFilterProxyModel* m_sorted;
    QLabel* m_title;
    QLineEdit* m_filter;
    QStackedWidget* m_stack;
    QTableView* m_view;
    QLabel* m_empty;
    QLabel* m_stateTitle;
    QComboBox* m_stateFormat;
    QPlainTextEdit* m_stateView;
    QPushButton* m_editState;
    QPushButton* m_showMessages;
    QLabel* m_status;
    std::optional<QString> m_stateSession; // whose state m_state holds
    std::optional<QByteArray> m_state;
    Instant m_stateStamp = 0; // when m_state was set, as read
    bool m_available = false;
};

} // namespace hourglass::ui
