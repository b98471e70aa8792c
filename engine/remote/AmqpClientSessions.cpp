// AmqpClient's session calls (AmqpClient.h): a session receiver link per accepted session, and
// the session operations of the entity's $management node, named by the session and, through
// associated-link-name, by the link that holds it.

#include "hourglass/remote/AmqpClient.h"

#include "ClientThread.h"
#include "ManagementCalls.h"
#include "ReceiverLink.h"

#include "hourglass/amqpcodec/AmqpValue.h"

#include <QDateTime>

namespace hourglass::remote {

namespace {
Error notHeld(const ClientConnection& connection, const SessionRef& session) {
    if (auto lost =
            connection.sessionLostWith(session.entityPath, session.receiver, session.sessionId))
        return *lost;
    return Error::make(ErrorCode::SessionLockLost,
                       QStringLiteral("This client holds no session '%1' for '%2'.")
                           .arg(session.sessionId, session.receiver));
}

// A session operation: sent with the session id, for the link that holds the session.
void manageSession(ClientConnection& connection, const SessionRef& session,
                   const QString& operation, QVariantMap body, BodyAnswer done) {
    const ReceiverLink* link =
        connection.sessionHolder(session.entityPath, session.receiver, session.sessionId);
    if (!link) {
        done(notHeld(connection, session));
        return;
    }
    body.insert(QStringLiteral("session-id"), session.sessionId);
    manage(connection, session.entityPath, operation, body, done, link->linkName());
}
} // namespace

Result<AcceptedSession> AmqpClient::acceptSession(const QString& entityPath,
                                                  const SessionAcceptOptions& options,
                                                  ReceiveMode mode, int waitMs) {
    waitMs = std::clamp(waitMs, 0, m_options.callTimeoutMs);
    const SessionAsk ask{options.sessionId, waitMs};
    const QString receiver = options.receiver;
    return m_thread->run<AcceptedSession>(
        [entityPath, receiver, mode, ask](ClientConnection& connection, Accepted done) {
            connection.authorize(
                connection.tokens().audience(entityPath),
                [&connection, entityPath, receiver, mode, ask, done](const Result<void>& ready) {
                    if (!ready)
                        done(ready.error());
                    else
                        connection.sessionReceiver(entityPath, receiver, mode, ask).accept(done);
                });
        },
        waitLimit() + waitMs);
}

Result<QList<MessageView>> AmqpClient::receiveFromSession(const SessionRef& session, int maxCount,
                                                          int waitMs) {
    if (maxCount <= 0)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("A receive needs a positive count."));
    waitMs = std::clamp(waitMs, 0, m_options.callTimeoutMs);
    return m_thread->run<QList<MessageView>>(
        [session, maxCount, waitMs](ClientConnection& connection, Received done) {
            ReceiverLink* link =
                connection.sessionHolder(session.entityPath, session.receiver, session.sessionId);
            if (!link)
                done(notHeld(connection, session));
            else
                link->receive(maxCount, waitMs, done);
        },
        waitLimit() + waitMs);
}

Result<Instant> AmqpClient::renewSessionLock(const SessionRef& session) {
    const auto answer = m_thread->run<QVariant>(
        [session](ClientConnection& connection, BodyAnswer done) {
            manageSession(connection, session, QStringLiteral("com.microsoft:renew-session-lock"),
                          {}, done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    const QVariant expiration = answer->toMap().value(QStringLiteral("expiration"));
    if (expiration.metaType().id() != QMetaType::QDateTime)
        return Error::make(ErrorCode::ServiceCommunicationProblem,
                           QStringLiteral("The renewal's answer has no expiration."));
    return Instant(expiration.toDateTime().toMSecsSinceEpoch());
}

Result<std::optional<QByteArray>> AmqpClient::sessionState(const SessionRef& session) {
    const auto answer = m_thread->run<QVariant>(
        [session](ClientConnection& connection, BodyAnswer done) {
            manageSession(connection, session, QStringLiteral("com.microsoft:get-session-state"),
                          {}, done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    const QVariant state = answer->toMap().value(QStringLiteral("session-state"));
    if (state.metaType().id() != QMetaType::QByteArray)
        return std::optional<QByteArray>();
    return std::optional<QByteArray>(state.toByteArray());
}

Result<void> AmqpClient::setSessionState(const SessionRef& session,
                                         const std::optional<QByteArray>& state) {
    const QVariantMap body{
        {QStringLiteral("session-state"), state ? QVariant(*state) : QVariant::fromValue(nullptr)}};
    const auto answer = m_thread->run<QVariant>(
        [session, body](ClientConnection& connection, BodyAnswer done) {
            manageSession(connection, session, QStringLiteral("com.microsoft:set-session-state"),
                          body, done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    return {};
}

Result<void> AmqpClient::releaseSession(const SessionRef& session) {
    return m_thread->run<void>(
        [session](ClientConnection& connection, Done done) {
            ReceiverLink* link =
                connection.sessionHolder(session.entityPath, session.receiver, session.sessionId);
            if (!link) {
                done(notHeld(connection, session));
                return;
            }
            link->detach();
            connection.dropReceiver(link);
            done({});
        },
        waitLimit());
}

Result<QStringList> AmqpClient::listSessions(const QString& entityPath, int skip, int top) {
    const QVariantMap body{{QStringLiteral("skip"), std::max(0, skip)},
                           {QStringLiteral("top"), std::max(1, top)}};
    const auto answer = m_thread->run<QVariant>(
        [entityPath, body](ClientConnection& connection, BodyAnswer done) {
            manage(connection, entityPath, QStringLiteral("com.microsoft:get-message-sessions"),
                   body, done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    const QVariant ids = answer->toMap().value(QStringLiteral("sessions-ids"));
    const QVariantList items =
        ids.canConvert<amqp::AmqpArray>() ? ids.value<amqp::AmqpArray>().items : ids.toList();
    QStringList sessions;
    for (const QVariant& id : items)
        sessions.append(id.toString());
    return sessions;
}

} // namespace hourglass::remote
