#include "KilledRestart.h"

#include "SpawnedChild.h"

#include <QHash>
#include <QObject>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sys/prctl.h>
#include <unistd.h>

namespace hourglass::testing {

namespace {

// The child's command line: <program> kChildFlag <name> <database> <instant> <handoff>.
constexpr char kChildFlag[] = "--hourglass-before-restart";
constexpr int kChildArguments = 6;
// A before half takes milliseconds; only a hung child comes near this.
constexpr int kChildTimeoutMs = 120000;
// The lines the child adds after the handoff; a report without the last one was cut short.
constexpr char kClockLine[] = "@clock ";
constexpr char kEndLine[] = "@end";

QHash<QByteArray, BeforeRestart::Body>& registry() {
    static QHash<QByteArray, BeforeRestart::Body> bodies;
    return bodies;
}

void writeAll(int fd, const QByteArray& bytes) {
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            std::_Exit(5); // the parent is gone: nothing left to report to
        written += n;
    }
}

void fail(const QString& message, const std::source_location& where) {
    QTest::qFail(qPrintable(message), where.file_name(), int(where.line()));
}

// Runs one before half inside QtTest (so that QVERIFY, QCOMPARE and HG_VERIFY_OK work as in any
// test), then dies the way a crashed broker process dies.
class ChildRun : public QObject {
    Q_OBJECT

public:
    ChildRun(QByteArray name, QString databasePath, Instant now, Handoff handoff)
        : m_name(std::move(name))
        , m_databasePath(std::move(databasePath))
        , m_now(now)
        , m_handoff(std::move(handoff)) {}

private slots:
    void beforeRestart() {
        const BeforeRestart::Body body = registry().value(m_name);
        QVERIFY2(body, qPrintable("no before half is registered as " + m_name));
        TestBroker tb(m_databasePath, m_now);
        body(tb, m_handoff);
        if (QTest::currentTestFailed())
            return; // the child exits with a failure status; the parent shows this output
        writeAll(STDOUT_FILENO, m_handoff.encode() + kClockLine +
                                    QByteArray::number(tb.clock().now()) + '\n' + kEndLine + '\n');
        // The crash under test: no destructor runs, the store's pending log is never written.
        ::raise(SIGKILL);
    }

private:
    QByteArray m_name;
    QString m_databasePath;
    Instant m_now;
    Handoff m_handoff;
};

} // namespace

void addRestartRows() {
    QTest::addColumn<Restart>("restart");
    for (const RestartVariant& variant : kRestartVariants)
        QTest::newRow(variant.tag) << variant.restart;
}

BeforeRestart::BeforeRestart(const char* name, Body body)
    : m_name(name)
    , m_body(body) {
    if (registry().contains(name))
        qFatal("two before halves are registered as %s", name);
    registry().insert(name, body);
}

Handoff BeforeRestart::runThenRestart(TestBroker& tb, Restart restart, Handoff handoff,
                                      std::source_location where) const {
    if (restart == Restart::Clean) {
        m_body(tb, handoff);
        if (QTest::currentTestFailed())
            return {};
        tb.reopen();
        return handoff;
    }

    // One engine per database at a time: the test's own (with what it set up) closes first.
    tb.close();
    const SpawnedChild child = SpawnedChild::run(
        QCoreApplication::applicationFilePath(),
        {QString::fromLatin1(kChildFlag), QString::fromLatin1(m_name), tb.databasePath(),
         QString::number(tb.clock().now()), QString::fromUtf8(handoff.encode())},
        kChildTimeoutMs);
    if (!child.killedBy(SIGKILL)) {
        fail(QStringLiteral(
                 "the before half '%1' ran in a child process that %2 instead of "
                 "killing itself with SIGKILL after its last operation; its output:\n%3%4")
                 .arg(QString::fromLatin1(m_name), child.describeEnd(),
                      QString::fromLocal8Bit(child.err), QString::fromLocal8Bit(child.out)),
             where);
        return {};
    }

    // The handoff, then "@clock <instant>", then "@end".
    QList<QByteArray> lines = child.out.split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    const bool whole = lines.size() >= 2 && lines.last() == kEndLine &&
                       lines[lines.size() - 2].startsWith(kClockLine);
    bool instantOk = false;
    const Instant childNow =
        whole ? lines[lines.size() - 2].mid(qsizetype(sizeof kClockLine) - 1).toLongLong(&instantOk)
              : 0;
    lines.resize(std::max<qsizetype>(0, lines.size() - 2));
    const auto handed = Handoff::decode(lines.join('\n'));
    if (!whole || !instantOk || !handed) {
        fail(QStringLiteral("the child of '%1' died by SIGKILL but its report is not whole:\n%2")
                 .arg(QString::fromLatin1(m_name), QString::fromLocal8Bit(child.out)),
             where);
        return {};
    }
    // A restarted broker wakes up at the instant the crash happened; the test's clock follows.
    tb.clock().advanceTo(childNow);
    tb.reopen();
    return *handed;
}

bool BeforeRestart::isChild(int argc, char** argv) {
    return argc >= 2 && qstrcmp(argv[1], kChildFlag) == 0;
}

int BeforeRestart::runChild(int argc, char** argv) {
    // If the test dies first, the child must not go on working on its database.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (argc != kChildArguments) {
        std::fprintf(stderr, "%s needs <name> <database> <instant> <handoff>\n", kChildFlag);
        return 2;
    }
    const auto handoff = Handoff::decode(argv[5]);
    bool instantOk = false;
    const Instant now = QByteArray(argv[4]).toLongLong(&instantOk);
    if (!handoff || !instantOk) {
        std::fprintf(stderr, "%s: bad instant or handoff\n", kChildFlag);
        return 2;
    }
    ChildRun run(argv[2], QString::fromLocal8Bit(argv[3]), now, *handoff);
    // QtTest's report goes to stderr: stdout carries only the handoff.
    char silent[] = "-silent";
    char output[] = "-o";
    char toStderr[] = "/dev/stderr,txt";
    char* testArguments[] = {argv[0], silent, output, toStderr, nullptr};
    return QTest::qExec(&run, 4, testArguments);
}

} // namespace hourglass::testing

#include "KilledRestart.moc"
