// A slower disk for the wire benchmark (run-amqp-bench.sh, BENCH_SYNC_DELAY_US): preloaded
// into a broker (LD_PRELOAD), it makes every fsync and fdatasync take SLOW_SYNC_DELAY_US
// microseconds longer, the thread sleeping as it would on a slower disk, after the real sync (so
// nothing is acknowledged earlier than before). The machines we run on differ most in their
// disks' sync rate, and every accepted durable send waits for a sync.
//
//   gcc -O2 -shared -fPIC -o slow-sync.so slow-sync.c -ldl
//   SLOW_SYNC_DELAY_US=1000 LD_PRELOAD=$PWD/slow-sync.so hourglass serve ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long delay_us(void) {
    static long cached = -1;
    if (cached < 0) {
        const char* text = getenv("SLOW_SYNC_DELAY_US");
        long value = text ? strtol(text, NULL, 10) : 0;
        cached = value > 0 && value < 1000000 ? value : 0;
    }
    return cached;
}

static void slow_down(void) {
    const long us = delay_us();
    if (us == 0)
        return;
    // The default timer slack (50 us) would lengthen every sleep by up to that much.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    struct timespec left = {us / 1000000, (us % 1000000) * 1000};
    const int saved = errno;
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
    errno = saved;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    const int result = real(fd);
    slow_down();
    return result;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    const int result = real(fd);
    slow_down();
    return result;
}
