// The window's TLS port: turned on in View > AMQP endpoint…, it serves TLS with a certificate of
// the local authority (made by a worker, never on the GUI thread) and the administration API
// over HTTPS; the plain port answers the administration API too. The dialog shows how clients
// reach and trust it, each line copyable; the setting persists; off, there is no TLS port.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/ElidedLabel.h"
#include "connections/AmqpService.h"
#include "connections/AmqpSettingsDialog.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include "hourglass/tls/LocalCertificates.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
constexpr int kWaitMs = 15000;

// What an HTTP request without a token is answered with on `socket` (connected or encrypting):
// the status line, or empty when nothing came.
QByteArray statusLineOf(QTcpSocket& socket, quint16 port) {
    socket.write(QStringLiteral("GET /orders?api-version=2021-05 HTTP/1.1\r\nHost: localhost:%1"
                                "\r\nConnection: close\r\n\r\n")
                     .arg(port)
                     .toLatin1());
    QByteArray received;
    QElapsedTimer timer;
    timer.start();
    while (!received.contains("\r\n") && timer.elapsed() < kWaitMs) {
        socket.waitForReadyRead(100);
        received += socket.readAll();
    }
    return received.left(received.indexOf("\r\n"));
}

// A window serving `dir`'s database on free ports, its authority kept in `certificates` (set
// before the database opens, so that a start with TLS on uses it).
struct ServingWindow {
    ServingWindow(QTemporaryDir& dir, const QString& certificates) {
        window.serveAmqp();
        window.amqp()->setCertificateFolder(certificates);
        window.setClient(std::make_unique<BrokerClient>(
            testing::openUiTestBroker(dir, std::make_shared<VirtualClock>())));
    }
    MainWindow window;
};

// Opens View > AMQP endpoint…, sets TLS on or off and presses OK.
void setTlsInTheDialog(MainWindow& window, bool on) {
    QDialog* dialog = window.openAmqpSettings();
    QVERIFY(dialog);
    auto* tls = dialog->findChild<QCheckBox*>(QStringLiteral("amqpTlsEnabled"));
    QVERIFY(tls);
    tls->setChecked(on);
    dialog->findChild<QSpinBox*>(QStringLiteral("amqpTlsPort"))->setValue(0);
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
}

// Clicks the Copy button of the value named `name` and returns what the clipboard holds.
QString copied(QDialog* dialog, const QString& name) {
    QApplication::clipboard()->clear();
    auto* button = dialog->findChild<QToolButton*>(QStringLiteral("copy") + name.at(0).toUpper() +
                                                   name.mid(1));
    if (!button)
        return QStringLiteral("no button for ") + name;
    QTest::mouseClick(button, Qt::LeftButton);
    return QApplication::clipboard()->text();
}
} // namespace

class UiAmqpTlsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() {
        QSettings().remove(QStringLiteral("amqp"));
        AmqpSettings settings;
        settings.port = 0;
        settings.save();
    }

    void theWindowUsesTheFolderServeUsesByDefault() {
        AmqpService service;
        QCOMPARE(service.certificateFolder(), tls::LocalCertificates::defaultFolder());
        QVERIFY(!AmqpSettings::load().tlsEnabled);
        QCOMPARE(AmqpSettings::load().tlsPort, quint16(5671));
    }

    void turningTlsOnServesTlsAndTheAdministrationApi() {
        QTemporaryDir dir;
        QTemporaryDir certificates;
        ServingWindow serving(dir, certificates.path());
        MainWindow& window = serving.window;
        QVERIFY(window.amqp()->endpoint());
        QCOMPARE(window.amqp()->endpoint()->tlsPort(), quint16(0));
        QVERIFY(!window.amqp()->tlsTrust().serving);

        // The plain port answers the administration API as well as AMQP.
        {
            QTcpSocket plain;
            const quint16 port = window.amqp()->endpoint()->port();
            plain.connectToHost(QStringLiteral("127.0.0.1"), port);
            QVERIFY(plain.waitForConnected(kWaitMs));
            QCOMPARE(statusLineOf(plain, port).left(12), QByteArray("HTTP/1.1 401"));
        }

        setTlsInTheDialog(window, true);
        // The certificate is made by a worker: the window's thread went on meanwhile.
        QCOMPARE(window.amqp()->state(), AmqpService::State::Starting);
        QTRY_VERIFY_WITH_TIMEOUT(window.amqp()->endpoint() && window.amqp()->endpoint()->tlsPort(),
                                 kWaitMs);
        QCOMPARE(window.amqp()->state(), AmqpService::State::Serving);
        const AmqpService::TlsTrust trust = window.amqp()->tlsTrust();
        QVERIFY(trust.serving);
        QCOMPARE(trust.caFile, QDir(certificates.path()).filePath(tls::kCaCertificateFile));
        QVERIFY(QFile::exists(trust.caFile));
        QCOMPARE(trust.port, window.amqp()->endpoint()->tlsPort());
        QVERIFY2(window.amqp()->statusText().contains(QStringLiteral("TLS %1").arg(trust.port)),
                 qPrintable(window.amqp()->statusText()));
        auto* status = window.findChild<QToolButton*>(QStringLiteral("amqpStatus"));
        QVERIFY(status);
        QTRY_VERIFY(status->toolTip().contains(window.amqp()->endpoint()->tlsConnectionString()));

        // A client trusting the authority completes the handshake, and the administration API
        // answers it over HTTPS: 401 without a token.
        QSslSocket trusting;
        QSslConfiguration configuration = trusting.sslConfiguration();
        configuration.setCaCertificates(QSslCertificate::fromPath(trust.caFile));
        trusting.setSslConfiguration(configuration);
        trusting.connectToHostEncrypted(QStringLiteral("localhost"), trust.port);
        QVERIFY2(trusting.waitForEncrypted(kWaitMs), qPrintable(trusting.errorString()));
        QCOMPARE(statusLineOf(trusting, trust.port).left(12), QByteArray("HTTP/1.1 401"));

        // One that does not trust it fails the handshake.
        QSslSocket stranger;
        configuration.setCaCertificates({});
        stranger.setSslConfiguration(configuration);
        stranger.connectToHostEncrypted(QStringLiteral("localhost"), trust.port);
        QVERIFY(!stranger.waitForEncrypted(kWaitMs));
        QVERIFY(!stranger.sslHandshakeErrors().isEmpty());

        // Off again: no TLS port, and none said.
        setTlsInTheDialog(window, false);
        QVERIFY(window.amqp()->endpoint());
        QCOMPARE(window.amqp()->endpoint()->tlsPort(), quint16(0));
        QVERIFY(!window.amqp()->tlsTrust().serving);
        QVERIFY(!AmqpSettings::load().tlsEnabled);
        QSslSocket refused;
        refused.connectToHostEncrypted(QStringLiteral("localhost"), trust.port);
        QVERIFY(!refused.waitForEncrypted(kWaitMs));
    }

    void theDialogShowsHowToTrustItAndCopiesEachLine() {
        QTemporaryDir dir;
        QTemporaryDir certificates;
        ServingWindow serving(dir, certificates.path());
        MainWindow& window = serving.window;
        setTlsInTheDialog(window, true);
        QTRY_VERIFY_WITH_TIMEOUT(window.amqp()->tlsTrust().serving, kWaitMs);
        const AmqpService::TlsTrust trust = window.amqp()->tlsTrust();

        QDialog* dialog = window.openAmqpSettings();
        auto* panel = dialog->findChild<QWidget*>(QStringLiteral("tlsTrust"));
        QVERIFY(panel);
        QVERIFY(panel->isVisibleTo(dialog));
        QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("tlsWaiting"))->isVisibleTo(dialog));
        // The setting persisted: the dialog shows it on.
        QVERIFY(dialog->findChild<QCheckBox*>(QStringLiteral("amqpTlsEnabled"))->isChecked());
        QVERIFY(AmqpSettings::load().tlsEnabled);

        const QString connectionString = copied(dialog, QStringLiteral("tlsConnectionString"));
        QCOMPARE(connectionString, window.amqp()->endpoint()->tlsConnectionString());
        QVERIFY2(connectionString.startsWith(
                     QStringLiteral("Endpoint=sb://localhost:%1;").arg(trust.port)),
                 qPrintable(connectionString));
        QVERIFY(!connectionString.contains(QStringLiteral("UseDevelopmentEmulator")));
        QCOMPARE(copied(dialog, QStringLiteral("tlsCaFile")), trust.caFile);
        const QString fingerprint = copied(dialog, QStringLiteral("tlsFingerprint"));
        QCOMPARE(fingerprint, trust.fingerprint);
        QVERIFY2(QRegularExpression(QStringLiteral("^([0-9A-F]{2}:){31}[0-9A-F]{2}$"))
                     .match(fingerprint)
                     .hasMatch(),
                 qPrintable(fingerprint));

        // One line per client, each naming the authority's file.
        const QStringList hints{
            copied(dialog, QStringLiteral("tlsHint0")), copied(dialog, QStringLiteral("tlsHint1")),
            copied(dialog, QStringLiteral("tlsHint2")), copied(dialog, QStringLiteral("tlsHint3"))};
        QCOMPARE(hints.at(0), QStringLiteral("NODE_EXTRA_CA_CERTS=") + trust.caFile);
        QCOMPARE(hints.at(1), QStringLiteral("connection_verify=\"%1\"").arg(trust.caFile));
        QCOMPARE(hints.at(2), QStringLiteral("REQUESTS_CA_BUNDLE=") + trust.caFile);
        QCOMPARE(hints.at(3), QStringLiteral("--cacert ") + trust.caFile);
        auto* pythonNote = dialog->findChild<QLabel*>(QStringLiteral("tlsPythonPortNote"));
        QVERIFY(pythonNote && pythonNote->isVisibleTo(dialog));
        QVERIFY(pythonNote->text().contains(QStringLiteral("5671")));

        // Unchecked, the port and what it serves give way (until OK turns it off).
        dialog->findChild<QCheckBox*>(QStringLiteral("amqpTlsEnabled"))->setChecked(false);
        QVERIFY(!panel->isVisibleTo(dialog));
        QVERIFY(!dialog->findChild<QSpinBox*>(QStringLiteral("amqpTlsPort"))->isEnabled());
        dialog->reject();
    }

    void aLongPathIsElidedInTheMiddleWithItWholeInTheTooltip() {
        QTemporaryDir dir;
        QTemporaryDir certificates;
        const QString deep = QDir(certificates.path())
                                 .filePath(QStringLiteral("a-folder-with-a-rather-long-name/"
                                                          "and-another-one-below-it-as-long/tls"));
        ServingWindow serving(dir, deep);
        MainWindow& window = serving.window;
        setTlsInTheDialog(window, true);
        QTRY_VERIFY_WITH_TIMEOUT(window.amqp()->tlsTrust().serving, kWaitMs);
        QDialog* dialog = window.openAmqpSettings();
        QTRY_VERIFY(dialog->isVisible());
        auto* path = dialog->findChild<ElidedLabel*>(QStringLiteral("tlsCaFile"));
        QVERIFY(path);
        QCOMPARE(path->text(), window.amqp()->tlsTrust().caFile);
        // The dialog keeps its width; the path gives way, both of its ends kept.
        QVERIFY(dialog->width() < dialog->fontMetrics().horizontalAdvance(path->text()) * 2);
        QVERIFY(path->isElided());
        QVERIFY(path->shownText().startsWith(path->text().left(4)));
        QVERIFY(path->shownText().endsWith(tls::kCaCertificateFile));
        QCOMPARE(path->toolTip(), path->text());
        dialog->reject();
    }

    void aBusyTlsPortLeavesThePlainPortServing() {
        // `serve` (another endpoint) holds the port the window is told to serve TLS on.
        QTemporaryDir otherDir;
        auto other = testing::openUiTestBroker(otherDir, std::make_shared<VirtualClock>());
        amqp::EndpointOptions options;
        options.port = 0;
        amqp::AmqpEndpoint occupying(*other, options);
        const auto busy = occupying.start();
        QVERIFY(busy.ok());
        AmqpSettings settings = AmqpSettings::load();
        settings.tlsEnabled = true;
        settings.tlsPort = *busy;
        settings.save();

        QTemporaryDir dir;
        QTemporaryDir certificates;
        ServingWindow serving(dir, certificates.path());
        MainWindow& window = serving.window;
        QTRY_VERIFY_WITH_TIMEOUT(!window.amqp()->tlsProblem().isEmpty(), kWaitMs);
        QVERIFY2(window.amqp()->tlsProblem().contains(QString::number(*busy)),
                 qPrintable(window.amqp()->tlsProblem()));
        QCOMPARE(window.amqp()->state(), AmqpService::State::Serving);
        QCOMPARE(window.amqp()->endpoint()->tlsPort(), quint16(0));
        QVERIFY(!window.amqp()->tlsTrust().serving);
        QVERIFY2(window.messageBar()->text().contains(QString::number(*busy)),
                 qPrintable(window.messageBar()->text()));
        QDialog* dialog = window.openAmqpSettings();
        auto* problem = dialog->findChild<QLabel*>(QStringLiteral("tlsProblem"));
        QVERIFY(problem && problem->isVisibleTo(dialog));
        QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("amqpProblem")));
        dialog->reject();
    }

    void aCertificateThatCannotBeMadeLeavesThePlainPortServing() {
        QTemporaryDir dir;
        QTemporaryDir certificates;
        // A file where the authority's folder should be.
        const QString blocked = QDir(certificates.path()).filePath(QStringLiteral("tls"));
        QFile file(blocked);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        ServingWindow serving(dir, blocked);
        MainWindow& window = serving.window;
        setTlsInTheDialog(window, true);
        QTRY_VERIFY_WITH_TIMEOUT(!window.amqp()->tlsProblem().isEmpty(), kWaitMs);
        QVERIFY(window.amqp()->endpoint());
        QCOMPARE(window.amqp()->endpoint()->tlsPort(), quint16(0));
        QDialog* dialog = window.openAmqpSettings();
        auto* problem = dialog->findChild<QLabel*>(QStringLiteral("tlsProblem"));
        QVERIFY(problem && problem->isVisibleTo(dialog));
        QVERIFY2(problem->text().contains(window.amqp()->tlsProblem()),
                 qPrintable(problem->text()));
        dialog->reject();
    }
};

QTEST_MAIN(UiAmqpTlsTest)
#include "tst_ui_amqp_tls.moc"
