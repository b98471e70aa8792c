#pragma once
// The expression tree the parser builds and the evaluator walks (service-bus-rules.md R3). A node
// knows where it came from in the text, so a refusal found after parsing (a filter that is not a
// predicate) can still say where.

#include "SqlError.h"
#include "SqlSystemProperties.h"

#include <QString>
#include <QVariant>

#include <memory>
#include <vector>

namespace hourglass {

// A property an expression names: `sys.Name` (resolved to its table entry when parsed) or
// `user.Name` / `Name`, an application property matched ignoring case.
struct SqlPropertyRef {
    const SqlSystemProperty* system = nullptr; // null for an application property
    QString name;                              // as written, without the scope

    // "sys.Label", "user.color": how the name reads in an error message.
    QString display() const;
};

enum class SqlNodeKind {
    Constant,         // constant: Int64, Double, String, Boolean, or NULL (invalid QVariant)
    Property,         // property
    NewId,            // newid()
    PropertyFunction, // property(operands[0])
    Exists,           // EXISTS(property)
    Not,              // NOT operands[0]
    And,              // operands[0] AND operands[1]
    Or,               // operands[0] OR operands[1]
    Compare,          // operands[0] op operands[1]
    Like,             // operands[0] [NOT] LIKE pattern [ESCAPE escape]
    In,               // operands[0] [NOT] IN (operands[1..])
    IsNull,           // operands[0] IS [NOT] NULL
    Arithmetic,       // operands[0] op operands[1]
    Negate,           // - operands[0]
};

enum class SqlOperator {
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
};

struct SqlNode {
    SqlNodeKind kind = SqlNodeKind::Constant;
    SqlPosition position; // of the node's first token
    QString token;        // that token as written
    QVariant constant;
    SqlPropertyRef property;
    SqlOperator op = SqlOperator::Equal;
    bool negated = false; // NOT LIKE, NOT IN, IS NOT NULL
    QString pattern;
    std::optional<QChar> escape;
    std::vector<std::unique_ptr<SqlNode>> operands;

    // Whether the node yields true/false/unknown by its form (a comparison, LIKE, IN, IS NULL,
    // EXISTS, and NOT/AND/OR of those): what a filter and the operands of NOT/AND/OR must be.
    bool isPredicate() const;
};

using SqlNodePtr = std::unique_ptr<SqlNode>;
// Compiled filters and actions share their trees: they never change after parsing.
using SqlTree = std::shared_ptr<const SqlNode>;

} // namespace hourglass
