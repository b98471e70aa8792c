#pragma once
// The `<entity>/$management` operations the client makes (the service's side: its AMQP
// reference, "Management operations"): each one a request with a body map, sent once the
// entity's audience has a token, answered with the response's body or the error its status
// and condition stand for.

#include "ClientConnection.h"

#include "hourglass/Message.h"
#include "hourglass/amqpcodec/ManagementMessages.h"

#include <QVariantMap>

#include <functional>

namespace hourglass::remote {

using BodyAnswer = std::function<void(Result<QVariant>)>;

// Sends `operation` with `body` to the entity's management node. 200 answers with the body, 204
// (nothing there) with an invalid QVariant; any other status fails. `linkName`, when given, is
// the receiver link the operation is about (associated-link-name).
void manage(ClientConnection& connection, const QString& entityPath, const QString& operation,
            const QVariantMap& body, BodyAnswer answer, const QString& linkName = {});

// The same, answered with the service's response whatever its status (an operation the
// namespace may not offer: its 501 is an answer, not a failure). Fails only when no response came.
using ResponseAnswer = std::function<void(Result<amqp::ManagementResponse>)>;
void manageResponse(ClientConnection& connection, const QString& entityPath,
                    const QString& operation, const QVariantMap& body, ResponseAnswer answer,
                    const QString& linkName = {});

// The entity a path names and its sub-queue ("orders/$deadletterqueue" -> "orders", DeadLetter),
// as a received message says them.
void placeMessage(const QString& entityPath, MessageView& message);

// The messages of a peek or receive-by-sequence-number response body ({"messages": [{"message":
// binary, "lock-token": uuid}...]}), read as `handover` says; none for an empty body.
Result<QList<MessageView>> messagesOf(const QVariant& body, const QString& entityPath, bool locked);

} // namespace hourglass::remote
