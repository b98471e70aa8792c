#include "window/MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace hourglass::ui {

MessageBar::MessageBar(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_close(new QToolButton(this)) {
    setObjectName(QStringLiteral("messageBar"));
    m_label->setObjectName(QStringLiteral("messageBarText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setObjectName(QStringLiteral("messageBarClose"));
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    setAutoFillBackground(true);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void MessageBar::showMessage(const QString& text, Kind kind) {
    m_kind = kind;
    m_source.clear();
    QPalette colours = palette();
    // Soft backgrounds that read in light and dark themes alike.
    colours.setColor(QPalette::Window,
                     kind == Kind::Error ? QColor(0xf8, 0xd7, 0xda) : QColor(0xd9, 0xe8, 0xfb));
    colours.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    setPalette(colours);
    m_label->setText(text);
    show();
}

void MessageBar::showError(const Error& error, const QString& context, const QString& source) {
    QString text = QStringLiteral("<b>%1</b>: %2")
                       .arg(errorCodeName(error.code), error.description.toHtmlEscaped());
    if (!context.isEmpty())
        text = context.toHtmlEscaped() + QStringLiteral(" — ") + text;
    text += QStringLiteral("<br><small>Tracking id %1 · %2</small>")
                .arg(error.trackingId,
                     error.retryable ? tr("a retry may succeed") : tr("retrying will not help"));
    showMessage(text, Kind::Error);
    m_source = source;
}

void MessageBar::sourceSucceeded(const QString& source) {
    if (m_kind == Kind::Error && !source.isEmpty() && source == m_source)
        hide();
}

void MessageBar::dismissError() {
    if (m_kind == Kind::Error)
        hide();
}

QString MessageBar::text() const {
    return m_label->text();
}

} // namespace hourglass::ui
