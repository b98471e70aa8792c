#pragma once
// Engine errors as the SDKs expect them on the wire: the AMQP error condition (a symbol) that
// the JavaScript and .NET SDKs map to their error codes, and the HTTP-like status code of
// management responses. Without the condition the SDK guesses from the status alone and guesses
// wrong (410 becomes "link stolen"), so every refusal goes through here.

#include "hourglass/Status.h"

#include <QByteArray>

namespace hourglass::amqp {

// e.g. MessagingEntityNotFound -> "amqp:not-found", MessageLockLost ->
// "com.microsoft:message-lock-lost".
QByteArray wireCondition(ErrorCode code);
// The condition of a link's attach or a transfer the broker refused: amqp:not-allowed when the
// link or message does not fit the kind of entity (Error::wrongEntityKind: a plain receiver on a
// session entity, a session receiver on a plain one, a receiver on a topic, a message without
// SessionId to a session entity), as the SDKs expect; otherwise wireCondition(code).
QByteArray refusalCondition(const Error& error);
// A refused attach's description. A missing entity (or an address the broker cannot read as a
// path) reads "The messaging entity '<path>' could not be found." with a short prefix of the
// address only, as the JavaScript SDK recognises it; a link that does not fit the entity gets
// the broker's words.
QString attachRefusalDescription(const Error& error, const QString& entityPath);
// e.g. MessagingEntityNotFound -> 404, MessageLockLost -> 410.
int wireStatusCode(ErrorCode code);

// The description sent with an error. The JavaScript SDK recognises a missing entity by the
// text "The messaging entity '...' could not be found" (amqp:not-found alone reads as a
// communication problem), so that sentence leads for MessagingEntityNotFound.
QString wireDescription(const Error& error, const QString& entityPath);

// The remote client's direction: the error a service's condition stands for (the inverse of
// wireCondition; amqp:unauthorized-access is Unauthorized, amqp:not-allowed an InvalidArgument
// that does not fit the entity, connection-level conditions ServiceCommunicationProblem,
// anything else GeneralError), with a short prefix of its description.
Error errorFromWire(const QByteArray& condition, const QString& description);
// The error of a management response: from its condition when it has one, else from its status
// code (the inverse of wireStatusCode; 401 is Unauthorized).
Error errorFromStatus(int statusCode, const QByteArray& condition, const QString& description);

inline const QByteArray kUnauthorizedAccess = QByteArrayLiteral("amqp:unauthorized-access");
inline const QByteArray kNotAllowed = QByteArrayLiteral("amqp:not-allowed");
inline const QByteArray kNotImplemented = QByteArrayLiteral("amqp:not-implemented");
inline const QByteArray kDecodeError = QByteArrayLiteral("amqp:decode-error");
inline const QByteArray kPreconditionFailed = QByteArrayLiteral("amqp:precondition-failed");
inline const QByteArray kResourceLimitExceeded = QByteArrayLiteral("amqp:resource-limit-exceeded");
inline const QByteArray kDeadLetterCondition = QByteArrayLiteral("com.microsoft:dead-letter");

} // namespace hourglass::amqp
