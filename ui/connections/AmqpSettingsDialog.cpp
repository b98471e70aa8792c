#include "AmqpSettingsDialog.h"

#include "TlsTrustPanel.h"

#include "common/InlineError.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hourglass::ui {

AmqpSettingsDialog::AmqpSettingsDialog(const AmqpSettings& settings, const QString& problem,
                                       QWidget* parent)
    : QDialog(parent)
    , m_enabled(new QCheckBox(tr("Serve AMQP 1.0 for applications using the Azure SDKs")))
    , m_host(new QLineEdit(settings.host))
    , m_port(new QSpinBox)
    , m_key(new QLineEdit(settings.key))
    , m_acceptedHosts(new QLineEdit(settings.acceptedHosts.join(QStringLiteral(", "))))
    , m_tlsEnabled(new QCheckBox(tr("Serve TLS on port")))
    , m_tlsPort(new QSpinBox)
    , m_tlsTrust(new TlsTrustPanel) {
    setObjectName(QStringLiteral("amqpSettings"));
    setWindowTitle(tr("AMQP endpoint"));
    m_enabled->setObjectName(QStringLiteral("amqpEnabled"));
    m_enabled->setChecked(settings.enabled);
    m_host->setObjectName(QStringLiteral("amqpHost"));
    m_port->setObjectName(QStringLiteral("amqpPort"));
    m_port->setRange(0, 65535);
    m_port->setValue(settings.port);
    m_key->setObjectName(QStringLiteral("amqpKey"));
    m_key->setPlaceholderText(QStringLiteral("SAS_KEY_VALUE"));
    m_acceptedHosts->setObjectName(QStringLiteral("amqpAcceptedHosts"));
    m_acceptedHosts->setPlaceholderText(tr("e.g. host.docker.internal"));
    m_acceptedHosts->setToolTip(
        tr("Host names an application's token may name besides localhost and the address "
           "above, separated by commas: the names containers reach this machine by."));
    m_tlsEnabled->setObjectName(QStringLiteral("amqpTlsEnabled"));
    m_tlsEnabled->setChecked(settings.tlsEnabled);
    m_tlsEnabled->setToolTip(
        tr("A second port where TLS ends first: applications written for Azure connect with "
           "its connection string unchanged, once they trust the local certificate authority."));
    m_tlsPort->setObjectName(QStringLiteral("amqpTlsPort"));
    m_tlsPort->setRange(0, 65535);
    m_tlsPort->setValue(settings.tlsPort);
    m_tlsTrust->show({}, {});

    auto* tlsRow = new QHBoxLayout;
    tlsRow->addWidget(m_tlsEnabled);
    tlsRow->addWidget(m_tlsPort);
    tlsRow->addStretch(1);
    auto* form = new QFormLayout;
    form->addRow(m_enabled);
    form->addRow(tr("Address:"), m_host);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Shared access key:"), m_key);
    form->addRow(tr("Also accept hosts:"), m_acceptedHosts);
    form->addRow(tr("TLS:"), tlsRow);
    auto* note = new QLabel(tr("Applications connect with the connection string the status bar "
                               "copies. Listening on an address other than 127.0.0.1 reaches "
                               "other machines and needs a key of your own."));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    if (!problem.isEmpty()) {
        // Why it is not serving (a busy port), where the port is changed.
        QLabel* notServing = makeInlineErrorLabel(QStringLiteral("amqpProblem"), this);
        notServing->setText(tr("Not serving: %1").arg(problem));
        notServing->show();
        layout->addWidget(notServing);
    }
    layout->addLayout(form);
    layout->addWidget(m_tlsTrust);
    layout->addWidget(note);
    layout->addWidget(buttons);
    const auto follow = [this] {
        m_host->setEnabled(m_enabled->isChecked());
        m_port->setEnabled(m_enabled->isChecked());
        m_key->setEnabled(m_enabled->isChecked());
        m_acceptedHosts->setEnabled(m_enabled->isChecked());
        m_tlsEnabled->setEnabled(m_enabled->isChecked());
        m_tlsPort->setEnabled(m_enabled->isChecked() && m_tlsEnabled->isChecked());
        m_tlsTrust->setVisible(m_enabled->isChecked() && m_tlsEnabled->isChecked());
    };
    connect(m_enabled, &QCheckBox::toggled, this, follow);
    connect(m_tlsEnabled, &QCheckBox::toggled, this, follow);
    follow();
    // Wide enough for a connection string's start and a path's both ends.
    setMinimumWidth(fontMetrics().averageCharWidth() * 112);
}

void AmqpSettingsDialog::setTlsTrust(const AmqpService::TlsTrust& trust, const QString& problem) {
    m_tlsTrust->show(trust, problem);
}

AmqpSettings AmqpSettingsDialog::settings() const {
    AmqpSettings settings;
    settings.enabled = m_enabled->isChecked();
    settings.host = m_host->text().trimmed();
    settings.port = quint16(m_port->value());
    settings.key = m_key->text().trimmed();
    settings.acceptedHosts = parseHostNames(m_acceptedHosts->text());
    settings.tlsEnabled = m_tlsEnabled->isChecked();
    settings.tlsPort = quint16(m_tlsPort->value());
    return settings;
}

QStringList AmqpSettingsDialog::parseHostNames(const QString& text) {
    QStringList names;
    for (const QString& part :
         text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts)) {
        const QString name = part.trimmed().toLower();
        if (!name.isEmpty() && !names.contains(name))
            names.append(name);
    }
    return names;
}

} // namespace hourglass::ui
