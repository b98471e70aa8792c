#pragma once
// The messages the SQL filter and action tests run against: one fixed set of system properties
// and a default set of typed application properties (PropertyTypes.h), so each table row names
// only its expression and what it expects.

#include "hourglass/Message.h"
#include "sql/SqlSystemProperties.h"

#include <QDateTime>
#include <QUuid>
#include <QVariantMap>

namespace hourglass::sqltest {

inline QDateTime when() {
    return QDateTime(QDate(2026, 1, 31), QTime(12, 0), Qt::UTC);
}

inline QUuid fixedId() {
    return QUuid(QStringLiteral("{6f9619ff-8b86-d011-b42d-00cf4fc964ff}"));
}

// Typed application properties of the default message.
inline QVariantMap defaultProperties() {
    return {
        {QStringLiteral("color"), QStringLiteral("red")},
        {QStringLiteral("quantity"), QVariant(int(12))},
        {QStringLiteral("price"), QVariant(9.5)},
        {QStringLiteral("big"), QVariant(qlonglong(5000000000))},
        {QStringLiteral("flag"), QVariant(true)},
        {QStringLiteral("when"), QVariant(when())},
        {QStringLiteral("id"), QVariant(fixedId())},
        {QStringLiteral("name"), QStringLiteral("O'Brien")},
        {QStringLiteral("pct"), QStringLiteral("50%")},
        {QStringLiteral("under"), QStringLiteral("a_b")},
        {QStringLiteral("empty"), QString()},
        {QStringLiteral("nothing"), QVariant::fromValue(nullptr)},
    };
}

inline OutgoingMessage message(const QVariantMap& properties) {
    OutgoingMessage m;
    m.messageId = QStringLiteral("order-1");
    m.correlationId = QStringLiteral("corr-7");
    m.subject = QStringLiteral("Store1");
    m.to = QStringLiteral("shipping");
    m.replyTo = QStringLiteral("replies");
    m.contentType = QStringLiteral("application/json");
    m.timeToLive = 60000;
    m.applicationProperties = properties;
    return m;
}

inline SqlBrokerFields brokerFields() {
    SqlBrokerFields fields;
    fields.sequenceNumber = 42;
    fields.enqueuedTime = when().toMSecsSinceEpoch();
    fields.deliveryCount = 1;
    fields.size = 256;
    return fields;
}

} // namespace hourglass::sqltest
