#pragma once
// What the window shows while a Microsoft Entra ID sign-in waits on the user: "finish signing in
// in your browser", or, for the device code, the code to type and the address to type it at
// (both selectable, the address a link). Cancel (or closing it) ends the sign-in.

#include "hourglass/remote/EntraSignIn.h"

#include <QDialog>

class QLabel;

namespace hourglass::ui {

class EntraSignInDialog : public QDialog {
    Q_OBJECT
public:
    // `namespaceName`: what the window calls the namespace being opened.
    EntraSignInDialog(const QString& namespaceName, bool deviceCode, QWidget* parent = nullptr);

    // The device code has come: show it and where to type it.
    void showDeviceCode(const remote::DeviceCodePrompt& prompt);

private:
    QLabel* m_message;
    QLabel* m_userCode;
    QLabel* m_address;
};

} // namespace hourglass::ui
