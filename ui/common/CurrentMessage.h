#pragma once
// What the message detail panel follows: the message of a list's current row, when that row is
// also selected. Every list that feeds the detail (the Messages, Peek, Receive & settle and
// dead-letter tabs) answers with the same rule, so the detail always shows the row the user sees
// selected in the visible tab, or its empty state. A current row that is not selected is none:
// Qt moves the current index to a neighbour when the current row goes away (a completed lock),
// and that neighbour was never picked by the user.
//
// Threads: GUI thread only.

#include <QList>
#include <QModelIndex>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QAbstractItemView;

namespace hourglass::ui {

struct MessageRef {
    QString path; // qualified: "ns:queue", ".../$deadletterqueue"
    qint64 sequenceNumber = 0;
    friend bool operator==(const MessageRef&, const MessageRef&) = default;
};

// The view's current index when its row is selected; invalid otherwise.
QModelIndex selectedCurrentIndex(const QAbstractItemView& view);

// Calls `changed` (in `context`) whenever selectedCurrentIndex may now answer differently: the
// current row or the selection moved, or the model's rows were removed, inserted, reset, sorted
// or refilled (a windowed list refills its rows in place). A view that changes its model
// disconnects what the last call returned before watching again (the old model lives on).
QList<QMetaObject::Connection> watchCurrentRow(const QAbstractItemView& view, QObject* context,
                                               const std::function<void()>& changed);

} // namespace hourglass::ui
