#pragma once
// Request/response messages of the `$cbs` and `<entity>/$management` links (amqp-endpoint.md): the
// request's operation and other application properties, its body (a map, or the token string
// of put-token), its message-id and reply-to; the response's status application properties,
// its body, and correlation-id = the request's message-id in the same AMQP type.

#include "hourglass/Status.h"

#include <QByteArray>
#include <QString>
#include <QVariant>
#include <QVariantMap>

namespace hourglass::amqp {

struct ManagementRequest {
    QString operation;
    QVariantMap properties; // every application property, the operation's included
    QVariant body;          // a map for $management, the token text for put-token
    QVariant messageId;     // as sent: a string, QUuid, qulonglong or QByteArray
    QString replyTo;
};

struct ManagementResponse {
    int statusCode = 200;
    QString statusDescription;
    QByteArray errorCondition; // empty on success
    QVariant body;             // null: no body
    // The request's message-id, as a client reads it back (the endpoint answers from the
    // request's own and leaves this empty).
    QVariant correlationId;

    static ManagementResponse failure(int statusCode, const QByteArray& condition,
                                      const QString& description);
    // `entityPath` names the entity in a MessagingEntityNotFound description (wireDescription).
    static ManagementResponse failure(const Error& error, const QString& entityPath = {});
};

Result<ManagementRequest> decodeManagementRequest(const QByteArray& encoded);
// `cbsStyle`: the `$cbs` node names the statuses status-code/status-description, `$management`
// names them statusCode/statusDescription.
enum class StatusNames { Cbs, Management };
QByteArray encodeManagementResponse(const ManagementRequest& request,
                                    const ManagementResponse& response, StatusNames names);

// The remote client's direction: a request as the SDKs send it (its properties, the operation
// among them, body, message-id and reply-to), and a response read back with either naming of
// its status. InvalidArgument for bytes that are not an AMQP message or carry no status code.
QByteArray encodeManagementRequest(const ManagementRequest& request);
Result<ManagementResponse> decodeManagementResponse(const QByteArray& encoded);

} // namespace hourglass::amqp
