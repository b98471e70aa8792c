#include "namespaces/ConnectDialog.h"

#include "common/InlineError.h"
#include "namespaces/ConnectionPlan.h"
#include "namespaces/EntraChoiceBox.h"
#include "namespaces/SavedNamespaces.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

QLineEdit* makeSecretField(const QString& objectName, const QString& placeholder, QWidget* parent) {
    auto* field = new QLineEdit(parent);
    field->setObjectName(objectName);
    field->setEchoMode(QLineEdit::Password);
    field->setPlaceholderText(placeholder);
    field->setClearButtonEnabled(true);
    // A pasted string is long: room for the start of one without the dialog growing with it.
    field->setMinimumWidth(field->fontMetrics().averageCharWidth() * 80);
    return field;
}

// Reads one string field: the parsed string, or its problem shown under it (never its text).
std::optional<remote::ConnectionString> readField(QLineEdit* field, QLabel* error, bool* valid) {
    const QString text = field->text().trimmed();
    *valid = true;
    error->hide();
    markInvalid(field, false);
    if (text.isEmpty())
        return std::nullopt;
    Result<remote::ConnectionString> parsed = remote::parseConnectionString(text);
    if (!parsed) {
        *valid = false;
        showInlineError(error, parsed.error());
        markInvalid(field, true);
        return std::nullopt;
    }
    return parsed.value();
}

} // namespace

ConnectDialog::ConnectDialog(SavedNamespaces* namespaces, QWidget* parent)
    : QDialog(parent)
    , m_namespaces(namespaces) {
    setWindowTitle(tr("Connect to Namespace"));

    m_connection = makeSecretField(
        QStringLiteral("connectionString"),
        tr("Endpoint=sb://NAME.servicebus.windows.net/;SharedAccessKeyName=…;SharedAccessKey=…"),
        this);
    m_showSecret = new QCheckBox(tr("Show"), this);
    m_showSecret->setObjectName(QStringLiteral("showSecret"));
    m_showSecret->setToolTip(tr("Show the connection strings, keys included"));
    m_connectionError = makeInlineErrorLabel(QStringLiteral("connectionError"), this);
    // The parser's problems are one short sentence: on one line, a wrapped label would be
    // measured at too narrow a width and leave a gap under it.
    m_connectionError->setWordWrap(false);

    m_admin =
        makeSecretField(QStringLiteral("adminConnectionString"),
                        tr("Optional: the emulator's administration string (port 5300)"), this);
    m_adminError = makeInlineErrorLabel(QStringLiteral("adminConnectionError"), this);
    m_adminError->setWordWrap(false);

    m_plan = new QLabel(this);
    m_plan->setObjectName(QStringLiteral("plan"));
    m_plan->setWordWrap(true);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_webSockets =
        new QCheckBox(tr("Send AMQP over WebSockets (for networks that block 5671)"), this);
    m_webSockets->setObjectName(QStringLiteral("webSockets"));
    m_readOnly = new QCheckBox(tr("Read-only: peek and browse, never change anything"), this);
    m_readOnly->setObjectName(QStringLiteral("readOnly"));
    m_entra = new EntraChoiceBox(this);

    m_caFile = new QLineEdit(this);
    m_caFile->setObjectName(QStringLiteral("caFile"));
    m_caFile->setPlaceholderText(tr("Optional: a PEM file of a certificate authority to trust"));
    auto* chooseCa = new QPushButton(tr("Choose…"), this);
    chooseCa->setObjectName(QStringLiteral("chooseCaFile"));
    m_caError = makeInlineErrorLabel(QStringLiteral("caFileError"), this);
    m_caError->setWordWrap(false);

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));

    m_keychainNote = new QLabel(SavedNamespaces::unavailableText(), this);
    m_keychainNote->setObjectName(QStringLiteral("keychainNote"));
    m_keychainNote->setWordWrap(true);
    m_keychainNote->hide();
    m_saveProblem = makeInlineErrorLabel(QStringLiteral("saveProblem"), this, 0);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_save = buttons->addButton(tr("Save"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("save"));
    m_save->setDefault(true);

    auto* connectionRow = new QHBoxLayout;
    connectionRow->addWidget(m_connection, 1);
    connectionRow->addWidget(m_showSecret);
    auto* caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(chooseCa);

    auto* form = new QFormLayout;
    form->addRow(tr("Connection string:"), connectionRow);
    form->addRow(QString(), m_connectionError);
    form->addRow(tr("Administration:"), m_admin);
    form->addRow(QString(), m_adminError);
    form->addRow(tr("Opens with:"), m_plan);
    form->addRow(QString(), m_webSockets);
    form->addRow(QString(), m_readOnly);
    m_entra->addRows(form);
    form->addRow(tr("Extra CA file:"), caRow);
    form->addRow(QString(), m_caError);
    form->addRow(tr("Name:"), m_name);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_keychainNote);
    layout->addWidget(m_saveProblem);
    layout->addWidget(buttons);

    connect(m_connection, &QLineEdit::textChanged, this, &ConnectDialog::update);
    connect(m_admin, &QLineEdit::textChanged, this, &ConnectDialog::update);
    connect(m_webSockets, &QCheckBox::toggled, this, &ConnectDialog::update);
    connect(m_caFile, &QLineEdit::textChanged, this, &ConnectDialog::update);
    connect(m_entra, &EntraChoiceBox::changed, this, &ConnectDialog::update);
    connect(m_showSecret, &QCheckBox::toggled, this, [this](bool shown) {
        const auto mode = shown ? QLineEdit::Normal : QLineEdit::Password;
        m_connection->setEchoMode(mode);
        m_admin->setEchoMode(mode);
    });
    connect(chooseCa, &QPushButton::clicked, this, &ConnectDialog::chooseCaFile);
    connect(m_save, &QPushButton::clicked, this, &ConnectDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_namespaces, &SavedNamespaces::keychainChanged, this,
            &ConnectDialog::updateKeychainNote);
    connect(m_namespaces, &SavedNamespaces::saved, this, &ConnectDialog::onSaved);

    update();
    updateKeychainNote();
    if (m_namespaces->keychain() == SavedNamespaces::Keychain::Unknown)
        m_namespaces->checkKeychain();
}

