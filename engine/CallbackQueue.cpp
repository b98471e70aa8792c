#include "CallbackQueue.h"

namespace hourglass {

CallbackQueue::~CallbackQueue() {
    stop();
}

void CallbackQueue::post(std::function<void()> callback) {
    std::lock_guard lock(m_mutex);
    if (m_stopped)
        return;
    m_pending.push_back(std::move(callback));
    if (!m_thread.joinable())
        m_thread = std::thread([this] { run(); });
    m_wake.notify_one();
}

void CallbackQueue::stop() {
    std::thread thread;
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_pending.clear();
        thread = std::move(m_thread);
    }
    m_wake.notify_one();
    if (thread.joinable())
        thread.join();
}

void CallbackQueue::run() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopped || !m_pending.empty(); });
        if (m_stopped)
            return;
        std::function<void()> callback = std::move(m_pending.front());
        m_pending.pop_front();
        // Outside the lock: the callback may post again, or call the broker.
        lock.unlock();
        callback();
        lock.lock();
    }
}

} // namespace hourglass
