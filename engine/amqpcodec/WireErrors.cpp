#include "hourglass/amqpcodec/WireErrors.h"

#include "hourglass/amqpcodec/PeerLimits.h"

namespace hourglass::amqp {

QByteArray wireCondition(ErrorCode code) {
    switch (code) {
    case ErrorCode::MessagingEntityNotFound:
        return QByteArrayLiteral("amqp:not-found");
    case ErrorCode::MessagingEntityAlreadyExists:
        return QByteArrayLiteral("com.microsoft:entity-already-exists");
    case ErrorCode::MessagingEntityDisabled:
        return QByteArrayLiteral("com.microsoft:entity-disabled");
    case ErrorCode::MessageSizeExceeded:
        return QByteArrayLiteral("amqp:link:message-size-exceeded");
    case ErrorCode::MessageLockLost:
        return QByteArrayLiteral("com.microsoft:message-lock-lost");
    case ErrorCode::MessageNotFound:
        return QByteArrayLiteral("com.microsoft:message-not-found");
    case ErrorCode::QuotaExceeded:
        return QByteArrayLiteral("amqp:resource-limit-exceeded");
    case ErrorCode::InvalidArgument:
        return QByteArrayLiteral("com.microsoft:argument-error");
    case ErrorCode::ServiceBusy:
        return QByteArrayLiteral("com.microsoft:server-busy");
    case ErrorCode::SessionLockLost:
        return QByteArrayLiteral("com.microsoft:session-lock-lost");
    case ErrorCode::SessionCannotBeLocked:
        return QByteArrayLiteral("com.microsoft:session-cannot-be-locked");
    case ErrorCode::ServiceTimeout:
        return QByteArrayLiteral("com.microsoft:timeout");
    case ErrorCode::GeneralError:
    case ErrorCode::DatabaseInUse:
    case ErrorCode::Unauthorized:                // a remote namespace's, never the engine's
    case ErrorCode::ServiceCommunicationProblem: // likewise
        break;
    }
    return QByteArrayLiteral("amqp:internal-error");
}

QByteArray refusalCondition(const Error& error) {
    if (error.code == ErrorCode::InvalidArgument && error.wrongEntityKind)
        return kNotAllowed;
    return wireCondition(error.code);
}

QString attachRefusalDescription(const Error& error, const QString& entityPath) {
    const bool unreadable = error.code == ErrorCode::InvalidArgument && !error.wrongEntityKind;
    if (error.code == ErrorCode::MessagingEntityNotFound || unreadable)
        return QStringLiteral("The messaging entity '%1' could not be found.")
            .arg(quoted(entityPath));
    return error.toString();
}

QString wireDescription(const Error& error, const QString& entityPath) {
    if (error.code != ErrorCode::MessagingEntityNotFound)
        return error.toString();
    return QStringLiteral("The messaging entity '%1' could not be found. %2")
        .arg(quoted(entityPath), error.toString());
}

int wireStatusCode(ErrorCode code) {
    switch (code) {
    case ErrorCode::MessagingEntityNotFound:
    case ErrorCode::MessageNotFound:
        return 404;
    case ErrorCode::MessagingEntityAlreadyExists:
        return 409;
    case ErrorCode::MessagingEntityDisabled:
        return 403;
    case ErrorCode::MessageSizeExceeded:
    case ErrorCode::InvalidArgument:
        return 400;
    case ErrorCode::MessageLockLost:
    case ErrorCode::SessionLockLost:
    case ErrorCode::SessionCannotBeLocked:
        return 410;
    case ErrorCode::ServiceTimeout:
        return 408;
    case ErrorCode::QuotaExceeded:
        return 403;
    case ErrorCode::ServiceBusy:
        return 503;
    case ErrorCode::GeneralError:
    case ErrorCode::DatabaseInUse:
    case ErrorCode::Unauthorized:                // a remote namespace's, never the engine's
    case ErrorCode::ServiceCommunicationProblem: // likewise
        break;
    }
    return 500;
}

namespace {
Error remoteError(ErrorCode code, const QString& description) {
    Error error = Error::make(code, quotedDescription(description));
    return error;
}
} // namespace

Error errorFromWire(const QByteArray& condition, const QString& description) {
    static const ErrorCode kCodes[] = {
        ErrorCode::MessagingEntityNotFound,
        ErrorCode::MessagingEntityAlreadyExists,
        ErrorCode::MessagingEntityDisabled,
        ErrorCode::MessageSizeExceeded,
        ErrorCode::MessageLockLost,
        ErrorCode::MessageNotFound,
        ErrorCode::QuotaExceeded,
        ErrorCode::InvalidArgument,
        ErrorCode::ServiceBusy,
        ErrorCode::SessionLockLost,
        ErrorCode::SessionCannotBeLocked,
        ErrorCode::ServiceTimeout,
    };
    for (const ErrorCode code : kCodes) {
        if (condition == wireCondition(code))
            return remoteError(code, description);
    }
    if (condition == kUnauthorizedAccess)
        return remoteError(ErrorCode::Unauthorized, description);
    if (condition == kNotAllowed) {
        Error error = remoteError(ErrorCode::InvalidArgument, description);
        error.wrongEntityKind = true;
        return error;
    }
    if (condition.startsWith("amqp:connection:") || condition == kDecodeError ||
        condition == "amqp:session:window-violation" || condition == "amqp:frame-size-too-small")
        return remoteError(ErrorCode::ServiceCommunicationProblem, description);
    return remoteError(ErrorCode::GeneralError, description);
}

Error errorFromStatus(int statusCode, const QByteArray& condition, const QString& description) {
    if (!condition.isEmpty())
        return errorFromWire(condition, description);
    switch (statusCode) {
    case 400:
        return remoteError(ErrorCode::InvalidArgument, description);
    case 401:
        return remoteError(ErrorCode::Unauthorized, description);
    case 403:
        return remoteError(ErrorCode::QuotaExceeded, description);
    case 404:
        return remoteError(ErrorCode::MessagingEntityNotFound, description);
    case 408:
        return remoteError(ErrorCode::ServiceTimeout, description);
    case 409:
        return remoteError(ErrorCode::MessagingEntityAlreadyExists, description);
    case 410:
        return remoteError(ErrorCode::MessageLockLost, description);
    case 503:
        return remoteError(ErrorCode::ServiceBusy, description);
    default:
        return remoteError(ErrorCode::GeneralError, description);
    }
}

} // namespace hourglass::amqp
