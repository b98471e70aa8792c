#pragma once
// Session locks (service-bus-rules.md S2-S5): accepting a session (a named one, or the next
// available one at once or after a wait on the broker's clock), renewing and releasing its lock,
// what is lost with it, and its state. Start here for "who holds this session" and "why did my
// accept time out".
//
// A session lock is volatile like a message lock (L9): it is kept in memory only (SessionIndex's
// SessionRecord::lock), so a restart loses it. The message locks taken under it are ordinary
// message locks (LockTable, L4-L10) that end with it; their tokens are remembered for a while so
// that settling one says SessionLockLost. The waits for a session are SessionWaits.
//
// A part of the broker: its state is the broker's. The operations (accept, renew, release, the
// state) take the broker's mutex themselves, through BrokerWrite; the other functions are called
// with it held (each asserts it: Mutex::assertHeld).

#include "hourglass/Broker.h"

#include "SessionWaits.h"

namespace hourglass {

class BrokerImpl;
struct Entity;
struct SessionRecord;

class SessionLocks {
public:
    explicit SessionLocks(BrokerImpl& broker)
        : m_broker(broker) {}

    // ---- Operations (Broker's calls of the same names)
    Result<AcceptedSession> accept(const QString& path, const SessionAcceptOptions& options);
    quint64 acceptAsync(const QString& path, const SessionAcceptOptions& options, Millis timeout,
                        SessionAcceptCallback done);
    bool cancelAccept(quint64 waitId);
    Result<Instant> renew(const SessionRef& ref);
    Result<void> release(const SessionRef& ref);
    // Every session lock `receiver` holds is lost (its connection or link went); how many.
    int releaseAllOf(const QString& receiver);
    Result<std::optional<QByteArray>> state(const SessionRef& ref);
    Result<void> setState(const SessionRef& ref, const std::optional<QByteArray>& state);

    // ---- With the broker's mutex held
    // The session `ref` names, locked by ref.receiver; SessionLockLost otherwise (S5). Fires
    // what is due first, and sets `now`.
    struct Held {
        Entity* entity = nullptr;
        SessionRecord* session = nullptr;
    };
    Result<Held> checkHeld(const SessionRef& ref, Instant& now);
    // Why a session lock ends (S5); the session is then available again.
    enum class End { Released, Expired, Lost };
    // Ends the lock of the session `sessionId`: every message lock held in it is lost (settling
    // it then fails with SessionLockLost), the released messages go back (L6, T6).
    void end(Entity& entity, const QString& sessionId, Instant at, End why);
    // E5, L9, S5: every session lock of the entity ends.
    void dropAll(Entity& entity, Instant at);
    // Grants what became available to the waits, oldest first, as of `at`. Called after
    // everything that can make a session available (a message arriving or coming back, a
    // session lock ending) and after every timer event.
    void serveWaits(Instant at);
    // The entity went away: its waits end with MessagingEntityNotFound.
    void failWaits(qint64 entityId, const QString& path);
    // After the broker reloaded its state: the waits on entities no longer there end.
    void failWaitsOfGoneEntities();
    // The AcceptTimeout timer of the wait `waitId`: whether it is still live (the wait runs and
    // ends at `deadline`), and ending the wait with ServiceTimeout.
    bool waitEndsAt(quint64 waitId, Instant deadline) const;
    void timeOut(quint64 waitId);

private:
    // The main sub-queue of an entity that requires sessions, or why `path` is not one (S1).
    Result<Entity*> entityOf(const QString& path, Instant& now);
    // S3: the unlocked session with the oldest receivable message; null when none.
    SessionRecord* nextAvailable(Entity& entity);
    // Locks `session` for `receiver` from `at` for the entity's LockDuration; the answer names
    // the entity by `path` as the caller gave it (it resolves the same way again).
    AcceptedSession grant(Entity& entity, SessionRecord& session, const QString& receiver,
                          const QString& path, Instant at);
    // The lock of `session` runs until `until` (a grant, a renewal): its expiry timer, activity
    // on the entity (A2: taking or renewing a session is receiving), the explorer told.
    void holdUntil(Entity& entity, SessionRecord& session, Instant until, Instant at);
    // Every session lock of the entity (or only those `holder` holds) is lost; how many.
    int loseLocks(Entity& entity, Instant at, const QString* holder);
    // Ends a wait with `result` (its callback runs on the callback thread, outside the mutex).
    void endWait(SessionWaits::Iterator wait, Result<AcceptedSession> result);

    BrokerImpl& m_broker;
};

} // namespace hourglass
