#include "RuleCopies.h"

namespace hourglass {

RuleCopies copiesThroughRules(const QList<Rule>& rules, const OutgoingMessage& message,
                              const SqlBrokerFields& broker) {
    RuleCopies result;
    bool plainCopy = false;
    for (const Rule& rule : rules) {
        const auto matched = rule.evaluate(message, broker);
        if (!matched) {
            result.failure = matched.error();
            result.failedRule = rule.name;
            break;
        }
        if (!*matched)
            continue;
        if (!rule.hasAction()) {
            plainCopy = true;
            continue;
        }
        auto copy = rule.applyAction(message, broker);
        if (!copy) {
            result.failure = copy.error();
            result.failedRule = rule.name;
            break;
        }
        result.copies.append(std::move(*copy));
    }
    if (result.failure)
        result.copies.clear();
    else if (plainCopy)
        result.copies.prepend(message);
    return result;
}

} // namespace hourglass
