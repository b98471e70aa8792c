// The rule-description map of an add-rule request, as the endpoint reads it (an AMQP map through
// AmqpValue, then RuleCodec ruleFromDescription), validated as the broker validates a new rule
// (its SQL filter and action compiled), matched and applied to a sample message as a topic's
// fan-out does, and described back as enumerate-rules does.

#include "FuzzInput.h"
#include "RuleCodec.h"
#include "SampleMessage.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QVariant value = fuzz::decodeAmqpValue(fuzz::bytesOf(data, size));
    const auto rule = amqp::ruleFromDescription(QStringLiteral("rule"), value.toMap());
    if (!rule || !rule->validate())
        return 0;
    const OutgoingMessage message = fuzz::sampleMessage();
    const auto matched = rule->evaluate(message, fuzz::sampleBrokerFields());
    if (matched && *matched && rule->hasAction())
        (void)rule->applyAction(message, fuzz::sampleBrokerFields());
    amqp::ruleDescription(*rule, 0);
    return 0;
}
