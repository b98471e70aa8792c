// `hourglass serve`: on an empty database a config.json's namespaces are the only ones made (no
// emulator namespace first: the config's first namespace is the default one, the one the
// well-known key reaches), what it made is printed, and --accept-host is repeatable. Stopping
// it closes each application's connection with amqp:connection:forced and a reason.

#include "CommandLine.h"
#include "RawAmqpPeer.h"
#include "ServeCommand.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace hourglass;
using namespace hourglass::app;

namespace {
// Runs serve until it has printed its connection strings, then stops it as SIGTERM would.
int serveUntilReady(const QStringList& arguments, QString& output) {
    const ServeOptions options = parseServeCommandLine(arguments);
    if (!options.error.isEmpty()) {
        output = options.error;
        return -1;
    }
    QString errors;
    QTextStream out(&output);
    QTextStream err(&errors);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        // Once: a second quit would be left queued, and end the next test's serve at its start.
        if (output.contains(QStringLiteral("Connection string: "))) {
            poll.stop();
            QCoreApplication::quit();
        }
    });
    poll.start(20);
    const int code = runServe(options, out, err);
    output += errors;
    return code;
}

// GET /$namespaceinfo over plain HTTP, signed with the emulator's key; the raw response.
QByteArray namespaceInfoOver(quint16 port) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(5000))
        return "not connected";
    const QString token =
        amqp::makeSasToken(QStringLiteral("http://localhost/"), amqp::wellKnownEmulatorKey(),
                           QDateTime::currentSecsSinceEpoch() + 600);
    socket.write("GET /$namespaceinfo?api-version=2021-05 HTTP/1.1\r\nHost: localhost:" +
                 QByteArray::number(port) + "\r\nAuthorization: " + token.toUtf8() +
                 "\r\nConnection: close\r\n\r\n");
    QByteArray response;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(5000))
        response += socket.readAll();
    return response + socket.readAll();
}

QStringList namespacesIn(const QString& databasePath) {
    BrokerOptions options;
    options.databasePath = databasePath;
    auto broker = Broker::open(options);
    if (!broker)
        return {QStringLiteral("cannot open: ") + broker.error().toString()};
    QStringList names;
    for (const NamespaceInfo& ns : (*broker)->namespaces())
        names.append(ns.name);
    return names;
}
} // namespace

