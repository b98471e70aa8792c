// Sessions (service-bus-rules.md S2-S5): accepting a session (a named one, or the next available
// one at once or after a wait on the broker's clock), renewing and releasing its lock, what is lost
// with it, and its state.
//
// A session lock is volatile like a message lock (L9): it is kept in memory only, so a restart
// loses it. The message locks taken under it are ordinary message locks (L4-L10) that end with
// it; their tokens are remembered for a while so that settling one says SessionLockLost.
#include "BrokerWrite.h"

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

Result<Entity*> BrokerImpl::sessionEntity(const QString& path, Instant& now) {
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    Entity& entity = *target->entity;
    if (target->subQueue == SubQueue::DeadLetter)
        return makeWrongEntityKindError(QStringLiteral("A dead-letter queue has no sessions: "
                                                       "receive from '%1' without one.")
                                            .arg(path));
    if (auto ok = checkReceivable(entity); !ok)
        return ok.error();
    if (!entity.hasSessions())
        return makeWrongEntityKindError(QStringLiteral("'%1' does not require sessions: "
                                                       "receive from it without a session.")
                                            .arg(entity.path));
    return &entity;
}

Result<BrokerImpl::HeldSession> BrokerImpl::checkSessionHeld(const SessionRef& ref, Instant& now) {
    auto entity = sessionEntity(ref.entityPath, now);
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
    return HeldSession{*entity, session};
}

SessionRecord* BrokerImpl::nextAvailableSession(Entity& entity) {
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

AcceptedSession BrokerImpl::grantSession(Entity& entity, SessionRecord& session,
                                         const QString& receiver, Instant at) {
    const Instant lockedUntil = addSaturating(at, entity.properties.lockDuration);
    session.lock = SessionLock{receiver, m_locks.newToken(), lockedUntil};
    m_timers.push({lockedUntil, session.ordinal, static_cast<quint32>(entity.id),
                   TimerKind::SessionLockExpire, 0});
    touch(entity, at); // A2: taking a session is receiving
    m_feed->markSessions(entity.qualified());
    return {entity.path, session.id, receiver, lockedUntil, at};
}

void BrokerImpl::endSessionLock(Entity& entity, const QString& sessionId, Instant at,
                                SessionEnd end) {
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
        m_locks.rememberLostWithSession(entity.main.lockOf(seq)->token);
        releaseMessageLock(entity, SubQueue::Main, seq, at);
    }
    session = entity.sessions.find(sessionId);
    session->lock.reset();
    entity.sessions.forgetIfUnused(sessionId);
    if (end != SessionEnd::Released)
        m_feed->markCounts(entity.qualified());
    m_feed->markSessions(entity.qualified());
}

void BrokerImpl::dropSessionLocks(Entity& entity, Instant at) {
    std::vector<QString> held;
    for (const auto& [id, session] : entity.sessions.sessions()) {
        if (session.lock)
            held.push_back(id);
    }
    for (const QString& id : held)
        endSessionLock(entity, id, at, SessionEnd::Lost);
}

// ---- Accepting

Result<AcceptedSession> BrokerImpl::acceptSession(const QString& path,
                                                  const SessionAcceptOptions& options) {
    if (options.sessionId)
        if (auto ok = checkSessionId(*options.sessionId); !ok)
            return ok.error();
    std::optional<Result<AcceptedSession>> result;
    BrokerWrite write(*this);
    Instant now;
    auto entity = sessionEntity(path, now);
    if (!entity)
        return entity.error();
    // A refused accept changes nothing; a granted one is activity (grantSession).
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
        session = nextAvailableSession(**entity);
        if (!session)
            result = noSessionAvailable(path);
    }
    if (!result) {
        AcceptedSession granted = grantSession(**entity, *session, options.receiver, now);
        granted.entityPath = path; // as given: it resolves the same way again
        result = granted;
    }
    if (auto durable = write.commit(); !durable)
        return durable.error();
    return *result;
}

