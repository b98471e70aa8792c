#pragma once
// The waits for a session: each call of Broker::acceptSessionAsync that found no session available
// at once waits here, by id, until a session of its entity becomes available, its deadline passes
// (an AcceptTimeout timer), it is cancelled, or its entity goes away. Start here for "who is
// waiting for a session" and "is this wait still running".
//
// Owned by the broker (BrokerImpl::m_sessionWaits) and guarded by the broker's mutex: it has no
// lock of its own, and clang checks that every call is made with BrokerImpl::m_mutex held. Which
// wait a freed session goes to, and answering a wait (its callback runs on the callback thread,
// outside the mutex), are the broker's (SessionLocks.cpp).

#include "hourglass/Broker.h"

#include <QString>

#include <map>

namespace hourglass {

struct SessionWait {
    qint64 entityId = 0;
    QString path; // as the caller gave it, for AcceptedSession::entityPath
    QString receiver;
    Instant deadline = kNever;
    SessionAcceptCallback done;
};

class SessionWaits {
public:
    // Ids only grow: iterating the waits goes oldest first (S3 serves the oldest wait first).
    using Waits = std::map<quint64, SessionWait>;
    using Iterator = Waits::iterator;

    // The id of the next call: every call takes one, answered at once or not.
    quint64 takeId() { return m_nextId++; }
    void add(quint64 id, SessionWait wait) { m_waits.emplace(id, std::move(wait)); }
    // False when the wait already ended (answered, timed out, cancelled) or never waited.
    bool cancel(quint64 id) { return m_waits.erase(id) > 0; }
    // Whether the wait `id` still runs and ends at `deadline`: its AcceptTimeout timer is live.
    bool endsAt(quint64 id, Instant deadline) const {
        const auto wait = m_waits.find(id);
        return wait != m_waits.end() && wait->second.deadline == deadline;
    }

    bool empty() const { return m_waits.empty(); }
    Iterator begin() { return m_waits.begin(); }
    Iterator end() { return m_waits.end(); }
    Iterator find(quint64 id) { return m_waits.find(id); }
    const Waits& all() const { return m_waits; }
    // The wait ends: it is forgotten, and its callback is returned to be answered.
    SessionAcceptCallback take(Iterator wait) {
        SessionAcceptCallback done = std::move(wait->second.done);
        m_waits.erase(wait);
        return done;
    }

private:
    Waits m_waits;
    quint64 m_nextId = 1;
};

} // namespace hourglass
