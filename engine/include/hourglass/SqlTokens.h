#pragma once
// The SQL filter and action language (resources/docs/service-bus-rules.md R3) cut into tokens:
// plain, [bracketed] (`]]` for `]`) and "quoted" (`""` for `"`) names, integers, decimals and
// exponents, 'strings' (`''` for a quote), operators. The engine's compiler reads these tokens
// (engine/sql/SqlLexer builds on sqlTokens), and the rule dialog highlights them, so what is
// coloured as a string or a number is what the compiler reads as one.
//
// Cutting never fails: what the compiler refuses (an unterminated string, a character outside
// the language, a number that runs into a name) is still a token, marked with its problem, and
// the text after it is cut as usual.

#include <QList>
#include <QString>

namespace hourglass {

// Where a token starts in the text: line and column are 1-based, columns count UTF-16 units.
struct SqlPosition {
    int line = 1;
    int column = 1;
};

enum class SqlTokenKind {
    Identifier,       // plain: color, sys, SET (keywords are plain identifiers too)
    QuotedIdentifier, // [bracketed] or "quoted"; never a keyword
    Integer,          // digits only
    Decimal,          // with a point or an exponent
    String,           // 'text'
    Operator,         // = <> != > >= < <= + - * / % ( ) , . ;
    Invalid,          // one character outside the language
    End,              // after the last token
};

// What the compiler refuses in a token that was cut all the same.
enum class SqlTokenProblem {
    None,
    Unterminated, // a string or delimited name without its closing character (to the end)
    RunsIntoName, // a number followed at once by a letter or '_' ("5abc")
    NotLanguage,  // an Invalid token
};

struct SqlTextToken {
    SqlTokenKind kind = SqlTokenKind::End;
    SqlTokenProblem problem = SqlTokenProblem::None;
    // Where it is in the text (UTF-16 units), its delimiters and quotes included.
    qsizetype start = 0;
    qsizetype length = 0;
    SqlPosition position;
    // A name or a string's value with its quotes undone; an operator's or a number's characters.
    QString text;
};

// The tokens of `text` in order, the last one End (at the end of the text).
QList<SqlTextToken> sqlTokens(const QString& text);

// The reserved words (AND OR NOT LIKE ESCAPE IN IS NULL TRUE FALSE EXISTS), any case: a plain
// identifier spelled like one is not a property name (bracket it).
bool isSqlReservedWord(const QString& word);

} // namespace hourglass
