// The command line as main() reads it: --size for the window (and its screenshot), refused with a
// clear message when it is not a size a screen can show; the limits on connections in --help.

#include "AmqpEndpoint.h"
#include "CommandLine.h"
#include "ServeCommand.h"

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
};

QTEST_MAIN(TestAppCommandLine)
#include "tst_app_command_line.moc"
