// tls_dialog_shots <directory> <light|dark>: pictures of View > AMQP endpoint… with the TLS port
// serving (offscreen), to look at before calling it done. Not a test: nothing is asserted.
// Writes tls-window-WxH.png (the window with its status bar, at 1024x700 and 1600x1000),
// tls-dialog.png (the dialog at its own size), tls-dialog-wide.png (stretched by the user),
// tls-dialog-deep.png (an authority in a deep folder: paths elided in the middle) and
// tls-dialog-off.png (TLS just checked, not serving yet), tls-busy-window-1024x700.png and
// tls-dialog-busy.png (the TLS port taken by another program).
// Build it with `ninja -C build tls_dialog_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "common/Theme.h"
#include "connections/AmqpService.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

void require(bool ok, const char* what) {
    if (!ok)
        qFatal("tls_dialog_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(80); // a resize or a new widget is laid out on the next turns of the loop
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

// Serves with TLS on, the authority in `folder`, and waits until the TLS port listens.
void serveTls(MainWindow& window, const QString& folder) {
    window.amqp()->setCertificateFolder(folder);
    AmqpSettings settings = window.amqp()->settings();
    settings.tlsEnabled = true;
    window.amqp()->apply(settings);
    require(QTest::qWaitFor([&] { return window.amqp()->tlsTrust().serving; }, 15000),
            "the TLS port");
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass"));
    QCoreApplication::setApplicationName(QStringLiteral("hourglass"));
    if (argc != 3) {
        QTextStream(stderr) << "usage: tls_dialog_shots <directory> <light|dark>" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    applyTheme(themeChoiceFromName(QString::fromLocal8Bit(argv[2])));
    QSettings().remove(QStringLiteral("amqp"));
    AmqpSettings settings;
    settings.port = 0;
    settings.tlsPort = 0;
    settings.save();
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());

    QTemporaryDir dir;
    MainWindow window;
    window.serveAmqp();
    window.openDatabase(dir.filePath(QStringLiteral("shots.db")));
    window.resize(1024, 700);
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    require(QTest::qWaitFor([&] { return window.client() != nullptr; }, 10000), "the database");

    // TLS just checked in the dialog: nothing serves it yet.
    QDialog* dialog = window.openAmqpSettings();
    dialog->findChild<QCheckBox*>(QStringLiteral("amqpTlsEnabled"))->setChecked(true);
    save(dialog, directory, QStringLiteral("tls-dialog-off.png"));
    dialog->reject();

    // Serving, the authority in the folder serve uses (test mode: under ~/.qttest).
    serveTls(window, window.amqp()->certificateFolder());
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        window.resize(size);
        save(&window, directory,
             QStringLiteral("tls-window-%1x%2.png").arg(size.width()).arg(size.height()));
    }
    window.resize(1024, 700);
    dialog = window.openAmqpSettings();
    save(dialog, directory, QStringLiteral("tls-dialog.png"));
    dialog->resize(1100, dialog->height());
    save(dialog, directory, QStringLiteral("tls-dialog-wide.png"));
    dialog->reject();

    QTemporaryDir deepRoot;
    serveTls(window, QDir(deepRoot.path())
                         .filePath(QStringLiteral("Projects/customer-onboarding-service/"
                                                  "local development certificates/tls")));
    dialog = window.openAmqpSettings();
    save(dialog, directory, QStringLiteral("tls-dialog-deep.png"));
    dialog->reject();

    // The TLS port taken by another program: the plain port serves on, the bar and dialog say.
    QTcpServer taken;
    require(taken.listen(QHostAddress::LocalHost), "a port to take");
    AmqpSettings busy = window.amqp()->settings();
    busy.tlsPort = taken.serverPort();
    window.amqp()->apply(busy);
    require(QTest::qWaitFor([&] { return !window.amqp()->tlsProblem().isEmpty(); }, 15000),
            "the TLS port refused");
    save(&window, directory, QStringLiteral("tls-busy-window-1024x700.png"));
    dialog = window.openAmqpSettings();
    save(dialog, directory, QStringLiteral("tls-dialog-busy.png"));
    dialog->reject();
    return 0;
}
