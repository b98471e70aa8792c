#include "hourglass/amqpcodec/ManagementMessages.h"

#include "hourglass/amqpcodec/AmqpNesting.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/message.h>

#include <cstdlib>
#include <memory>

namespace hourglass::amqp {

namespace {
struct MessageFree {
    void operator()(pn_message_t* message) const { pn_message_free(message); }
};
using MessagePtr = std::unique_ptr<pn_message_t, MessageFree>;
} // namespace

ManagementResponse ManagementResponse::failure(int statusCode, const QByteArray& condition,
                                               const QString& description) {
    ManagementResponse response;
    response.statusCode = statusCode;
    response.errorCondition = condition;
    response.statusDescription = description;
    return response;
}

ManagementResponse ManagementResponse::failure(const Error& error, const QString& entityPath) {
    return failure(wireStatusCode(error.code), wireCondition(error.code),
                   wireDescription(error, entityPath));
}

Result<ManagementRequest> decodeManagementRequest(const QByteArray& encoded) {
    // Proton's decoder recurses per level of nesting: nothing deeper than the limit reaches it.
    switch (checkNesting(encoded)) {
    case Nesting::Within:
        break;
    case Nesting::TooDeep:
        return Error::make(ErrorCode::InvalidArgument, tooDeepDescription());
    case Nesting::Malformed:
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The request could not be decoded as AMQP 1.0."));
    }
    MessagePtr message(pn_message());
    // Proton's pn_message_decode asserts on an empty buffer (it aborts the process).
    if (encoded.isEmpty() ||
        pn_message_decode(message.get(), encoded.constData(), size_t(encoded.size())) != 0)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The request could not be decoded as AMQP 1.0."));
    ManagementRequest request;
    request.properties = readSingleAmqpValue(pn_message_properties(message.get())).toMap();
    request.operation = request.properties.value(QStringLiteral("operation")).toString();
    request.body = readSingleAmqpValue(pn_message_body(message.get()));
    request.messageId = readSingleAmqpValue(pn_message_id(message.get()));
    if (const char* replyTo = pn_message_get_reply_to(message.get()))
        request.replyTo = QString::fromUtf8(replyTo);
    return request;
}

QByteArray encodeManagementResponse(const ManagementRequest& request,
                                    const ManagementResponse& response, StatusNames names) {
    MessagePtr message(pn_message());
    pn_message_t* m = message.get();
    if (request.messageId.isValid())
        writeAmqpValue(pn_message_correlation_id(m), request.messageId);
    const bool cbs = names == StatusNames::Cbs;
    QVariantMap properties;
    properties.insert(cbs ? QStringLiteral("status-code") : QStringLiteral("statusCode"),
                      response.statusCode);
    properties.insert(cbs ? QStringLiteral("status-description")
                          : QStringLiteral("statusDescription"),
                      response.statusDescription);
    if (!response.errorCondition.isEmpty())
        properties.insert(QStringLiteral("errorCondition"),
                          QVariant::fromValue(AmqpSymbol{response.errorCondition}));
    writeAmqpValue(pn_message_properties(m), properties);
    if (response.body.isValid())
        writeAmqpValue(pn_message_body(m), response.body);
    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(m, &buffer);
    QByteArray encoded = size > 0 ? QByteArray(buffer.start, qsizetype(size)) : QByteArray();
    std::free(buffer.start);
    return encoded;
}

QByteArray encodeManagementRequest(const ManagementRequest& request) {
    MessagePtr message(pn_message());
    pn_message_t* m = message.get();
    if (request.messageId.isValid())
        writeAmqpValue(pn_message_id(m), request.messageId);
    if (!request.replyTo.isEmpty())
        pn_message_set_reply_to(m, request.replyTo.toUtf8().constData());
    QVariantMap properties = request.properties;
    properties.insert(QStringLiteral("operation"), request.operation);
    writeAmqpValue(pn_message_properties(m), properties);
    if (request.body.isValid())
        writeAmqpValue(pn_message_body(m), request.body);
    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(m, &buffer);
    QByteArray encoded = size > 0 ? QByteArray(buffer.start, qsizetype(size)) : QByteArray();
    std::free(buffer.start);
    return encoded;
}

Result<ManagementResponse> decodeManagementResponse(const QByteArray& encoded) {
    const auto unreadable = [] {
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The response could not be decoded as AMQP 1.0."));
    };
    if (checkNesting(encoded) != Nesting::Within)
        return unreadable();
    MessagePtr message(pn_message());
    if (encoded.isEmpty() ||
        pn_message_decode(message.get(), encoded.constData(), size_t(encoded.size())) != 0)
        return unreadable();
    const QVariantMap properties =
        readSingleAmqpValue(pn_message_properties(message.get())).toMap();
    // $management names them statusCode/statusDescription, $cbs status-code/status-description.
    const auto either = [&](const char* management, const char* cbs) {
        const QVariant value = properties.value(QLatin1String(management));
        return value.isValid() ? value : properties.value(QLatin1String(cbs));
    };
    bool isNumber = false;
    ManagementResponse response;
    response.statusCode = either("statusCode", "status-code").toInt(&isNumber);
    if (!isNumber)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The response carries no status code."));
    response.statusDescription =
        quotedDescription(either("statusDescription", "status-description").toString());
    response.errorCondition =
        properties.value(QStringLiteral("errorCondition")).toString().left(128).toUtf8();
    const QVariant body = readSingleAmqpValue(pn_message_body(message.get()));
    response.body = body.metaType().id() == QMetaType::Nullptr ? QVariant() : body;
    response.correlationId = readSingleAmqpValue(pn_message_correlation_id(message.get()));
    return response;
}

} // namespace hourglass::amqp
