#pragma once
// The parser of the SQL filter and action language (service-bus-rules.md R3, R4, R5): recursive
// descent, one function per precedence level (OR; AND; NOT; comparisons, LIKE, IN, IS NULL; + -; *
// / %; unary + -). Everything that can be known without a message is checked here, so a bad text is
// refused when the rule is created rather than when a message arrives: the syntax, `sys.` names,
// that a filter is a predicate, LIKE's ESCAPE, the settable targets of an action, the limits.

#include "SqlExpression.h"
#include "hourglass/Status.h"

#include <vector>

namespace hourglass {

inline constexpr int kSqlMaxTextLength = 1024;
inline constexpr int kSqlMaxStatements = 32;
// How deep parentheses (and a function's argument) may nest. Each level recurses through every
// precedence level of the parser, and 1,024 characters can open 1,000 parentheses that are never
// closed, enough to overflow a thread's stack; a text that closes them cannot nest past 511.
inline constexpr int kSqlMaxNesting = 512;

// A filter: one predicate (`1=1`, not `TRUE`).
Result<SqlTree> parseSqlFilter(const QString& text);

// One statement of an action: SET target = value, or REMOVE target.
struct SqlStatement {
    bool remove = false;
    SqlPropertyRef target;
    SqlTree value; // null for REMOVE
};

// An action: 1 to 32 statements, `;` between them optional.
Result<std::vector<SqlStatement>> parseSqlAction(const QString& text);

} // namespace hourglass
