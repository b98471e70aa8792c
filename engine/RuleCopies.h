#pragma once
// What one subscription's rules make of a topic's message (service-bus-rules.md R1, R4, R5): the
// one place that decides, used by the topic's fan-out and by the routing preview, so that what the
// preview says is what a send does.

#include "hourglass/Message.h"
#include "hourglass/Rule.h"
#include "hourglass/Status.h"

#include <QList>

#include <optional>

namespace hourglass {

struct RuleCopies {
    // R4: one copy for every matching rule without an action together (first, unchanged), then
    // one per matching rule with an action, in rule order, changed by it and named by RuleName.
    QList<OutgoingMessage> copies;
    // R5: the first filter or action that failed on the message, and its error; `copies` is
    // empty then (the subscription dead-letters the message or drops it).
    std::optional<Error> failure;
    QString failedRule;
};

RuleCopies copiesThroughRules(const QList<Rule>& rules, const OutgoingMessage& message,
                              const SqlBrokerFields& broker);

} // namespace hourglass
