// Transfers from the client: messages to store (single or batched), put-token on $cbs, and
// $management requests. A message is accepted only once the broker says it is durable; until
// then its delivery stays unsettled, so pipelined sends settle as each commit lands (L2).

#include "Connection.h"

#include "ManagementOperations.h"
#include "MessageCodec.h"
#include "SasToken.h"
#include "WireErrors.h"

#include <QDateTime>

#include <proton/condition.h>
#include <proton/disposition.h>

namespace hourglass::amqp {

namespace {
// Credit kept open on every inbound link: enough for 100 sends in flight and a batch behind.
constexpr int kInboundWindow = 500;

void reject(pn_delivery_t* delivery, const QByteArray& condition, const QString& description) {
    pn_condition_t* error = pn_disposition_condition(pn_delivery_local(delivery));
    pn_condition_set_name(error, condition.constData());
    pn_condition_set_description(error, description.toUtf8().constData());
    pn_delivery_update(delivery, PN_REJECTED);
    pn_delivery_settle(delivery);
}
} // namespace

void Connection::replenishCredit(Link& link) {
    const int credit = pn_link_credit(link.link);
    if (credit < kInboundWindow / 2)
        pn_link_flow(link.link, kInboundWindow - credit);
}

void Connection::transferArrived(Link& link, pn_delivery_t* delivery) {
    if (!pn_delivery_readable(delivery))
        return;
    if (pn_delivery_aborted(delivery)) {
        link.partial.clear();
        pn_delivery_settle(delivery);
        replenishCredit(link);
        return;
    }
    char chunk[16384];
    ssize_t got;
    while ((got = pn_link_recv(link.link, chunk, sizeof chunk)) > 0) {
        link.partial.append(chunk, qsizetype(got));
        if (quint64(link.partial.size()) > link.maxMessageSize + 65536) {
            // Past the size the attach announced: refuse it without buffering the rest.
            link.partial.clear();
            detach(link, wireCondition(ErrorCode::MessageSizeExceeded),
                   QStringLiteral("The transfer is larger than the link's max-message-size "
                                  "(%1 bytes).")
                       .arg(link.maxMessageSize));
            return;
        }
    }
    if (pn_delivery_partial(delivery))
        return;
    const QByteArray bytes = std::exchange(link.partial, {});
    pn_link_advance(link.link);
    ++link.messagesThrough;
    switch (link.address.kind) {
    case EntityAddress::Kind::Cbs:
        cbsRequest(delivery, bytes);
        break;
    case EntityAddress::Kind::Management:
        managementRequest(link, delivery, bytes);
        break;
    case EntityAddress::Kind::Entity:
        entityTransfer(link, delivery, bytes);
        break;
    case EntityAddress::Kind::Invalid:
        reject(delivery, kNotAllowed, QStringLiteral("The link has no address."));
        break;
    }
    replenishCredit(link);
}

void Connection::settleInbound(pn_delivery_t* delivery, const Result<void>& outcome) {
    if (outcome.ok()) {
        pn_delivery_update(delivery, PN_ACCEPTED);
        pn_delivery_settle(delivery);
        return;
    }
    reject(delivery, wireCondition(outcome.error().code), wireDescription(outcome.error(), {}));
}

void Connection::entityTransfer(Link& link, pn_delivery_t* delivery, const QByteArray& bytes) {
    // Decode everything first: a batch with one corrupt message is refused whole.
    QList<OutgoingMessage> messages;
    const bool batch = isBatchEnvelope(bytes);
    if (batch) {
        const auto inner = splitBatch(bytes);
        if (!inner) {
            settleInbound(delivery, inner.error());
            return;
        }
        for (const QByteArray& encoded : *inner) {
            auto message = decodeMessage(encoded);
            if (!message) {
                settleInbound(delivery, message.error());
                return;
            }
            messages.append(std::move(*message));
        }
    } else {
        auto message = decodeMessage(bytes);
        if (!message) {
            settleInbound(delivery, message.error());
            return;
        }
        messages.append(std::move(*message));
    }

    const quint64 jobId = m_context.nextId++;
    link.pendingTransfers.emplace(jobId, delivery);
    const quint64 linkId = link.id;
    const QString path = link.address.entityPath;
    Broker& broker = m_context.broker;
    submit(
        [&broker, path, messages = std::move(messages), batch]() -> Result<void> {
            if (batch) {
                const auto sent = broker.sendBatch(path, messages);
                return sent ? Result<void>() : Result<void>(sent.error());
            }
            const OutgoingMessage& message = messages.first();
            const auto sent = message.scheduledEnqueueTime
                                  ? broker.schedule(path, message, *message.scheduledEnqueueTime)
                                  : broker.send(path, message);
            return sent ? Result<void>() : Result<void>(sent.error());
        },
        [linkId, jobId](Connection& connection, Result<void> outcome) {
            Link* link = connection.findLink(linkId);
            if (!link)
                return; // the link went away; its delivery went with it
            const auto it = link->pendingTransfers.find(jobId);
            if (it == link->pendingTransfers.end())
                return;
            connection.settleInbound(it->second, outcome);
            link->pendingTransfers.erase(it);
        });
}

void Connection::cbsRequest(pn_delivery_t* delivery, const QByteArray& bytes) {
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    const auto request = decodeManagementRequest(bytes);
    if (!request)
        return; // nothing to answer to
    ManagementResponse response;
    if (request->operation != QLatin1String("put-token")) {
        response = ManagementResponse::failure(
            501, kNotImplemented,
            QStringLiteral("The $cbs operation '%1' is not supported.").arg(request->operation));
    } else {
        const TokenCheck check = checkSasToken(request->body.toString(), m_context.key,
                                               QDateTime::currentSecsSinceEpoch());
        if (check.valid()) {
            m_claims.append({audiencePath(check.audience).toLower(), check.expiresAt});
            m_keyName = m_context.key.name;
            response.statusCode = 200;
            response.statusDescription = QStringLiteral("OK");
        } else {
            response = ManagementResponse::failure(401, kUnauthorizedAccess, check.description);
        }
    }
    sendReply(request->replyTo, encodeManagementResponse(*request, response, StatusNames::Cbs));
}

void Connection::managementRequest(Link& link, pn_delivery_t* delivery, const QByteArray& bytes) {
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    auto request = decodeManagementRequest(bytes);
    if (!request)
        return;
    ManagementContext context;
    context.entityPath = link.address.entityPath;
    context.receiverName = QStringLiteral("amqp/%1/$management").arg(m_id);
    // The receiver a request speaks for: its associated link, when it names one of ours.
    const QString associated =
        request->properties.value(QStringLiteral("associated-link-name")).toString();
    if (!associated.isEmpty())
        context.receiverName = QStringLiteral("amqp/%1/%2").arg(m_id).arg(associated);
    for (const QVariant& token :
         request->body.toMap().value(QStringLiteral("lock-tokens")).toList()) {
        if (const auto it = m_locks.constFind(token.toUuid()); it != m_locks.cend())
            context.knownLocks.insert(it.key(), it->ref);
    }
    Broker& broker = m_context.broker;
    submit(
        [&broker, request = *request, context]() {
            return std::make_pair(request, runManagementOperation(broker, request, context));
        },
        [](Connection& connection, std::pair<ManagementRequest, ManagementOutcome> done) {
            const auto& [request, outcome] = done;
            for (const TakenLock& taken : outcome.locksTaken)
                connection.m_locks.insert(taken.ref.lockToken,
                                          {taken.ref, taken.sequenceNumber, taken.lockedUntil,
                                           QStringLiteral("$management")});
            for (const QUuid& token : outcome.locksEnded)
                connection.m_locks.remove(token);
            for (const auto& [token, until] : outcome.locksRenewed) {
                if (const auto it = connection.m_locks.find(token); it != connection.m_locks.end())
                    it->lockedUntil = until;
            }
            connection.sendReply(
                request.replyTo,
                encodeManagementResponse(request, outcome.response, StatusNames::Management));
        });
}

void Connection::sendReply(const QString& replyTo, const QByteArray& encoded) {
    Link* link = replyLink(replyTo);
    if (!link)
        return; // the client left no way to answer; the request still took effect
    link->queuedReplies.push_back(encoded);
    flushReplies(*link);
}

} // namespace hourglass::amqp
