// Messages to the client's receivers. Credit starts at 0; each grant is answered with a receive
// call for as many messages as the credit allows. A receive that finds nothing leaves the link
// waiting until messages may have arrived (the change feed), and a drain is answered at once by
// handing back the credit, so the SDK's receiveMessages returns promptly. Peek-lock deliveries
// go out unsettled with the lock token as their tag; the client's outcome becomes complete,
// abandon, defer or dead-letter, and is answered with a settled disposition.

#include "Connection.h"

#include "LinkCredit.h"
#include "NamespacedRefs.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/LockTokenBytes.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>
#include <proton/disposition.h>
#include <proton/transport.h>

namespace hourglass::amqp {

namespace {
// At most this many messages per receive call, so one large grant does not hold the broker's
// lock for long or build one huge response.
constexpr int kMaxPerReceive = 100;

QVariantMap mapOf(pn_data_t* data) {
    return readSingleAmqpValue(data).toMap();
}
} // namespace

void Connection::flowChanged(Link& link) {
    if (link.role == Role::Inbound) {
        inboundFlow(link);
        return;
    }
    if (!link.queuedReplies.empty())
        flushReplies(link);
    if (link.address.kind != EntityAddress::Kind::Entity)
        return;
    link.waiting = false;
    dueAtBatchEnd(link);
}

void Connection::dueAtBatchEnd(Link& link) {
    if (std::exchange(link.dueAtBatchEnd, true))
        return;
    m_linksDue.push_back(link.id);
}

void Connection::endOfBatch() {
    for (const quint64 id : std::exchange(m_linksDue, {})) {
        Link* link = findLink(id);
        if (!link)
            continue;
        link->dueAtBatchEnd = false;
        if (link->role == Role::Inbound)
            flushSends(*link);
        else
            pump(*link);
    }
    if (!m_completing)
        flushCompletes();
}

void Connection::noteArrivals(const QSet<QString>& paths) {
    if (paths.isEmpty())
        m_retryAll = true;
    else
        m_arrivals.unite(paths);
}

void Connection::retryWaitingReceivers() {
    const QSet<QString> paths = std::exchange(m_arrivals, {});
    const bool all = std::exchange(m_retryAll, false);
    if (!all && paths.isEmpty())
        return;
    for (auto& [pnLink, link] : m_links) {
        if (!link->waiting)
            continue;
        if (!all && !paths.contains(link->address.brokerPath.toLower()))
            continue;
        link->waiting = false;
        pump(*link);
    }
}

void Connection::pump(Link& link) {
    if (link.role != Role::Outbound || link.address.kind != EntityAddress::Kind::Entity ||
        link.acceptingSession || link.attaching)
        return;
    // A session receiver's calls stay one at a time: receiveFromSession has no taken hook.
    const int callsAllowed = link.session ? 1 : kCallsPerLink;
    while (link.callsOut < callsAllowed) {
        const qint64 credit = qint64(linkCredit(link.link)) - link.creditAsked;
        if (credit <= 0)
            return;
        ReceiveOptions options;
        options.mode = link.mode;
        options.maxCount = int(qMin<qint64>(credit, kMaxPerReceive));
        options.receiver = link.receiverName;
        ++link.callsOut;
        link.creditAsked += options.maxCount;
        const quint64 call = link.nextCall++;
        const QString path = link.address.brokerPath;
        const QString namespaceName = link.address.namespaceName;
        const quint64 linkId = link.id;
        const std::optional<SessionRef> session = link.session; // a session receiver's (S2)
        std::shared_ptr<TakeOrder> order = link.takeOrder;
        // The messages are encoded on the worker too: the proactor thread, which serves every
        // connection, only hands the bytes over.
        submit(
            [path, namespaceName, options, session, order, call](Broker& broker) mutable {
                order->waitTurn(call);
                options.taken = [order, call] { order->taken(call); };
                ReceivedBatch batch{
                    session ? broker.receiveFromSession(*session, options.mode, options.maxCount)
                            : broker.receive(path, options),
                    {},
                    options.maxCount,
                    namespaceName};
                order->taken(call); // refused before taking anything: the turn moves on
                if (batch.messages) {
                    batch.encoded.reserve(batch.messages->size());
                    for (const MessageView& message : *batch.messages)
                        batch.encoded.append(encodeMessage(message, Handover::Delivery));
                }
                return batch;
            },
            [linkId, call](Connection& connection, ReceivedBatch batch) {
                connection.deliverMessages(linkId, call, std::move(batch));
            });
    }
}

void Connection::deliverMessages(quint64 linkId, quint64 call, ReceivedBatch batch) {
    Link* link = findLink(linkId);
    if (!link) {
        // The receiver left while the broker handed messages out: give the locks back now
        // rather than when they run out.
        QList<LockRef> locks;
        if (batch.messages) {
            for (const MessageView& message : *batch.messages) {
                if (message.locked)
                    locks.append(lockIn(batch.namespaceName, message));
            }
        }
        if (!locks.isEmpty()) {
            m_context.workers.submit([locks](Broker& broker) {
                for (const LockRef& lock : locks)
                    (void)broker.abandon(lock);
            });
        }
        return;
    }
    link->answered.emplace(call, std::move(batch));
    bool gotMessages = false;
    for (auto next = link->answered.find(link->nextToDeliver); next != link->answered.end();
         next = link->answered.find(link->nextToDeliver)) {
        ReceivedBatch ready = std::move(next->second);
        link->answered.erase(next);
        ++link->nextToDeliver;
        --link->callsOut;
        link->creditAsked -= ready.asked;
        if (!ready.messages) {
            // Calls still out find no link when they come back and return their locks.
            detach(*link, wireCondition(ready.messages.error().code),
                   wireDescription(ready.messages.error(), link->address.entityPath));
            return;
        }
        gotMessages = gotMessages || !ready.messages->isEmpty();
        deliverBatch(*link, ready);
    }
    if (link->callsOut > 0)
        return; // the rest is decided when the last call is back
    if (gotMessages) {
        pump(*link);
        return;
    }
    if (pn_link_get_drain(link->link)) {
        pn_link_drained(link->link);
        return;
    }
    link->waiting = true;
}

void Connection::deliverBatch(Link& link, ReceivedBatch& batch) {
    const QList<MessageView>& messages = *batch.messages;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const MessageView& message = messages.at(i);
        const QByteArray& encoded = batch.encoded.at(i);
        QByteArray tag;
        if (link.mode == ReceiveMode::PeekLock) {
            tag = lockTokenToDeliveryTag(message.lockToken);
        } else {
            const quint64 number = link.nextTag++;
            tag = QByteArray(reinterpret_cast<const char*>(&number), sizeof number);
        }
        pn_delivery_t* delivery = pn_delivery(link.link, pn_dtag(tag.constData(), tag.size()));
        pn_link_send(link.link, encoded.constData(), size_t(encoded.size()));
        pn_link_advance(link.link);
        ++link.messagesThrough;
        if (link.mode == ReceiveMode::PeekLock) {
            link.deliveredLocks.emplace(delivery, message.lockToken);
            m_locks.insert(message.lockToken,
                           {lockIn(link.address.namespaceName, message), message.sequenceNumber,
                            message.lockedUntil, QString::fromUtf8(pn_link_name(link.link))});
        } else {
            pn_delivery_settle(delivery);
        }
    }
}