quint64 BrokerImpl::acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                                       Millis timeout, SessionAcceptCallback done) {
    // Answered on the callback thread, never to the caller: nothing is waited for here.
    BrokerWrite write(*this);
    const auto id = m_sessionWaits.takeId();
    const auto answer = [&](Result<AcceptedSession> result) {
        // Once what the grant logged (A2) is durable, off the caller.
        answerWhenDurable([done = std::move(done), result = std::move(result)] { done(result); });
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
    auto entity = sessionEntity(path, now);
    if (!entity)
        return answer(entity.error());
    // Older waits on the entity would have taken an available session already: it is served
    // after every change that can make one available.
    if (SessionRecord* session = nextAvailableSession(**entity)) {
        AcceptedSession granted = grantSession(**entity, *session, options.receiver, now);
        granted.entityPath = path;
        return answer(granted);
    }
    if (timeout == 0)
        return answer(noSessionAvailable(path));
    const Instant deadline = addSaturating(now, timeout);
    m_sessionWaits.add(
        id, SessionWait{(*entity)->id, path, options.receiver, deadline, std::move(done)});
    m_timers.push({deadline, static_cast<qint64>(id), static_cast<quint32>((*entity)->id),
                   TimerKind::AcceptTimeout, 0});
    return id;
}

bool BrokerImpl::cancelAcceptSession(quint64 waitId) {
    BrokerWrite write(*this); // nothing logged: nothing to wait for
    return m_sessionWaits.cancel(waitId);
}

void BrokerImpl::endAcceptWait(SessionWaits::Iterator wait, Result<AcceptedSession> result) {
    SessionAcceptCallback done = m_sessionWaits.take(wait);
    answerWhenDurable([done = std::move(done), result = std::move(result)] { done(result); });
}

void BrokerImpl::serveAcceptWaits(Instant at) {
    if (m_sessionWaits.empty())
        return;
    // An entity with nothing available stays so for the rest of this pass: look once.
    std::vector<qint64> exhausted;
    for (auto it = m_sessionWaits.begin(); it != m_sessionWaits.end();) {
        const qint64 entityId = it->second.entityId;
        Entity* entity = m_registry.byId(entityId);
        SessionRecord* session = nullptr;
        if (entity && std::find(exhausted.begin(), exhausted.end(), entityId) == exhausted.end() &&
            entity->hasSessions() && checkReceivable(*entity).ok())
            session = nextAvailableSession(*entity);
        if (!session) {
            exhausted.push_back(entityId);
            ++it;
            continue;
        }
        AcceptedSession granted = grantSession(*entity, *session, it->second.receiver, at);
        granted.entityPath = it->second.path;
        const auto next = std::next(it);
        endAcceptWait(it, granted);
        it = next;
    }
}

void BrokerImpl::failAcceptWaits(qint64 entityId, const QString& path) {
    for (auto it = m_sessionWaits.begin(); it != m_sessionWaits.end();) {
        const auto next = std::next(it);
        if (it->second.entityId == entityId)
            endAcceptWait(it, makeError(ErrorCode::MessagingEntityNotFound,
                                        QStringLiteral("The messaging entity '%1' was "
                                                       "deleted while waiting for a "
                                                       "session.")
                                            .arg(path)));
        it = next;
    }
}

// ---- Renewing and releasing

Result<Instant> BrokerImpl::renewSessionLock(const SessionRef& ref) {
    Instant lockedUntil;
    BrokerWrite write(*this);
    Instant now;
    auto held = checkSessionHeld(ref, now);
    if (!held)
        return held.error();
    Entity& entity = *held->entity;
    SessionRecord& session = *held->session;
    lockedUntil = addSaturating(now, entity.properties.lockDuration); // S2, as L10
    session.lock->lockedUntil = lockedUntil;
    m_timers.push({lockedUntil, session.ordinal, static_cast<quint32>(entity.id),
                   TimerKind::SessionLockExpire, 0});
    touch(entity, now);
    m_feed->markSessions(entity.qualified());
    return write.commit(lockedUntil);
}

Result<void> BrokerImpl::releaseSession(const SessionRef& ref) {
    BrokerWrite write(*this);
    Instant now;
    auto held = checkSessionHeld(ref, now);
    if (!held)
        return held.error();
    touch(*held->entity, now);
    endSessionLock(*held->entity, ref.sessionId, now, SessionEnd::Released);
    serveAcceptWaits(now);
    return write.commit();
}

int BrokerImpl::releaseSessionsOf(const QString& receiver) {
    int released = 0;
    BrokerWrite write(*this);
    const Instant now = m_clock->now();
    processDue(now);
    for (auto& [id, entity] : m_registry.all()) {
        if (!entity->hasSessions())
            continue;
        std::vector<QString> held;
        for (const auto& [sessionId, session] : entity->sessions.sessions()) {
            if (session.lock && session.lock->holder == receiver)
                held.push_back(sessionId);
        }
        for (const QString& sessionId : held)
            endSessionLock(*entity, sessionId, now, SessionEnd::Lost);
        released += static_cast<int>(held.size());
    }
    serveAcceptWaits(now);
    (void)write.commit();
    return released;
}

// ---- State (S4)

Result<std::optional<QByteArray>> BrokerImpl::sessionState(const SessionRef& ref) {
    qint64 entityId;
    bool hasState;
    BrokerWrite write(*this);
    Instant now;
    auto held = checkSessionHeld(ref, now);
    if (!held)
        return held.error();
    touch(*held->entity, now);
    entityId = held->entity->id;
    hasState = held->session->hasState;
    // The state is read from the store once every state set before is committed there.
    if (auto durable = write.commit(); !durable)
        return durable.error();
    if (!hasState)
        return std::optional<QByteArray>();
    return m_store->readSessionState(entityId, ref.sessionId);
}

Result<void> BrokerImpl::setSessionState(const SessionRef& ref,
                                         const std::optional<QByteArray>& state) {
    BrokerWrite write(*this);
    Instant now;
    auto held = checkSessionHeld(ref, now);
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
    touch(entity, now);
    session.hasState = state.has_value();
    session.stateSize = state ? state->size() : 0;
    session.stateSetAt = state ? now : 0;
    m_store->log(op::SetSessionState{entity.id, session.id, state, now});
    m_feed->markSessions(entity.qualified());
    return write.commit();
}

// ---- Broker facade (the observed calls are in BrokerObserved.cpp)

bool Broker::cancelAcceptSession(quint64 waitId) {
    return m_impl->cancelAcceptSession(waitId);
}

Result<std::optional<QByteArray>> Broker::sessionState(const SessionRef& session) {
    return m_impl->sessionState(session);
}

} // namespace hourglass
