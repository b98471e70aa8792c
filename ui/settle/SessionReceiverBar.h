#pragma once
// The session controls of the Receive & settle tab, shown for an entity that requires sessions
// (S2-S5): accept a named session, or the next available one (S3), as the receiver named in the
// tab's receiver box; renew its session lock; read and set its state (S4, through a
// SessionStateDialog with its confirmation); release it. Under them, the sessions held
// (HeldSessions) with their live session lock countdowns, beside the message locks. Every call
// runs off the GUI thread; replies for another entity are dropped.
//
// Object names for tests: "sessionToAccept", "sessionAccept", "sessionRenew",
// "sessionStateEdit", "sessionRelease", "heldSessions".

#include "hourglass/Broker.h"

#include <QWidget>

#include <functional>

class QAction;
class QLineEdit;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class HeldSessions;

class SessionReceiverBar : public QWidget {
    Q_OBJECT
public:
    SessionReceiverBar(BrokerClient& client, HeldSessions& sessions,
                       std::function<QString()> receiverName, QWidget* parent = nullptr);

    // The entity shown ("ns:path"): forgets calls under way for the previous one.
    void setEntity(const QString& qualifiedPath);
    QTableView* view() const { return m_view; }
    QList<QAction*> actions() const { return m_actions; }
    // Puts the keyboard focus on the Accept button (the tab's guidance points at it).
    void focusAccept();

    void accept();
    void renew();
    void editState();
    void release();

signals:
    void result(const QString& text);
    void failed(const hourglass::Error& error);
    // The receiver let go of its session: its message locks went with it (S5).
    void released(const QString& receiver);

private:
    QAction* addBarAction(const QString& name, const QString& text, const QString& toolTip);
    // The session the receiver box names holds, or a calm word of why there is none.
    std::optional<SessionRef> currentSession();
    void failedFor(const QString& receiver, const Error& error);

    BrokerClient& m_client;
    HeldSessions& m_sessions;
    std::function<QString()> m_receiverName;
    QString m_path;
    quint64 m_generation = 0;
    QLineEdit* m_sessionId;
    QTableView* m_view;
    QList<QAction*> m_actions;
    QAction* m_accept = nullptr;
};

} // namespace hourglass::ui
