#pragma once
// Draws the countdown columns of the message list (Time to live, Lock): a bar whose length is the
// fraction of the span still left, with the remaining time over it. The bar is green, amber under
// 25 % and red under 10 %; "never" has no bar; an expired message still listed (T5) is hatched
// red; a lock glyph marks a message whose lock keeps it alive (T6).
//
// It reads MessageListModel::CountdownRole, which the model computes from the engine's clock, so
// the delegate itself holds no time. Cells without a countdown (placeholders) draw as usual.

#include <QStyledItemDelegate>

namespace hourglass::ui {

struct Countdown;

class CountdownDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // What the bar means: time to live (green to red) or a lock (a calm blue that turns red).
    enum class Meaning { TimeToLive, Lock };

    explicit CountdownDelegate(Meaning meaning, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // The bar colour for a fraction of time left.
    static QColor barColor(Meaning meaning, double fraction);

private:
    void drawLockGlyph(QPainter* painter, const QRect& box, const QColor& color) const;
    void drawCountdown(QPainter* painter, const QStyleOptionViewItem& option,
                       const Countdown& countdown) const;

    Meaning m_meaning;
};

} // namespace hourglass::ui
