#pragma once
// A status bar whose temporary message (showMessage) is never cut off under the permanent
// widgets on its right (the database label): a message longer than its room is elided, and the
// full text is the bar's tooltip while it shows.

#include <QStatusBar>

namespace hourglass::ui {

class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);

    // The message as drawn: elided to the room left of the permanent widgets.
    QString shownMessage() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QRect messageRect() const;
    void updateToolTip();

    bool m_toolTipIsMessage = false;
};

} // namespace hourglass::ui
