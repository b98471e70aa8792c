#pragma once
// View > AMQP endpoint…: on or off, the address and port, and the key applications sign their
// tokens with (empty: the emulator's well-known SAS_KEY_VALUE, which only loopback addresses
// accept).

#include "AmqpService.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace hourglass::ui {

class AmqpSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit AmqpSettingsDialog(const AmqpSettings& settings, QWidget* parent = nullptr);
    AmqpSettings settings() const;

private:
    QCheckBox* m_enabled;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QLineEdit* m_key;
};

} // namespace hourglass::ui
