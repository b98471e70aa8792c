#pragma once
// Starts a drag of the selected messages from a message table (the message list, the
// dead-letter list). The tables' models stay read-only adapters: instead of item flags and
// QAbstractItemView's drag machinery, this filter watches the view's mouse and runs a QDrag whose
// QMimeData says which messages (MessageDrag.h). As in Qt's own views, pressing on a row already
// selected keeps the selection, so that several rows can be dragged; a click without a drag then
// selects that row alone. A drag moves by default; Ctrl at drop time copies.
//
// With enableFiles(), the drag also carries the selection as JSON files (MessageDragFiles), for
// dropping onto a file manager; they are prepared whenever the view's selection changes.
//
// Threads: GUI thread only.

#include "common/MessageDrag.h"
#include "hourglass/Status.h"

#include <QModelIndex>
#include <QObject>
#include <QPoint>
#include <QPointer>

#include <functional>

class QAbstractItemView;
class QItemSelectionModel;
class QMimeData;

namespace hourglass::ui {

class BrokerClient;
class MessageDragFiles;

class MessageDragSource : public QObject {
    Q_OBJECT
public:
    // What the selection is as a drag, read when a drag starts; an error (e.g. rows not loaded
    // yet) refuses the drag and is reported.
    using Provider = std::function<Result<DraggedMessages>()>;

    MessageDragSource(QAbstractItemView* view, Provider provider);

    // The drag's data for the current selection (caller owns it), or null when refused (then
    // `refused` has been emitted).
    QMimeData* createMimeData();

    void enableFiles(BrokerClient& client);
    MessageDragFiles* files() const { return m_files; }

signals:
    void refused(const hourglass::Error& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void startDrag();
    // Follows the view's selection model, which changes when the view's model does.
    void trackSelection();
    void prepareFiles();

    QAbstractItemView* m_view;
    Provider m_provider;
    QPoint m_pressPos;
    QPersistentModelIndex m_pressed;
    bool m_heldSelection = false; // the press landed on a selected row and was kept from the view
    MessageDragFiles* m_files = nullptr;
    QPointer<QItemSelectionModel> m_tracked;
};

} // namespace hourglass::ui
