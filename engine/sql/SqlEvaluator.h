#pragma once
// Runs an expression tree against one message (service-bus-rules.md R3). Values are QVariants in
// the meta types of PropertyTypes.h; an invalid QVariant is SQL's NULL, which is also "unknown" in
// three-valued logic. A missing property reads as NULL, so a comparison with it is unknown and
// `IS NULL` is true. Integers of every width promote to Int64, and to Double next to a Double;
// strings compare exactly (case-sensitive, ordinal); DateTime and Guid compare with their own
// kind only. Anything else (a string compared with a number, a division by zero, an integer
// overflow) is an evaluation error: a distinct result, never a crash and never "false".

#include "SqlExpression.h"
#include "hourglass/Status.h"

#include <QList>

namespace hourglass {

// The value of `node` for `message`: a Boolean or NULL for a predicate, any value otherwise; or
// an error (SqlError.h) saying what went wrong and where.
Result<QVariant> sqlEvaluate(const SqlNode& node, const OutgoingMessage& message,
                             const SqlBrokerFields& broker);

// Every property `node` reads, each once (names compared ignoring case), in the order written, with
// its value for `message`: what the routing preview shows to explain a false or unknown filter
// (R3). property(name) is left out (its name is only known while evaluating).
QList<SqlPropertyValue> sqlPropertyValues(const SqlNode& node, const OutgoingMessage& message,
                                          const SqlBrokerFields& broker);

// An application property by name, ignoring case (an exact match first); nullptr when missing.
const QVariant* findApplicationProperty(const QVariantMap& properties, const QString& name);

} // namespace hourglass
