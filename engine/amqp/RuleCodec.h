#pragma once
// Subscription rules on the wire (amqp-endpoint.md, "Rules"): the rule-description map of add-rule,
// and the described lists of enumerate-rules (rule-description, sql/true/false/correlation filters,
// sql-rule-action), with the descriptor codes the SDKs check.

#include "hourglass/Rule.h"
#include "hourglass/Time.h"

#include <QVariant>
#include <QVariantMap>

namespace hourglass::amqp {

inline constexpr quint64 kRuleDescriptionCode = 0x0000013700000004;
inline constexpr quint64 kSqlFilterCode = 0x0000001370000006;
inline constexpr quint64 kTrueFilterCode = 0x0000001370000007;
inline constexpr quint64 kFalseFilterCode = 0x0000001370000008;
inline constexpr quint64 kCorrelationFilterCode = 0x0000001370000009;
inline constexpr quint64 kEmptyRuleActionCode = 0x0000013700000005;
inline constexpr quint64 kSqlRuleActionCode = 0x0000013700000006;

// The rule an add-rule request describes: one of sql-filter {expression} or correlation-filter
// {correlation-id, message-id, to, reply-to, label, session-id, reply-to-session-id,
// content-type, properties}, and maybe sql-rule-action {expression}. "1=1" and "1=0" (how the
// SDKs send true and false filters) become true and false filters. InvalidArgument when neither
// filter is there; the rule is not validated here (the broker does that when adding it).
Result<Rule> ruleFromDescription(const QString& name, const QVariantMap& description);

// A rule as enumerate-rules returns it: the described list [filter, action, name, created-at].
QVariant ruleDescription(const Rule& rule, Instant createdAt);

} // namespace hourglass::amqp
