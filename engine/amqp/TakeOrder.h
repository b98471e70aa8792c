#pragma once
// The order in which one link's receive calls take messages. A link may have several receive
// calls out (ConnectionDeliveries.cpp); they run on different workers, and the first to reach
// the broker would take the first messages. Each call waits for its turn, takes, and hands the
// turn on as soon as its messages are taken (ReceiveOptions::taken), before its disk sync: the
// syncs overlap, the takes keep the calls' order, and so the deliveries keep sequence order.

#include <QtGlobal>

#include <condition_variable>
#include <mutex>

namespace hourglass::amqp {

class TakeOrder {
public:
    // Blocks until every earlier call has taken its messages. Call k is queued on the workers
    // after call k-1, so k-1 is running or done: the wait is short and cannot deadlock.
    void waitTurn(quint64 call) {
        std::unique_lock lock(m_mutex);
        m_turn.wait(lock, [&] { return m_next >= call; });
    }
    // Call `call` has taken its messages (or failed before taking any). Idempotent.
    void taken(quint64 call) {
        std::lock_guard lock(m_mutex);
        if (m_next != call)
            return;
        ++m_next;
        m_turn.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_turn;
    quint64 m_next = 0;
};

} // namespace hourglass::amqp
