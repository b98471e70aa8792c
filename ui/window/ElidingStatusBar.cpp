#include "window/ElidingStatusBar.h"

#include <QPaintEvent>
#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>

namespace hourglass::ui {

ElidingStatusBar::ElidingStatusBar(QWidget* parent)
    : QStatusBar(parent) {
    setObjectName(QStringLiteral("statusBar"));
    connect(this, &QStatusBar::messageChanged, this, &ElidingStatusBar::updateToolTip);
}

QRect ElidingStatusBar::messageRect() const {
    // As QStatusBar lays the message out: from the left edge to the first widget still shown
    // while a message is (the permanent ones), or to the size grip.
    int right = width() - 12;
    for (QObject* child : children()) {
        auto* widget = qobject_cast<QWidget*>(child);
        if (widget && widget->isVisible() && !widget->isWindow() &&
            !qobject_cast<QSizeGrip*>(widget))
            right = std::min(right, widget->x() - 4);
    }
    const int left = 6;
    return QRect(left, 0, std::max(0, right - left), height());
}

QString ElidingStatusBar::shownMessage() const {
    return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, messageRect().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event) {
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // QStatusBar's own painting, with the message elided instead of cut off.
    QPainter painter(this);
    QStyleOption panel;
    panel.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &panel, &painter, this);
    for (QObject* child : children()) {
        auto* widget = qobject_cast<QWidget*>(child);
        if (!widget || !widget->isVisible() || widget->isWindow() ||
            qobject_cast<QSizeGrip*>(widget))
            continue;
        QStyleOption frame(0);
        frame.rect = widget->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &painter, widget);
    }
    painter.setPen(palette().windowText().color());
    painter.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
                     shownMessage());
    updateToolTip();
}

void ElidingStatusBar::resizeEvent(QResizeEvent* event) {
    QStatusBar::resizeEvent(event);
    updateToolTip();
}

void ElidingStatusBar::updateToolTip() {
    const QString message = currentMessage();
    if (!message.isEmpty() && shownMessage() != message) {
        setToolTip(message);
        m_toolTipIsMessage = true;
    } else if (m_toolTipIsMessage) {
        setToolTip(QString());
        m_toolTipIsMessage = false;
    }
}

} // namespace hourglass::ui
