// AmqpClient's calls beyond sending (AmqpClient.h): peek, receive, settlement, lock renewal,
// deferred messages and schedules, on receiver links and the entity's $management node.

#include "hourglass/remote/AmqpClient.h"

#include "ClientThread.h"
#include "ManagementCalls.h"
#include "ReceiverLink.h"

#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"

#include <QDateTime>

namespace hourglass::remote {

struct AmqpClient::Settle {
    Settlement settlement;
    QString status; // update-disposition's disposition-status
};

namespace {
QVariant uuidArray(const QUuid& token) {
    return QVariant::fromValue(amqp::AmqpArray{{token}, PN_UUID});
}

QVariant longArray(qint64 number) {
    return QVariant::fromValue(amqp::AmqpArray{{QVariant::fromValue(qlonglong(number))}, PN_LONG});
}

// The items of an answer's array (read as a list; an AmqpArray when written here).
QVariantList itemsOf(const QVariant& value) {
    return value.canConvert<amqp::AmqpArray>() ? value.value<amqp::AmqpArray>().items
                                               : value.toList();
}

Error invalid(const QString& description) {
    return Error::make(ErrorCode::InvalidArgument, description);
}
} // namespace

int AmqpClient::waitLimit() const {
    return m_options.callTimeoutMs + 2000;
}

Result<QList<MessageView>> AmqpClient::peek(const QString& entityPath, const PeekOptions& options) {
    if (options.maxCount <= 0)
        return invalid(QStringLiteral("A peek needs a positive count."));
    QVariantMap body{
        {QStringLiteral("from-sequence-number"),
         QVariant::fromValue(qlonglong(std::max<qint64>(options.fromSequenceNumber, 0)))},
        {QStringLiteral("message-count"), options.maxCount}};
    if (options.sessionId)
        body.insert(QStringLiteral("session-id"), *options.sessionId);
    const auto answer = m_thread->run<QVariant>(
        [entityPath, body](ClientConnection& connection, BodyAnswer done) {
            manage(connection, entityPath, QStringLiteral("com.microsoft:peek-message"), body,
                   done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    return messagesOf(*answer, entityPath, false);
}

Result<QList<MessageView>> AmqpClient::receive(const QString& entityPath,
                                               const ReceiveOptions& options, int waitMs) {
    if (options.maxCount <= 0)
        return invalid(QStringLiteral("A receive needs a positive count."));
    waitMs = std::clamp(waitMs, 0, m_options.callTimeoutMs);
    const QString receiver = options.receiver;
    const ReceiveMode mode = options.mode;
    const int count = options.maxCount;
    return m_thread->run<QList<MessageView>>(
        [entityPath, receiver, mode, count, waitMs](ClientConnection& connection, Received done) {
            connection.authorize(connection.tokens().audience(entityPath),
                                 [&connection, entityPath, receiver, mode, count, waitMs,
                                  done](const Result<void>& ready) {
                                     if (!ready)
                                         done(ready.error());
                                     else
                                         connection.receiver(entityPath, receiver, mode)
                                             .receive(count, waitMs, done);
                                 });
        },
        waitLimit() + waitMs);
}

Result<MessageView> AmqpClient::receiveDeferred(const QString& entityPath, qint64 sequenceNumber,
                                                const QString& receiver, const QString& sessionId) {
    QVariantMap body{{QStringLiteral("sequence-numbers"), longArray(sequenceNumber)},
                     {QStringLiteral("receiver-settle-mode"), QVariant::fromValue(1u)}};
    if (!sessionId.isEmpty())
        body.insert(QStringLiteral("session-id"), sessionId);
    const auto answer = m_thread->run<QVariant>(
        [entityPath, receiver, sessionId, body](ClientConnection& connection, BodyAnswer done) {
            // A session's: for the link that holds the session (associated-link-name).
            QString linkName;
            if (!sessionId.isEmpty()) {
                const ReceiverLink* holder =
                    connection.sessionHolder(entityPath, receiver, sessionId);
                if (!holder) {
                    done(Error::make(ErrorCode::SessionLockLost,
                                     QStringLiteral("This client holds no session '%1' for '%2'.")
                                         .arg(sessionId, receiver)));
                    return;
                }
                linkName = holder->linkName();
            }
            manage(connection, entityPath,
                   QStringLiteral("com.microsoft:receive-by-sequence-number"), body, done,
                   linkName);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    auto messages = messagesOf(*answer, entityPath, true);
    if (!messages)
        return messages.error();
    if (messages->isEmpty())
        return Error::make(ErrorCode::MessageNotFound,
                           QStringLiteral("No deferred message %1.").arg(sequenceNumber));
    MessageView message = messages->first();
    message.lockHolder = receiver;
    return message;
}

Result<void> AmqpClient::settle(const LockRef& lock, const Settle& how) {
    return m_thread->run<void>(
        [lock, how](ClientConnection& connection, Done done) {
            if (ReceiverLink* link =
                    connection.holder(lock.entityPath, lock.receiver, lock.lockToken)) {
                link->settle(lock.lockToken, how.settlement, done);
                return;
            }
            // Held on a connection that broke: the service let it go with that connection.
            if (auto lost = connection.lockLostWith(lock.lockToken)) {
                done(*lost);
                return;
            }
            // Not delivered on a link of ours: a deferred message taken by sequence number
            // settles through $management (and a lock that is gone fails there).
            QVariantMap body{{QStringLiteral("lock-tokens"), uuidArray(lock.lockToken)},
                             {QStringLiteral("disposition-status"), how.status}};
            if (!how.settlement.propertiesToModify.isEmpty())
                body.insert(QStringLiteral("properties-to-modify"),
                            how.settlement.propertiesToModify);
            if (how.settlement.kind == Settlement::Kind::DeadLetter) {
                body.insert(QStringLiteral("deadletter-reason"), how.settlement.reason);
                body.insert(QStringLiteral("deadletter-description"), how.settlement.description);
            }
            manage(connection, lock.entityPath, QStringLiteral("com.microsoft:update-disposition"),
                   body, [done](const Result<QVariant>& answer) {
                       if (answer)
                           done({});
                       else
                           done(answer.error());
                   });
        },
        waitLimit());
}

Result<void> AmqpClient::complete(const LockRef& lock) {
    return settle(lock, {{Settlement::Kind::Complete, {}, {}, {}}, QStringLiteral("completed")});
}

Result<void> AmqpClient::abandon(const LockRef& lock, const QVariantMap& propertiesToModify) {
    return settle(lock, {{Settlement::Kind::Abandon, propertiesToModify, {}, {}},
                         QStringLiteral("abandoned")});
}

Result<void> AmqpClient::defer(const LockRef& lock, const QVariantMap& propertiesToModify) {
    return settle(
        lock, {{Settlement::Kind::Defer, propertiesToModify, {}, {}}, QStringLiteral("defered")});
}

Result<void> AmqpClient::deadLetter(const LockRef& lock, const DeadLetterOptions& options) {
    return settle(lock, {{Settlement::Kind::DeadLetter, options.propertiesToModify, options.reason,
                          options.description},
                         QStringLiteral("suspended")});
}

Result<Instant> AmqpClient::renewLock(const LockRef& lock) {
    const QVariantMap body{{QStringLiteral("lock-tokens"), uuidArray(lock.lockToken)}};
    const auto answer = m_thread->run<QVariant>(
        [lock, body](ClientConnection& connection, BodyAnswer done) {
            const ReceiverLink* link =
                connection.holder(lock.entityPath, lock.receiver, lock.lockToken);
            if (!link) {
                if (auto lost = connection.lockLostWith(lock.lockToken)) {
                    done(*lost);
                    return;
                }
            }
            manage(connection, lock.entityPath, QStringLiteral("com.microsoft:renew-lock"), body,
                   done, link ? link->linkName() : QString());
        },
        waitLimit());
    if (!answer)
        return answer.error();
    const QVariantList expirations = itemsOf(answer->toMap().value(QStringLiteral("expirations")));
    if (expirations.isEmpty() || expirations.first().metaType().id() != QMetaType::QDateTime)
        return Error::make(ErrorCode::ServiceCommunicationProblem,
                           QStringLiteral("The renewal's answer has no expiration."));
    return Instant(expirations.first().toDateTime().toMSecsSinceEpoch());
}

Result<qint64> AmqpClient::schedule(const QString& entityPath, const OutgoingMessage& message,
                                    Instant at) {
    OutgoingMessage scheduled = message;
    scheduled.scheduledEnqueueTime = at;
    if (scheduled.messageId.isEmpty())
        scheduled.messageId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QVariantMap item{{QStringLiteral("message-id"), scheduled.messageId},
                           {QStringLiteral("message"), amqp::encodeOutgoingMessage(scheduled)}};
    const QVariantMap body{{QStringLiteral("messages"), QVariantList{item}}};
    const auto answer = m_thread->run<QVariant>(
        [entityPath, body](ClientConnection& connection, BodyAnswer done) {
            manage(connection, entityPath, QStringLiteral("com.microsoft:schedule-message"), body,
                   done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    const QVariantList items = itemsOf(answer->toMap().value(QStringLiteral("sequence-numbers")));
    bool isNumber = false;
    const qint64 number = items.isEmpty() ? 0 : items.first().toLongLong(&isNumber);
    if (!isNumber)
        return Error::make(ErrorCode::ServiceCommunicationProblem,
                           QStringLiteral("The schedule's answer has no sequence number."));
    return number;
}

Result<void> AmqpClient::cancelScheduled(const QString& entityPath, qint64 sequenceNumber) {
    const QVariantMap body{{QStringLiteral("sequence-numbers"), longArray(sequenceNumber)}};
    const auto answer = m_thread->run<QVariant>(
        [entityPath, body](ClientConnection& connection, BodyAnswer done) {
            manage(connection, entityPath, QStringLiteral("com.microsoft:cancel-scheduled-message"),
                   body, done);
        },
        waitLimit());
    if (!answer)
        return answer.error();
    return {};
}

} // namespace hourglass::remote
