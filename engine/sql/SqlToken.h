#pragma once
// The tokens of the SQL filter and action language (service-bus-rules.md R3) as the compiler
// reads them: the cut of hourglass/SqlTokens.h with each number's value (SqlLexer).

#include "SqlError.h"
#include "hourglass/SqlTokens.h"

#include <QString>

namespace hourglass {

struct SqlToken {
    SqlTokenKind kind = SqlTokenKind::End;
    // The name or the string's value with quotes undone; the operator's characters.
    QString text;
    // The token as written in the expression, for error messages.
    QString source;
    SqlPosition position;
    qint64 integer = 0;
    double decimal = 0;

    // A plain identifier equal to `keyword` ignoring case (keywords are case-insensitive).
    bool isKeyword(const char* keyword) const {
        return kind == SqlTokenKind::Identifier &&
               text.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0;
    }
    bool isOperator(const char* op) const {
        return kind == SqlTokenKind::Operator && text == QLatin1String(op);
    }
};

} // namespace hourglass
