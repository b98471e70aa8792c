#pragma once
// Runs callbacks on a thread of its own, in the order they were posted: how the broker tells a
// waiting caller that its wait ended (Broker::acceptSessionAsync) without calling it under the
// broker's lock or on whichever thread happened to end the wait. The thread starts with the
// first callback posted, so a broker that never waits has none.
//
// Thread-safe: m_mutex guards every member but m_thread, which only post() (under m_mutex) and
// stop() touch.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace hourglass {

class CallbackQueue {
public:
    CallbackQueue() = default;
    ~CallbackQueue();
    CallbackQueue(const CallbackQueue&) = delete;
    CallbackQueue& operator=(const CallbackQueue&) = delete;

    // Any thread, also under the broker's lock: never waits for a callback.
    void post(std::function<void()> callback);
    // Drops what has not run yet and waits for the callback that is running, if any. Later
    // posts are dropped too. Not from a callback.
    void stop();

private:
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_pending;
    bool m_stopped = false;
    std::thread m_thread;
};

} // namespace hourglass
