#include "SqlError.h"

#include <QRegularExpression>

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

std::optional<SqlErrorLocation> sqlParseErrorLocation(const Error& error) {
    // The counterpart of the format above; the token is everything up to the first
    // ", Additional details= ", as the details follow it.
    static const QRegularExpression shape(
        QStringLiteral("There was an error parsing the SQL expression\\. \\[Token line=(\\d+), "
                       "column=(\\d+), Token in error= (.*?), Additional details= "),
        QRegularExpression::DotMatchesEverythingOption);
    if (error.code != ErrorCode::InvalidArgument)
        return std::nullopt;
    const QRegularExpressionMatch match = shape.match(error.description);
    if (!match.hasMatch())
        return std::nullopt;
    SqlErrorLocation location;
    location.position.line = match.captured(1).toInt();
    location.position.column = match.captured(2).toInt();
    location.token = match.captured(3);
    if (location.position.line < 1 || location.position.column < 1)
        return std::nullopt;
    return location;
}

Error sqlEvaluationError(const QString& details) {
    return makeError(ErrorCode::GeneralError, details);
}

} // namespace hourglass
