#pragma once
// The tokens of the SQL filter and action language (service-bus-rules.md R3), as SqlLexer cuts
// them.

#include "SqlError.h"

#include <QString>

namespace hourglass {

enum class SqlTokenKind {
    Identifier,       // plain: color, sys, SET (keywords are plain identifiers too)
    QuotedIdentifier, // [bracketed] or "quoted"; never a keyword
    Integer,          // 64-bit
    Decimal,          // with a point or an exponent: a double
    String,           // 'text'
    Operator,         // = <> != > >= < <= + - * / % ( ) , . ;
    End,              // after the last token
};

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

// The reserved words: a plain identifier spelled like one is not a property name (bracket it).
bool isSqlReservedWord(const QString& word);

} // namespace hourglass
