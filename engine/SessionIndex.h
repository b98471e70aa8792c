#pragma once
// The in-memory index of the sessions of one entity that requires sessions (service-bus-rules.md
// S1-S6): which of its messages belong to which session, who holds each session's lock, and whether
// a session has a state. The messages themselves stay in the entity's MessageIndex (main
// sub-queue); this index only names them by sequence number, so their state, locks and counts
// have one owner. A dead-letter queue has no sessions: its messages are not listed here.
//
// A session exists here while it holds a message, a lock or a state, and is forgotten when it
// holds none of them (sessions are not created or deleted by anyone: they are what messages and
// states make them).
//
// Not thread-safe: guarded by the Broker's mutex.

#include "hourglass/Time.h"

#include <QString>
#include <QUuid>

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace hourglass {

// S1: a SessionId is 1 to this many characters (as Service Bus takes it).
inline constexpr int kMaxSessionIdLength = 128;

struct SessionLock {
    QString holder;          // the receiver name (a wire link): only it may act on the session
    QUuid token;             // tells one grant of the lock from a later one to the same holder
    Instant lockedUntil = 0; // when it runs out (S2, S5)
};

struct SessionRecord {
    QString id;
    // Names the session in timer events (TimerEvent::seq), which cannot carry a string.
    qint64 ordinal = 0;
    std::set<qint64> messages; // sequence numbers in the main sub-queue, in order (S2)
    std::optional<SessionLock> lock;
    // S4: the state itself is read from the store on demand; memory keeps its size and when it
    // was last set, which every explorer read shows.
    bool hasState = false;
    qint64 stateSize = 0;
    Instant stateSetAt = 0;

    bool unused() const { return messages.empty() && !lock && !hasState; }
};

class SessionIndex {
public:
    SessionRecord* find(const QString& id);
    const SessionRecord* find(const QString& id) const;
    SessionRecord* byOrdinal(qint64 ordinal);
    const SessionRecord* byOrdinal(qint64 ordinal) const;
    // The session, created (unused) when it is not known yet.
    SessionRecord& obtain(const QString& id);
    // Forgets the session when it holds nothing any more; true when it was forgotten (any
    // pointer to it is then dangling).
    bool forgetIfUnused(const QString& id);

    // A message of the main sub-queue joins its session, leaves it (no-op for a message of no
    // session), or is renumbered (a scheduled message becoming active, L11).
    void addMessage(const QString& sessionId, qint64 seq);
    void removeMessage(qint64 seq);
    void renumber(qint64 oldSeq, qint64 newSeq);
    // The session of a main sub-queue message; null when it has none.
    const QString* sessionOf(qint64 seq) const;

    // In session id order (exact, case-sensitive: "A" and "a" are two sessions).
    const std::map<QString, SessionRecord>& sessions() const { return m_sessions; }
    void clear();

private:
    std::map<QString, SessionRecord> m_sessions;
    std::unordered_map<qint64, QString> m_sessionOf; // message seq -> session id
    std::unordered_map<qint64, QString> m_byOrdinal; // ordinal -> session id
    qint64 m_nextOrdinal = 1;
};

} // namespace hourglass