void Connection::dispositionArrived(Link& link, pn_delivery_t* delivery) {
    if (!pn_delivery_updated(delivery))
        return;
    pn_delivery_clear(delivery);
    const auto it = link.deliveredLocks.find(delivery);
    if (it == link.deliveredLocks.end()) {
        if (pn_delivery_remote_state(delivery) != 0 || pn_delivery_settled(delivery))
            pn_delivery_settle(delivery);
        return;
    }
    const uint64_t state = pn_delivery_remote_state(delivery);
    if (state == 0)
        return; // a settle without outcome: wait for one
    const QUuid token = it->second;
    link.deliveredLocks.erase(it);
    const auto held = m_locks.constFind(token);
    const LockRef lock = held != m_locks.cend()
                             ? held->ref
                             : LockRef{link.address.brokerPath, token, link.receiverName};
    pn_disposition_t* remote = pn_delivery_remote(delivery);
    std::function<Result<void>(Broker&)> settle;
    switch (state) {
    case PN_ACCEPTED:
        m_completes.push_back({link.id, delivery, token, lock}); // sent at endOfBatch
        return;
    case PN_RELEASED:
        settle = [lock](Broker& broker) { return broker.abandon(lock); };
        break;
    case PN_MODIFIED: {
        const QVariantMap properties = mapOf(pn_disposition_annotations(remote));
        if (pn_disposition_is_undeliverable(remote))
            settle = [lock, properties](Broker& broker) { return broker.defer(lock, properties); };
        else
            settle = [lock, properties](Broker& broker) {
                return broker.abandon(lock, properties);
            };
        break;
    }
    case PN_REJECTED: {
        pn_condition_t* condition = pn_disposition_condition(remote);
        QVariantMap info = mapOf(pn_condition_info(condition));
        DeadLetterOptions options;
        options.reason = info.take(QStringLiteral("DeadLetterReason")).toString();
        options.description = info.take(QStringLiteral("DeadLetterErrorDescription")).toString();
        if (options.reason.isEmpty() && pn_condition_get_description(condition))
            options.description = QString::fromUtf8(pn_condition_get_description(condition));
        options.propertiesToModify = info;
        settle = [lock, options](Broker& broker) { return broker.deadLetter(lock, options); };
        break;
    }
    default:
        settle = [lock](Broker& broker) { return broker.abandon(lock); };
        break;
    }
    const quint64 linkId = link.id;
    submit(std::move(settle),
           [linkId, delivery, token, state](Connection& connection, Result<void> outcome) {
               connection.settleOutbound(linkId, delivery, token, outcome, state);
           });
}

