// One owner per database: the window, `hourglass serve`, a headless scenario run and any other
// opener of a database hold an operating-system lock beside it for as long as it is open. A
// second opener, in another process or in the same one, is refused at once with DatabaseInUse
// naming the holder, and the holder goes on untouched; the lock goes with its process however
// that process ends (kill -9 included).

#include "ResultText.h"
#include "SpawnedChild.h"
#include "hourglass/Broker.h"
#include "hourglass/scenario/ScenarioRunner.h"
#include "store/DatabaseOwner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace hourglass;
using hourglass::durability::errorText;
using hourglass::testing::SpawnedChild;

namespace {

constexpr int kChildTimeoutMs = 60000;
// A refused opener ends as soon as it has started and found the lock: well before SQLite's
// five-second busy time-out, which is what an opener that waited on the database would take.
constexpr qint64 kAtOnceMs = 4500;

QString scenarioFile() {
    return QStringLiteral(HOURGLASS_SCENARIO_DIR "/poison-message.json");
}

QString ownerFileText(const QString& databasePath) {
    QFile file(DatabaseOwner::ownerFilePath(databasePath));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// A child's settings, data and runtime folders inside the test's own folder: the window's
// QSettings and recent-files list are not the user's.
QProcessEnvironment childEnvironment(const QTemporaryDir& dir) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    return env;
}

// A program that keeps the database open until the test ends it.
class Holder {
public:
    Holder(const QTemporaryDir& dir, const QStringList& arguments) {
        m_process.setProcessEnvironment(childEnvironment(dir));
        m_process.start(QStringLiteral(HOURGLASS_BINARY), arguments);
    }
    ~Holder() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(kChildTimeoutMs);
        }
    }
    QProcess& process() { return m_process; }
    qint64 pid() const { return m_process.processId(); }
    bool running() const { return m_process.state() == QProcess::Running; }
    QString out() {
        m_out += QString::fromUtf8(m_process.readAllStandardOutput());
        return m_out;
    }

private:
    QProcess m_process;
    QString m_out;
};

// Runs `hourglass arguments` to its end, with the time it took.
SpawnedChild runHourglass(const QTemporaryDir& dir, const QStringList& arguments,
                          qint64* elapsedMs) {
    // SpawnedChild runs with this process's environment: give it the child's.
    const QProcessEnvironment env = childEnvironment(dir);
    for (const QString& name : {QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("HOME"),
                                QStringLiteral("XDG_CONFIG_HOME"), QStringLiteral("XDG_DATA_HOME")})
        qputenv(name.toLatin1().constData(), env.value(name).toUtf8());
    QElapsedTimer timer;
    timer.start();
    SpawnedChild child =
        SpawnedChild::run(QStringLiteral(HOURGLASS_BINARY), arguments, kChildTimeoutMs);
    *elapsedMs = timer.elapsed();
    return child;
}

} // namespace