void ConnectDialog::update() {
    bool connectionValid = true;
    m_parsed = readField(m_connection, m_connectionError, &connectionValid);
    m_parsedAdmin = readField(m_admin, m_adminError, &m_adminValid);

    // WebSockets are carried by TLS (wss://): an emulator-style string speaks plain AMQP.
    const bool tls = !m_parsed || m_parsed->usesTls();
    m_webSockets->setEnabled(tls);
    if (!tls)
        m_webSockets->setChecked(false);
    m_webSockets->setToolTip(tls ? tr("AMQP inside HTTPS on port 443, through the system proxy")
                                 : tr("This string is emulator-style: plain AMQP, no TLS to "
                                      "carry WebSockets"));

    m_plan->setText(m_parsed
                        ? connectionPlanText(*m_parsed, m_parsedAdmin, m_webSockets->isChecked())
                        : tr("Paste a connection string."));
    m_name->setPlaceholderText(m_parsed ? m_parsed->displayName() : QString());

    const QString ca = m_caFile->text().trimmed();
    m_caValid = ca.isEmpty() || QFileInfo(ca).isFile();
    m_caError->setText(m_caValid ? QString() : tr("There is no such file."));
    m_caError->setVisible(!m_caValid);
    markInvalid(m_caFile, !m_caValid);

    m_entra->setAvailable(m_parsed &&
                          m_parsed->credential == remote::ConnectionString::Credential::None);
    m_save->setEnabled(!m_saving && m_parsed && m_adminValid && m_caValid && m_entra->isComplete());
}

void ConnectDialog::updateKeychainNote() {
    m_keychainNote->setVisible(m_namespaces->keychain() == SavedNamespaces::Keychain::Unavailable);
}

void ConnectDialog::chooseCaFile() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Certificate Authority"), m_caFile->text(),
                                     tr("Certificates (*.pem *.crt *.cer);;All files (*)"));
    if (!file.isEmpty())
        m_caFile->setText(file);
}

std::optional<SavedNamespace> ConnectDialog::current() const {
    if (!m_parsed || !m_adminValid)
        return std::nullopt;
    SavedNamespace saved;
    saved.id = m_savedId;
    saved.name = m_name->text().trimmed();
    saved.connection = *m_parsed;
    saved.admin = m_parsedAdmin;
    saved.webSockets = m_webSockets->isChecked();
    saved.readOnly = m_readOnly->isChecked();
    saved.caFile = m_caFile->text().trimmed();
    saved.entra = m_entra->choice();
    return saved;
}

void ConnectDialog::save() {
    const std::optional<SavedNamespace> saved = current();
    if (!saved || !m_caValid)
        return;
    m_saving = true;
    m_saveProblem->hide();
    m_savedId = m_namespaces->save(*saved);
    update();
}

void ConnectDialog::onSaved(const QString& id, bool secretKept, const QString& problem) {
    if (!m_saving || id != m_savedId)
        return;
    m_saving = false;
    update();
    // Without a keychain the note already says the key is asked for each time: that is saved.
    if (secretKept || problem.isEmpty() ||
        m_namespaces->keychain() == SavedNamespaces::Keychain::Unavailable) {
        accept();
        return;
    }
    m_saveProblem->setText(
        tr("Saved without its key, which is asked for each time: the keychain said \"%1\".")
            .arg(problem));
    m_saveProblem->show();
}

} // namespace hourglass::ui
