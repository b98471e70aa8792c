// The command line as main() reads it: --size for the window (and its screenshot), refused with a
// clear message when it is not a size a screen can show.

#include "CommandLine.h"

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
};

QTEST_MAIN(TestAppCommandLine)
#include "tst_app_command_line.moc"
