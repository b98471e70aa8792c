#pragma once
// Keeps the windowed message list's selection on the messages the user picked while rows shift
// under it. The windowed model's rows are positions: when messages before them leave (a move, a
// delete, a receive by an application) every later row holds another message, and a selection
// kept by position would slide onto messages nobody picked, for the next Move or Delete to act
// on. So when the model says rows are about to shift (MessageListModel::rowsAboutToShift), the
// keeper reads the selected rows' messages that are in hand, and once the rows moved selects
// those messages where they are now. Selected rows whose message went away, or was never loaded
// (a range dragged over pages not read), are left unselected: nothing the user did not pick
// stays selected. The current row follows its message, or else stays where the first dropped
// selected row was (the message after the ones that left), without being selected.
//
// Threads: GUI thread only.

#include <QList>
#include <QObject>

#include <optional>

class QTableView;

namespace hourglass::ui {

class MessageListModel;

class SelectionKeeper : public QObject {
    Q_OBJECT
public:
    // Acts while `view` shows `model` (the message list also shows search matches).
    SelectionKeeper(QTableView& view, MessageListModel& model);

private:
    void capture(int firstRow);
    void restore(int firstRow);

    QTableView& m_view;
    MessageListModel& m_model;
    bool m_captured = false;
    QList<qint64> m_selected;        // the messages of the selected rows from the first shifted
    int m_firstDropped = -1;         // the first selected row from the first shifted, or -1
    int m_currentRow = -1;           // the current row when it was at or after the first shifted
    int m_currentColumn = 0;         // and its column
    std::optional<qint64> m_current; // and its message, when in hand
};

} // namespace hourglass::ui
