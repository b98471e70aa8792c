// Mutex::assertHeld, the run-time check at the entry of each of the broker's parts (Router,
// SessionLocks, ...): it passes on the thread that holds the mutex, and aborts naming the caller
// on a thread that does not, while another holds it. The abort happens in a child process; this
// program passes when the child was stopped by SIGABRT, and ctest also expects the child's
// message (and fails if the holder's own check complained).
#include "Mutex.h"

#include <csignal>
#include <cstdio>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {
void holdOnOneThreadAssertOnAnother() {
    hourglass::Mutex mutex;
    mutex.lock();
    mutex.assertHeld("the holder's call");
    std::thread other([&mutex] { mutex.assertHeld("the other thread's call"); });
    other.join();
    mutex.unlock();
}
} // namespace

int main() {
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child < 0) {
        std::perror("fork");
        return 2;
    }
    if (child == 0) {
        holdOnOneThreadAssertOnAnother();
        _exit(0); // not reached when the check works
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child) {
        std::perror("waitpid");
        return 2;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) {
        std::printf("the child aborted, as it should\n");
        return 0;
    }
    std::printf("the child was not stopped by the check (status %d)\n", status);
    return 1;
}
