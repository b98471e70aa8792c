#pragma once
// Cuts a filter or action text into tokens (service-bus-rules.md R3): plain, [bracketed] (`]]` for
// `]`) and "quoted" (`""` for `"`) identifiers, 64-bit integers, decimals and exponents, 'strings'
// (`''` for a quote), operators. Positions are 1-based lines and columns for error messages.

#include "SqlToken.h"
#include "hourglass/Status.h"

#include <QList>

namespace hourglass {

// The tokens of `text`, the last one End; or InvalidArgument in the service's shape (SqlError.h)
// for an unterminated string or name, a character outside the language, an integer past 64 bits.
Result<QList<SqlToken>> sqlTokenize(const QString& text);

} // namespace hourglass
