#pragma once
// The errors of the SQL filter and action language (service-bus-rules.md R5). A text that does not
// parse is refused at creation with InvalidArgument and a description in Service Bus's own shape,
// so a user who knows the service's message recognises it:
//   There was an error parsing the SQL expression. [Token line=1, column=7, Token in error= ==,
//   Additional details= ...]
// Evaluation errors (a string compared with a number, a division by zero) are not parse errors:
// they come back from evaluation as an Error whose description the broker puts in the
// dead-letter queue with DeadLetterReason FilterException.

#include "hourglass/SqlCheck.h"
#include "hourglass/SqlTokens.h"
#include "hourglass/Status.h"

#include <QString>

#include <optional>

namespace hourglass {

// SqlPosition (hourglass/SqlTokens.h) and sqlParseErrorLocation (hourglass/SqlCheck.h) are
// public: the rule dialog underlines the token in error.

// InvalidArgument in the service's parse-error shape, pointing at `token` at `position`.
Error sqlParseError(SqlPosition position, const QString& token, const QString& details);

// An error met while a filter or action runs against one message (GeneralError; the text is the
// description a FilterException dead-letter carries).
Error sqlEvaluationError(const QString& details);

} // namespace hourglass
