// The router (Router.h): a topic's fan-out to its subscriptions through their rules,
// auto-forwarding, and dead letters handed on to ForwardDeadLetteredMessagesTo.
#include "Router.h"

#include "BrokerImpl.h"

#include "RuleCopies.h"
#include "hourglass/RoutingPreview.h"

namespace hourglass {

namespace {
// Service Bus gives up forwarding after four hops (TransferHopCount).
constexpr int kMaxTransferHops = 4;
// S1: why a message that reached an entity requiring sessions by forwarding or a topic's copy,
// without a SessionId, was dead-lettered there (a direct send is refused instead).
const QString kSessionIdMissing = QStringLiteral("SessionIdMissing");
} // namespace

void Router::route(Entity& entity, const OutgoingMessage& message, Instant now,
                   const DeliveryExtras& extras, int hop) {
    m_broker.m_mutex.assertHeld(__func__);
    if (entity.kind == EntityKind::Topic) {
        // R1: one sequence number for the message, copied to every matching subscription.
        const qint64 seq = m_broker.takeSequenceNumber(entity);
        m_broker.logProgress(entity);
        SqlBrokerFields fields;
        fields.sequenceNumber = seq;
        fields.enqueuedTime = now;
        fields.deliveryCount = 0;
        fields.size = messageSize(message);
        for (Entity* subscription : entity.subscriptions) {
            if (subscription->properties.status == EntityStatus::Disabled)
                continue;
            // R4/R5: the copies the subscription's rules make, or the filter that failed.
            const RuleCopies routed = copiesThroughRules(subscription->rules, message, fields);
            if (routed.failure) {
                // R5: a failing filter or action dead-letters the message in this subscription
                // only (or drops it there); the other subscriptions go on.
                if (!subscription->properties.deadLetteringOnFilterEvaluationExceptions)
                    continue;
                DeliveryExtras dead = extras;
                dead.deadLetterReason = QStringLiteral("FilterException");
                dead.deadLetterDescription = routed.failure->description;
                ++subscription->flow.sent;
                ++subscription->flow.deadLettered;
                // A dead letter like any other: ForwardDeadLetteredMessagesTo takes it on.
                if (Entity* target = deadLetterDestination(*subscription)) {
                    dead.deadLetterSource = subscription->path;
                    forwardDeadLetter(*target, message, dead, now, hop + 1);
                    continue;
                }
                subscription->nextSeq = std::max(subscription->nextSeq, seq + 1);
                m_broker.insertMessage(*subscription, SubQueue::DeadLetter, seq, message, now,
                                       MessageState::Active, 0, dead);
                m_broker.logProgress(*subscription);
                continue;
            }
            bool first = true;
            for (const OutgoingMessage& copy : routed.copies) {
                ++subscription->flow.sent;
                if (!subscription->properties.forwardTo.isEmpty()) {
                    route(*subscription, copy, now, extras, hop);
                    continue;
                }
                // The first copy has the topic's number; each further copy takes its own.
                qint64 copySeq = seq;
                if (first)
                    subscription->nextSeq = std::max(subscription->nextSeq, seq + 1);
                else
                    copySeq = m_broker.takeSequenceNumber(*subscription);
                first = false;
                if (subscription->hasSessions() && copy.sessionId.isEmpty())
                    deadLetterWithoutSession(*subscription, copySeq, copy, now, extras, hop);
                else
                    m_broker.insertMessage(*subscription, SubQueue::Main, copySeq, copy, now,
                                           MessageState::Active, 0, extras);
                m_broker.logProgress(*subscription);
            }
        }
        return;
    }
    const QString& forwardTo = entity.properties.forwardTo;
    if (!forwardTo.isEmpty()) {
        Entity* target = m_broker.m_registry.find(entity.namespaceName, forwardTo);
        QString failure;
        if (hop >= kMaxTransferHops)
            failure = QStringLiteral("MaxTransferHopCountExceeded");
        else
            failure = forwardingFailure(entity.namespaceName, forwardTo);
        if (failure.isEmpty() && target->hasSessions() && message.sessionId.isEmpty())
            failure = QStringLiteral("The forwarding destination '%1' requires sessions and "
                                     "the message has no SessionId.")
                          .arg(forwardTo);
        if (failure.isEmpty()) {
            m_broker.touch(*target, now); // a forwarded message is a send on the destination
            // T3: the TTL this entity lowered the message to is its own from here on, so a
            // forward never lengthens its life.
            OutgoingMessage forwarded = message;
            const Millis lowered = m_broker.effectiveTtl(entity, message.timeToLive);
            if (message.timeToLive || lowered != kInfinite)
                forwarded.timeToLive = lowered;
            if (m_broker.seenBefore(*target, forwarded.messageId, now))
                return; // L13 at the destination: acknowledged and dropped
            ++target->flow.sent;
            route(*target, forwarded, now, extras, hop + 1);
            return;
        }
        // What cannot be forwarded stays with the source, in its dead-letter queue.
        DeliveryExtras dead = extras;
        dead.deadLetterReason = hop >= kMaxTransferHops
                                    ? QStringLiteral("MaxTransferHopCountExceeded")
                                    : QStringLiteral("ForwardingFailed");
        dead.deadLetterDescription = failure;
        const qint64 seq = m_broker.takeSequenceNumber(entity);
        ++entity.flow.deadLettered;
        m_broker.insertMessage(entity, SubQueue::DeadLetter, seq, message, now,
                               MessageState::Active, 0, dead);
        m_broker.logProgress(entity);
        return;
    }
    const qint64 seq = m_broker.takeSequenceNumber(entity);
    if (entity.hasSessions() && message.sessionId.isEmpty())
        deadLetterWithoutSession(entity, seq, message, now, extras, hop);
    else
        m_broker.insertMessage(entity, SubQueue::Main, seq, message, now, MessageState::Active, 0,
                               extras);
    m_broker.logProgress(entity);
}

void Router::deadLetterWithoutSession(Entity& entity, qint64 seq, const OutgoingMessage& message,
                                      Instant now, const DeliveryExtras& extras, int hop) {
    m_broker.m_mutex.assertHeld(__func__);
    DeliveryExtras dead = extras;
    dead.deadLetterReason = kSessionIdMissing;
    dead.deadLetterDescription =
        QStringLiteral("'%1' requires sessions and the message has no SessionId.").arg(entity.path);
    ++entity.flow.deadLettered;
    // A dead letter like any other: ForwardDeadLetteredMessagesTo takes it on.
    if (Entity* target = deadLetterDestination(entity)) {
        dead.deadLetterSource = entity.path;
        forwardDeadLetter(*target, message, dead, now, hop + 1);
        return;
    }
    m_broker.insertMessage(entity, SubQueue::DeadLetter, seq, message, now, MessageState::Active, 0,
                           dead);
}

QString Router::forwardingFailure(const QString& namespaceName, const QString& forwardTo) const {
    m_broker.m_mutex.assertHeld(__func__);
    const Entity* target = m_broker.m_registry.find(namespaceName, forwardTo);
    return forwardingFailureText(forwardTo,
                                 target ? std::optional(target->properties.status) : std::nullopt);
}

Entity* Router::deadLetterDestination(const Entity& entity) const {
    m_broker.m_mutex.assertHeld(__func__);
    const QString& forwardTo = entity.properties.forwardDeadLetteredMessagesTo;
    if (forwardTo.isEmpty())
        return nullptr;
    Entity* target = m_broker.m_registry.find(entity.namespaceName, forwardTo);
    return target && acceptsSends(*target) ? target : nullptr;
}

void Router::forwardDeadLetter(Entity& target, const OutgoingMessage& message,
                               const DeliveryExtras& dead, Instant now, int hop) {
    m_broker.m_mutex.assertHeld(__func__);
    m_broker.touch(target, now);
    if (m_broker.seenBefore(target, message.messageId, now))
        return; // L13 at the destination: dropped
    ++target.flow.sent;
    route(target, message, now, dead, hop);
}

} // namespace hourglass
