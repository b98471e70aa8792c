// Transfers from the client: messages to store (single or batched), put-token on $cbs, and
// $management requests. A message is accepted only once the broker says it is durable; until
// then its delivery stays unsettled, so pipelined sends settle as each commit lands (L2).

#include "Connection.h"

#include "CbsRequest.h"
#include "ManagementOperations.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/SasToken.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>

#include <proton/condition.h>
#include <proton/disposition.h>

namespace hourglass::amqp {

namespace {
void reject(pn_delivery_t* delivery, const QByteArray& condition, const QString& description) {
    pn_condition_t* error = pn_disposition_condition(pn_delivery_local(delivery));
    pn_condition_set_name(error, condition.constData());
    pn_condition_set_description(error, description.toUtf8().constData());
    pn_delivery_update(delivery, PN_REJECTED);
    pn_delivery_settle(delivery);
}

// put-token's `type`: "jwt" is a bearer token of the trusted issuer (what the Azure SDKs send
// for a TokenCredential); any other a shared access signature, whose key names the namespace.
bool isJwt(const ManagementRequest& request) {
    return request.properties.value(QStringLiteral("type")).toString() == QLatin1String("jwt");
}

TokenVerdict verifyPutToken(const ManagementRequest& request, const EndpointContext& context,
                            qint64 nowSeconds) {
    if (!isJwt(request))
        return context.keys->verify(request.body.toString(), nowSeconds);
    const ServedHosts& hosts = context.hosts;
    TokenVerdict verdict =
        context.keys->verifyJwt(request.body.toString().toUtf8(), nowSeconds,
                                [&hosts](const QString& host) { return hosts.serves(host); });
    // A JWT is for the whole namespace: the put-token's name is the scope it is offered for,
    // and its lifetime (the token's exp) that of the claim, as for a signature.
    verdict.check.audience = request.properties.value(QStringLiteral("name")).toString();
    return verdict;
}
} // namespace

void Connection::transferArrived(Link& link, pn_delivery_t* delivery) {
    if (!pn_delivery_readable(delivery))
        return;
    if (!startTransfer(link, delivery))
        return; // past the credit: the link is gone
    if (pn_delivery_aborted(delivery)) {
        link.partial.clear();
        link.arriving = nullptr;
        link.discarding = false;
        pn_delivery_settle(delivery);
        replenishCredit(link);
        return;
    }
    if (!readTransfer(link, delivery))
        return; // more frames to come, or refused for its size
    const QByteArray bytes = std::exchange(link.partial, {});
    pn_link_advance(link.link);
    ++link.messagesThrough;
    switch (link.address.kind) {
    case EntityAddress::Kind::Cbs:
        cbsRequest(link, delivery, bytes);
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
    replenishStarvedLinks();
}

void Connection::settleInbound(pn_delivery_t* delivery, const Result<void>& outcome) {
    if (outcome.ok()) {
        pn_delivery_update(delivery, PN_ACCEPTED);
        pn_delivery_settle(delivery);
        return;
    }
    // The broker decides (a message without SessionId to a session entity included).
    reject(delivery, refusalCondition(outcome.error()), wireDescription(outcome.error(), {}));
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

    link.queuedSends.push_back({delivery, std::move(messages), batch});
    dueAtBatchEnd(link); // with the other transfers of this read: one call, one disk sync
}

namespace {
// One link's queued transfers as broker calls, in order: each run of plain messages is one
// sendEach (one disk sync), each batch envelope one sendBatch (all or nothing). One outcome per
// transfer. `taken` is called once the last of them has its sequence numbers (before its disk
// sync when it is a run of plain messages).
QList<Result<void>> storeTransfers(Broker& broker, const QString& path,
                                   const std::vector<QList<OutgoingMessage>>& transfers,
                                   const std::vector<bool>& batches,
                                   const std::function<void()>& taken) {
    QList<Result<void>> outcomes;
    bool handedOn = false;
    std::size_t i = 0;
    while (i < transfers.size()) {
        if (batches[i]) {
            const auto sent = broker.sendBatch(path, transfers[i]);
            outcomes.append(sent ? Result<void>() : Result<void>(sent.error()));
            ++i;
            continue;
        }
        QList<OutgoingMessage> run;
        for (; i < transfers.size() && !batches[i]; ++i)
            run.append(transfers[i].first());
        const bool last = i == transfers.size();
        handedOn = handedOn || last;
        for (const auto& sent : broker.sendEach(path, run, last ? taken : nullptr))
            outcomes.append(sent ? Result<void>() : Result<void>(sent.error()));
    }
    if (!handedOn)
        taken();
    return outcomes;
}
} // namespace

void Connection::flushSends(Link& link) {
    if (link.queuedSends.empty() || link.sendCallsOut >= kCallsPerLink)
        return;
    std::vector<pn_delivery_t*> deliveries;
    std::vector<QList<OutgoingMessage>> transfers;
    std::vector<bool> batches;
    for (Link::QueuedSend& queued : link.queuedSends) {
        deliveries.push_back(queued.delivery);
        transfers.push_back(std::move(queued.messages));
        batches.push_back(queued.batch);
    }
    link.queuedSends.clear();
    link.sendingNow += deliveries.size();
    ++link.sendCallsOut;
    const quint64 call = link.nextSendCall++;
    const quint64 linkId = link.id;
    submit(
        [path = link.address.brokerPath, transfers = std::move(transfers),
         batches = std::move(batches), order = link.sendOrder, call](Broker& broker) {
            order->waitTurn(call);
            auto outcomes = storeTransfers(broker, path, transfers, batches,
                                           [order, call] { order->taken(call); });
            order->taken(call);
            return outcomes;
        },
        [linkId, deliveries = std::move(deliveries)](Connection& connection,
                                                     QList<Result<void>> outcomes) {
            Link* link = connection.findLink(linkId);
            if (!link)
                return; // the link went away; its deliveries went with it
            --link->sendCallsOut;
            link->sendingNow -= deliveries.size();
            for (std::size_t i = 0; i < deliveries.size() && i < std::size_t(outcomes.size()); ++i)
                connection.settleInbound(deliveries[i], outcomes[qsizetype(i)]);
            connection.replenishCredit(*link);
            connection.replenishStarvedLinks();
            connection.flushSends(*link);
        });
}

void Connection::cbsRequest(Link& link, pn_delivery_t* delivery, const QByteArray& bytes) {
    const auto decoded = decodeCbsRequest(bytes);
    if (!decoded) {
        // Nothing to answer to: the delivery says why.
        reject(delivery, kDecodeError, decoded.error().description);
        return;
    }
    const auto route = routeReply(link, decoded->request.replyTo, delivery);
    if (!route)
        return; // rejected: nowhere to answer, or too many answers held
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    const ManagementRequest& request = decoded->request;
    ManagementResponse response;
    if (request.operation != QLatin1String("put-token")) {
        response =
            ManagementResponse::failure(501, kNotImplemented,
                                        QStringLiteral("The $cbs operation '%1' is not supported.")
                                            .arg(quoted(request.operation)));
    } else if (!decoded->bodyIsString) {
        response = ManagementResponse::failure(
            400, wireCondition(ErrorCode::InvalidArgument),
            QStringLiteral("The put-token body must be the token: one amqp-value string."));
    } else {
        // The key that verifies the token names the namespace; its audience is the scope.
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const TokenVerdict verdict = verifyPutToken(request, m_context, now);
        const ClaimDecision decision = claimFromToken(verdict, m_context.hosts);
        if (decision.claim && !m_claims.add(*decision.claim, now)) {
            response = ManagementResponse::failure(
                403, wireCondition(ErrorCode::QuotaExceeded),
                QStringLiteral("This connection holds %1 tokens, the most it may; open another "
                               "connection.")
                    .arg(ClaimSet::kMaxClaimsPerConnection));
        } else if (decision.claim) {
            m_keyName = isJwt(request) ? QStringLiteral("jwt") : m_context.key.name;
            response.statusCode = 200;
            response.statusDescription = QStringLiteral("OK");
        } else {
            response = ManagementResponse::failure(401, kUnauthorizedAccess, decision.refusal);
        }
    }
    sendReply(*route, encodeManagementResponse(request, response, StatusNames::Cbs));
}

void Connection::managementRequest(Link& link, pn_delivery_t* delivery, const QByteArray& bytes) {
    auto request = decodeManagementRequest(bytes);
    if (!request) {
        // Nothing to answer to: the delivery says why.
        reject(delivery, kDecodeError, request.error().description);
        return;
    }
    const auto route = routeReply(link, request->replyTo, delivery);
    if (!route)
        return; // rejected, not run: nowhere to answer, or too many answers held
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    ManagementContext context;
    context.entityPath = link.address.entityPath;
    context.namespaceName = link.address.namespaceName;
    context.brokerPath = link.address.brokerPath;
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
    submit(
        [request = *request, context](Broker& broker) {
            return std::make_pair(request, runManagementOperation(broker, request, context));
        },
        [route = *route](Connection& connection,
                         std::pair<ManagementRequest, ManagementOutcome> done) {
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
            connection.sendReply(route, encodeManagementResponse(request, outcome.response,
                                                                 StatusNames::Management));
        });
}

} // namespace hourglass::amqp