class AppServeTest : public QObject {
    Q_OBJECT
private slots:
    void aConfigOnAnEmptyDatabaseMakesOnlyItsNamespace() {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("cfg.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"UserConfig": {"Namespaces": [{"Name": "exported-ns",
                   "Queues": [{"Name": "orders"}]}]}})");
        file.close();
        const QString db = dir.filePath(QStringLiteral("new.db"));
        QString output;
        QCOMPARE(serveUntilReady({QStringLiteral("hourglass"), QStringLiteral("serve"),
                                  QStringLiteral("--port"), QStringLiteral("0"),
                                  QStringLiteral("--db"), db, QStringLiteral("--config"), config},
                                 output),
                 0);
        QVERIFY2(output.contains(QStringLiteral("Created namespace exported-ns\n")),
                 qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("Created exported-ns:orders\n")),
                 qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("Default namespace: exported-ns\n")),
                 qPrintable(output));
        QVERIFY2(!output.contains(QStringLiteral("sbemulatorns")), qPrintable(output));
        QCOMPARE(namespacesIn(db), QStringList{QStringLiteral("exported-ns")});

        // The next start on that database creates nothing.
        output.clear();
        QCOMPARE(serveUntilReady({QStringLiteral("hourglass"), QStringLiteral("serve"),
                                  QStringLiteral("--port"), QStringLiteral("0"),
                                  QStringLiteral("--db"), db, QStringLiteral("--config"), config},
                                 output),
                 0);
        QVERIFY2(!output.contains(QStringLiteral("Created")), qPrintable(output));
    }

    void withoutAConfigAnEmptyDatabaseGetsTheEmulatorNamespace() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("plain.db"));
        QString output;
        QCOMPARE(serveUntilReady({QStringLiteral("hourglass"), QStringLiteral("serve"),
                                  QStringLiteral("--port"), QStringLiteral("0"),
                                  QStringLiteral("--db"), db},
                                 output),
                 0);
        QVERIFY2(output.contains(QStringLiteral("Created namespace sbemulatorns\n")),
                 qPrintable(output));
        QCOMPARE(namespacesIn(db), QStringList{QStringLiteral("sbemulatorns")});
    }

    // An application connected when serve stops (SIGINT or SIGTERM end its event loop) reads an
    // AMQP close saying why, not a dropped socket.
    void stoppingClosesConnectionsWithConnectionForced() {
        QTemporaryDir dir;
        const ServeOptions options = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--port"),
             QStringLiteral("0"), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.db"))});
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QString output;
        QString errors;
        QTextStream out(&output);
        QTextStream err(&errors);
        std::unique_ptr<testing::RawAmqpPeer> peer;
        bool opened = false;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            const auto port =
                QRegularExpression(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"))
                    .match(output);
            if (peer || !port.hasMatch() || !output.contains(QStringLiteral("Connections:")))
                return;
            peer = std::make_unique<testing::RawAmqpPeer>(quint16(port.captured(1).toUInt()));
            opened = peer->connected() && peer->open();
            poll.stop();
            QCoreApplication::quit(); // as the signal's waiter does
        });
        poll.start(20);
        QCOMPARE(runServe(options, out, err), 0);
        QVERIFY2(opened, qPrintable(output + errors));
        const auto close = peer->waitFor(testing::kClose, 5000);
        QVERIFY2(close, "the socket was dropped without a close");
        const auto [condition, description] = testing::RawAmqpPeer::error(close->field(0));
        QCOMPARE(condition, QByteArray("amqp:connection:forced"));
        QCOMPARE(description, amqp::kShuttingDownReason);
    }

    // --http-port: the administration API on a port of its own, printed with its connection
    // string (the emulator's second one), answering with the endpoint's keys.
    void httpPortServesTheAdministrationApi() {
        QTemporaryDir dir;
        const ServeOptions options = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--port"),
             QStringLiteral("0"), QStringLiteral("--http-port"), QStringLiteral("0"),
             QStringLiteral("--db"), dir.filePath(QStringLiteral("h.db"))});
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QCOMPARE(options.httpPort, std::optional<quint16>(0));
        QString output;
        QString errors;
        QTextStream out(&output);
        QTextStream err(&errors);
        QByteArray response;
        quint16 httpPort = 0;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            const auto port =
                QRegularExpression(QStringLiteral("Administration API \\(HTTP\\) listening on "
                                                  "127\\.0\\.0\\.1:(\\d+)"))
                    .match(output);
            if (!port.hasMatch() || !output.contains(QStringLiteral("Connections:")))
                return;
            poll.stop();
            httpPort = quint16(port.captured(1).toUInt());
            response = namespaceInfoOver(httpPort);
            QCoreApplication::quit();
        });
        poll.start(20);
        QCOMPARE(runServe(options, out, err), 0);
        QVERIFY2(httpPort != 0, qPrintable(output + errors));
        QVERIFY2(output.contains(QStringLiteral("Administration connection string: "
                                                "Endpoint=sb://localhost:%1;")
                                     .arg(httpPort)),
                 qPrintable(output));
        QVERIFY2(response.startsWith("HTTP/1.1 200 OK\r\n"), response.constData());
        QVERIFY(response.contains("<Name>sbemulatorns</Name>"));
    }

    void httpPortInUseIsAClearError() {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        QTemporaryDir dir;
        const ServeOptions options = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--port"),
             QStringLiteral("0"), QStringLiteral("--http-port"),
             QString::number(taken.serverPort()), QStringLiteral("--db"),
             dir.filePath(QStringLiteral("t.db"))});
        QString output;
        QString errors;
        QTextStream out(&output);
        QTextStream err(&errors);
        QCOMPARE(runServe(options, out, err), int(ExitInvalidFile));
        QVERIFY2(errors.contains(QStringLiteral("administration API: Cannot listen on "
                                                "127.0.0.1:%1")
                                     .arg(taken.serverPort())),
                 qPrintable(errors));
    }

    void httpPortIsOffUnlessGiven() {
        const auto plain =
            parseServeCommandLine({QStringLiteral("hourglass"), QStringLiteral("serve")});
        QVERIFY(!plain.httpPort);
        const auto bad =
            parseServeCommandLine({QStringLiteral("hourglass"), QStringLiteral("serve"),
                                   QStringLiteral("--http-port"), QStringLiteral("x")});
        QVERIFY(bad.error.contains(QStringLiteral("--http-port")));
    }

    void acceptHostIsRepeatable() {
        const ServeOptions options = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--accept-host"),
             QStringLiteral("hourglass.internal"), QStringLiteral("--accept-host"),
             QStringLiteral("host.docker.internal")});
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QCOMPARE(options.acceptedHosts, QStringList({QStringLiteral("hourglass.internal"),
                                                     QStringLiteral("host.docker.internal")}));
    }
};

QTEST_GUILESS_MAIN(AppServeTest)
#include "tst_app_serve.moc"
