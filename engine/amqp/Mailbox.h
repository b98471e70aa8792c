#pragma once
// How a worker hands a broker call's result back to the proactor thread: it posts a completion
// here, which wakes the connection's carrier (StreamWaker); the proactor thread runs it on the
// wake, where Proton objects may be touched. Once the connection's transport has closed, posts
// are dropped: the connection and its Proton objects are gone.

#include "hourglass/amqp/StreamService.h"

#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace hourglass::amqp {

class Connection;

class Mailbox {
public:
    using Completion = std::function<void(Connection&)>;

    explicit Mailbox(std::shared_ptr<StreamWaker> waker)
        : m_waker(std::move(waker)) {}

    // Any thread.
    void post(Completion completion) {
        std::lock_guard lock(m_mutex);
        if (!m_waker)
            return;
        m_completions.push_back(std::move(completion));
        m_waker->wake();
    }
    // Proactor thread.
    std::vector<Completion> take() {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_completions, {});
    }
    // Proactor thread, when the transport has closed: later posts are dropped.
    void close() {
        std::lock_guard lock(m_mutex);
        m_waker.reset();
        m_completions.clear();
    }

private:
    std::mutex m_mutex;
    std::shared_ptr<StreamWaker> m_waker;  // guarded by m_mutex; null once closed
    std::vector<Completion> m_completions; // guarded by m_mutex
};

} // namespace hourglass::amqp
