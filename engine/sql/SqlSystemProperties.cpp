#include "SqlSystemProperties.h"

#include "hourglass/PropertyTypes.h"

#include <QDateTime>

namespace hourglass {

namespace {

QVariant text(const QString& value) {
    return value.isEmpty() ? QVariant() : QVariant(value);
}

QVariant instant(std::optional<Instant> value) {
    return value ? QVariant(QDateTime::fromMSecsSinceEpoch(*value, Qt::UTC)) : QVariant();
}

bool isNull(const QVariant& value) {
    return propertyTypeOf(value) == PropertyType::Null;
}

// Sets a string system property; NULL unsets it (the empty string of OutgoingMessage).
std::optional<QString> writeText(QString& field, const QVariant& value) {
    if (isNull(value)) {
        field.clear();
        return std::nullopt;
    }
    if (propertyTypeOf(value) != PropertyType::String)
        return QStringLiteral("takes a String, not %1").arg(propertyTypeNameOf(value));
    field = value.toString();
    return std::nullopt;
}

#define HG_SQL_TEXT(Name, field)                                                                   \
    {                                                                                              \
        Name, [](const OutgoingMessage& m, const SqlBrokerFields&) { return text(m.field); },      \
            [](OutgoingMessage& m, const QVariant& v) { return writeText(m.field, v); }            \
    }

#define HG_SQL_UNSET(Name)                                                                         \
    {                                                                                              \
        Name, [](const OutgoingMessage&, const SqlBrokerFields&) { return QVariant(); }, nullptr   \
    }

std::optional<QString> writeTimeToLive(OutgoingMessage& m, const QVariant& v) {
    if (isNull(v)) {
        m.timeToLive.reset();
        return std::nullopt;
    }
    const auto type = propertyTypeOf(v);
    if (type != PropertyType::Int32 && type != PropertyType::Int64)
        return QStringLiteral("takes an integer number of milliseconds, not %1")
            .arg(propertyTypeNameOf(v));
    if (v.toLongLong() <= 0)
        return QStringLiteral("must be positive");
    m.timeToLive = v.toLongLong();
    return std::nullopt;
}

std::optional<QString> writeScheduled(OutgoingMessage& m, const QVariant& v) {
    if (isNull(v)) {
        m.scheduledEnqueueTime.reset();
        return std::nullopt;
    }
    if (propertyTypeOf(v) != PropertyType::DateTime)
        return QStringLiteral("takes a DateTime, not %1").arg(propertyTypeNameOf(v));
    m.scheduledEnqueueTime = v.toDateTime().toMSecsSinceEpoch();
    return std::nullopt;
}

const SqlSystemProperty kProperties[] = {
    HG_SQL_TEXT("MessageId", messageId),
    HG_SQL_TEXT("CorrelationId", correlationId),
    HG_SQL_TEXT("To", to),
    HG_SQL_TEXT("ReplyTo", replyTo),
    HG_SQL_TEXT("Label", subject),
    HG_SQL_TEXT("Subject", subject),
    HG_SQL_TEXT("SessionId", sessionId),
    HG_SQL_TEXT("ReplyToSessionId", replyToSessionId),
    HG_SQL_TEXT("ContentType", contentType),
    {"TimeToLive",
     [](const OutgoingMessage& m, const SqlBrokerFields&) {
         return m.timeToLive ? QVariant(qlonglong(*m.timeToLive)) : QVariant();
     },
     writeTimeToLive},
    {"ScheduledEnqueueTimeUtc",
     [](const OutgoingMessage& m, const SqlBrokerFields&) {
         return instant(m.scheduledEnqueueTime);
     },
     writeScheduled},
    {"SequenceNumber",
     [](const OutgoingMessage&, const SqlBrokerFields& b) {
         return b.sequenceNumber ? QVariant(qlonglong(*b.sequenceNumber)) : QVariant();
     },
     nullptr},
    {"EnqueuedSequenceNumber",
     [](const OutgoingMessage&, const SqlBrokerFields& b) {
         return b.sequenceNumber ? QVariant(qlonglong(*b.sequenceNumber)) : QVariant();
     },
     nullptr},
    {"EnqueuedTimeUtc",
     [](const OutgoingMessage&, const SqlBrokerFields& b) { return instant(b.enqueuedTime); },
     nullptr},
    {"ExpiresAtUtc",
     [](const OutgoingMessage&, const SqlBrokerFields& b) { return instant(b.expiresAt); },
     nullptr},
    {"DeliveryCount",
     [](const OutgoingMessage&, const SqlBrokerFields& b) {
         return b.deliveryCount ? QVariant(int(*b.deliveryCount)) : QVariant();
     },
     nullptr},
    {"Size",
     [](const OutgoingMessage&, const SqlBrokerFields& b) {
         return b.size ? QVariant(qlonglong(*b.size)) : QVariant();
     },
     nullptr},
    // Known to Service Bus but not carried here (no partitions, no locks at send time).
    HG_SQL_UNSET("PartitionKey"),
    HG_SQL_UNSET("ViaPartitionKey"),
    HG_SQL_UNSET("LockToken"),
    HG_SQL_UNSET("LockedUntilUtc"),
    HG_SQL_UNSET("DeadLetterSource"),
};

#undef HG_SQL_TEXT
#undef HG_SQL_UNSET

} // namespace

const SqlSystemProperty* findSqlSystemProperty(QStringView name) {
    for (const auto& property : kProperties) {
        if (name.compare(QLatin1String(property.name), Qt::CaseInsensitive) == 0)
            return &property;
    }
    return nullptr;
}

} // namespace hourglass
