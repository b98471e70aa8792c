// AmqpClient::batchDelete (AmqpClient.h): com.microsoft:batch-delete-messages on the entity's
// $management node, as the SDKs' deleteMessages sends it.

#include "hourglass/remote/AmqpClient.h"

#include "ClientThread.h"
#include "ManagementCalls.h"

#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>

namespace hourglass::remote {

Result<std::optional<qint64>> AmqpClient::batchDelete(const QString& entityPath, int maxCount,
                                                      Instant enqueuedBefore,
                                                      const std::optional<QString>& sessionId) {
    if (maxCount < 1 || maxCount > kMaxPurgeCount)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("A batch delete takes from 1 to %1 messages; %2 were "
                                          "asked for.")
                               .arg(kMaxPurgeCount)
                               .arg(maxCount));
    QVariantMap body{{QStringLiteral("message-count"), maxCount}};
    // The service needs an instant it can read: "every message" is the latest one a timestamp
    // holds comfortably (year 9999), not kNever.
    constexpr Instant kLatest = 253402300799000; // 9999-12-31T23:59:59Z
    body.insert(QStringLiteral("enqueued-time-utc"),
                QDateTime::fromMSecsSinceEpoch(std::min(enqueuedBefore, kLatest), Qt::UTC));
    if (sessionId)
        body.insert(QStringLiteral("session-id"), *sessionId);
    const auto response = m_thread->run<amqp::ManagementResponse>(
        [entityPath, body](ClientConnection& connection,
                           std::function<void(Result<amqp::ManagementResponse>)> done) {
            manageResponse(connection, entityPath,
                           QStringLiteral("com.microsoft:batch-delete-messages"), body, done);
        },
        waitLimit());
    if (!response)
        return response.error();
    // A namespace without the operation (an older service, an emulator) says so: the caller
    // takes another way.
    if (response->statusCode == 501 || response->errorCondition == amqp::kNotImplemented)
        return std::optional<qint64>();
    // Nothing to delete may come as 204 (with com.microsoft:message-not-found, or without).
    if (response->statusCode == 204)
        return std::optional<qint64>(0);
    if (response->statusCode != 200)
        return amqp::errorFromStatus(response->statusCode, response->errorCondition,
                                     response->statusDescription);
    const QVariant count = response->body.toMap().value(QStringLiteral("message-count"));
    bool isNumber = false;
    const qint64 deleted = count.toLongLong(&isNumber);
    if (!isNumber || count.typeId() == QMetaType::QString || deleted < 0 || deleted > maxCount)
        return Error::make(ErrorCode::ServiceCommunicationProblem,
                           QStringLiteral("The batch delete's answer has no valid message count."));
    return std::optional<qint64>(deleted);
}

} // namespace hourglass::remote
