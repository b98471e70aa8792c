#include "SqlError.h"

namespace hourglass {

Error sqlParseError(SqlPosition position, const QString& token, const QString& details) {
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("There was an error parsing the SQL expression. [Token "
                                    "line=%1, column=%2, Token in error= %3, Additional "
                                    "details= %4]")
                         .arg(position.line)
                         .arg(position.column)
                         .arg(token, details));
}

Error sqlEvaluationError(const QString& details) {
    return makeError(ErrorCode::GeneralError, details);
}

} // namespace hourglass
