#pragma once
// Acting as one or more named receivers on the selected queue, subscription or dead-letter
// queue: receive N messages in peek-lock or receive-and-delete mode, see each
// held lock with its receiver and a live lock countdown (on the engine's clock), and settle the
// selected locks: complete, abandon or defer (with property changes), dead-letter (reason and
// description), renew, or auto-renew for a chosen duration. A deferred message is received by
// its sequence number. Every settlement uses the lock's own receiver (L9), so a lock taken as
// "alice" is settled as alice whatever the receiver box says now. A lost lock stays listed,
// greyed, until cleared. Several selected locks complete or dead-letter as a background job
// with progress and cancel.
//
// The held locks belong to the entity shown: switching entity clears the list (the engine lets
// the locks run out).
//
// An entity that requires sessions (S1-S6) shows the session controls (SessionReceiverBar):
// a receiver accepts a named or the next available session, and then its Receive and Receive
// deferred go through that session (Broker::receiveFromSession); the session locks held show
// with their countdowns above the message locks. A receiver without a session is told to
// accept one (no raw refusal); a session released or lost takes its message locks with it.
//
// Object names for tests: "lockTitle", "lockReceiver", "lockMode", "lockCount", "lockReceive",
// "deferredSeq", "receiveDeferred", "lockList", "lockEmpty", "lockStatus", "lockComplete",
// "lockAbandon", "lockDeadLetter", "lockDefer", "lockRenew", "lockCopyId", "lockClear",
// "lockAutoRenew", "lockAutoRenewFor", and the BulkProgressBar's ("bulkProgress", "bulkCancel");
// the session controls' (SessionReceiverBar.h), in "sessionBar".

#include "common/CurrentMessage.h"
#include "hourglass/Broker.h"
#include "settle/LockSettler.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreeModel.h"

#include <QWidget>

#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class ColumnLayout;
class MessageTransferActions;
class BulkProgressBar;
class HeldLocks;
class HeldSessions;
class LockAutoRenewer;
class SessionReceiverBar;

class LockPanel : public EntityPanel {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;

    explicit LockPanel(BrokerClient& client, QWidget* parent = nullptr);

    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    QString path() const { return m_path; }

    HeldLocks* locks() const { return m_locks; }
    HeldSessions* sessions() const { return m_sessions; }
    // Whether the entity shown requires sessions (known once its properties were read).
    bool requiresSession() const { return m_requiresSession; }
    QTableView* view() const { return m_view; }
    LockAutoRenewer* autoRenewer() const { return m_renewer; }
    QList<QAction*> actions() const;
    // The message of the selected current row (common/CurrentMessage.h).
    std::optional<MessageRef> currentMessage() const override;
    qint64 selectedCount() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using Settle = LockSettler::Settle;

    QWidget* buildReceiveRow();
    QWidget* buildSettleRow();
    QWidget* buildDeferredRow();
    QAction* addPanelAction(const QString& name, const QString& text, const QKeySequence& key);
    // Receive-and-delete on a remote namespace asks first (RemoteConfirm.h), then receiveNow().
    void receive();
    void receiveNow();
    void receiveDeferred();
    void onReceived(const QString& path, const QString& receiver, ReceiveMode mode,
                    const QList<MessageView>& taken);
    void askSettle(Settle kind);
    void renew();
    void clearFinished();
    void toggleAutoRenew(bool on);
    void arrangeTabOrder();
    // The rows selected; with none, the current row while the table has focus.
    QList<int> pickedRows() const;
    // The sequence numbers of the picked rows still to settle.
    QList<qint64> selectedLocks() const;
    void copyMessageIds();
    QString rememberReceiver();
    void showResult(const QString& text);
    void showError(const Error& error);
    void updateState();
    // A plain receive on an entity that requires sessions: say what to do instead.
    void guideToSessions(const QString& receiver);

    BrokerClient& m_client;
    QString m_path;
    quint64 m_generation = 0; // bumped by setEntity: replies for another entity are dropped
    HeldLocks* m_locks;
    HeldSessions* m_sessions;
    LockAutoRenewer* m_renewer;
    SessionReceiverBar* m_sessionBar = nullptr;
    bool m_requiresSession = false;

    QLabel* m_title;
    QComboBox* m_receiver = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_count = nullptr;
    QSpinBox* m_deferredSeq = nullptr;
    QCheckBox* m_autoRenew = nullptr;
    QLineEdit* m_autoRenewFor = nullptr;
    QLabel* m_status;
    BulkProgressBar* m_bulkBar;
    LockSettler* m_settler;
    QStackedWidget* m_stack;
    QTableView* m_view;
    ColumnLayout* m_columns = nullptr;
    MessageTransferActions* m_transfer = nullptr;
    QLabel* m_empty;
    QList<QAction*> m_actions;
    QList<QWidget*> m_controlRows;
    QAction* m_receiveAction = nullptr;
    QAction* m_receiveDeferredAction = nullptr;
};

} // namespace hourglass::ui
