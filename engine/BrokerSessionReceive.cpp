// Receiving through a session lock (service-bus-rules.md S2, S6): the session's messages in
// sequence order, each under its own message lock (or removed at once in receive-and-delete), and
// its deferred messages by sequence number. The hand-out is the one receive() uses, so delivery
// counts, L6, T5/T6/T8 and durability (D2) are the same.
#include "BrokerWrite.h"

namespace hourglass {

Result<QList<MessageView>> BrokerImpl::receiveFromSession(const SessionRef& ref, ReceiveMode mode,
                                                          int maxCount) {
    if (auto ok = checkBatchSize(maxCount); !ok)
        return ok.error();
    const QString* lockHolder = mode == ReceiveMode::PeekLock ? &ref.receiver : nullptr;
    HandOut handOut;
    BrokerWrite write(*this);
    auto held = m_sessionLocks.checkHeld(ref, handOut.now);
    if (!held)
        return held.error();
    Entity& entity = *held->entity;
    // The session holds its lock throughout, so it is never forgotten here even when the
    // hand-out empties it.
    SessionRecord& session = *held->session;
    beginHandOut(entity, SubQueue::Main, handOut);
    const Instant now = handOut.now;
    const qint64 record = m_locks.takeRecordId();
    qint64 from = 0;
    while (static_cast<int>(handOut.taken.size()) < maxCount) {
        // The next receivable message of the session from `from` on. The set may change
        // under a hand-out (dead-lettered, expired, removed): look it up again each time.
        std::optional<qint64> next;
        for (auto it = session.messages.lower_bound(from); it != session.messages.end(); ++it) {
            const MessageMeta* meta = entity.main.find(*it);
            if (meta && meta->state == MessageState::Active && !meta->locked) {
                next = *it;
                break;
            }
        }
        if (!next)
            break;
        from = *next + 1;
        if (!keepDeliverable(entity, SubQueue::Main, *next, now, Moment::HandOut))
            continue;
        handOut.taken.push_back(
            handOutMessage(entity, SubQueue::Main, *next, lockHolder, now, record));
    }
    endHandOut(entity, handOut, lockHolder, record);
    if (!handOut.taken.empty())
        m_feed->markSessions(entity.qualified());
    return finishHandOut(handOut, write.release(), mode);
}

Result<MessageView> BrokerImpl::receiveDeferredFromSession(const SessionRef& ref, qint64 seq) {
    HandOut handOut;
    std::optional<Error> failure;
    BrokerWrite write(*this);
    auto held = m_sessionLocks.checkHeld(ref, handOut.now);
    if (!held)
        return held.error();
    Entity& entity = *held->entity;
    beginHandOut(entity, SubQueue::Main, handOut);
    const QString* owner = entity.sessions.sessionOf(seq);
    if (!owner || *owner != ref.sessionId)
        failure = makeError(ErrorCode::MessageNotFound,
                            QStringLiteral("No deferred message with sequence number %1 in "
                                           "the session '%2' of '%3'.")
                                .arg(seq)
                                .arg(ref.sessionId, entity.path));
    else
        failure = takeDeferred(entity, SubQueue::Main, seq, ref.receiver, handOut);
    if (!failure)
        m_feed->markSessions(entity.qualified());
    return finishDeferredHandOut(handOut, write.release(), failure, seq);
}

} // namespace hourglass
