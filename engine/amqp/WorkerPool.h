#pragma once
// The threads that call the broker for the endpoint, and the endpoint's only way to it: a job is
// handed the Broker, and nothing else of the endpoint holds one, so the proactor thread cannot
// call it (README.md, Threads). Broker calls wait on disk (a send returns once durable): one slow
// fsync on the proactor thread would stall every connection's frames. Many workers let
// concurrent sends share one group commit (L2).

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hourglass {
class Broker;
}

namespace hourglass::amqp {

class WorkerPool {
public:
    using Job = std::function<void(Broker&)>;

    WorkerPool(Broker& broker, int threads);
    // Runs every job already queued, then joins.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Runs `job` on a worker, with the broker.
    void submit(Job job);
    // Waits until the queue is empty and no job runs.
    void waitIdle();

private:
    void run();

    Broker& m_broker;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::deque<Job> m_jobs;  // guarded by m_mutex
    int m_running = 0;       // guarded by m_mutex
    bool m_stopping = false; // guarded by m_mutex
    std::vector<std::thread> m_threads;
};

} // namespace hourglass::amqp
