#pragma once
// A mutex and its scoped lock that clang's thread-safety analysis understands (-Wthread-safety):
// neither std::mutex nor QMutex carries the annotations. State says which mutex guards it with
// GUARDED_BY, a function that expects a mutex held says so with REQUIRES, and clang checks
// every access and every call (tests/engine/thread-safety runs that pass). With gcc the
// annotations are empty and these are std::mutex and a lock guard.

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#if defined(__clang__)
#define HOURGLASS_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define HOURGLASS_THREAD_ANNOTATION(x)
#endif

// A type that is a lock (a mutex).
#define CAPABILITY(x) HOURGLASS_THREAD_ANNOTATION(capability(x))
// A type whose objects hold a lock from construction to destruction (or an explicit release).
#define SCOPED_CAPABILITY HOURGLASS_THREAD_ANNOTATION(scoped_lockable)
// A member read or written only with the named mutex held.
#define GUARDED_BY(x) HOURGLASS_THREAD_ANNOTATION(guarded_by(x))
// A function called only with the named mutex held (and which leaves it held).
#define REQUIRES(...) HOURGLASS_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
// A function that takes the mutex and returns holding it.
#define ACQUIRE(...) HOURGLASS_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
// A function that releases the mutex held on entry.
#define RELEASE(...) HOURGLASS_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
// A function called only without the named mutex held (it takes it).
#define EXCLUDES(...) HOURGLASS_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
// A function that checks, when it runs, that the calling thread holds the mutex; clang then takes
// it as held for the rest of the calling function.
#define ASSERT_CAPABILITY(x) HOURGLASS_THREAD_ANNOTATION(assert_capability(x))
// A function that cannot be checked (constructors and destructors are not).
#define NO_THREAD_SAFETY_ANALYSIS HOURGLASS_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace hourglass {

class CAPABILITY("mutex") Mutex {
public:
    Mutex() = default;
    Mutex(const Mutex&) = delete;
    Mutex& operator=(const Mutex&) = delete;

    void lock() ACQUIRE() {
        m_mutex.lock();
        m_owner.store(std::this_thread::get_id(), std::memory_order_relaxed);
    }
    void unlock() RELEASE() {
        m_owner.store(std::thread::id(), std::memory_order_relaxed);
        m_mutex.unlock();
    }

    // The broker's parts (Router, SessionLocks, ...) are called by code that holds the broker's
    // mutex, but clang cannot see that a part's reference to the broker is the caller itself; a
    // part's function starts with this instead, which clang trusts and which aborts, naming
    // `where`, when the calling thread does not hold the mutex. Relaxed loads suffice: only the
    // owner's own store can make the comparison true.
    void assertHeld(const char* where) const ASSERT_CAPABILITY(this) {
        if (m_owner.load(std::memory_order_relaxed) != std::this_thread::get_id()) {
            std::fprintf(stderr, "hourglass: %s ran without holding the broker's mutex\n", where);
            std::abort();
        }
    }

private:
    std::mutex m_mutex;
    std::atomic<std::thread::id> m_owner{};
};

// Holds a Mutex for its scope; release() lets it go earlier (the destructor then does nothing).
class SCOPED_CAPABILITY MutexLock {
public:
    explicit MutexLock(Mutex& mutex) ACQUIRE(mutex)
        : m_mutex(mutex) {
        m_mutex.lock();
    }
    ~MutexLock() RELEASE() {
        if (m_held)
            m_mutex.unlock();
    }
    MutexLock(const MutexLock&) = delete;
    MutexLock& operator=(const MutexLock&) = delete;

    void release() RELEASE() {
        m_held = false;
        m_mutex.unlock();
    }

private:
    Mutex& m_mutex;
    bool m_held = true;
};

} // namespace hourglass