void Connection::settleOutbound(quint64 linkId, pn_delivery_t* delivery, const QUuid& token,
                                const Result<void>& outcome, uint64_t acceptedState) {
    if (outcome.ok() || outcome.error().code == ErrorCode::MessageLockLost ||
        outcome.error().code == ErrorCode::SessionLockLost)
        m_locks.remove(token);
    if (!findLink(linkId))
        return; // the link and its deliveries are gone; the broker has the outcome
    if (outcome.ok()) {
        pn_delivery_update(delivery, acceptedState);
    } else {
        pn_condition_t* error = pn_disposition_condition(pn_delivery_local(delivery));
        pn_condition_set_name(error, wireCondition(outcome.error().code).constData());
        pn_condition_set_description(error, outcome.error().toString().toUtf8().constData());
        pn_delivery_update(delivery, PN_REJECTED);
    }
    pn_delivery_settle(delivery);
}

void Connection::flushCompletes() {
    if (m_completes.empty())
        return;
    m_completing = true;
    std::vector<PendingComplete> batch = std::exchange(m_completes, {});
    QList<LockRef> locks;
    for (const PendingComplete& pending : batch)
        locks.append(pending.lock);
    submit([locks](Broker& broker) { return broker.completeBatch(locks); },
           [batch = std::move(batch)](Connection& connection, QList<Result<void>> results) {
               for (qsizetype i = 0; i < results.size() && size_t(i) < batch.size(); ++i) {
                   const PendingComplete& done = batch[size_t(i)];
                   connection.settleOutbound(done.linkId, done.delivery, done.token, results[i],
                                             PN_ACCEPTED);
               }
               connection.m_completing = false;
               connection.flushCompletes();
           });
}

void Connection::flushReplies(Link& link) {
    if (link.attaching)
        return; // sent once the link is attached
    if (link.queuedReplies.empty() || linkCredit(link.link) <= 0)
        return;
    // Proton writes the dispositions of one pass after its transfers, so an answer made now
    // would reach the client ahead of its request's acceptance, which uAMQP
    // (amqp_management.c) counts as a failed request. Having the transport encode what is
    // pending first puts the acceptance on the wire ahead of the answer.
    if (pn_transport_t* transport = pn_connection_transport(m_connection))
        pn_transport_pending(transport);
    while (!link.queuedReplies.empty() && linkCredit(link.link) > 0) {
        const QByteArray encoded = std::move(link.queuedReplies.front());
        link.queuedReplies.pop_front();
        --m_repliesWaiting;
        m_replyBytesWaiting -= encoded.size();
        const quint64 number = link.nextTag++;
        pn_delivery_t* delivery =
            pn_delivery(link.link, pn_dtag(reinterpret_cast<const char*>(&number), sizeof number));
        pn_link_send(link.link, encoded.constData(), size_t(encoded.size()));
        pn_link_advance(link.link);
        pn_delivery_settle(delivery);
        ++link.messagesThrough;
    }
}

} // namespace hourglass::amqp
