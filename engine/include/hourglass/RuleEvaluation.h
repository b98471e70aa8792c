#pragma once
// What evaluating a rule's filter against one message gives and needs, beyond the message itself:
// the values the routing preview and the broker's fan-out exchange with Rule (Rule.h). The SQL
// language that computes them is private to the engine.

#include "hourglass/Time.h"

#include <QString>
#include <QVariant>

#include <optional>

namespace hourglass {

// A predicate's three values in SQL filters (R3). A rule matches only on True.
enum class SqlTruth { True, False, Unknown };

// The system properties the broker assigns when it accepts a message, which an OutgoingMessage
// does not carry. Unset ones read as NULL (a missing property).
struct SqlBrokerFields {
    std::optional<qint64> sequenceNumber;
    std::optional<Instant> enqueuedTime;
    std::optional<Instant> expiresAt;
    std::optional<qint32> deliveryCount;
    std::optional<qint64> size;
};

// One property a filter reads and its value for one message (NULL: missing).
struct SqlPropertyValue {
    QString name; // "color" for an application property, "sys.To" for a system one
    QVariant value;
};

} // namespace hourglass