class DurabilityOwnerTest : public QObject {
    Q_OBJECT

private slots:
    void secondOpenInOneProcessIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("one.db"));
        BrokerOptions options;
        options.databasePath = path;
        options.owner = QStringLiteral("the first test broker");
        auto first = Broker::open(options);
        QVERIFY2(first, errorText(first).constData());
        QVERIFY((*first)->createNamespace({QStringLiteral("ns"), Tier::Standard}));
        QVERIFY((*first)->createQueue(QStringLiteral("jobs"),
                                      EntityProperties::defaults(Tier::Standard)));

        options.owner = QStringLiteral("the second test broker");
        for (const QString& spelling : {path, dir.filePath(QStringLiteral("./one.db")),
                                        QDir(dir.path()).relativeFilePath(path)}) {
            const QString absolute = QDir(dir.path()).absoluteFilePath(spelling);
            options.databasePath = spelling.startsWith(u'/') ? spelling : absolute;
            auto second = Broker::open(options);
            QVERIFY(!second);
            QCOMPARE(second.error().code, ErrorCode::DatabaseInUse);
            const QString text = second.error().description;
            QVERIFY2(text.contains(QStringLiteral("is open in the first test broker (pid %1")
                                       .arg(QCoreApplication::applicationPid())),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("Close it there, or open another database.")),
                     qPrintable(text));
        }

        // The first goes on untouched, and names an address once it has one.
        OutgoingMessage message;
        message.body = "kept";
        QVERIFY((*first)->send(QStringLiteral("jobs"), message));
        QCOMPARE((*first)->entity(QStringLiteral("jobs"))->counts.active, 1);
        (*first)->describeOwner(QStringLiteral("AMQP on 127.0.0.1:1234"));
        options.databasePath = path;
        auto named = Broker::open(options);
        QVERIFY(!named);
        QVERIFY2(named.error().description.contains(QStringLiteral(", AMQP on 127.0.0.1:1234)")),
                 qPrintable(named.error().description));

        // Closed: the next opener gets it, with what the first stored, and the folder keeps no
        // owner file once the database is closed.
        first->reset();
        auto next = Broker::open(options);
        QVERIFY2(next, errorText(next).constData());
        QCOMPARE((*next)->entity(QStringLiteral("jobs"))->counts.active, 1);
        next->reset();
        QVERIFY(!QFile::exists(DatabaseOwner::ownerFilePath(path)));
    }

    void windowHoldsServeAndScenarioAreRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("window.db"));
        Holder window(dir, {QStringLiteral("--db"), path});
        QVERIFY(window.process().waitForStarted(kChildTimeoutMs));
        const QString pidLine = QStringLiteral("pid=%1\n").arg(window.pid());
        QTRY_VERIFY_WITH_TIMEOUT(ownerFileText(path).contains(pidLine), kChildTimeoutMs);
        QVERIFY(ownerFileText(path).contains(QStringLiteral("program=the Hourglass window\n")));

        // The window names its AMQP address too when it serves (port 5672 may be taken here).
        const QString named =
            QStringLiteral("is open in the Hourglass window (pid %1").arg(window.pid());
        qint64 elapsed = 0;
        const SpawnedChild serve =
            runHourglass(dir,
                         {QStringLiteral("serve"), QStringLiteral("--db"), path,
                          QStringLiteral("--port"), QStringLiteral("0")},
                         &elapsed);
        QVERIFY2(serve.end == SpawnedChild::End::Exited && serve.code == 2,
                 qPrintable(serve.describeEnd() + serve.err));
        QVERIFY2(serve.err.contains("DatabaseInUse"), serve.err.constData());
        QVERIFY2(QString::fromUtf8(serve.err).contains(named), serve.err.constData());
        QVERIFY2(elapsed < kAtOnceMs, qPrintable(QString::number(elapsed)));

        const SpawnedChild scenario = runHourglass(
            dir, {QStringLiteral("--scenario"), scenarioFile(), QStringLiteral("--db"), path},
            &elapsed);
        QVERIFY2(scenario.end == SpawnedChild::End::Exited && scenario.code == 2,
                 qPrintable(scenario.describeEnd() + scenario.err));
        QVERIFY2(QString::fromUtf8(scenario.err).contains(named), scenario.err.constData());
        QVERIFY2(elapsed < kAtOnceMs, qPrintable(QString::number(elapsed)));

        // The window is still there, still the owner.
        QVERIFY(window.running());
        QVERIFY(ownerFileText(path).contains(pidLine));
    }

    void serveHoldsWindowAndScenarioAreRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("serve.db"));
        Holder serve(dir, {QStringLiteral("serve"), QStringLiteral("--db"), path,
                           QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(serve.process().waitForStarted(kChildTimeoutMs));
        const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
        QTRY_VERIFY_WITH_TIMEOUT(listening.match(serve.out()).hasMatch(), kChildTimeoutMs);
        const QString port = listening.match(serve.out()).captured(1);
        const QString named =
            QStringLiteral("is open in hourglass serve (pid %1, AMQP on 127.0.0.1:%2)")
                .arg(serve.pid())
                .arg(port);
        QTRY_VERIFY_WITH_TIMEOUT(ownerFileText(path).contains(QStringLiteral("AMQP on")),
                                 kChildTimeoutMs);

        qint64 elapsed = 0;
        const SpawnedChild scenario = runHourglass(
            dir, {QStringLiteral("--scenario"), scenarioFile(), QStringLiteral("--db"), path},
            &elapsed);
        QVERIFY2(scenario.end == SpawnedChild::End::Exited && scenario.code == 2,
                 qPrintable(scenario.describeEnd() + scenario.err));
        QVERIFY2(scenario.err.contains("DatabaseInUse"), scenario.err.constData());
        QVERIFY2(QString::fromUtf8(scenario.err).contains(named), scenario.err.constData());
        QVERIFY2(elapsed < kAtOnceMs, qPrintable(QString::number(elapsed)));

        // A window refused keeps running (its message bar says why) until it is closed: it
        // takes its picture and quits normally, never crashing, and never takes the database.
        const QString picture = dir.filePath(QStringLiteral("refused.png"));
        const SpawnedChild window = runHourglass(
            dir, {QStringLiteral("--db"), path, QStringLiteral("--screenshot"), picture}, &elapsed);
        QVERIFY2(window.end == SpawnedChild::End::Exited && window.code == 0,
                 qPrintable(window.describeEnd() + window.err));
        QVERIFY(QFile::exists(picture));

        // serve goes on: still the owner, and it stops cleanly when asked.
        QVERIFY(serve.running());
        QVERIFY(ownerFileText(path).contains(QStringLiteral("pid=%1\n").arg(serve.pid())));
        ::kill(static_cast<pid_t>(serve.pid()), SIGTERM);
        QVERIFY(serve.process().waitForFinished(kChildTimeoutMs));
        QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.process().exitCode(), 0);
        BrokerOptions options;
        options.databasePath = path;
        auto reopened = Broker::open(options);
        QVERIFY2(reopened, errorText(reopened).constData());
    }

    void scenarioRunHoldsServeIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scenario.db"));
        auto scenario = loadScenarioFile(scenarioFile());
        QVERIFY2(scenario, errorText(scenario).constData());
        ScenarioRunOptions options;
        options.databasePath = path;
        auto runner = ScenarioRunner::create(std::move(scenario).value(), options);
        QVERIFY2(runner, errorText(runner).constData());
        qint64 elapsed = 0;
        const SpawnedChild serve =
            runHourglass(dir,
                         {QStringLiteral("serve"), QStringLiteral("--db"), path,
                          QStringLiteral("--port"), QStringLiteral("0")},
                         &elapsed);
        QVERIFY2(serve.end == SpawnedChild::End::Exited && serve.code == 2,
                 qPrintable(serve.describeEnd() + serve.err));
        QVERIFY2(QString::fromUtf8(serve.err).contains(
                     QStringLiteral("is open in an Hourglass scenario run (pid %1)")
                         .arg(QCoreApplication::applicationPid())),
                 serve.err.constData());
        // The run goes on.
        QVERIFY((*runner)->run().allPassed());
    }

    void killedOwnersLockIsReleased() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("killed.db"));
        Holder serve(dir, {QStringLiteral("serve"), QStringLiteral("--db"), path,
                           QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(serve.process().waitForStarted(kChildTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(serve.out().contains(QStringLiteral("listening on")),
                                 kChildTimeoutMs);
        BrokerOptions options;
        options.databasePath = path;
        auto refused = Broker::open(options);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::DatabaseInUse);

        serve.process().kill(); // SIGKILL: no clean-up runs, the owner file stays behind
        QVERIFY(serve.process().waitForFinished(kChildTimeoutMs));
        QCOMPARE(serve.process().exitStatus(), QProcess::CrashExit);
        QVERIFY(QFile::exists(DatabaseOwner::ownerFilePath(path)));
        auto opened = Broker::open(options);
        QVERIFY2(opened, errorText(opened).constData());
        QCOMPARE((*opened)->namespaces().size(), 1);
    }
};

QTEST_GUILESS_MAIN(DurabilityOwnerTest)
#include "DurabilityOwnerTest.moc"
