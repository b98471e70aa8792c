// connect_dialog_shots <directory> <light|dark>: pictures of the Connect dialog at its natural
// size (offscreen), to look at before calling it done. Not a test: nothing is asserted. Run it
// through secret-service.sh (with: the keychain answers; without: the dialog's note shows).
// Writes connect-empty.png, connect-azure.png (a string parsed, the plan line, options),
// connect-error.png (a refused string), connect-emulator.png (both emulator strings),
// connect-entra.png (a string without a key, signing in with Microsoft Entra ID) and
// entra-device-code.png (the device code shown while the sign-in waits).

#include "common/Theme.h"
#include "namespaces/ConnectDialog.h"
#include "namespaces/EntraSignInDialog.h"
#include "namespaces/SavedNamespaces.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace hourglass::ui;

namespace {

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(150); // a new text is laid out on the next turns of the loop
    widget->adjustSize();
    QTest::qWait(50);
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << " " << widget->width()
                        << "x" << widget->height() << Qt::endl;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 3) {
        QTextStream(stderr) << "usage: connect_dialog_shots <directory> <light|dark>" << Qt::endl;
        return 2;
    }
    applyTheme(themeChoiceFromName(QString::fromLocal8Bit(argv[2])));
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    const QString suffix = QStringLiteral("-") + QString::fromLocal8Bit(argv[2]);
    QTemporaryDir home;
    QSettings settings(home.filePath(QStringLiteral("shots.ini")), QSettings::IniFormat);
    SavedNamespaces store(&settings, QStringLiteral("hourglass-shots"));
    store.checkKeychain();
    if (!QTest::qWaitFor([&] { return store.keychain() != SavedNamespaces::Keychain::Unknown; },
                         10000))
        QTextStream(stderr) << "the keychain did not answer" << Qt::endl;

    ConnectDialog dialog(&store);
    dialog.show();
    save(&dialog, directory, QStringLiteral("connect-empty%1.png").arg(suffix));

    auto* connection = dialog.findChild<QLineEdit*>(QStringLiteral("connectionString"));
    connection->setText(
        QStringLiteral("Endpoint=sb://contoso-orders.servicebus.windows.net/;SharedAccessKeyName="
                       "RootManageSharedAccessKey;SharedAccessKey=c2VjcmV0LWtleS12YWx1ZQ=="));
    dialog.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("Production"));
    dialog.findChild<QCheckBox*>(QStringLiteral("readOnly"))->setChecked(true);
    save(&dialog, directory, QStringLiteral("connect-azure%1.png").arg(suffix));

    connection->setText(QStringLiteral("Endpoint=https://contoso.example/;SharedAccessKey=abc"));
    save(&dialog, directory, QStringLiteral("connect-error%1.png").arg(suffix));

    connection->setText(
        QStringLiteral("Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;"
                       "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;"));
    dialog.findChild<QLineEdit*>(QStringLiteral("adminConnectionString"))
        ->setText(QStringLiteral(
            "Endpoint=sb://localhost:5300;SharedAccessKeyName=RootManageSharedAccessKey;"
            "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;"));
    dialog.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("Emulator"));
    save(&dialog, directory, QStringLiteral("connect-emulator%1.png").arg(suffix));

    dialog.findChild<QLineEdit*>(QStringLiteral("adminConnectionString"))->clear();
    connection->setText(QStringLiteral("Endpoint=sb://contoso-orders.servicebus.windows.net/"));
    dialog.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("Contoso"));
    dialog.findChild<QCheckBox*>(QStringLiteral("entraSignIn"))->setChecked(true);
    dialog.findChild<QLineEdit*>(QStringLiteral("entraTenant"))
        ->setText(QStringLiteral("contoso.onmicrosoft.com"));
    dialog.findChild<QLineEdit*>(QStringLiteral("entraClientId"))
        ->setText(QStringLiteral("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"));
    save(&dialog, directory, QStringLiteral("connect-entra%1.png").arg(suffix));

    EntraSignInDialog signIn(QStringLiteral("Contoso"), true);
    signIn.show();
    signIn.showDeviceCode({QStringLiteral("HGLS7Q2KX"),
                           QUrl(QStringLiteral("https://microsoft.com/devicelogin")), 900});
    save(&signIn, directory, QStringLiteral("entra-device-code%1.png").arg(suffix));
    return 0;
}
