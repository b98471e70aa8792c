#pragma once
// View > AMQP endpoint…: on or off, the address and port, the key applications sign their
// tokens with (empty: the emulator's well-known SAS_KEY_VALUE, which only loopback addresses
// accept), and the extra host names a token may name (serve's --accept-host). Why the endpoint
// is not serving, when it should (a busy port), shows above the form. With the TLS port on, how
// applications reach and trust it (TlsTrustPanel) shows below.

#include "AmqpService.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace hourglass::ui {

class TlsTrustPanel;

class AmqpSettingsDialog : public QDialog {
    Q_OBJECT
public:
    // `problem`: why the endpoint is not serving although it should (AmqpService::problem);
    // empty: nothing shown.
    explicit AmqpSettingsDialog(const AmqpSettings& settings, const QString& problem = {},
                                QWidget* parent = nullptr);
    AmqpSettings settings() const;
    // What the running endpoint's TLS port serves, and why it does not when it should.
    void setTlsTrust(const AmqpService::TlsTrust& trust, const QString& problem);
    // "containers.local, host.docker.internal" → the names, lower case, without duplicates.
    static QStringList parseHostNames(const QString& text);

private:
    QCheckBox* m_enabled;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QLineEdit* m_key;
    QLineEdit* m_acceptedHosts;
    QCheckBox* m_tlsEnabled;
    QSpinBox* m_tlsPort;
    TlsTrustPanel* m_tlsTrust;
};

} // namespace hourglass::ui
