#include "namespaces/EntraChoiceBox.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>

namespace hourglass::ui {

EntraChoiceBox::EntraChoiceBox(QWidget* dialog)
    : QObject(dialog) {
    m_signIn = new QCheckBox(tr("Sign in with Microsoft Entra ID"), dialog);
    m_signIn->setObjectName(QStringLiteral("entraSignIn"));
    m_signIn->setToolTip(tr("The string has no key: sign in as yourself, with your app "
                            "registration, in the browser"));
    m_tenant = new QLineEdit(dialog);
    m_tenant->setObjectName(QStringLiteral("entraTenant"));
    m_tenant->setPlaceholderText(tr("organizations, or your directory's id or domain"));
    m_clientId = new QLineEdit(dialog);
    m_clientId->setObjectName(QStringLiteral("entraClientId"));
    m_clientId->setPlaceholderText(tr("The application (client) id of your app registration"));
    m_authority = new QLineEdit(dialog);
    m_authority->setObjectName(QStringLiteral("entraAuthority"));
    m_authority->setPlaceholderText(QStringLiteral("https://login.microsoftonline.com"));
    m_authority->setToolTip(tr("Another address only for a national cloud"));
    m_deviceCode =
        new QCheckBox(tr("Use a device code (sign in from another device's browser)"), dialog);
    m_deviceCode->setObjectName(QStringLiteral("entraDeviceCode"));

    for (QLineEdit* field : {m_tenant, m_clientId, m_authority})
        connect(field, &QLineEdit::textChanged, this, &EntraChoiceBox::update);
    for (QCheckBox* box : {m_signIn, m_deviceCode})
        connect(box, &QCheckBox::toggled, this, &EntraChoiceBox::update);
    update();
}

void EntraChoiceBox::addRows(QFormLayout* form) {
    m_form = form;
    form->addRow(QString(), m_signIn);
    form->addRow(tr("Tenant:"), m_tenant);
    form->addRow(tr("Application id:"), m_clientId);
    form->addRow(tr("Authority:"), m_authority);
    form->addRow(QString(), m_deviceCode);
    update();
}

void EntraChoiceBox::setAvailable(bool available) {
    if (available == m_available)
        return;
    m_available = available;
    update();
}

EntraChoice EntraChoiceBox::choice() const {
    EntraChoice choice;
    choice.signIn = m_available && m_signIn->isChecked();
    choice.tenant = m_tenant->text().trimmed();
    choice.clientId = m_clientId->text().trimmed();
    choice.authority = m_authority->text().trimmed();
    choice.deviceCode = m_deviceCode->isChecked();
    return choice;
}

bool EntraChoiceBox::isComplete() const {
    const EntraChoice now = choice();
    return !now.signIn || !now.clientId.isEmpty();
}

void EntraChoiceBox::update() {
    const bool chosen = m_signIn->isChecked();
    for (QWidget* field :
         std::initializer_list<QWidget*>{m_tenant, m_clientId, m_authority, m_deviceCode})
        field->setEnabled(chosen);
    if (m_form)
        for (QWidget* row : std::initializer_list<QWidget*>{m_signIn, m_tenant, m_clientId,
                                                            m_authority, m_deviceCode})
            m_form->setRowVisible(row, m_available);
    emit changed();
}

} // namespace hourglass::ui
