#pragma once
// A rule's SQL filter or action text checked as the broker checks it when the rule is added
// (resources/docs/service-bus-rules.md R3-R5), without a broker: the rule dialog checks as the
// user types. Pure, and a text is at most 1,024 characters, so any thread may call these.
//
// A refusal is InvalidArgument in Service Bus's parse-error shape:
//   There was an error parsing the SQL expression. [Token line=1, column=7, Token in error= ==,
//   Additional details= ...]
// and sqlParseErrorLocation reads its position and token back (the dialog underlines the token).

#include "hourglass/SqlTokens.h"
#include "hourglass/Status.h"

#include <QString>

#include <optional>

namespace hourglass {

// Compiles `text` as a filter; the refusal the broker would give, or nothing.
Result<void> checkSqlFilter(const QString& text);
// Compiles `text` as an action; its number of statements, or the refusal.
Result<int> checkSqlAction(const QString& text);

// Where a parse error is: its position and the token in error as written ("<end of text>" past
// the last token).
struct SqlErrorLocation {
    SqlPosition position;
    QString token;
};
// Reads back the position and token of an error in the parse-error shape above, wherever it sits
// in the description (Rule::validate puts "rule 'name': " before it); nullopt for an error of
// another shape (a text too long, an evaluation error). A token that itself contains
// ", Additional details= " is cut there.
std::optional<SqlErrorLocation> sqlParseErrorLocation(const Error& error);

} // namespace hourglass
