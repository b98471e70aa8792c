#include "SessionManagement.h"

#include "ManagementOperations.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"

#include <QDateTime>

namespace hourglass::amqp {

using namespace management;

namespace {
const QString kSessionIdKey = QStringLiteral("session-id");
// At most this many messages per peek answer, as for a plain peek.
constexpr qint64 kMaxPeek = 1000;

SessionRef sessionOf(const QVariantMap& body, const ManagementContext& context) {
    return {context.brokerPath, body.value(kSessionIdKey).toString(), context.receiverName};
}

bool namesSession(const QVariantMap& body) {
    const QVariant id = body.value(kSessionIdKey);
    return id.typeId() == QMetaType::QString;
}

ManagementOutcome renewSessionLock(Broker& broker, const QVariantMap& body,
                                   const ManagementContext& context) {
    const auto until = broker.renewSessionLock(sessionOf(body, context));
    if (!until)
        return failed(until.error(), context.entityPath);
    return ok(QVariantMap{
        {QStringLiteral("expiration"), QDateTime::fromMSecsSinceEpoch(*until, Qt::UTC)}});
}

ManagementOutcome getSessionState(Broker& broker, const QVariantMap& body,
                                  const ManagementContext& context) {
    const auto state = broker.sessionState(sessionOf(body, context));
    if (!state)
        return failed(state.error(), context.entityPath);
    const QVariant value = *state ? QVariant(**state) : QVariant::fromValue(nullptr);
    return ok(QVariantMap{{QStringLiteral("session-state"), value}});
}

ManagementOutcome setSessionState(Broker& broker, const QVariantMap& body,
                                  const ManagementContext& context) {
    const QVariant value = body.value(QStringLiteral("session-state"));
    std::optional<QByteArray> state;
    if (value.typeId() == QMetaType::QByteArray)
        state = value.toByteArray();
    else if (value.isValid() && value.typeId() != QMetaType::Nullptr)
        return badRequest(QStringLiteral("session-state must be binary or null."));
    if (const auto set = broker.setSessionState(sessionOf(body, context), state); !set)
        return failed(set.error(), context.entityPath);
    return ok();
}

ManagementOutcome getMessageSessions(Broker& broker, const QVariantMap& body,
                                     const ManagementContext& context) {
    const qint64 skip = integer(body.value(QStringLiteral("skip"))).value_or(0);
    const qint64 top = integer(body.value(QStringLiteral("top"))).value_or(100);
    if (skip < 0 || top <= 0)
        return badRequest(QStringLiteral("get-message-sessions needs skip >= 0 and top > 0."));
    // With a last-updated-time, only the sessions whose state was set since then (as Service
    // Bus does); without one, every session.
    std::optional<Instant> since;
    const QDateTime updated = body.value(QStringLiteral("last-updated-time")).toDateTime();
    if (updated.isValid())
        since = updated.toMSecsSinceEpoch();
    const int wanted = int(qMin<qint64>(skip + top, 100000));
    const auto sessions = broker.listSessions(context.brokerPath, {}, wanted, since);
    if (!sessions)
        return failed(sessions.error(), context.entityPath);
    AmqpArray ids{{}, PN_STRING};
    for (qint64 i = skip; i < sessions->size() && ids.items.size() < top; ++i)
        ids.items.append(sessions->at(i).sessionId);
    if (ids.items.isEmpty())
        return noContent(QStringLiteral("No sessions"));
    return ok(QVariantMap{{QStringLiteral("skip"), int(skip + ids.items.size())},
                          {QStringLiteral("sessions-ids"), QVariant::fromValue(ids)}});
}

// peek-message inside one session: the session's messages from the sequence number on.
ManagementOutcome peekSession(Broker& broker, const QVariantMap& body,
                              const ManagementContext& context) {
    const auto from = integer(body.value(QStringLiteral("from-sequence-number")));
    const auto count = integer(body.value(QStringLiteral("message-count")));
    if (!from || !count || *count <= 0)
        return badRequest(QStringLiteral("peek-message needs from-sequence-number and a positive "
                                         "message-count."));
    const QString sessionId = body.value(kSessionIdKey).toString();
    // The engine walks that session's messages only, and it is one peek (one activity, A2).
    const auto peeked =
        broker.peek(context.brokerPath, PeekOptions{*from, int(qMin(*count, kMaxPeek)), sessionId});
    if (!peeked)
        return failed(peeked.error(), context.entityPath);
    QVariantList list;
    for (const MessageView& message : *peeked)
        list.append(
            QVariantMap{{QStringLiteral("message"), encodeMessage(message, Handover::Peek)}});
    if (list.isEmpty())
        return noContent(QStringLiteral("No messages"));
    return ok(QVariantMap{{QStringLiteral("messages"), list}});
}

// receive-by-sequence-number through the session's lock (S6).
ManagementOutcome receiveDeferredFromSession(Broker& broker, const QVariantMap& body,
                                             const ManagementContext& context) {
    const auto numbers = integers(body.value(QStringLiteral("sequence-numbers")));
    if (!numbers)
        return badRequest(QStringLiteral("sequence-numbers must be integers."));
    const bool receiveAndDelete =
        integer(body.value(QStringLiteral("receiver-settle-mode"))).value_or(1) == 0;
    const SessionRef session = sessionOf(body, context);
    return deferredMessagesOutcome(broker, *numbers, receiveAndDelete, context, [&](qint64 number) {
        return broker.receiveDeferredFromSession(session, number);
    });
}
} // namespace

std::optional<ManagementOutcome> runSessionOperation(Broker& broker, const QString& operation,
                                                     const ManagementRequest& request,
                                                     const ManagementContext& context) {
    const QVariantMap body = request.body.toMap();
    if (operation == QLatin1String("renew-session-lock"))
        return renewSessionLock(broker, body, context);
    if (operation == QLatin1String("get-session-state"))
        return getSessionState(broker, body, context);
    if (operation == QLatin1String("set-session-state"))
        return setSessionState(broker, body, context);
    if (operation == QLatin1String("get-message-sessions"))
        return getMessageSessions(broker, body, context);
    if (operation == QLatin1String("peek-message") && namesSession(body))
        return peekSession(broker, body, context);
    if (operation == QLatin1String("receive-by-sequence-number") && namesSession(body))
        return receiveDeferredFromSession(broker, body, context);
    return std::nullopt;
}

} // namespace hourglass::amqp
