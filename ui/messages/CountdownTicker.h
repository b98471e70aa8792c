#pragma once
// One shared timer for every countdown on screen: on each tick it names the rows a
// table view shows right now, and only those, so a million-row list repaints a screenful of
// countdown cells per tick instead of touching every row.
//
// Threads: GUI thread only.

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <utility>

class QTableView;

namespace hourglass::ui {

class CountdownTicker : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 250;

    explicit CountdownTicker(QTableView* view, int intervalMs = kDefaultIntervalMs,
                             QObject* parent = nullptr);

    // The rows [first, last] the view shows now; first > last when it shows none.
    static std::pair<int, int> visibleRows(const QTableView& view);

    void start() { m_timer.start(); }
    void stop() { m_timer.stop(); }
    bool isActive() const { return m_timer.isActive(); }

signals:
    // The rows whose countdown cells are due for a repaint (MessageListModel::refreshCountdowns).
    void visibleRowsDue(int firstRow, int lastRow);

private:
    void tick();

    QPointer<QTableView> m_view;
    QTimer m_timer;
};

} // namespace hourglass::ui
