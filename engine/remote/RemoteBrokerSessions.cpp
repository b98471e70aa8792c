// RemoteBroker's sessions (RemoteBroker.h): accepted on a session receiver link of the AMQP
// client, named or the next available, on the caller's worker or, for acceptSessionAsync, on a
// thread of the broker's; the sessions it holds are kept here (holdsSession, releaseSessionsOf);
// the session listing comes from the service's get-message-sessions.
#include "RemoteBrokerState.h"

#include <algorithm>

namespace hourglass::remote {

namespace {
// How many session ids a listing reads at most, and how many at a time.
constexpr int kSessionListLimit = 10'000;
constexpr int kSessionListPage = 100;

bool sameSession(const AcceptedSession& held, const SessionRef& session) {
    return held.entityPath == session.entityPath && held.sessionId == session.sessionId &&
           held.receiver == session.receiver;
}
} // namespace

void RemoteBroker::State::dropSessionsOfBrokenConnection() {
    const quint64 epoch = amqp->connectionEpoch();
    if (amqp->connectionLostAt() != 0 || epoch != sessionsEpoch)
        heldSessions.clear();
    sessionsEpoch = epoch;
}

void RemoteBroker::State::hold(const AcceptedSession& session) {
    std::lock_guard lock(sessionsMutex);
    dropSessionsOfBrokenConnection();
    heldSessions.append(session);
    feed.markSessions(qualified(session.entityPath));
}

void RemoteBroker::State::letGo(const SessionRef& session) {
    std::lock_guard lock(sessionsMutex);
    heldSessions.removeIf([&](const AcceptedSession& held) { return sameSession(held, session); });
    feed.markSessions(qualified(session.entityPath));
}

Result<AcceptedSession>
RemoteBroker::State::accept(const QString& path, const SessionAcceptOptions& accept, int waitMs) {
    if (auto refused = refuseWhenReadOnly(); !refused)
        return refused.error();
    auto accepted = amqp->acceptSession(path, accept, ReceiveMode::PeekLock, waitMs);
    if (accepted)
        hold(*accepted);
    return accepted;
}

Result<QStringList> RemoteBroker::State::sessionIds(const QString& path) const {
    QStringList ids;
    while (ids.size() < kSessionListLimit) {
        const auto page = amqp->listSessions(path, int(ids.size()), kSessionListPage);
        if (!page)
            return page.error();
        ids += *page;
        if (page->size() < kSessionListPage)
            break;
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

void RemoteBroker::State::endWaits() {
    std::list<WaitThread> threads;
    {
        std::lock_guard lock(waitsMutex);
        pendingWaits.clear();
        threads.swap(waitThreads);
    }
    // A wait in flight fails at once when the connection closes, rather than at its time-out.
    if (!threads.empty())
        amqp->close();
    for (WaitThread& wait : threads)
        wait.thread.join();
}

Result<AcceptedSession> RemoteBroker::acceptSession(const QString& pathIn,
                                                    const SessionAcceptOptions& options) {
    const QString path = unqualified(pathIn);
    return m_state->accept(path, options, m_state->options.receiveWaitMs);
}

quint64 RemoteBroker::acceptSessionAsync(const QString& pathIn, const SessionAcceptOptions& options,
                                         Millis timeout, SessionAcceptCallback done) {
    const QString path = unqualified(pathIn);
    State& state = *m_state;
    std::lock_guard lock(state.waitsMutex);
    const quint64 id = ++state.lastWaitId;
    state.pendingWaits.insert(id);
    // Threads that have ended are joined here, so that they do not pile up.
    state.waitThreads.remove_if([](State::WaitThread& wait) {
        if (!wait.finished->load())
            return false;
        wait.thread.join();
        return true;
    });
    auto finished = std::make_shared<std::atomic_bool>(false);
    const int waitMs = int(std::clamp<Millis>(timeout, 0, state.options.amqp.callTimeoutMs));
    std::thread thread([&state, id, path, options, waitMs, done, finished] {
        const auto accepted = state.accept(path, options, waitMs);
        bool wanted = false;
        {
            std::lock_guard lock(state.waitsMutex);
            wanted = state.pendingWaits.remove(id);
        }
        if (wanted)
            done(accepted);
        else if (accepted) // the caller gave up: the session goes back
            (void)state.release(SessionRef::of(*accepted));
        finished->store(true);
    });
    state.waitThreads.push_back({std::move(thread), finished});
    return id;
}

bool RemoteBroker::cancelAcceptSession(quint64 waitId) {
    std::lock_guard lock(m_state->waitsMutex);
    return m_state->pendingWaits.remove(waitId);
}

Result<Instant> RemoteBroker::renewSessionLock(const SessionRef& sessionIn) {
    const SessionRef session = unqualified(sessionIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto renewed = m_state->amqp->renewSessionLock(session);
    std::lock_guard lock(m_state->sessionsMutex);
    for (AcceptedSession& held : m_state->heldSessions)
        if (sameSession(held, session) && renewed)
            held.lockedUntil = *renewed;
    return renewed;
}

Result<void> RemoteBroker::State::release(const SessionRef& session) {
    auto released = amqp->releaseSession(session);
    letGo(session);
    return released;
}

Result<void> RemoteBroker::releaseSession(const SessionRef& sessionIn) {
    const SessionRef session = unqualified(sessionIn);
    return m_state->release(session);
}

int RemoteBroker::releaseSessionsOf(const QString& receiver) {
    QList<AcceptedSession> held;
    {
        std::lock_guard lock(m_state->sessionsMutex);
        held = m_state->heldSessions;
    }
    int released = 0;
    for (const AcceptedSession& session : held)
        if (session.receiver == receiver && m_state->release(SessionRef::of(session)))
            ++released;
    return released;
}

Result<QList<MessageView>> RemoteBroker::receiveFromSession(const SessionRef& sessionIn,
                                                            ReceiveMode mode, int maxCount) {
    const SessionRef session = unqualified(sessionIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto received =
        m_state->amqp->receiveFromSession(session, maxCount, m_state->options.receiveWaitMs);
    if (!received)
        return received;
    if (!received->isEmpty())
        m_state->taken(session.entityPath);
    if (mode == ReceiveMode::PeekLock)
        return received;
    // The session's link takes messages peek-locked: receive-and-delete completes each at once.
    for (MessageView& message : *received) {
        if (auto completed = m_state->amqp->complete(LockRef::of(message)); !completed)
            return completed.error();
        message.lockToken = QUuid();
        message.lockedUntil = 0;
    }
    return received;
}

Result<MessageView> RemoteBroker::receiveDeferredFromSession(const SessionRef& sessionIn,
                                                             qint64 sequenceNumber) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    const SessionRef session = unqualified(sessionIn);
    // The service takes it only for the session's holder: one this broker accepted.
    if (!holdsSession(session))
        return makeError(ErrorCode::SessionLockLost,
                         QStringLiteral("Session '%1' of '%2' is not held here: accept it first.")
                             .arg(session.sessionId, session.entityPath));
    auto received = m_state->amqp->receiveDeferred(session.entityPath, sequenceNumber,
                                                   session.receiver, session.sessionId);
    if (received)
        m_state->taken(session.entityPath);
    return received;
}

Result<std::optional<QByteArray>> RemoteBroker::sessionState(const SessionRef& sessionIn) {
    const SessionRef session = unqualified(sessionIn);
    return m_state->amqp->sessionState(session);
}

bool RemoteBroker::holdsSession(const SessionRef& sessionIn) const {
    const SessionRef session = unqualified(sessionIn);
    const Instant now = m_state->clock.now();
    std::lock_guard lock(m_state->sessionsMutex);
    m_state->dropSessionsOfBrokenConnection();
    return std::any_of(m_state->heldSessions.begin(), m_state->heldSessions.end(),
                       [&](const AcceptedSession& held) {
                           return sameSession(held, session) && held.lockedUntil > now;
                       });
}

Result<void> RemoteBroker::setSessionState(const SessionRef& sessionIn,
                                           const std::optional<QByteArray>& state) {
    const SessionRef session = unqualified(sessionIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto set = m_state->amqp->setSessionState(session, state);
    if (set)
        m_state->feed.markSessions(m_state->qualified(session.entityPath));
    return set;
}

Result<QList<SessionInfo>> RemoteBroker::listSessions(const QString& pathIn,
                                                      const QString& fromSessionId, int maxCount,
                                                      std::optional<Instant> stateSetSince) const {
    const QString path = unqualified(pathIn);
    if (stateSetSince)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Listing sessions by when their state was set is only "
                                        "available on a namespace this window hosts."));
    const auto ids = m_state->sessionIds(path);
    if (!ids)
        return ids.error();
    QList<SessionInfo> sessions;
    for (const QString& id : *ids) {
        if (id < fromSessionId)
            continue;
        if (sessions.size() >= maxCount)
            break;
        SessionInfo info;
        info.sessionId = id;
        sessions.append(info);
    }
    return sessions;
}

Result<SessionInfo> RemoteBroker::session(const QString& pathIn, const QString& sessionId) const {
    const QString path = unqualified(pathIn);
    SessionInfo info;
    info.sessionId = sessionId;
    std::optional<AcceptedSession> held;
    {
        std::lock_guard lock(m_state->sessionsMutex);
        for (const AcceptedSession& session : m_state->heldSessions)
            if (session.entityPath == path && session.sessionId == sessionId)
                held = session;
    }
    if (!held)
        return info; // only the session's holder reads its state
    info.lockedBy = held->receiver;
    info.lockedUntil = held->lockedUntil;
    const auto state = m_state->amqp->sessionState(SessionRef::of(*held));
    if (!state)
        return state.error();
    if (*state) {
        info.hasState = true;
        info.state = **state;
        info.stateSize = (*state)->size();
    }
    return info;
}

Result<Broker::SessionPages> RemoteBroker::sessionPages(const QString& pathIn, int stride) const {
    const QString path = unqualified(pathIn);
    const auto ids = m_state->sessionIds(path);
    if (!ids)
        return ids.error();
    SessionPages pages;
    pages.stride = std::max(1, stride);
    pages.total = ids->size();
    for (qsizetype i = 0; i < ids->size(); i += pages.stride)
        pages.anchors.append(ids->at(i));
    return pages;
}

} // namespace hourglass::remote
