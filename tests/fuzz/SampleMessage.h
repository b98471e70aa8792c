#pragma once
// The message the SQL and rule targets evaluate against: every system property set and an
// application property of each type Service Bus carries, so that comparisons, arithmetic and
// LIKE meet each type.

#include "hourglass/Message.h"
#include "sql/SqlSystemProperties.h"

#include <QDateTime>
#include <QUuid>

namespace hourglass::fuzz {

inline OutgoingMessage sampleMessage() {
    OutgoingMessage message;
    message.body = "{\"order\": 7}";
    message.messageId = QStringLiteral("order-7");
    message.correlationId = QStringLiteral("c-1");
    message.sessionId = QStringLiteral("s-1");
    message.replyTo = QStringLiteral("replies");
    message.to = QStringLiteral("orders");
    message.subject = QStringLiteral("invoice");
    message.contentType = QStringLiteral("application/json");
    message.timeToLive = Millis(60000);
    message.applicationProperties = {
        {QStringLiteral("color"), QStringLiteral("red")},
        {QStringLiteral("count"), 250},
        {QStringLiteral("total"), qlonglong(1) << 40},
        {QStringLiteral("ratio"), 0.5},
        {QStringLiteral("urgent"), true},
        {QStringLiteral("none"), QVariant::fromValue(nullptr)},
        {QStringLiteral("when"), QDateTime::fromMSecsSinceEpoch(1700000000000, Qt::UTC)},
        {QStringLiteral("id"), QUuid(QStringLiteral("{00112233-4455-6677-8899-aabbccddeeff}"))},
    };
    return message;
}

inline SqlBrokerFields sampleBrokerFields() {
    return SqlBrokerFields{42, 1700000000000, 1700000060000, 1, 128};
}

} // namespace hourglass::fuzz
