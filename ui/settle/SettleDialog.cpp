#include "settle/SettleDialog.h"

#include "common/PropertyTableEditor.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
QString titleFor(SettleDialog::Kind kind, int count) {
    switch (kind) {
    case SettleDialog::Kind::Abandon:
        return QObject::tr("Abandon (%1 selected)").arg(count);
    case SettleDialog::Kind::Defer:
        return QObject::tr("Defer (%1 selected)").arg(count);
    case SettleDialog::Kind::DeadLetter:
        return QObject::tr("Dead-letter (%1 selected)").arg(count);
    }
    return {};
}
} // namespace

SettleDialog::SettleDialog(Kind kind, int messageCount, QWidget* parent)
    : QDialog(parent)
    , m_kind(kind)
    , m_editor(new PropertyTableEditor(this))
    , m_error(new QLabel(this)) {
    setObjectName(QStringLiteral("settleDialog"));
    setWindowTitle(titleFor(kind, messageCount));
    auto* layout = new QVBoxLayout(this);

    if (kind == Kind::DeadLetter) {
        m_reason = new QLineEdit(this);
        m_reason->setObjectName(QStringLiteral("deadLetterReason"));
        m_reason->setPlaceholderText(tr("e.g. ProcessingFailed"));
        m_description = new QPlainTextEdit(this);
        m_description->setObjectName(QStringLiteral("deadLetterDescription"));
        m_description->setPlaceholderText(tr("Why the message cannot be processed"));
        m_description->setMaximumHeight(fontMetrics().height() * 4);
        auto* form = new QFormLayout;
        form->addRow(tr("&Reason:"), m_reason);
        form->addRow(tr("&Description:"), m_description);
        layout->addLayout(form);
    }

    auto* propertiesLabel = new QLabel(tr("Application properties to modify:"), this);
    layout->addWidget(propertiesLabel);
    m_editor->setObjectName(QStringLiteral("settleProperties"));
    layout->addWidget(m_editor, 1);

    m_error->setObjectName(QStringLiteral("settleError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setObjectName(QStringLiteral("settleOk"));
    ok->setText(titleFor(kind, messageCount).section(QLatin1Char(' '), 0, 0));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("settleCancel"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettleDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(480, kind == Kind::DeadLetter ? 360 : 280);
}

QString SettleDialog::reason() const {
    return m_reason ? m_reason->text().trimmed() : QString();
}

QString SettleDialog::description() const {
    return m_description ? m_description->toPlainText().trimmed() : QString();
}

void SettleDialog::tryAccept() {
    const Result<QVariantMap> parsed = m_editor->properties();
    if (!parsed) {
        m_error->setText(parsed.error().description);
        m_error->show();
        return;
    }
    m_properties = *parsed;
    accept();
}

} // namespace hourglass::ui
