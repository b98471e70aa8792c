#pragma once
// Ctrl+Home and Ctrl+End in a message table go to the first and the last row, keeping the
// column, and select that row (with Shift, the rows from the current one to it). A QTableView
// alone would go to the first or last column as well, and with Ctrl leave the selection where
// it was, so the message detail would not follow.
//
// The windowed list (MessageListModel) counts every row from its index, so the last row of a
// million is known at once: the jump scrolls there without reading anything, and the rows on
// screen read their page in the background (placeholders meanwhile). Nothing waits on the GUI
// thread, and nothing reads the rows in between.
//
// Threads: GUI thread only.

#include <QObject>

class QTableView;

namespace hourglass::ui {

class RowJumpKeys : public QObject {
    Q_OBJECT
public:
    // Installs itself on `view` (and is its child).
    explicit RowJumpKeys(QTableView* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void jump(bool toLast, bool extend);

    QTableView* m_view;
};

} // namespace hourglass::ui
