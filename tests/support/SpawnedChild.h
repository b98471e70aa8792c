#pragma once
// Runs a program to its end and says exactly how it ended: the exit code, or the signal that
// killed it. QProcess only tells "crashed", which cannot tell a SIGKILL (the crash a test asked
// for) from a SIGSEGV or SIGABRT (a bug in the child); waitpid() can.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace hourglass::testing {

struct SpawnedChild {
    enum class End {
        NotStarted, // posix_spawn failed; `failure` says why
        Exited,     // returned from main or called exit(): `code` is the exit status
        Signalled,  // killed by a signal: `code` is the signal number
        Hung,       // did not end within the timeout; it was killed and reaped
    };
    End end = End::NotStarted;
    int code = 0;
    QByteArray out; // everything written to stdout, read until the pipe closed
    QByteArray err; // everything written to stderr
    QString failure;

    bool killedBy(int signal) const { return end == End::Signalled && code == signal; }
    // "exited with status 1", "killed by signal 6 (Aborted)", "hung for 120000 ms", ...
    QString describeEnd() const;

    // Starts `program arguments` with stdin from /dev/null and reads its output until it ends.
    // `timeoutMs` only stops a hung child from hanging the test: a healthy one ends long before.
    static SpawnedChild run(const QString& program, const QStringList& arguments, int timeoutMs);
};

} // namespace hourglass::testing
