#pragma once
// The router: where a message goes once it arrives in an entity (service-bus-rules.md R1, T3, E3
// ForwardTo and ForwardDeadLetteredMessagesTo, S1). A topic fans it out to its subscriptions
// through their rules, an entity with ForwardTo forwards it (at most four hops), a message without
// a SessionId that reaches an entity requiring sessions is dead-lettered there, and dead letters
// are handed on to ForwardDeadLetteredMessagesTo. Start here for "why did this message end up
// there".
//
// A part of the broker: it keeps no state of its own and works on the broker's, so every function
// is called with the broker's mutex held (each asserts it: Mutex::assertHeld).

#include "hourglass/Message.h"
#include "hourglass/Time.h"

#include <QString>

namespace hourglass {

class BrokerImpl;
struct Entity;

// Where a message that arrives in an entity comes from, for the columns that say so.
struct DeliveryExtras {
    QString deadLetterReason;
    QString deadLetterDescription;
    QString deadLetterSource;
};

class Router {
public:
    explicit Router(BrokerImpl& broker)
        : m_broker(broker) {}

    // Where the message goes now: fanned out (R1), forwarded (T3, L13 at the destination), or
    // kept by the entity. Never fails: what cannot be forwarded is dead-lettered in the source.
    // `hop` counts the forwards so far.
    void route(Entity& entity, const OutgoingMessage& message, Instant now,
               const DeliveryExtras& extras, int hop);
    // ForwardDeadLetteredMessagesTo of `entity` when it takes sends; null otherwise (a closed or
    // missing destination keeps dead letters in the entity's own queue).
    Entity* deadLetterDestination(const Entity& entity) const;
    // Why a message forwarded from an entity of `namespaceName` to `forwardTo` could not go
    // there now (ForwardingFailed's description); empty when the destination exists and takes
    // sends. The routing preview asks the same.
    QString forwardingFailure(const QString& namespaceName, const QString& forwardTo) const;
    // Hands a dead letter on to `target` as a send there (activity, L13, its own routing), with
    // `dead` naming the reason, description and source.
    void forwardDeadLetter(Entity& target, const OutgoingMessage& message,
                           const DeliveryExtras& dead, Instant now, int hop);

private:
    // S1: a message without a SessionId that reaches an entity requiring sessions by a forward
    // or a topic's copy (a send is refused) is dead-lettered there as SessionIdMissing (or goes
    // on to ForwardDeadLetteredMessagesTo), under the number `seq`.
    void deadLetterWithoutSession(Entity& entity, qint64 seq, const OutgoingMessage& message,
                                  Instant now, const DeliveryExtras& extras, int hop);

    BrokerImpl& m_broker;
};

} // namespace hourglass
