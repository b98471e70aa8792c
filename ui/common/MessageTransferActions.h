#pragma once
// "Move to…" and "Copy to…" for a view that lists messages: each asks for the selected messages,
// lets the user pick the target entity (EntityPickerDialog), then runs the transfer drag-and-drop
// runs (MessageTransfer.h) and reports it the same way, through statusMessage or errorOccurred.
//
// The view supplies its selection through a callback that may read in the background (the
// windowed list resolves rows it has not loaded) and calls back with the source path and the
// sequence numbers; the view enables the actions when something is selected.
//
// Object names for tests: "moveMessagesAction", "copyMessagesAction"; the picker's own
// (EntityPickerDialog.h). Menus find them by id (kMoveToCommand, kCopyToCommand) in the panel's
// commands (ActionRegistry.h).
//
// Threads: GUI thread only.

#include "common/EntityPickerDialog.h"
#include "common/MessageDrag.h"
#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QWidget;

namespace hourglass::ui {

class BrokerClient;

class MessageTransferActions : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(Result<DraggedMessages>)>;
    // Calls back (on the GUI thread, now or later, unless `context` is gone) with the selection.
    using ResolveSelection = std::function<void(QObject* context, Done done)>;
    enum class Offer { MoveAndCopy, CopyOnly };
    // The ids under which addToContextMenu registers the actions as the panel's commands.
    static constexpr char kMoveToCommand[] = "messages.moveTo";
    static constexpr char kCopyToCommand[] = "messages.copyTo";

    // The actions go on `view`'s context menu (and on `view` for their shortcuts); the picker
    // opens over `view`.
    MessageTransferActions(BrokerClient& client, QWidget* view, ResolveSelection resolve,
                           Offer offer = Offer::MoveAndCopy);

    QList<QAction*> actions() const;
    // Puts the actions on the view's context menu (after a separator when the menu has entries
    // already) and on `panel`, so that their shortcuts work while the panel has focus, and
    // registers them as `panel`'s commands.
    void addToContextMenu(QWidget* panel);
    void setEnabled(bool enabled);
    // The picker opened by the last command, while it is open (for tests).
    EntityPickerDialog* picker() const { return m_picker; }

signals:
    // A move or copy the actions ran went through (before statusMessage says so).
    void transferred(const hourglass::ui::DraggedMessages& messages,
                     hourglass::Broker::Transfer mode);
    void statusMessage(const QString& text);
    void errorOccurred(const hourglass::Error& error);

private:
    void start(Broker::Transfer mode);
    void pick(const DraggedMessages& messages, Broker::Transfer mode);

    BrokerClient& m_client;
    QWidget* m_view;
    ResolveSelection m_resolve;
    QAction* m_move = nullptr;
    QAction* m_copy;
    QPointer<EntityPickerDialog> m_picker; // deletes itself on close
};

} // namespace hourglass::ui
