#include "hourglass/Status.h"

#include <QUuid>

#include <array>

namespace hourglass {

namespace {
struct CodeName {
    ErrorCode code;
    const char* name;
};
constexpr std::array<CodeName, 16> kNames{{
    {ErrorCode::MessagingEntityNotFound, "MessagingEntityNotFound"},
    {ErrorCode::MessagingEntityAlreadyExists, "MessagingEntityAlreadyExists"},
    {ErrorCode::MessagingEntityDisabled, "MessagingEntityDisabled"},
    {ErrorCode::MessageSizeExceeded, "MessageSizeExceeded"},
    {ErrorCode::MessageLockLost, "MessageLockLost"},
    {ErrorCode::MessageNotFound, "MessageNotFound"},
    {ErrorCode::QuotaExceeded, "QuotaExceeded"},
    {ErrorCode::InvalidArgument, "InvalidArgument"},
    {ErrorCode::ServiceBusy, "ServiceBusy"},
    {ErrorCode::GeneralError, "GeneralError"},
    {ErrorCode::SessionLockLost, "SessionLockLost"},
    {ErrorCode::SessionCannotBeLocked, "SessionCannotBeLocked"},
    {ErrorCode::ServiceTimeout, "ServiceTimeout"},
    {ErrorCode::DatabaseInUse, "DatabaseInUse"},
    {ErrorCode::Unauthorized, "Unauthorized"},
    {ErrorCode::ServiceCommunicationProblem, "ServiceCommunicationProblem"},
}};
} // namespace

QString errorCodeName(ErrorCode code) {
    for (const auto& entry : kNames) {
        if (entry.code == code)
            return QString::fromLatin1(entry.name);
    }
    return QStringLiteral("GeneralError");
}

std::optional<ErrorCode> errorCodeFromName(const QString& name) {
    for (const auto& entry : kNames) {
        if (name == QLatin1String(entry.name))
            return entry.code;
    }
    return std::nullopt;
}

bool errorCodeRetryable(ErrorCode code) {
    return code == ErrorCode::QuotaExceeded || code == ErrorCode::ServiceBusy ||
           code == ErrorCode::ServiceTimeout || code == ErrorCode::ServiceCommunicationProblem;
}

Error Error::make(ErrorCode code, const QString& description) {
    Error error;
    error.code = code;
    error.description = description;
    error.trackingId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    error.retryable = errorCodeRetryable(code);
    return error;
}

QString Error::toString() const {
    return QStringLiteral("%1: %2 (TrackingId: %3)")
        .arg(errorCodeName(code), description, trackingId);
}

} // namespace hourglass
