#pragma once
// A mutex and its scoped lock that clang's thread-safety analysis understands (-Wthread-safety):
// neither std::mutex nor QMutex carries the annotations. State says which mutex guards it with
// GUARDED_BY, a function that expects a mutex held says so with REQUIRES, and clang checks
// every access and every call (tests/engine/thread-safety runs that pass). With gcc the
// annotations are empty and these are std::mutex and a lock guard.

#include <mutex>

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
// A function that cannot be checked (constructors and destructors are not).
#define NO_THREAD_SAFETY_ANALYSIS HOURGLASS_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace hourglass {

class CAPABILITY("mutex") Mutex {
public:
    Mutex() = default;
    Mutex(const Mutex&) = delete;
    Mutex& operator=(const Mutex&) = delete;

    void lock() ACQUIRE() { m_mutex.lock(); }
    void unlock() RELEASE() { m_mutex.unlock(); }

private:
    std::mutex m_mutex;
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
