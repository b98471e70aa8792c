#pragma once
// The Connect dialog's Microsoft Entra ID part, for a connection string without a key: "Sign in
// with Microsoft Entra ID", the tenant and the application (client) id of the user's app
// registration, the sign-in authority (empty: the global cloud; a national cloud's otherwise),
// and "Use a device code" for a machine whose browser cannot come back to it. Its rows go into
// the dialog's own form (aligned with the others) and show only while the string carries no key
// or signature; its fields only matter while the sign-in is chosen.

#include "namespaces/EntraChoice.h"

#include <QObject>

class QCheckBox;
class QFormLayout;
class QLineEdit;
class QWidget;

namespace hourglass::ui {

class EntraChoiceBox : public QObject {
    Q_OBJECT
public:
    // The fields are made as children of `dialog`.
    explicit EntraChoiceBox(QWidget* dialog);

    // Adds its rows to `form` (once).
    void addRows(QFormLayout* form);
    // Whether the string in the dialog leaves room for it (no key, no signature).
    void setAvailable(bool available);
    // What it says now; signIn is false while it is not available.
    EntraChoice choice() const;
    // False while the sign-in is chosen without an application id.
    bool isComplete() const;

signals:
    void changed();

private:
    void update();

    bool m_available = false;
    QFormLayout* m_form = nullptr;
    QCheckBox* m_signIn;
    QLineEdit* m_tenant;
    QLineEdit* m_clientId;
    QLineEdit* m_authority;
    QCheckBox* m_deviceCode;
};

} // namespace hourglass::ui
