// The hourglass binary's headless command line (scenario-format.md): exit code 0 when every
// expectation held, 1 when one failed (one line each), 2 when the file, the command line or the
// database cannot be used; --report writes the report JSON; --headless alone plays the bundled
// traffic-spike scenario and prints its report.

#include "MalformedScenarios.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Outcome {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs the real binary to completion (virtual time: a scenario takes well under a second).
Outcome runHourglass(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(HOURGLASS_BINARY), arguments);
    Outcome outcome;
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
        return outcome;
    outcome.exitCode = process.exitCode();
    outcome.out = QString::fromUtf8(process.readAllStandardOutput());
    outcome.err = QString::fromUtf8(process.readAllStandardError());
    return outcome;
}

QString scenarioPath(const char* name) {
    return QStringLiteral(HOURGLASS_SCENARIO_DIR "/%1.json").arg(QLatin1String(name));
}

QString describe(const Outcome& o) {
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(o.exitCode).arg(o.out, o.err);
}

} // namespace

class HourglassCliTest : public QObject {
    Q_OBJECT

private slots:
    void bundledScenariosExitZero_data() {
        QTest::addColumn<QString>("scenario");
        for (const char* name :
             {"traffic-spike", "poison-message", "reply-queues", "session-orders"}) {
            QTest::newRow(name) << scenarioPath(name);
            // The embedded copy, by its short name.
            QTest::newRow(qPrintable(QStringLiteral("%1.embedded").arg(QLatin1String(name))))
                << QString::fromLatin1(name);
        }
    }
    void bundledScenariosExitZero() {
        QFETCH(QString, scenario);
        const Outcome o = runHourglass({QStringLiteral("--scenario"), scenario});
        QVERIFY2(o.exitCode == 0, qPrintable(describe(o)));
        QVERIFY2(o.out.isEmpty(), qPrintable(describe(o))); // no failed expectation to print
        QVERIFY(o.err.contains(QStringLiteral(", 0 failed")));
    }

