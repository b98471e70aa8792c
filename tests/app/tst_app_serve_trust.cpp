// `hourglass serve --trust-issuer URL --trust-key FILE`: the options go together, a key file that
// cannot be used is a clear error naming it, and a served namespace takes that issuer's bearer
// tokens on the administration API (here on the endpoint's plain port) and refuses another
// key's. The key is made by the test (tests/tls/TestJwtIssuer.h).

#include "CommandLine.h"
#include "ServeCommand.h"
#include "TestJwtIssuer.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace hourglass;
using namespace hourglass::app;
using hourglass::testing::TestJwtIssuer;

namespace {
// GET /$namespaceinfo with a bearer token; the raw response.
QByteArray namespaceInfoWith(quint16 port, const QByteArray& token) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(5000))
        return "not connected";
    socket.write("GET /$namespaceinfo?api-version=2021-05 HTTP/1.1\r\nHost: localhost:" +
                 QByteArray::number(port) + "\r\nAuthorization: Bearer " + token +
                 "\r\nConnection: close\r\n\r\n");
    QByteArray response;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(5000))
        response += socket.readAll();
    return response + socket.readAll();
}

QStringList serveArguments(const QString& db, const QString& issuer, const QString& keyFile) {
    return {QStringLiteral("hourglass"),      QStringLiteral("serve"),
            QStringLiteral("--port"),         QStringLiteral("0"),
            QStringLiteral("--db"),           db,
            QStringLiteral("--trust-issuer"), issuer,
            QStringLiteral("--trust-key"),    keyFile};
}
} // namespace

class AppServeTrustTest : public QObject {
    Q_OBJECT
private slots:
    void theTwoOptionsGoTogether() {
        const auto alone = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--trust-issuer"),
             QStringLiteral("https://issuer.example/")});
        QCOMPARE(alone.error, QStringLiteral("--trust-issuer and --trust-key go together"));
        const auto keyOnly =
            parseServeCommandLine({QStringLiteral("hourglass"), QStringLiteral("serve"),
                                   QStringLiteral("--trust-key"), QStringLiteral("k.pem")});
        QCOMPARE(keyOnly.error, QStringLiteral("--trust-issuer and --trust-key go together"));
        const auto help = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("-h")});
        QVERIFY(help.helpText.contains(QStringLiteral("--trust-issuer <URL>")));
        QVERIFY(help.helpText.contains(QStringLiteral("Manage, Send and Listen")));
    }

    void anUnusableKeyFileIsAClearError() {
        QTemporaryDir dir;
        const QString keyFile = dir.filePath(QStringLiteral("not-a-key.pem"));
        QFile file(keyFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("private notes, not a key");
        file.close();
        const ServeOptions options = parseServeCommandLine(
            serveArguments(dir.filePath(QStringLiteral("t.db")),
                           QStringLiteral("https://issuer.example/"), keyFile));
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QString output;
        QString errors;
        QTextStream out(&output);
        QTextStream err(&errors);
        QCOMPARE(runServe(options, out, err), int(ExitInvalidFile));
        QVERIFY2(errors.contains(keyFile), qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("no public key")), qPrintable(errors));
        QVERIFY2(!errors.contains(QStringLiteral("private notes")), qPrintable(errors));
    }

    void theTrustedIssuersTokensAreTaken() {
        QTemporaryDir dir;
        const TestJwtIssuer issuer;
        const TestJwtIssuer stranger;
        const QString keyFile = dir.filePath(QStringLiteral("issuer.pem"));
        QFile file(keyFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(issuer.publicKeyPem());
        file.close();
        const ServeOptions options = parseServeCommandLine(
            serveArguments(dir.filePath(QStringLiteral("t.db")), TestJwtIssuer::kIssuer, keyFile));
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QString output;
        QString errors;
        QTextStream out(&output);
        QTextStream err(&errors);
        QByteArray trustedAnswer;
        QByteArray strangerAnswer;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            const auto port =
                QRegularExpression(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"))
                    .match(output);
            if (!port.hasMatch() || !output.contains(QStringLiteral("Connections:")))
                return;
            poll.stop();
            const quint16 number = quint16(port.captured(1).toUInt());
            const qint64 now = QDateTime::currentSecsSinceEpoch();
            trustedAnswer = namespaceInfoWith(number, issuer.token(now));
            strangerAnswer = namespaceInfoWith(number, stranger.token(now));
            QCoreApplication::quit();
        });
        poll.start(20);
        QCOMPARE(runServe(options, out, err), 0);
        QVERIFY2(
            output.contains(
                QStringLiteral("Trusted token issuer: %1 (RS256)").arg(TestJwtIssuer::kIssuer)),
            qPrintable(output));
        QVERIFY2(trustedAnswer.startsWith("HTTP/1.1 200 OK\r\n"), trustedAnswer.constData());
        QVERIFY(trustedAnswer.contains("<Name>sbemulatorns</Name>"));
        QVERIFY2(strangerAnswer.startsWith("HTTP/1.1 401"), strangerAnswer.constData());
    }
};

QTEST_GUILESS_MAIN(AppServeTrustTest)
#include "tst_app_serve_trust.moc"
