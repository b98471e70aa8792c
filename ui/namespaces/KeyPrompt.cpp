#include "namespaces/KeyPrompt.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

using Credential = remote::ConnectionString::Credential;

bool needsSecret(const remote::ConnectionString& connection) {
    return connection.credential != Credential::None;
}

QString fieldLabel(const remote::ConnectionString& connection) {
    return connection.credential == Credential::SignatureOnly
               ? QObject::tr("Shared access signature:")
               : QObject::tr("Key (%1):").arg(connection.keyName);
}

QLineEdit* makeField(const QString& objectName, QWidget* parent) {
    auto* field = new QLineEdit(parent);
    field->setObjectName(objectName);
    field->setEchoMode(QLineEdit::Password);
    field->setClearButtonEnabled(true);
    field->setMinimumWidth(field->fontMetrics().averageCharWidth() * 48);
    return field;
}

// The typed text as the part of the secret the string's credential needs.
void fill(const remote::ConnectionString& connection, const QString& text, QString* key,
          QString* signature) {
    if (connection.credential == Credential::SignatureOnly)
        *signature = text;
    else
        *key = text;
}

} // namespace

KeyPrompt::KeyPrompt(const SavedNamespace& saved, const QString& why, QWidget* parent)
    : QDialog(parent)
    , m_saved(saved)
    , m_key(makeField(QStringLiteral("keyField"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("keyPrompt"));
    setWindowTitle(tr("Open %1").arg(saved.name));
    auto* layout = new QVBoxLayout(this);
    auto* reason = new QLabel(why, this);
    reason->setObjectName(QStringLiteral("keyPromptReason"));
    reason->setWordWrap(true);
    layout->addWidget(reason);
    auto* form = new QFormLayout;
    form->addRow(tr("Namespace:"), new QLabel(saved.connection.displayName(), this));
    form->addRow(fieldLabel(saved.connection), m_key);
    if (saved.admin && needsSecret(*saved.admin)) {
        m_adminKey = makeField(QStringLiteral("adminKeyField"), this);
        form->addRow(tr("Administration %1").arg(fieldLabel(*saved.admin).toLower()), m_adminKey);
        connect(m_adminKey, &QLineEdit::textChanged, this, &KeyPrompt::update);
    }
    layout->addLayout(form);
    auto* note = new QLabel(tr("Used to open the namespace this once; not kept."), this);
    note->setEnabled(false);
    layout->addWidget(note);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    layout->addWidget(m_buttons);
    connect(m_key, &QLineEdit::textChanged, this, &KeyPrompt::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &KeyPrompt::give);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
}

void KeyPrompt::update() {
    const bool ready = !m_key->text().trimmed().isEmpty() &&
                       (!m_adminKey || !m_adminKey->text().trimmed().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ready);
}

void KeyPrompt::give() {
    NamespaceSecret secret;
    fill(m_saved.connection, m_key->text().trimmed(), &secret.key, &secret.signature);
    if (m_adminKey && m_saved.admin)
        fill(*m_saved.admin, m_adminKey->text().trimmed(), &secret.adminKey,
             &secret.adminSignature);
    emit secretGiven(secret);
    accept();
}

} // namespace hourglass::ui
