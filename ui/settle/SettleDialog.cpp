#include "settle/SettleDialog.h"

#include "common/InlineError.h"
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
    , m_lockNote(new QLabel(this))
    , m_error(makeInlineErrorLabel(QStringLiteral("settleError"), this))
    , m_messageCount(messageCount) {
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

    layout->addWidget(m_error);

    // Greyed like a hint: it reassures, it does not ask for anything. Hidden until the opener
    // keeps the locks alive.
    m_lockNote->setObjectName(QStringLiteral("settleLockNote"));
    m_lockNote->setWordWrap(true);
    m_lockNote->hide();
    layout->addWidget(m_lockNote);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("settleOk"));
    m_ok->setText(titleFor(kind, messageCount).section(QLatin1Char(' '), 0, 0));
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

void SettleDialog::showRemoteNamespace(const QString& line) {
    if (line.isEmpty())
        return;
    auto* label = new QLabel(line, this);
    label->setObjectName(QStringLiteral("settleRemoteNamespace"));
    label->setWordWrap(true);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, label);
}

void SettleDialog::showLocksKeptAlive() {
    m_lockNote->setEnabled(false);
    m_lockNote->setText(m_messageCount == 1
                            ? tr("The lock is kept alive while this dialog is open.")
                            : tr("The locks are kept alive while this dialog is open."));
    m_lockNote->show();
}

void SettleDialog::showLockLost(qint64 sequenceNumber) {
    m_lost.insert(sequenceNumber);
    // Full colour now: this is news the user needs before pressing OK. Not red, though: nothing
    // was done wrong, and nothing is broken; the message is simply available again.
    m_lockNote->setEnabled(true);
    const bool allLost = int(m_lost.size()) >= m_messageCount;
    if (m_messageCount == 1)
        m_lockNote->setText(tr("The lock was lost before it could be renewed, so the message is "
                               "back in the queue for any receiver. Cancel, then receive it again "
                               "to settle it."));
    else
        m_lockNote->setText(tr("%1 of %2 locks were lost before they could be renewed; those "
                               "messages are back in the queue. %3")
                                .arg(m_lost.size())
                                .arg(m_messageCount)
                                .arg(allLost ? tr("Cancel, then receive them again to settle "
                                                  "them.")
                                             : tr("OK settles the others; receive the lost ones "
                                                  "again to settle them.")));
    m_lockNote->show();
    m_ok->setEnabled(!allLost);
}

void SettleDialog::showRenewFailed(const Error& error) {
    if (!m_lost.isEmpty())
        return; // the lost lock is the news that matters
    m_lockNote->setEnabled(true);
    m_lockNote->setText(
        tr("Renewing the lock failed (%1); it holds until it runs out.")
            .arg(errorCodeName(error.code) + QStringLiteral(": ") + error.description));
    m_lockNote->show();
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
