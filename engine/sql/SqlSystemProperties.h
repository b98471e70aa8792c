#pragma once
// The `sys.` names of the SQL language (service-bus-rules.md R3, R4): the message's system
// properties as Azure's "SQL filter syntax" article lists them. Which of them can be read, which an
// action can set, and the type each one has in an expression. A name not in this table is refused
// when a filter or action is created.

#include "hourglass/Message.h"
#include "hourglass/RuleEvaluation.h"
#include "hourglass/Status.h"

#include <QStringView>
#include <QVariant>

#include <optional>

namespace hourglass {

// One `sys.` name. `read` gives the value an expression sees: strings as String (an empty one,
// which OutgoingMessage uses for "not set", as NULL), numbers as Int64 (DeliveryCount Int32),
// instants as a UTC DateTime, TimeToLive as Int64 milliseconds. `write` is null for a property an
// action cannot set; it takes NULL as "unset" and refuses a value of the wrong type with a reason.
struct SqlSystemProperty {
    const char* name;
    QVariant (*read)(const OutgoingMessage& message, const SqlBrokerFields& broker);
    std::optional<QString> (*write)(OutgoingMessage& message, const QVariant& value);
};

// The entry for `name` (ignoring case; Label and Subject are the same property), or null.
const SqlSystemProperty* findSqlSystemProperty(QStringView name);

} // namespace hourglass
