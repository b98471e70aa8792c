#include "common/ElidedLabel.h"

#include <QEvent>
#include <QPainter>
#include <QStyle>

namespace hourglass::ui {

ElidedLabel::ElidedLabel(Qt::TextElideMode mode, QWidget* parent)
    : QLabel(parent)
    , m_mode(mode) {
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Preferred, sizePolicy().verticalPolicy());
}

QString ElidedLabel::shownText() const {
    return fontMetrics().elidedText(text(), m_mode, contentsRect().width());
}

QSize ElidedLabel::minimumSizeHint() const {
    // Room for a few characters and the ellipsis: the rest is in the tooltip.
    const QSize hint = QLabel::minimumSizeHint();
    const int margins = contentsMargins().left() + contentsMargins().right();
    return {std::min(hint.width(), fontMetrics().averageCharWidth() * 8 + margins), hint.height()};
}

bool ElidedLabel::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip)
        updateToolTip(); // the text may have changed since the last paint
    return QLabel::event(event);
}

void ElidedLabel::paintEvent(QPaintEvent* event) {
    if (!isElided()) {
        QLabel::paintEvent(event);
    } else {
        QPainter painter(this);
        style()->drawItemText(&painter, contentsRect(), int(alignment()) | Qt::TextSingleLine,
                              palette(), isEnabled(), shownText(), foregroundRole());
    }
    updateToolTip();
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    updateToolTip();
}

void ElidedLabel::updateToolTip() {
    if (isElided()) {
        if (toolTip().isEmpty() || m_toolTipIsText) {
            if (toolTip() != text())
                setToolTip(text());
            m_toolTipIsText = true;
        }
    } else if (m_toolTipIsText) {
        setToolTip(QString());
        m_toolTipIsText = false;
    }
}

} // namespace hourglass::ui
