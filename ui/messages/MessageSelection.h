#pragma once
// The selected rows of a message table, as messages. The table shows either the windowed list
// (MessageListModel: only the loaded pages are in hand) or messages all in hand (search matches).
// A selection may span a million rows of the windowed list, so it is read by row ranges, and
// rows not loaded are only turned into sequence numbers in the background.
//
// A list that pages forward (a namespace without a sequence index: MessageListModel) holds only
// the rows read so far. When every one of them is selected (select all) and more remain to be
// read, the selection stands for every message of the path: count() is the path's total, and
// resolve() reads all their sequence numbers (common/SequenceGather).
//
// Threads: GUI thread only.

#include "hourglass/Status.h"

#include <QList>
#include <QString>

#include <functional>

class QObject;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class MessageListModel;

struct SelectedMessage {
    qint64 sequenceNumber = 0;
    QString messageId;
    bool scheduled = false;
};

class MessageSelection {
public:
    // `windowed` is the panel's windowed model; whether the view shows it decides what is in hand.
    MessageSelection(const QTableView& view, const MessageListModel& windowed);

    // The selected rows whose messages are in hand, in selection order, each once.
    QList<SelectedMessage> inHand() const;
    // How many rows are selected, in hand or not.
    qint64 count() const;
    // The sequence numbers of every selected row. When some are not loaded, the path's sequence
    // numbers are read in the background (refused when the list's count moved since the view
    // read it); done() then runs on context's thread. Else done() runs before this returns.
    void resolve(BrokerClient& client, QObject* context,
                 std::function<void(Result<QList<qint64>>)> done) const;

private:
    bool showsWindowed() const;
    qint64 selectedRows() const;
    // Forward paging: every row read is selected, and more remain to be read.
    bool reachesPastLoaded() const;

    const QTableView& m_view;
    const MessageListModel& m_windowed;
};

} // namespace hourglass::ui
