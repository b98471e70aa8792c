#pragma once
// A compiled SQL filter (service-bus-rules.md R2, R3, R5): the entry point for Rule::validate
// (compile) and Rule::matches / the topic's fan-out (matches). Compiling checks everything that
// does not need a message; matching runs the tree against one message.

#include "SqlEvaluator.h"
#include "SqlExpression.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"

namespace hourglass {

class SqlFilter {
public:
    // The filter `text` or InvalidArgument saying where and why (SqlError.h): a syntax error, an
    // unknown `sys.` name, a text that is not a predicate, more than 1,024 characters.
    static Result<SqlFilter> compile(const QString& text);

    // True when the filter is true for `message`; false when it is false or unknown (a rule
    // matches only on true). An error is an evaluation error (a string compared with a number,
    // a division by zero): the broker dead-letters the message in that subscription with
    // DeadLetterReason FilterException and the error's description (R5).
    Result<bool> matches(const OutgoingMessage& message, const SqlBrokerFields& broker = {}) const;

    // The filter's value for `message` with unknown kept apart from false, for the routing
    // preview; matches() is this compared with True.
    Result<SqlTruth> truth(const OutgoingMessage& message,
                           const SqlBrokerFields& broker = {}) const;
    // The properties the filter reads and their values for `message` (sqlPropertyValues): why
    // it is false or unknown.
    QList<SqlPropertyValue> propertyValues(const OutgoingMessage& message,
                                           const SqlBrokerFields& broker = {}) const;

    const QString& text() const { return m_text; }

private:
    QString m_text;
    SqlTree m_tree;
};

} // namespace hourglass
