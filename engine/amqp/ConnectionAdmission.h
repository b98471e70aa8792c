#pragma once
// Which connections the endpoint keeps (engine/amqp/README.md, "Limits on connections"). A peer
// must authenticate (one put-token accepted on $cbs) within a deadline; until it does it counts
// against a cap of its own, and past that cap the oldest unauthenticated connection goes to make
// room for the new one. All connections together stay under an overall limit: a new connection
// past it is refused, but only when authenticated connections fill it (an unauthenticated one
// is dropped first), so no number of idle or half-open sockets keeps an authenticated client
// out. Plain bookkeeping without Proton; the proactor thread owns it and carries out what it
// decides.

#include <chrono>
#include <cstddef>
#include <list>
#include <unordered_map>
#include <vector>

namespace hourglass::amqp {

struct AdmissionLimits {
    std::size_t maxConnections = 1000;
    std::size_t maxUnauthenticated = 500;
    std::chrono::milliseconds authenticateWithin{20000};
};

class ConnectionAdmission {
public:
    using Clock = std::chrono::steady_clock;
    using Key = void*; // the connection's carrier (from its accept on)

    explicit ConnectionAdmission(AdmissionLimits limits);

    struct Decision {
        bool admitted = false;
        // Unauthenticated connections to close now to make room, oldest first. They no longer
        // count as unauthenticated, but still count toward the overall limit until left().
        std::vector<Key> evicted;
    };
    // A connection was accepted. A refused one is not tracked (left() for it is harmless).
    Decision arrived(Key connection, Clock::time_point now);
    // Its first put-token was accepted: no deadline and no unauthenticated cap any more.
    void authenticated(Key connection);
    // Its socket is gone.
    void left(Key connection);
    // Unauthenticated connections whose deadline has passed, oldest first; each is reported
    // once (the caller closes it).
    std::vector<Key> overdue(Clock::time_point now);

    std::size_t total() const { return m_tracked.size(); }
    std::size_t unauthenticated() const { return m_waiting.size(); }
    const AdmissionLimits& limits() const { return m_limits; }

private:
    struct Waiting {
        Key connection;
        Clock::time_point deadline;
    };
    void stopWaiting(Key connection);

    AdmissionLimits m_limits;
    std::list<Waiting> m_waiting; // unauthenticated, oldest first (deadlines in the same order)
    // Every connection counted toward the overall limit; an iterator into m_waiting while it is
    // unauthenticated and not yet told to close.
    struct Tracked {
        bool waiting = false;
        std::list<Waiting>::iterator at;
    };
    std::unordered_map<Key, Tracked> m_tracked;
};

} // namespace hourglass::amqp
