// Time: firing due events in time order, each at its own instant (scheduled activation, lock
// expiry, message expiry, auto-delete-on-idle), and the virtual clock's "advance".
#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

namespace hourglass {

bool BrokerImpl::eventLive(const TimerEvent& event) const {
    if (event.kind == TimerKind::AcceptTimeout) {
        return m_sessionLocks.waitEndsAt(static_cast<quint64>(event.seq), event.due);
    }
    const Entity* entity = m_registry.byId(event.entityId);
    if (!entity)
        return false;
    switch (event.kind) {
    case TimerKind::Activate: {
        const MessageMeta* meta = entity->main.find(event.seq);
        return meta && meta->state == MessageState::Scheduled &&
               meta->activatesOrExpiresAt == event.due;
    }
    case TimerKind::Expire: {
        const MessageMeta* meta = entity->main.find(event.seq);
        return meta && meta->state == MessageState::Active && !meta->locked &&
               meta->activatesOrExpiresAt == event.due;
    }
    case TimerKind::LockExpire: {
        const LockInfo* lock =
            entity->index(static_cast<SubQueue>(event.subQueue)).lockOf(event.seq);
        return lock && lock->lockedUntil == event.due;
    }
    case TimerKind::AutoDelete:
        return entity->autoDeleteEventAt == event.due;
    case TimerKind::SessionLockExpire: {
        const SessionRecord* session = entity->sessions.byOrdinal(event.seq);
        return session && session->lock && session->lock->lockedUntil == event.due;
    }
    case TimerKind::AcceptTimeout:
        break; // above
    }
    return false;
}

bool BrokerImpl::handleEvent(const TimerEvent& event) {
    if (!eventLive(event))
        return false;
    if (event.kind == TimerKind::AcceptTimeout) {
        m_sessionLocks.timeOut(static_cast<quint64>(event.seq));
        return true;
    }
    Entity& entity = *m_registry.byId(event.entityId);
    // Everything an event does happens at the event's own instant, not at "now": advancing the
    // clock by an hour replays the hour in order.
    const Instant at = event.due;
    switch (event.kind) {
    case TimerKind::Activate:
        activate(entity, event.seq, at);
        break;
    case TimerKind::Expire:
        expire(entity, event.seq, at);
        break;
    case TimerKind::LockExpire:
        releaseMessageLock(entity, static_cast<SubQueue>(event.subQueue), event.seq, at);
        break;
    case TimerKind::AutoDelete: {
        entity.autoDeleteEventAt = kNever;
        const Instant deleteAt = autoDeleteAt(entity);
        if (deleteAt == kNever)
            break;
        if (deleteAt > at) {
            scheduleAutoDelete(entity); // activity moved the instant: re-arm
            break;
        }
        eraseEntity(&entity); // A1
        break;
    }
    case TimerKind::SessionLockExpire: {
        const QString id = entity.sessions.byOrdinal(event.seq)->id;
        m_sessionLocks.end(entity, id, at, SessionLocks::End::Expired); // S5
        break;
    }
    case TimerKind::AcceptTimeout:
        break; // above
    }
    return true;
}

int BrokerImpl::processDue(Instant now) {
    m_timers.compactIfGrown([this](const TimerEvent& event)
                                REQUIRES(m_mutex) { return eventLive(event); });
    int handled = 0;
    while (m_timers.nextDue() <= now) {
        const TimerEvent event = m_timers.pop();
        if (handleEvent(event)) {
            ++handled;
            // S3: what the event freed goes to the waits at the event's own instant, before any
            // later wait runs out.
            m_sessionLocks.serveWaits(event.due);
        }
    }
    return handled;
}

int BrokerImpl::runDue() {
    BrokerWrite write(*this);
    const int handled = processDue(m_clock->now());
    if (handled == 0)
        return 0;
    (void)write.commit();
    return handled;
}

Instant EmbeddedBroker::nextDueAt() const {
    BrokerRead lock(*m_impl);
    return m_impl->m_timers.nextDue();
}

// EmbeddedBroker::advanceClock is observed (a recording writes a jump as a step):
// BrokerObserved.cpp.

} // namespace hourglass
