// The explorer's reads of sessions (service-bus-rules.md S2, S4): each session's messages by state,
// its lock and its state, paged in session id order like the message lists. They take no lock,
// change nothing and are no activity (A2).
#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

namespace hourglass {

namespace {
Result<void> checkSessionsPath(const BrokerImpl::Target& target, const QString& /*asGiven*/) {
    if (target.subQueue == SubQueue::Main && target.entity->hasSessions())
        return {};
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("'%1' has no sessions: only a queue or subscription that "
                                    "requires sessions has them.")
                         .arg(target.entity->path)); // its own path: never the "ns:" form
}
} // namespace

SessionInfo BrokerImpl::sessionInfoOf(const Entity& entity, const SessionRecord& session) const {
    SessionInfo info;
    info.sessionId = session.id;
    for (qint64 seq : session.messages) {
        const MessageMeta* meta = entity.main.find(seq);
        if (!meta)
            continue;
        if (meta->locked)
            ++info.locked;
        else if (meta->state == MessageState::Scheduled)
            ++info.scheduled;
        else if (meta->state == MessageState::Deferred)
            ++info.deferred;
        else
            ++info.active;
    }
    if (session.lock) {
        info.lockedBy = session.lock->holder;
        info.lockedUntil = session.lock->lockedUntil;
    }
    info.hasState = session.hasState;
    info.stateSize = session.stateSize;
    info.stateSetAt = session.stateSetAt;
    return info;
}

Result<QList<SessionInfo>>
EmbeddedBroker::listSessions(const QString& path, const QString& fromSessionId, int maxCount,
                             std::optional<Instant> stateSetSince) const {
    if (maxCount < 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("maxCount must be at least 1; got %1.").arg(maxCount));
    auto& d = *m_impl;
    BrokerRead read(d);
    Instant now;
    auto target = d.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    if (auto ok = checkSessionsPath(*target, path); !ok)
        return ok.error();
    const auto& sessions = target->entity->sessions.sessions();
    QList<SessionInfo> out;
    for (auto it = sessions.lower_bound(fromSessionId);
         it != sessions.end() && out.size() < maxCount; ++it) {
        const SessionRecord& session = it->second;
        if (stateSetSince && (!session.hasState || session.stateSetAt < *stateSetSince))
            continue;
        out.append(d.sessionInfoOf(*target->entity, session));
    }
    return out;
}

bool EmbeddedBroker::holdsSession(const SessionRef& ref) const {
    const auto held = m_impl->readTarget(ref.entityPath, [&](const BrokerImpl::Target& target) {
        if (!checkSessionsPath(target, ref.entityPath))
            return false;
        // Due timers fired first (readTarget): a lock past its end is gone by now.
        const SessionRecord* session = target.entity->sessions.find(ref.sessionId);
        return session && session->lock && session->lock->holder == ref.receiver;
    });
    return held && *held;
}

Result<SessionInfo> EmbeddedBroker::session(const QString& path, const QString& sessionId) const {
    auto& d = *m_impl;
    std::optional<SessionInfo> info;
    qint64 entityId = 0;
    BrokerRead read(d);
    Instant now;
    auto target = d.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    if (auto ok = checkSessionsPath(*target, path); !ok)
        return ok.error();
    const Entity& entity = *target->entity;
    entityId = entity.id;
    if (const SessionRecord* session = entity.sessions.find(sessionId))
        info = d.sessionInfoOf(entity, *session);
    const Logged readable = read.release();
    if (!info) {
        SessionInfo unused; // any id names a session; one nobody used is empty (S3)
        unused.sessionId = sessionId;
        return unused;
    }
    if (!info->hasState)
        return *info;
    if (auto durable = readable.durable(); !durable)
        return durable.error();
    auto state = d.m_store->readSessionState(entityId, sessionId);
    if (!state)
        return state.error();
    // Set to null meanwhile: the read says so rather than show a size without bytes.
    if (!*state) {
        info->hasState = false;
        info->stateSize = 0;
        info->stateSetAt = 0;
    } else {
        info->state = **state;
    }
    return *info;
}

Result<Broker::SessionPages> EmbeddedBroker::sessionPages(const QString& path, int stride) const {
    if (stride < 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("stride must be at least 1; got %1.").arg(stride));
    auto paged =
        m_impl->readTarget(path, [&](const BrokerImpl::Target& target) -> Result<SessionPages> {
            if (auto ok = checkSessionsPath(target, path); !ok)
                return ok.error();
            const auto& sessions = target.entity->sessions.sessions();
            SessionPages pages;
            pages.stride = stride;
            pages.total = static_cast<qint64>(sessions.size());
            qint64 position = 0;
            for (const auto& [id, session] : sessions) {
                if (position++ % stride == 0)
                    pages.anchors.append(id);
            }
            return pages;
        });
    if (!paged)
        return paged.error();
    return *paged;
}

} // namespace hourglass
