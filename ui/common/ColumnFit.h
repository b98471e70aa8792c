#pragma once
// Keeps one column of a table ending inside its viewport: when the column would reach past the
// right edge, it is narrowed (not below `minWidth`) so that its text is elided, with the full
// text in the cell's tooltip, rather than cut off by the edge where nobody reads it. The
// columns after it stay a scroll away. When even `minWidth` would not be in view, the columns in
// `givingWay` (before it) narrow first, down to `minWidth` too. Once the user drags the column's
// width, it is theirs.

#include <QList>
#include <QObject>

class QTableView;

namespace hourglass::ui {

class ColumnFit : public QObject {
    Q_OBJECT
public:
    ColumnFit(QTableView* view, int logicalColumn, int minWidth, QList<int> givingWay = {});

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fit();

    QTableView* m_view;
    int m_column;
    int m_minWidth;
    QList<int> m_givingWay;
    bool m_fitting = false;
    bool m_userSized = false;
};

} // namespace hourglass::ui
