#pragma once
// A compiled rule action (service-bus-rules.md R4): `SET name = expression` and `REMOVE name`
// statements, run in order on one subscription's copy of a message. The topic's copy rule (a
// matching rule with an action puts its own copy, with RuleName set) stays with the caller;
// this only changes the copy it is given.

#include "SqlParser.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"

#include <vector>

namespace hourglass {

class SqlAction {
public:
    // The action `text` or InvalidArgument saying where and why: a syntax error, an unknown or
    // read-only `sys.` target (SequenceNumber...), no statement, more than 32 statements, more
    // than 1,024 characters.
    static Result<SqlAction> compile(const QString& text);

    // `message` with the statements applied, each seeing the changes of the ones before it. SET
    // on an application property keeps the name's existing spelling when one matches ignoring
    // case; REMOVE drops every spelling. An error (an evaluation error, a value of the wrong type
    // for a system property) comes back instead of a half-changed message.
    Result<OutgoingMessage> applyTo(const OutgoingMessage& message,
                                    const SqlBrokerFields& broker = {}) const;

    const QString& text() const { return m_text; }
    int statementCount() const { return int(m_statements.size()); }

private:
    QString m_text;
    std::vector<SqlStatement> m_statements;
};

} // namespace hourglass
