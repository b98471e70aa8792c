#pragma once
// The errors of the SQL filter and action language (service-bus-rules.md R5). A text that does not
// parse is refused at creation with InvalidArgument and a description in Service Bus's own shape,
// so a user who knows the service's message recognises it:
//   There was an error parsing the SQL expression. [Token line=1, column=7, Token in error= ==,
//   Additional details= ...]
// Evaluation errors (a string compared with a number, a division by zero) are not parse errors:
// they come back from evaluation as an Error whose description the broker puts in the
// dead-letter queue with DeadLetterReason FilterException.

#include "hourglass/Status.h"

#include <QString>

#include <optional>

namespace hourglass {

// Where a token starts in the text: line and column are 1-based, columns count UTF-16 units.
struct SqlPosition {
    int line = 1;
    int column = 1;
};

// InvalidArgument in the service's parse-error shape, pointing at `token` at `position`.
Error sqlParseError(SqlPosition position, const QString& token, const QString& details);
// Where sqlParseError said a parse error is: its position and the token in error as written
// ("<end of text>" past the last token).
struct SqlErrorLocation {
    SqlPosition position;
    QString token;
};
// Reads back the position and token of an error in the shape sqlParseError writes, wherever it
// sits in the description (Rule::validate puts "rule 'name': " before it); nullopt for an error
// of another shape (a text too long, an evaluation error). A token that itself contains
// ", Additional details= " is cut there.
std::optional<SqlErrorLocation> sqlParseErrorLocation(const Error& error);

// An error met while a filter or action runs against one message (GeneralError; the text is the
// description a FilterException dead-letter carries).
Error sqlEvaluationError(const QString& details);

} // namespace hourglass
