// Session locks (SessionLocks.h): accepting, renewing and releasing a session's lock, what is lost
// with it, the waits for a session, and its state.
#include "SessionLocks.h"

#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

namespace hourglass {

namespace {
// Service Bus's limit on a SessionId.

Error invalid(const QString& what) {
    return makeError(ErrorCode::InvalidArgument, what);
}

Error sessionLockLost(const QString& why) {
    return makeError(ErrorCode::SessionLockLost,
                     QStringLiteral("The session lock was lost: %1").arg(why));
}

Error noSessionAvailable(const QString& path) {
    return makeError(ErrorCode::ServiceTimeout,
                     QStringLiteral("No session of '%1' is available: every session with "
                                    "messages to receive is locked, or there is none.")
                         .arg(path));
}

Result<void> checkSessionId(const QString& id) {
    if (id.isEmpty())
        return invalid(QStringLiteral("A session id cannot be empty."));
    if (id.size() > kMaxSessionIdLength)
        return invalid(QStringLiteral("A session id is at most %1 characters long; got %2.")
                           .arg(kMaxSessionIdLength)
                           .arg(id.size()));
    return {};
}
} // namespace

SessionRef SessionRef::of(const AcceptedSession& session) {
    return {session.entityPath, session.sessionId, session.receiver};
}

// ---- Finding sessions and checking their locks

Result<Entity*> SessionLocks::entityOf(const QString& path, Instant& now) {
    m_broker.m_mutex.assertHeld(__func__);
    auto target = m_broker.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (target->subQueue == SubQueue::DeadLetter)
        return makeWrongEntityKindError(QStringLiteral("A dead-letter queue has no sessions: "
                                                       "receive from '%1' without one.")
                                            .arg(path));
    if (auto ok = BrokerImpl::checkReceivable(entity); !ok)
        return ok.error();
    if (!entity.hasSessions())
        return makeWrongEntityKindError(QStringLiteral("'%1' does not require sessions: "
                                                       "receive from it without a session.")
                                            .arg(entity.path));
    return &entity;
}

Result<SessionLocks::Held> SessionLocks::checkHeld(const SessionRef& ref, Instant& now) {
    m_broker.m_mutex.assertHeld(__func__);
    auto entity = entityOf(ref.entityPath, now);
    if (!entity)
        return entity.error();
    // Locks that ran out are gone: fireDueAndResolve fired their expiry.
    SessionRecord* session = (*entity)->sessions.find(ref.sessionId);
    if (!session || !session->lock)
        return sessionLockLost(QStringLiteral("the session '%1' is not locked; its lock ran out, "
                                              "was released, or was lost (an update of the "
                                              "entity, a restart, or the holder's connection "
                                              "broke).")
                                   .arg(ref.sessionId));
    if (session->lock->holder != ref.receiver)
        return sessionLockLost(QStringLiteral("the session '%1' is locked by another receiver "
                                              "('%2').")
                                   .arg(ref.sessionId, session->lock->holder));
    return Held{*entity, session};
}

SessionRecord* SessionLocks::nextAvailable(Entity& entity) {
    m_broker.m_mutex.assertHeld(__func__);
    SessionRecord* found = nullptr;
    // S3: the receivable messages in sequence order give the sessions oldest message first.
    entity.main.findReceivable([&](qint64 seq) {
        const QString* id = entity.sessions.sessionOf(seq);
        SessionRecord* session = id ? entity.sessions.find(*id) : nullptr;
        if (!session || session->lock)
            return false;
        found = session;
        return true;
    });
    return found;
}

AcceptedSession SessionLocks::grant(Entity& entity, SessionRecord& session, const QString& receiver,
                                    const QString& path, Instant at) {
    m_broker.m_mutex.assertHeld(__func__);
    const Instant lockedUntil = addSaturating(at, entity.properties.lockDuration);
    session.lock = SessionLock{receiver, m_broker.m_locks.newToken(), lockedUntil};
    holdUntil(entity, session, lockedUntil, at);
    return {path, session.id, receiver, lockedUntil, at};
}

void SessionLocks::holdUntil(Entity& entity, SessionRecord& session, Instant until, Instant at) {
    m_broker.m_mutex.assertHeld(__func__);
    session.lock->lockedUntil = until;
    m_broker.m_timers.push(
        {until, session.ordinal, static_cast<quint32>(entity.id), TimerKind::SessionLockExpire, 0});
    m_broker.touch(entity, at);
    m_broker.m_feed->markSessions(entity.qualified());
}

void SessionLocks::end(Entity& entity, const QString& sessionId, Instant at, End why) {
    m_broker.m_mutex.assertHeld(__func__);
    SessionRecord* session = entity.sessions.find(sessionId);
    if (!session || !session->lock)
        return;
    std::vector<qint64> locked;
    for (qint64 seq : session->messages) {
        if (entity.main.lockOf(seq))
            locked.push_back(seq);
    }
    // The message locks go first, while the session is still locked: a release may move a
    // message away (L6, T6), and a session that still holds its lock is never forgotten.
    for (qint64 seq : locked) {
        m_broker.m_locks.rememberLostWithSession(entity.main.lockOf(seq)->token);
        m_broker.releaseMessageLock(entity, SubQueue::Main, seq, at);
    }
    session = entity.sessions.find(sessionId);
    session->lock.reset();
    entity.sessions.forgetIfUnused(sessionId);
    if (why != End::Released)
        m_broker.m_feed->markCounts(entity.qualified());
    m_broker.m_feed->markSessions(entity.qualified());
}

void SessionLocks::dropAll(Entity& entity, Instant at) {
    loseLocks(entity, at, nullptr);
}

int SessionLocks::loseLocks(Entity& entity, Instant at, const QString* holder) {
    m_broker.m_mutex.assertHeld(__func__);
    std::vector<QString> held;
    for (const auto& [id, session] : entity.sessions.sessions()) {
        if (session.lock && (!holder || session.lock->holder == *holder))
            held.push_back(id);
    }
    for (const QString& id : held)
        end(entity, id, at, End::Lost);
    return static_cast<int>(held.size());
}

// ---- Accepting

Result<AcceptedSession> SessionLocks::accept(const QString& path,
                                             const SessionAcceptOptions& options) {
    if (options.sessionId)
        if (auto ok = checkSessionId(*options.sessionId); !ok)
            return ok.error();
    std::optional<Result<AcceptedSession>> result;
    BrokerWrite write(m_broker);
    Instant now;
    auto entity = entityOf(path, now);
    if (!entity)
        return entity.error();
    // A refused accept changes nothing; a granted one is activity (grant).
    SessionRecord* session = nullptr;
    if (options.sessionId) {
        session = (*entity)->sessions.find(*options.sessionId);
        if (session && session->lock)
            result = makeError(ErrorCode::SessionCannotBeLocked,
                               QStringLiteral("The requested session '%1' cannot be "
                                              "accepted. It may be locked by another "
                                              "receiver.")
                                   .arg(*options.sessionId));
        else
            session = &(*entity)->sessions.obtain(*options.sessionId); // S3: even empty
    } else {
        session = nextAvailable(**entity);
        if (!session)
            result = noSessionAvailable(path);
    }
    if (!result) {
        result = grant(**entity, *session, options.receiver, path, now);
    }
    if (auto durable = write.commit(); !durable)
        return durable.error();
    return *result;
}

quint64 SessionLocks::acceptAsync(const QString& path, const SessionAcceptOptions& options,
                                  Millis timeout, SessionAcceptCallback done) {
    // Answered on the callback thread, never to the caller: nothing is waited for here.
    BrokerWrite write(m_broker);
    const auto id = m_broker.m_sessionWaits.takeId();
    const auto answer = [&](Result<AcceptedSession> result) {
        // Once what the grant logged (A2) is durable, off the caller.
        m_broker.answerWhenDurable(
            [done = std::move(done), result = std::move(result)] { done(result); });
        return id;
    };
    if (options.sessionId)
        return answer(invalid(QStringLiteral("Only the next available session is waited for; "
                                             "accept the session '%1' with acceptSession().")
                                  .arg(*options.sessionId)));
    if (timeout < 0)
        return answer(
            invalid(QStringLiteral("A wait cannot be negative; got %1 ms.").arg(timeout)));
    Instant now;
    auto entity = entityOf(path, now);
    if (!entity)
        return answer(entity.error());
    // Older waits on the entity would have taken an available session already: it is served
    // after every change that can make one available.
    if (SessionRecord* session = nextAvailable(**entity)) {
        return answer(grant(**entity, *session, options.receiver, path, now));
    }
    if (timeout == 0)
        return answer(noSessionAvailable(path));
    const Instant deadline = addSaturating(now, timeout);
    m_broker.m_sessionWaits.add(
        id, SessionWait{(*entity)->id, path, options.receiver, deadline, std::move(done)});
    m_broker.m_timers.push({deadline, static_cast<qint64>(id), static_cast<quint32>((*entity)->id),
                            TimerKind::AcceptTimeout, 0});
    return id;
}

bool SessionLocks::cancelAccept(quint64 waitId) {
    BrokerWrite write(m_broker); // nothing logged: nothing to wait for
    return m_broker.m_sessionWaits.cancel(waitId);
}

void SessionLocks::endWait(SessionWaits::Iterator wait, Result<AcceptedSession> result) {
    m_broker.m_mutex.assertHeld(__func__);
    SessionAcceptCallback done = m_broker.m_sessionWaits.take(wait);
    m_broker.answerWhenDurable(
        [done = std::move(done), result = std::move(result)] { done(result); });
}

void SessionLocks::serveWaits(Instant at) {
    m_broker.m_mutex.assertHeld(__func__);
    if (m_broker.m_sessionWaits.empty())
        return;
    // An entity with nothing available stays so for the rest of this pass: look once.
    std::vector<qint64> exhausted;
    for (auto it = m_broker.m_sessionWaits.begin(); it != m_broker.m_sessionWaits.end();) {
        const qint64 entityId = it->second.entityId;
        Entity* entity = m_broker.m_registry.byId(entityId);
        SessionRecord* session = nullptr;
        if (entity && std::find(exhausted.begin(), exhausted.end(), entityId) == exhausted.end() &&
            entity->hasSessions() && BrokerImpl::checkReceivable(*entity).ok())
            session = nextAvailable(*entity);
        if (!session) {
            exhausted.push_back(entityId);
            ++it;
            continue;
        }
        AcceptedSession granted =
            grant(*entity, *session, it->second.receiver, it->second.path, at);
        const auto next = std::next(it);
        endWait(it, granted);
        it = next;
    }
}

void SessionLocks::failWaits(qint64 entityId, const QString& path) {
    m_broker.m_mutex.assertHeld(__func__);
    for (auto it = m_broker.m_sessionWaits.begin(); it != m_broker.m_sessionWaits.end();) {
        const auto next = std::next(it);
        if (it->second.entityId == entityId)
            endWait(it, makeError(ErrorCode::MessagingEntityNotFound,
                                  QStringLiteral("The messaging entity '%1' was "
                                                 "deleted while waiting for a "
                                                 "session.")
                                      .arg(path)));
        it = next;
    }
}

// ---- Renewing and releasing

Result<Instant> SessionLocks::renew(const SessionRef& ref) {
    BrokerWrite write(m_broker);
    Instant now;
    auto held = checkHeld(ref, now);
    if (!held)
        return held.error();
    const Instant lockedUntil = addSaturating(now, held->entity->properties.lockDuration); // S2
    holdUntil(*held->entity, *held->session, lockedUntil, now);
    return write.commit(lockedUntil);
}

Result<void> SessionLocks::release(const SessionRef& ref) {
    BrokerWrite write(m_broker);
    Instant now;
    auto held = checkHeld(ref, now);
    if (!held)
        return held.error();
    m_broker.touch(*held->entity, now);
    end(*held->entity, ref.sessionId, now, End::Released);
    serveWaits(now);
    return write.commit();
}

int SessionLocks::releaseAllOf(const QString& receiver) {
    int released = 0;
    BrokerWrite write(m_broker);
    const Instant now = m_broker.m_clock->now();
    m_broker.processDue(now);
    for (auto& [id, entity] : m_broker.m_registry.all()) {
        if (entity->hasSessions())
            released += loseLocks(*entity, now, &receiver);
    }
    serveWaits(now);
    (void)write.commit();
    return released;
}

// ---- State (S4)

Result<std::optional<QByteArray>> SessionLocks::state(const SessionRef& ref) {
    qint64 entityId;
    bool hasState;
    BrokerWrite write(m_broker);
    Instant now;
    auto held = checkHeld(ref, now);
    if (!held)
        return held.error();
    m_broker.touch(*held->entity, now);
    entityId = held->entity->id;
    hasState = held->session->hasState;
    // The state is read from the store once every state set before is committed there.
    if (auto durable = write.commit(); !durable)
        return durable.error();
    if (!hasState)
        return std::optional<QByteArray>();
    return m_broker.m_store->readSessionState(entityId, ref.sessionId);
}

Result<void> SessionLocks::setState(const SessionRef& ref, const std::optional<QByteArray>& state) {
    BrokerWrite write(m_broker);
    Instant now;
    auto held = checkHeld(ref, now);
    if (!held)
        return held.error();
    Entity& entity = *held->entity;
    SessionRecord& session = *held->session;
    const qint64 limit = qint64(entity.properties.maxMessageSizeInKilobytes) * 1024;
    if (state && state->size() > limit)
        return makeError(ErrorCode::MessageSizeExceeded,
                         QStringLiteral("The session state is %1 bytes; '%2' accepts at most "
                                        "%3 bytes (MaxMessageSizeInKilobytes=%4).")
                             .arg(state->size())
                             .arg(entity.path)
                             .arg(limit)
                             .arg(entity.properties.maxMessageSizeInKilobytes));
    m_broker.touch(entity, now);
    session.hasState = state.has_value();
    session.stateSize = state ? state->size() : 0;
    session.stateSetAt = state ? now : 0;
    m_broker.m_store->log(op::SetSessionState{entity.id, session.id, state, now});
    m_broker.m_feed->markSessions(entity.qualified());
    return write.commit();
}

// ---- The AcceptTimeout timer and a reload

bool SessionLocks::waitEndsAt(quint64 waitId, Instant deadline) const {
    m_broker.m_mutex.assertHeld(__func__);
    return m_broker.m_sessionWaits.endsAt(waitId, deadline);
}

void SessionLocks::timeOut(quint64 waitId) {
    m_broker.m_mutex.assertHeld(__func__);
    const auto wait = m_broker.m_sessionWaits.find(waitId);
    if (wait == m_broker.m_sessionWaits.end())
        return;
    const Entity* waited = m_broker.m_registry.byId(wait->second.entityId);
    endWait(wait, makeError(ErrorCode::ServiceTimeout,
                            QStringLiteral("No session of '%1' became available in time.")
                                .arg(waited ? waited->path : wait->second.path)));
}

void SessionLocks::failWaitsOfGoneEntities() {
    m_broker.m_mutex.assertHeld(__func__);
    std::vector<std::pair<qint64, QString>> gone;
    for (const auto& [waitId, wait] : m_broker.m_sessionWaits.all()) {
        if (!m_broker.m_registry.byId(wait.entityId))
            gone.emplace_back(wait.entityId, wait.path);
    }
    for (const auto& [entityId, path] : gone)
        failWaits(entityId, path);
}

// ---- Broker facade (the observed calls are in BrokerObserved.cpp)

bool EmbeddedBroker::cancelAcceptSession(quint64 waitId) {
    return m_impl->m_sessionLocks.cancelAccept(waitId);
}

Result<std::optional<QByteArray>> EmbeddedBroker::sessionState(const SessionRef& session) {
    return m_impl->m_sessionLocks.state(session);
}

} // namespace hourglass
