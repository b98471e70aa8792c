#include "SpawnedChild.h"

#include <chrono>
#include <vector>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace hourglass::testing {

namespace {

// Reads what is there; false once the pipe is closed (end of file or an error).
bool drain(int fd, QByteArray& into) {
    char buffer[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            into.append(buffer, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return true;
        return false;
    }
}

void closeBoth(int fds[2]) {
    for (int i = 0; i < 2; ++i) {
        if (fds[i] >= 0)
            ::close(fds[i]);
        fds[i] = -1;
    }
}

} // namespace

QString SpawnedChild::describeEnd() const {
    switch (end) {
    case End::NotStarted:
        return QStringLiteral("did not start: %1").arg(failure);
    case End::Exited:
        return QStringLiteral("exited with status %1").arg(code);
    case End::Signalled:
        return QStringLiteral("was killed by signal %1 (%2)")
            .arg(code)
            .arg(QString::fromLocal8Bit(::strsignal(code)));
    case End::Hung:
        return QStringLiteral("hung: %1").arg(failure);
    }
    return {};
}

SpawnedChild SpawnedChild::run(const QString& program, const QStringList& arguments,
                               int timeoutMs) {
    SpawnedChild child;
    // Everything the spawn needs is built before it: posix_spawn is safe in a process with
    // threads (the engine's, QtTest's watchdog), where fork() followed by Qt code would not be.
    std::vector<QByteArray> storage;
    storage.push_back(program.toLocal8Bit());
    for (const QString& argument : arguments)
        storage.push_back(argument.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    int outPipe[2] = {-1, -1};
    int errPipe[2] = {-1, -1};
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) {
        child.failure = QStringLiteral("pipe2: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        closeBoth(outPipe);
        closeBoth(errPipe);
        return child;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    // dup2 clears close-on-exec on the copy; the originals close at exec.
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    outPipe[1] = errPipe[1] = -1;
    if (spawned != 0) {
        child.failure = QStringLiteral("posix_spawn %1: %2")
                            .arg(program, QString::fromLocal8Bit(strerror(spawned)));
        closeBoth(outPipe);
        closeBoth(errPipe);
        return child;
    }
    ::fcntl(outPipe[0], F_SETFL, O_NONBLOCK);
    ::fcntl(errPipe[0], F_SETFL, O_NONBLOCK);

    // Read both pipes until the child closes them (it ends), or until the deadline.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool outOpen = true;
    bool errOpen = true;
    bool hung = false;
    while (outOpen || errOpen) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            hung = true;
            break;
        }
        pollfd fds[2] = {{outOpen ? outPipe[0] : -1, POLLIN, 0},
                         {errOpen ? errPipe[0] : -1, POLLIN, 0}};
        const int ready = ::poll(fds, 2, int(left.count()));
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        if (outOpen && fds[0].revents != 0)
            outOpen = drain(outPipe[0], child.out);
        if (errOpen && fds[1].revents != 0)
            errOpen = drain(errPipe[0], child.err);
    }
    if (hung) {
        ::kill(pid, SIGKILL);
        child.failure = QStringLiteral("no end within %1 ms; killed").arg(timeoutMs);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // Whatever a killed child still had in the pipes was written all the same.
    drain(outPipe[0], child.out);
    drain(errPipe[0], child.err);
    closeBoth(outPipe);
    closeBoth(errPipe);
    if (hung) {
        child.end = End::Hung;
    } else if (WIFEXITED(status)) {
        child.end = End::Exited;
        child.code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        child.end = End::Signalled;
        child.code = WTERMSIG(status);
    }
    return child;
}

} // namespace hourglass::testing
