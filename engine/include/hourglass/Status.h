#pragma once
// Error values of the engine. Operations never throw across the API: they return a Result that
// holds either the payload or an Error carrying the condition code of scenario-format.md, a human
// description, a tracking id (for correlating logs) and whether a retry can succeed (L1).

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace hourglass {

enum class ErrorCode {
    MessagingEntityNotFound,
    MessagingEntityAlreadyExists,
    MessagingEntityDisabled,
    MessageSizeExceeded,
    MessageLockLost,
    MessageNotFound,
    QuotaExceeded,
    InvalidArgument,
    ServiceBusy,
    GeneralError,
    // Sessions (S2-S5).
    SessionLockLost,
    SessionCannotBeLocked,
    ServiceTimeout,
    // The database is open in another window, serve or scenario run (one owner per database).
    DatabaseInUse,
    // A remote namespace (engine/remote) only: the service refused the credential (a wrong key,
    // an expired signature, a key without the right), or could not be reached or understood (no
    // route, a certificate that does not verify, a connection that broke, an answer that is not
    // Service Bus's). The engine never reports either.
    Unauthorized,
    ServiceCommunicationProblem,
};

// The code as written in scenario files and shown in the UI, e.g. "MessageLockLost".
QString errorCodeName(ErrorCode code);
std::optional<ErrorCode> errorCodeFromName(const QString& name);
// Whether an error of this code can succeed when retried (QuotaExceeded, ServiceBusy,
// ServiceTimeout: a session may be free by then).
bool errorCodeRetryable(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::GeneralError;
    QString description;
    QString trackingId;
    bool retryable = false;
    // InvalidArgument only: the call does not fit the kind of entity it names (a receive from a
    // topic, a plain receive from an entity that requires sessions or a session accepted on one
    // that does not, a message without SessionId to one that requires it) rather than carrying a
    // bad value. Service Bus reports these as an invalid operation, and the AMQP endpoint refuses
    // such a link or transfer with amqp:not-allowed.
    bool wrongEntityKind = false;

    // Builds an error with a fresh tracking id and the code's default retryability.
    static Error make(ErrorCode code, const QString& description);
    // "MessageLockLost: The lock ... (TrackingId: ...)"
    QString toString() const;
};

// Either a value or an Error. Result<void> carries only success or an Error.
template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error)
        : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(m_data); }
    T& value() & { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

inline Error makeError(ErrorCode code, const QString& description) {
    return Error::make(code, description);
}

// InvalidArgument for a call that does not fit the kind of entity it names
// (Error::wrongEntityKind).
inline Error makeWrongEntityKindError(const QString& description) {
    Error error = Error::make(ErrorCode::InvalidArgument, description);
    error.wrongEntityKind = true;
    return error;
}

} // namespace hourglass