    void reportIsWritten() {
        QTemporaryDir dir;
        const QString reportFile = dir.filePath(QStringLiteral("report.json"));
        const Outcome o =
            runHourglass({QStringLiteral("--scenario"), scenarioPath("poison-message"),
                          QStringLiteral("--report"), reportFile});
        QVERIFY2(o.exitCode == 0, qPrintable(describe(o)));
        QFile file(reportFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError error;
        const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject report = json.object();
        QCOMPARE(report.keys(), (QStringList{"Clock", "Entities", "Expectations"}));
        QCOMPARE(report.value("Clock").toString(), QStringLiteral("PT6M"));
        const QJsonArray entities = report.value("Entities").toArray();
        QCOMPARE(entities.size(), 1);
        const QJsonObject orders = entities.first().toObject();
        QCOMPARE(orders.value("Path").toString(), QStringLiteral("orders"));
        QCOMPARE(orders.value("Active").toInt(-1), 0);
        QCOMPARE(orders.value("Scheduled").toInt(-1), 0);
        QCOMPARE(orders.value("Deferred").toInt(-1), 0);
        QCOMPARE(orders.value("Locked").toInt(-1), 0);
        QCOMPARE(orders.value("DeadLettered").toInt(-1), 1);
        QCOMPARE(orders.value("DeadLetterReasons").toObject(),
                 (QJsonObject{{"MaxDeliveryCountExceeded", 1}}));
        const QJsonObject expectations = report.value("Expectations").toObject();
        QVERIFY(expectations.value("Passed").toInt() > 10);
        QCOMPARE(expectations.value("Failed").toInt(-1), 0);
        QCOMPARE(expectations.value("Failures").toArray(), QJsonArray());
    }

    void headlessAlonePlaysTrafficSpike() {
        const Outcome o = runHourglass({QStringLiteral("--headless")});
        QVERIFY2(o.exitCode == 0, qPrintable(describe(o)));
        QJsonParseError error;
        const QJsonObject report = QJsonDocument::fromJson(o.out.toUtf8(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(report.value("Clock").toString(), QStringLiteral("PT19M"));
        QStringList paths;
        for (const QJsonValue& e : report.value("Entities").toArray())
            paths << e.toObject().value("Path").toString();
        QCOMPARE(paths, (QStringList{"email", "jobs"}));
        QCOMPARE(report.value("Expectations").toObject().value("Failed").toInt(-1), 0);
    }

    void badFilesAndFailedExpectations_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mentions");
        for (const auto& bad : hourglass::testing::malformedScenarios())
            QTest::newRow(bad.name) << bad.json << bad.exitCode << bad.mentions;
    }
    void badFilesAndFailedExpectations() {
        QFETCH(QByteArray, json);
        QFETCH(int, exitCode);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("bad.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(json);
        out.close();
        const QString reportFile = dir.filePath(QStringLiteral("report.json"));
        const Outcome o = runHourglass(
            {QStringLiteral("--scenario"), file, QStringLiteral("--report"), reportFile});
        QVERIFY2(o.exitCode == exitCode, qPrintable(describe(o)));
        if (exitCode == 2) {
            QVERIFY2(o.err.contains(mentions), qPrintable(describe(o)));
            QVERIFY(!QFile::exists(reportFile));
            return;
        }
        // One line per failed expectation on stdout, and the report says the same.
        const QStringList lines = o.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(mentions), qPrintable(describe(o)));
        QFile report(reportFile);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QJsonObject expectations =
            QJsonDocument::fromJson(report.readAll()).object().value("Expectations").toObject();
        QCOMPARE(expectations.value("Failed").toInt(), 1);
        const QJsonObject failure = expectations.value("Failures").toArray().first().toObject();
        QCOMPARE(failure.keys(), (QStringList{"Actual", "Expected", "Field", "Step"}));
    }

    void checksAreCountedAsTheWindowCountsThem() {
        // One check of two fields that holds, one that fails: the window's scenario panel says
        // "1 check passed, 1 failed" for this file, and so does the headless run.
        const QByteArray json = R"({
  "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "jobs" } ] } ] },
  "Scenario": { "Title": "Two checks", "Steps": [
      { "At": "PT0S", "Send": { "To": "jobs", "Count": 2 } },
      { "At": "PT1M", "Expect": { "Entity": "jobs", "Active": 2, "DeadLettered": 0 } },
      { "At": "PT2M", "Expect": { "Entity": "jobs", "Active": 5 } } ] } })";
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("two-checks.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(json);
        out.close();
        const Outcome o = runHourglass({QStringLiteral("--scenario"), file});
        QVERIFY2(o.exitCode == 1, qPrintable(describe(o)));
        QVERIFY2(o.err.contains(QStringLiteral("two-checks: 1 check passed, 1 failed\n")),
                 qPrintable(describe(o)));
    }

    void unreadableFile() {
        const Outcome o =
            runHourglass({QStringLiteral("--scenario"), QStringLiteral("/nonexistent/none.json")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("cannot read")), qPrintable(describe(o)));
    }

    void corruptDatabaseIsRefusedAndLeftAlone() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("corrupt.db"));
        QByteArray garbage("this is not an SQLite database, and must stay exactly as it is\n");
        garbage = garbage.repeated(200);
        QFile file(db);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(garbage);
        file.close();
        const Outcome o =
            runHourglass({QStringLiteral("--scenario"), scenarioPath("poison-message"),
                          QStringLiteral("--db"), db});
        QVERIFY2(o.exitCode == 2, qPrintable(describe(o)));
        QVERIFY2(!o.err.trimmed().isEmpty(), qPrintable(describe(o)));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), garbage);
    }

    void givenDatabaseAndDurability() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("run.db"));
        const Outcome o = runHourglass({QStringLiteral("--scenario"), scenarioPath("reply-queues"),
                                        QStringLiteral("--db"), db, QStringLiteral("--durability"),
                                        QStringLiteral("crash-only")});
        QVERIFY2(o.exitCode == 0, qPrintable(describe(o)));
        QVERIFY(QFile::exists(db));
        // The same database again: its namespace exists already, so the scenario cannot start.
        const Outcome again =
            runHourglass({QStringLiteral("--scenario"), scenarioPath("reply-queues"),
                          QStringLiteral("--db"), db});
        QVERIFY2(again.exitCode == 2, qPrintable(describe(again)));
        QVERIFY2(again.err.contains(QStringLiteral("UserConfig.Namespaces[0]")),
                 qPrintable(describe(again)));
    }

    void commandLineErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknownOption") << QStringList{"--scenari", "x.json"};
        QTest::newRow("badDurability") << QStringList{"--durability", "sometimes"};
        QTest::newRow("positional") << QStringList{"file.json"};
        QTest::newRow("missingValue") << QStringList{"--scenario"};
    }
    void commandLineErrors() {
        QFETCH(QStringList, arguments);
        const Outcome o = runHourglass(arguments);
        QVERIFY2(o.exitCode == 2, qPrintable(describe(o)));
        QVERIFY(!o.err.isEmpty());
    }

    void help() {
        const Outcome o = runHourglass({QStringLiteral("--help")});
        QCOMPARE(o.exitCode, 0);
        for (const char* option : {"--scenario", "--report", "--db", "--durability"})
            QVERIFY2(o.out.contains(QLatin1String(option)), qPrintable(describe(o)));
    }
};

QTEST_GUILESS_MAIN(HourglassCliTest)
#include "tst_scenario_cli.moc"
