#include "ManagementCalls.h"

#include "hourglass/EntityPath.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/WireErrors.h"

namespace hourglass::remote {

void manageResponse(ClientConnection& connection, const QString& entityPath,
                    const QString& operation, const QVariantMap& body, ResponseAnswer answer,
                    const QString& linkName) {
    amqp::ManagementRequest request;
    request.operation = operation;
    if (!linkName.isEmpty())
        request.properties.insert(QStringLiteral("associated-link-name"), linkName);
    request.body = body;
    connection.authorize(connection.tokens().audience(entityPath), [&connection, entityPath,
                                                                    request, answer](
                                                                       const Result<void>& ready) {
        if (!ready) {
            answer(ready.error());
            return;
        }
        connection.channel(entityPath + QStringLiteral("/$management")).request(request, answer);
    });
}

void manage(ClientConnection& connection, const QString& entityPath, const QString& operation,
            const QVariantMap& body, BodyAnswer answer, const QString& linkName) {
    manageResponse(
        connection, entityPath, operation, body,
        [answer](Result<amqp::ManagementResponse> response) {
            if (!response) {
                answer(response.error());
                return;
            }
            if (response->statusCode == 200)
                answer(response->body);
            else if (response->statusCode == 204)
                answer(QVariant());
            else
                answer(amqp::errorFromStatus(response->statusCode, response->errorCondition,
                                             response->statusDescription));
        },
        linkName);
}

void placeMessage(const QString& entityPath, MessageView& message) {
    if (entityPath.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)) {
        message.entityPath = entityPath.chopped(kDeadLetterSuffix.size());
        message.subQueue = SubQueue::DeadLetter;
    } else {
        message.entityPath = entityPath;
        message.subQueue = SubQueue::Main;
    }
}

Result<QList<MessageView>> messagesOf(const QVariant& body, const QString& entityPath,
                                      bool locked) {
    QList<MessageView> messages;
    const QVariantList items = body.toMap().value(QStringLiteral("messages")).toList();
    for (const QVariant& item : items) {
        const QVariantMap entry = item.toMap();
        auto message =
            amqp::decodeReceivedMessage(entry.value(QStringLiteral("message")).toByteArray(),
                                        locked ? amqp::Handover::Delivery : amqp::Handover::Peek);
        if (!message)
            return message.error();
        placeMessage(entityPath, *message);
        if (locked)
            message->lockToken = entry.value(QStringLiteral("lock-token")).toUuid();
        messages.append(std::move(*message));
    }
    return messages;
}

} // namespace hourglass::remote
