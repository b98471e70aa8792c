#pragma once
// How a worker hands a broker call's result back to the proactor thread: it posts a completion
// here, which wakes the connection (pn_connection_wake); the proactor thread runs it on
// PN_CONNECTION_WAKE, where Proton objects may be touched. Once the connection's transport has
// closed, posts are dropped: the connection and its Proton objects are gone.

#include <proton/connection.h>
#include <proton/proactor.h>

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace hourglass::amqp {

class Connection;

class Mailbox {
public:
    using Completion = std::function<void(Connection&)>;

    explicit Mailbox(pn_connection_t* connection)
        : m_connection(connection) {}

    // Any thread.
    void post(Completion completion) {
        std::lock_guard lock(m_mutex);
        if (!m_connection)
            return;
        m_completions.push_back(std::move(completion));
        pn_connection_wake(m_connection);
    }
    // Proactor thread.
    std::vector<Completion> take() {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_completions, {});
    }
    // Proactor thread, when the transport has closed: later posts are dropped.
    void close() {
        std::lock_guard lock(m_mutex);
        m_connection = nullptr;
        m_completions.clear();
    }

private:
    std::mutex m_mutex;
    pn_connection_t* m_connection;         // guarded by m_mutex; null once closed
    std::vector<Completion> m_completions; // guarded by m_mutex
};

} // namespace hourglass::amqp
