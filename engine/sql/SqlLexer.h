#pragma once
// The compiler's reading of a filter or action text (service-bus-rules.md R3): the tokens of
// sqlTokens (hourglass/SqlTokens.h, the one cut the rule dialog highlights too) with each number's
// value (integers of 64 bits, decimals as doubles), or the refusal of the first token it cannot
// read. Positions are 1-based lines and columns for error messages.

#include "SqlToken.h"
#include "hourglass/Status.h"

#include <QList>

namespace hourglass {

// The tokens of `text`, the last one End; or InvalidArgument in the service's shape (SqlError.h)
// for an unterminated string or name, a character outside the language, an integer past 64 bits.
Result<QList<SqlToken>> sqlTokenize(const QString& text);

} // namespace hourglass
