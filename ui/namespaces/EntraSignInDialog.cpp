#include "namespaces/EntraSignInDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

EntraSignInDialog::EntraSignInDialog(const QString& namespaceName, bool deviceCode, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("entraSignInDialog"));
    setWindowTitle(tr("Sign in with Microsoft Entra ID"));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("entraSignInMessage"));
    m_message->setWordWrap(true);
    m_message->setText(
        deviceCode ? tr("Asking Microsoft Entra ID for a code to open %1…").arg(namespaceName)
                   : tr("Finish signing in to %1 in your browser. This window carries on by "
                        "itself once you have.")
                         .arg(namespaceName));

    m_userCode = new QLabel(this);
    m_userCode->setObjectName(QStringLiteral("entraUserCode"));
    m_userCode->setTextFormat(Qt::PlainText); // the provider's words, never markup
    m_userCode->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont large = m_userCode->font();
    large.setPointSizeF(large.pointSizeF() * 1.6);
    large.setBold(true);
    m_userCode->setFont(large);
    m_userCode->setAlignment(Qt::AlignCenter);
    m_userCode->hide();

    m_address = new QLabel(this);
    m_address->setObjectName(QStringLiteral("entraVerificationUri"));
    m_address->setTextFormat(Qt::RichText);
    m_address->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_address->setOpenExternalLinks(true);
    m_address->setAlignment(Qt::AlignCenter);
    m_address->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("entraCancel"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(m_userCode);
    layout->addWidget(m_address);
    layout->addWidget(buttons);
    setMinimumWidth(fontMetrics().averageCharWidth() * 60);
}

void EntraSignInDialog::showDeviceCode(const remote::DeviceCodePrompt& prompt) {
    m_message->setText(tr("On any device, open the address below and type this code. This "
                          "window carries on by itself once you have signed in."));
    m_userCode->setText(prompt.userCode);
    m_userCode->show();
    const QString address = prompt.verificationUri.toString(QUrl::FullyEncoded);
    m_address->setText(QStringLiteral("<a href=\"%1\">%1</a>").arg(address.toHtmlEscaped()));
    m_address->show();
}

} // namespace hourglass::ui
