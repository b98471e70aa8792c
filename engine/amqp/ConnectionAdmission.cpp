#include "ConnectionAdmission.h"

#include <algorithm>

namespace hourglass::amqp {

ConnectionAdmission::ConnectionAdmission(AdmissionLimits limits)
    : m_limits(limits) {
    m_limits.maxConnections = std::max<std::size_t>(1, m_limits.maxConnections);
    // Never more unauthenticated than connections in all (a full endpoint drops one of them
    // for a newcomer anyway).
    m_limits.maxUnauthenticated =
        std::clamp<std::size_t>(m_limits.maxUnauthenticated, 1, m_limits.maxConnections);
}

ConnectionAdmission::Decision ConnectionAdmission::arrived(Key connection, Clock::time_point now) {
    Decision decision;
    // Room for the newcomer among the unauthenticated, and in the whole when that is full: the
    // oldest unauthenticated goes first (it had the longest to authenticate).
    while (!m_waiting.empty() &&
           (m_waiting.size() >= m_limits.maxUnauthenticated ||
            m_tracked.size() - decision.evicted.size() >= m_limits.maxConnections)) {
        const Key oldest = m_waiting.front().connection;
        stopWaiting(oldest);
        decision.evicted.push_back(oldest);
    }
    // The evicted are closing: their sockets go within moments, so they do not hold the
    // newcomer out.
    if (m_tracked.size() - decision.evicted.size() >= m_limits.maxConnections)
        return decision; // every place is held by an authenticated connection
    decision.admitted = true;
    m_waiting.push_back({connection, now + m_limits.authenticateWithin});
    m_tracked[connection] = {true, std::prev(m_waiting.end())};
    return decision;
}

void ConnectionAdmission::authenticated(Key connection) {
    stopWaiting(connection);
}

void ConnectionAdmission::left(Key connection) {
    stopWaiting(connection);
    m_tracked.erase(connection);
}

std::vector<ConnectionAdmission::Key> ConnectionAdmission::overdue(Clock::time_point now) {
    std::vector<Key> due;
    while (!m_waiting.empty() && m_waiting.front().deadline <= now) {
        due.push_back(m_waiting.front().connection);
        stopWaiting(due.back());
    }
    return due;
}

void ConnectionAdmission::stopWaiting(Key connection) {
    const auto it = m_tracked.find(connection);
    if (it == m_tracked.end() || !it->second.waiting)
        return;
    m_waiting.erase(it->second.at);
    it->second.waiting = false;
}

} // namespace hourglass::amqp
