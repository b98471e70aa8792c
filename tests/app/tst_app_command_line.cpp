// The command line as main() reads it: --size for the window (and its screenshot), refused with a
// clear message when it is not a size a screen can show; the limits on connections in --help;
// --help names the program and its commands with examples; a bad command line says why in one
// line, points at --help and exits 2 (the real executable, run as a user would).

#include "CommandLine.h"
#include "ServeCommand.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QProcess>
#include <QTest>

using namespace hourglass::app;

class TestAppCommandLine : public QObject {
    Q_OBJECT
private slots:
    void sizeIsRead() {
        const CommandLineOptions options = parseCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("--size"), QStringLiteral("1024x700")});
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QCOMPARE(options.windowSize, QSize(1024, 700));
        QVERIFY(!parseCommandLine({QStringLiteral("hourglass")}).windowSize.isValid());
    }

    void badSizeIsRefused_data() {
        QTest::addColumn<QString>("size");
        QTest::newRow("no x") << QStringLiteral("1024");
        QTest::newRow("words") << QStringLiteral("big");
        QTest::newRow("too small") << QStringLiteral("320x200");
        QTest::newRow("too large") << QStringLiteral("9999x9999");
        QTest::newRow("negative") << QStringLiteral("-800x600");
    }
    void badSizeIsRefused() {
        QFETCH(QString, size);
        const CommandLineOptions options =
            parseCommandLine({QStringLiteral("hourglass"), QStringLiteral("--size"), size});
        QVERIFY(options.error.startsWith(QStringLiteral("--size must be WIDTHxHEIGHT")));
        QVERIFY(options.error.contains(size));
    }

    // Both limits on connections (and the deadline and idle time-out) are stated in --help, for
    // `serve` and for the window alike, with the endpoint's own numbers.
    void helpStatesTheLimitsOnConnections() {
        const hourglass::amqp::EndpointOptions defaults;
        const ServeOptions serve = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--help")});
        QVERIFY(serve.showHelp);
        const CommandLineOptions window =
            parseCommandLine({QStringLiteral("hourglass"), QStringLiteral("--help")});
        for (const QString& help : {serve.helpText, window.helpText}) {
            QVERIFY2(help.contains(QStringLiteral("at most %1 connections without one")
                                       .arg(defaults.maxUnauthenticatedConnections)),
                     qPrintable(help));
            QVERIFY2(
                help.contains(
                    QStringLiteral("at most %1 connections in all").arg(defaults.maxConnections)),
                qPrintable(help));
            QVERIFY(help.contains(QStringLiteral("open-file limit")));
            QVERIFY(help.contains(
                QStringLiteral("within %1 s").arg(defaults.authenticateWithinMs / 1000)));
            QVERIFY(help.contains(
                QStringLiteral("silent for %1 s").arg(defaults.idleTimeoutMs / 1000)));
        }
    }

    void helpNamesTheProgramAndItsCommands() {
        const CommandLineOptions options =
            parseCommandLine({QStringLiteral("hourglass"), QStringLiteral("--help")});
        QVERIFY(options.showHelp);
        const QString& help = options.helpText;
        QVERIFY2(help.startsWith(QStringLiteral("Usage: hourglass [options]\n")), qPrintable(help));
        QVERIFY2(help.contains(QStringLiteral("Hourglass, an Azure Service Bus explorer with its "
                                              "own broker")),
                 qPrintable(help));
        // Each way to run it, with an example of each.
        for (const char* line :
             {"hourglass serve [options]", "hourglass --scenario FILE", "--present",
              "Examples:", "hourglass serve --port 5672 --config config.json",
              "hourglass --scenario traffic-spike --report report.json",
              "hourglass --play session-orders --present"})
            QVERIFY2(help.contains(QLatin1String(line)), line);
        const ServeOptions serve = parseServeCommandLine(
            {QStringLiteral("hourglass"), QStringLiteral("serve"), QStringLiteral("--help")});
        QVERIFY(serve.helpText.contains(QStringLiteral("Example: hourglass serve")));
        QVERIFY2(serve.helpText.startsWith(QStringLiteral("Usage: hourglass serve [options]\n")),
                 qPrintable(serve.helpText));
    }

    void usageErrorIsOneLineAndAPointer() {
        QCOMPARE(usageErrorText(QStringLiteral("Unknown option 'x'.")),
                 QStringLiteral("hourglass: Unknown option 'x'.\nSee hourglass --help for the "
                                "options.\n"));
        QVERIFY(usageErrorText(QStringLiteral("bad"), QStringLiteral("serve"))
                    .contains(QStringLiteral("See hourglass serve --help")));
    }

    void badCommandLineExitsTwoWithItsReason_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("helpCommand");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate")
            << QStringLiteral("hourglass --help");
        QTest::newRow("bad size") << QStringList{QStringLiteral("--size"), QStringLiteral("big")}
                                  << QStringLiteral("--size must be WIDTHxHEIGHT")
                                  << QStringLiteral("hourglass --help");
        QTest::newRow("stray argument") << QStringList{QStringLiteral("orders.db")}
                                        << QStringLiteral("unexpected argument 'orders.db'")
                                        << QStringLiteral("hourglass --help");
        QTest::newRow("serve, bad port")
            << QStringList{QStringLiteral("serve"), QStringLiteral("--port"), QStringLiteral("x")}
            << QStringLiteral("--port must be a number")
            << QStringLiteral("hourglass serve --help");
    }
    void badCommandLineExitsTwoWithItsReason() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, reason);
        QFETCH(QString, helpCommand);
        QProcess run;
        run.start(QStringLiteral(HOURGLASS_EXECUTABLE), arguments);
        QVERIFY(run.waitForFinished(30000));
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.exitCode(), 2);
        const QString err = QString::fromLocal8Bit(run.readAllStandardError());
        const QStringList lines = err.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines.first().startsWith(QStringLiteral("hourglass: ")), qPrintable(err));
        QVERIFY2(lines.first().contains(reason), qPrintable(err));
        QVERIFY2(lines.last().contains(helpCommand), qPrintable(err));
        // Not the whole help.
        QVERIFY2(!err.contains(QStringLiteral("--durability")), qPrintable(err));
        QVERIFY(run.readAllStandardOutput().isEmpty());
    }
};

QTEST_MAIN(TestAppCommandLine)
#include "tst_app_command_line.moc"
