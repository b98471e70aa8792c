#include "ManagementOperations.h"

#include "NamespacedRefs.h"

#include "RuleCodec.h"
#include "SessionManagement.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>

#include <algorithm>

namespace hourglass::amqp {

namespace management {
ManagementOutcome ok(QVariant body) {
    ManagementOutcome outcome;
    outcome.response.statusDescription = QStringLiteral("OK");
    outcome.response.body = std::move(body);
    return outcome;
}

ManagementOutcome noContent(const QString& what) {
    ManagementOutcome outcome = ok();
    outcome.response.statusCode = 204;
    outcome.response.statusDescription = what;
    return outcome;
}

ManagementOutcome failed(const Error& error, const QString& entityPath) {
    ManagementOutcome outcome;
    outcome.response = ManagementResponse::failure(error, entityPath);
    return outcome;
}

ManagementOutcome badRequest(const QString& description) {
    ManagementOutcome outcome;
    outcome.response = ManagementResponse::failure(
        400, QByteArrayLiteral("com.microsoft:argument-error"), description);
    return outcome;
}

std::optional<qint64> integer(const QVariant& value) {
    bool isNumber = false;
    const qint64 number = value.toLongLong(&isNumber);
    if (!isNumber || value.typeId() == QMetaType::QString)
        return std::nullopt;
    return number;
}

std::optional<QList<qint64>> integers(const QVariant& value) {
    QList<qint64> numbers;
    for (const QVariant& item : value.toList()) {
        const auto number = integer(item);
        if (!number)
            return std::nullopt;
        numbers.append(*number);
    }
    return numbers;
}
} // namespace management

using namespace management;

namespace {
const QString kPrefix = QStringLiteral("com.microsoft:");

QVariantMap bodyOf(const ManagementRequest& request) {
    return request.body.toMap();
}

QList<QUuid> tokens(const QVariant& value) {
    QList<QUuid> list;
    for (const QVariant& item : value.toList())
        list.append(item.toUuid());
    return list;
}

LockRef lockFor(const QUuid& token, const ManagementContext& context) {
    if (const auto it = context.knownLocks.constFind(token); it != context.knownLocks.cend())
        return *it;
    return {context.brokerPath, token, context.receiverName};
}

ManagementOutcome peek(Broker& broker, const ManagementRequest& request,
                       const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const auto from = integer(body.value(QStringLiteral("from-sequence-number")));
    const auto count = integer(body.value(QStringLiteral("message-count")));
    if (!from || !count || *count <= 0)
        return badRequest(QStringLiteral("peek-message needs from-sequence-number and a positive "
                                         "message-count."));
    const auto messages = broker.peek(context.brokerPath, *from, int(qMin<qint64>(*count, 1000)));
    if (!messages)
        return failed(messages.error());
    if (messages->isEmpty()) {
        ManagementOutcome none = ok();
        none.response.statusCode = 204;
        none.response.statusDescription = QStringLiteral("No messages");
        return none;
    }
    QVariantList list;
    for (const MessageView& message : *messages)
        list.append(
            QVariantMap{{QStringLiteral("message"), encodeMessage(message, Handover::Peek)}});
    return ok(QVariantMap{{QStringLiteral("messages"), list}});
}

ManagementOutcome renewLock(Broker& broker, const ManagementRequest& request,
                            const ManagementContext& context) {
    AmqpArray expirations{{}, PN_TIMESTAMP};
    QList<QPair<QUuid, Instant>> renewed;
    for (const QUuid& token : tokens(bodyOf(request).value(QStringLiteral("lock-tokens")))) {
        const auto until = broker.renewLock(lockFor(token, context));
        if (!until)
            return failed(until.error());
        expirations.items.append(QDateTime::fromMSecsSinceEpoch(*until, Qt::UTC));
        renewed.append({token, *until});
    }
    ManagementOutcome outcome =
        ok(QVariantMap{{QStringLiteral("expirations"), QVariant::fromValue(expirations)}});
    outcome.locksRenewed = renewed;
    return outcome;
}

ManagementOutcome schedule(Broker& broker, const ManagementRequest& request,
                           const ManagementContext& context) {
    // Decode every message first, so that a bad one schedules none.
    QList<OutgoingMessage> messages;
    for (const QVariant& item : bodyOf(request).value(QStringLiteral("messages")).toList()) {
        auto message = decodeMessage(item.toMap().value(QStringLiteral("message")).toByteArray());
        if (!message)
            return failed(message.error());
        if (!message->scheduledEnqueueTime)
            return badRequest(QStringLiteral("A message to schedule lacks "
                                             "x-opt-scheduled-enqueue-time."));
        messages.append(std::move(*message));
    }
    AmqpArray numbers{{}, PN_LONG};
    for (const OutgoingMessage& message : messages) {
        const Instant at = *message.scheduledEnqueueTime;
        const auto sent = broker.schedule(context.brokerPath, message, at);
        if (!sent)
            return failed(sent.error());
        numbers.items.append(QVariant::fromValue(qlonglong(sent->sequenceNumber)));
    }
    return ok(QVariantMap{{QStringLiteral("sequence-numbers"), QVariant::fromValue(numbers)}});
}

ManagementOutcome cancelScheduled(Broker& broker, const ManagementRequest& request,
                                  const ManagementContext& context) {
    const auto numbers = integers(bodyOf(request).value(QStringLiteral("sequence-numbers")));
    if (!numbers)
        return badRequest(QStringLiteral("sequence-numbers must be integers."));
    for (const qint64 number : *numbers) {
        if (const auto cancelled = broker.cancelScheduled(context.brokerPath, number); !cancelled)
            return failed(cancelled.error());
    }
    return ok();
}

ManagementOutcome receiveBySequenceNumber(Broker& broker, const ManagementRequest& request,
                                          const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const auto numbers = integers(body.value(QStringLiteral("sequence-numbers")));
    if (!numbers)
        return badRequest(QStringLiteral("sequence-numbers must be integers."));
    const bool receiveAndDelete =
        integer(body.value(QStringLiteral("receiver-settle-mode"))).value_or(1) == 0;
    return deferredMessagesOutcome(broker, *numbers, receiveAndDelete, context, [&](qint64 number) {
        return broker.receiveDeferred(context.brokerPath, number, context.receiverName);
    });
}

ManagementOutcome updateDisposition(Broker& broker, const ManagementRequest& request,
                                    const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const QString status = body.value(QStringLiteral("disposition-status")).toString();
    const QVariantMap properties = body.value(QStringLiteral("properties-to-modify")).toMap();
    ManagementOutcome outcome = ok();
    for (const QUuid& token : tokens(body.value(QStringLiteral("lock-tokens")))) {
        const LockRef lock = lockFor(token, context);
        Result<void> done;
        if (status == QLatin1String("completed")) {
            done = broker.complete(lock);
        } else if (status == QLatin1String("abandoned")) {
            done = broker.abandon(lock, properties);
        } else if (status == QLatin1String("defered") || status == QLatin1String("deferred")) {
            done = broker.defer(lock, properties);
        } else if (status == QLatin1String("suspended")) {
            DeadLetterOptions options;
            options.reason = body.value(QStringLiteral("deadletter-reason")).toString();
            options.description = body.value(QStringLiteral("deadletter-description")).toString();
            options.propertiesToModify = properties;
            done = broker.deadLetter(lock, options);
        } else {
            return badRequest(
                QStringLiteral("Unknown disposition-status '%1'.").arg(quoted(status)));
        }
        if (!done) {
            outcome.response = ManagementResponse::failure(done.error());
            return outcome;
        }
        outcome.locksEnded.append(token);
    }
    return outcome;
}
ManagementOutcome addRule(Broker& broker, const ManagementRequest& request,
                          const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const QString name = body.value(QStringLiteral("rule-name")).toString();
    const auto rule =
        ruleFromDescription(name, body.value(QStringLiteral("rule-description")).toMap());
    if (!rule)
        return failed(rule.error());
    if (const auto added = broker.addRule(context.brokerPath, *rule); !added)
        return failed(added.error());
    return ok();
}

ManagementOutcome removeRule(Broker& broker, const ManagementRequest& request,
                             const ManagementContext& context) {
    const QString name = bodyOf(request).value(QStringLiteral("rule-name")).toString();
    if (const auto removed = broker.removeRule(context.brokerPath, name); !removed)
        return failed(removed.error());
    return ok();
}

ManagementOutcome enumerateRules(Broker& broker, const ManagementRequest& request,
                                 const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const qint64 top = integer(body.value(QStringLiteral("top"))).value_or(100);
    const qint64 skip = integer(body.value(QStringLiteral("skip"))).value_or(0);
    const auto entity = broker.entity(context.brokerPath);
    if (!entity)
        return failed(entity.error());
    QList<Rule> rules = entity->rules;
    std::sort(rules.begin(), rules.end(),
              [](const Rule& a, const Rule& b) { return a.name < b.name; });
    QVariantList page;
    // The SDK pages until it gets an empty page: honour skip, or it asks forever.
    for (qint64 i = qMax<qint64>(0, skip); i < rules.size() && page.size() < top; ++i)
        page.append(QVariantMap{
            {QStringLiteral("rule-description"), ruleDescription(rules.at(i), entity->createdAt)}});
    if (page.isEmpty()) {
        ManagementOutcome none = ok();
        none.response.statusCode = 204;
        none.response.statusDescription = QStringLiteral("No rules");
        return none;
    }
    return ok(QVariantMap{{QStringLiteral("rules"), page}});
}
// com.microsoft:batch-delete-messages (what the SDKs' deleteMessages and purgeMessages send):
// up to message-count messages enqueued before enqueued-time-utc (until now when absent), of
// session-id only when given, in one durable step; answers how many went.
ManagementOutcome batchDelete(Broker& broker, const ManagementRequest& request,
                              const ManagementContext& context) {
    const QVariantMap body = bodyOf(request);
    const auto count = integer(body.value(QStringLiteral("message-count")));
    if (!count || *count < 1 || *count > kMaxPurgeCount)
        return badRequest(QStringLiteral("batch-delete-messages needs a message-count from 1 to "
                                         "%1.")
                              .arg(kMaxPurgeCount));
    PurgeOptions options;
    options.maxCount = int(*count);
    const QVariant before = body.value(QStringLiteral("enqueued-time-utc"));
    if (before.isNull() || !before.isValid())
        options.enqueuedBefore = broker.clock().now() + 1; // up to this very instant
    else if (before.metaType().id() == QMetaType::QDateTime && before.toDateTime().isValid())
        options.enqueuedBefore = before.toDateTime().toMSecsSinceEpoch();
    else
        return badRequest(QStringLiteral("enqueued-time-utc must be a timestamp."));
    const QVariant session = body.value(QStringLiteral("session-id"));
    if (session.isValid() && !session.isNull()) {
        if (session.metaType().id() != QMetaType::QString)
            return badRequest(QStringLiteral("session-id must be a string."));
        options.sessionId = session.toString();
    }
    const auto deleted = broker.purge(context.brokerPath, options);
    if (!deleted)
        return failed(deleted.error());
    return ok(QVariantMap{{QStringLiteral("message-count"), int(*deleted)}});
}
} // namespace

static ManagementOutcome dispatch(Broker& broker, const ManagementRequest& request,
                                  const ManagementContext& context);

ManagementOutcome runManagementOperation(Broker& broker, const ManagementRequest& request,
                                         const ManagementContext& context) {
    ManagementOutcome outcome = dispatch(broker, request, context);
    ManagementResponse& response = outcome.response;
    if (response.errorCondition == wireCondition(ErrorCode::MessagingEntityNotFound) &&
        !response.statusDescription.contains(QStringLiteral("could not be found")))
        response.statusDescription =
            QStringLiteral("The messaging entity '%1' could not be "
                           "found. %2")
                .arg(quoted(context.entityPath), response.statusDescription);
    return outcome;
}

static ManagementOutcome dispatch(Broker& broker, const ManagementRequest& request,
                                  const ManagementContext& context) {
    const QString operation = request.operation.startsWith(kPrefix)
                                  ? request.operation.mid(kPrefix.size())
                                  : request.operation;
    if (auto session = runSessionOperation(broker, operation, request, context))
        return std::move(*session);
    if (operation == QLatin1String("peek-message"))
        return peek(broker, request, context);
    if (operation == QLatin1String("renew-lock"))
        return renewLock(broker, request, context);
    if (operation == QLatin1String("schedule-message"))
        return schedule(broker, request, context);
    if (operation == QLatin1String("cancel-scheduled-message"))
        return cancelScheduled(broker, request, context);
    if (operation == QLatin1String("receive-by-sequence-number"))
        return receiveBySequenceNumber(broker, request, context);
    if (operation == QLatin1String("update-disposition"))
        return updateDisposition(broker, request, context);
    if (operation == QLatin1String("batch-delete-messages"))
        return batchDelete(broker, request, context);
    if (operation == QLatin1String("add-rule"))
        return addRule(broker, request, context);
    if (operation == QLatin1String("remove-rule"))
        return removeRule(broker, request, context);
    if (operation == QLatin1String("enumerate-rules"))
        return enumerateRules(broker, request, context);
    ManagementOutcome unknown;
    unknown.response = ManagementResponse::failure(
        501, kNotImplemented,
        QStringLiteral("The operation '%1' is not supported.").arg(quoted(request.operation)));
    return unknown;
}

ManagementOutcome deferredMessagesOutcome(Broker& broker, const QList<qint64>& numbers,
                                          bool receiveAndDelete, const ManagementContext& context,
                                          const std::function<Result<MessageView>(qint64)>& take) {
    const QString& failurePath = context.entityPath;
    ManagementOutcome outcome = ok();
    QVariantList list;
    for (const qint64 number : numbers) {
        const auto message = take(number);
        if (!message) {
            outcome.response = ManagementResponse::failure(message.error(), failurePath);
            return outcome;
        }
        const LockRef lock = lockIn(context.namespaceName, *message);
        if (receiveAndDelete) {
            if (const auto done = broker.complete(lock); !done) {
                outcome.response = ManagementResponse::failure(done.error(), failurePath);
                return outcome;
            }
        } else {
            outcome.locksTaken.append({lock, message->sequenceNumber, message->lockedUntil});
        }
        const QByteArray encoded = receiveAndDelete
                                       ? encodeMessage(*message, Handover::Delivery)
                                       : encodeLockedMessage(*message, message->lockToken);
        list.append(QVariantMap{{QStringLiteral("lock-token"), message->lockToken},
                                {QStringLiteral("message"), encoded}});
    }
    outcome.response.body = QVariantMap{{QStringLiteral("messages"), list}};
    return outcome;
}

} // namespace hourglass::amqp
