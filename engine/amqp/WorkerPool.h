#pragma once
// The threads that call the broker for the endpoint. Broker calls wait on disk (a send returns
// once durable), so they never run on the proactor thread: one slow fsync would stall every
// connection's frames. Many workers let concurrent sends share one group commit (L2).

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hourglass::amqp {

class WorkerPool {
public:
    explicit WorkerPool(int threads);
    // Runs every job already queued, then joins.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> job);
    // Waits until the queue is empty and no job runs.
    void waitIdle();

private:
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::deque<std::function<void()>> m_jobs; // guarded by m_mutex
    int m_running = 0;                        // guarded by m_mutex
    bool m_stopping = false;                  // guarded by m_mutex
    std::vector<std::thread> m_threads;
};

} // namespace hourglass::amqp
