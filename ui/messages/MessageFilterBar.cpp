#include "messages/MessageFilterBar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace hourglass::ui {

MessageFilterBar::MessageFilterBar(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_bodies(new QCheckBox(tr("Search bodies"), this))
    , m_clear(new QToolButton(this))
    , m_status(new QLabel(this))
    , m_delay(new QTimer(this)) {
    m_edit->setObjectName(QStringLiteral("messageFilter"));
    m_edit->setPlaceholderText(tr("Filter: text, name=value, or * for every message"));
    m_edit->setToolTip(
        tr("Case-insensitive text found in the message id, correlation id, session id, subject, "
           "to, reply-to, content type, dead-letter fields or an application property's name or "
           "value.\nname=value matches an application property exactly."));
    m_bodies->setObjectName(QStringLiteral("searchBodies"));
    m_bodies->setToolTip(tr("Also search the bodies (as UTF-8 text); reads every body"));
    m_status->setObjectName(QStringLiteral("filterStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setEnabled(false); // a quiet, greyed note
    m_clear->setObjectName(QStringLiteral("messageFilterClear"));
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Clear the filter and show every message"));
    m_clear->setAutoRaise(true);
    m_clear->setEnabled(false);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 4);
    layout->setSpacing(6);
    layout->addWidget(m_edit, 2);
    layout->addWidget(m_bodies);
    layout->addWidget(m_clear);
    layout->addWidget(m_status, 3);

    m_delay->setSingleShot(true);
    m_delay->setInterval(kDelayMs);
    connect(m_delay, &QTimer::timeout, this, [this] { request(Apply::IfChanged); });
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        updateClear();
        m_delay->start();
    });
    connect(m_edit, &QLineEdit::returnPressed, this, [this] { request(Apply::Again); });
    connect(m_edit, &QLineEdit::editingFinished, this, [this] { request(Apply::IfChanged); });
    connect(m_bodies, &QCheckBox::toggled, this, [this] { request(Apply::IfChanged); });
    connect(m_clear, &QToolButton::clicked, this, [this] {
        m_edit->clear();
        request(Apply::IfChanged);
    });
}

MessageMatcher MessageFilterBar::matcher() const {
    return MessageMatcher(m_edit->text(), m_bodies->isChecked() ? MessageMatcher::Bodies::Search
                                                                : MessageMatcher::Bodies::Skip);
}

void MessageFilterBar::setStatus(const QString& text) {
    m_status->setText(text);
}

void MessageFilterBar::setActive(bool active) {
    m_active = active;
    updateClear();
}

void MessageFilterBar::request(Apply apply) {
    m_delay->stop();
    emit applyRequested(apply);
}

void MessageFilterBar::updateClear() {
    m_clear->setEnabled(m_active || !m_edit->text().isEmpty());
}

} // namespace hourglass::ui
