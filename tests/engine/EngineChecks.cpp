#include "EngineChecks.h"

#include <QStringList>

namespace hourglass::testing {

namespace {
QString millis(Millis value) {
    return value == kInfinite ? QStringLiteral("infinite") : QString::number(value);
}

QString instant(Instant value) {
    return value == kNever ? QStringLiteral("never") : QString::number(value);
}

QString variantMap(const QVariantMap& map) {
    QStringList parts;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        parts << QStringLiteral("%1=%2(%3)")
                     .arg(it.key(), it.value().toString(), QLatin1String(it.value().typeName()));
    return QLatin1Char('{') + parts.join(QLatin1Char(',')) + QLatin1Char('}');
}
} // namespace

bool errorMatches(const Error& error, ErrorCode expected, QString* why) {
    QStringList problems;
    if (error.code != expected)
        problems << QStringLiteral("code %1, expected %2")
                        .arg(errorCodeName(error.code), errorCodeName(expected));
    if (error.description.trimmed().isEmpty())
        problems << QStringLiteral("empty description");
    if (error.trackingId.trimmed().isEmpty())
        problems << QStringLiteral("empty tracking id");
    // L1: only a full namespace or a busy engine can succeed on retry.
    const bool retryable = error.code == ErrorCode::QuotaExceeded ||
                           error.code == ErrorCode::ServiceBusy ||
                           error.code == ErrorCode::ServiceTimeout;
    if (error.retryable != retryable)
        problems << QStringLiteral("retryable=%1 for %2")
                        .arg(error.retryable ? QStringLiteral("true") : QStringLiteral("false"),
                             errorCodeName(error.code));
    if (problems.isEmpty())
        return true;
    if (why)
        *why = problems.join(QStringLiteral("; ")) + QStringLiteral(" [") + error.toString() +
               QLatin1Char(']');
    return false;
}

ReceiveOptions peekLock(const QString& receiver, int maxCount) {
    ReceiveOptions options;
    options.mode = ReceiveMode::PeekLock;
    options.maxCount = maxCount;
    options.receiver = receiver;
    return options;
}

ReceiveOptions receiveAndDelete(int maxCount) {
    ReceiveOptions options;
    options.mode = ReceiveMode::ReceiveAndDelete;
    options.maxCount = maxCount;
    return options;
}

OutgoingMessage messageWithTtl(const QString& messageId, std::optional<Millis> timeToLive) {
    OutgoingMessage message;
    message.messageId = messageId;
    message.body = messageId.toUtf8();
    message.timeToLive = timeToLive;
    return message;
}

QString describe(const MessageView& m) {
    QStringList parts;
    parts << QStringLiteral("entity=%1").arg(m.entityPath)
          << QStringLiteral("subQueue=%1").arg(static_cast<int>(m.subQueue))
          << QStringLiteral("seq=%1").arg(m.sequenceNumber)
          << QStringLiteral("state=%1").arg(static_cast<int>(m.state))
          << QStringLiteral("id=%1").arg(m.messageId)
          << QStringLiteral("corr=%1").arg(m.correlationId)
          << QStringLiteral("session=%1").arg(m.sessionId)
          << QStringLiteral("replyTo=%1").arg(m.replyTo)
          << QStringLiteral("replyToSession=%1").arg(m.replyToSessionId)
          << QStringLiteral("to=%1").arg(m.to) << QStringLiteral("subject=%1").arg(m.subject)
          << QStringLiteral("contentType=%1").arg(m.contentType)
          << QStringLiteral("ttl=%1").arg(m.timeToLive ? millis(*m.timeToLive)
                                                       : QStringLiteral("unset"))
          << QStringLiteral("effectiveTtl=%1").arg(millis(m.effectiveTimeToLive))
          << QStringLiteral("scheduled=%1").arg(m.scheduledEnqueueTime)
          << QStringLiteral("enqueued=%1").arg(m.enqueuedTime)
          << QStringLiteral("expires=%1").arg(instant(m.expiresAt))
          << QStringLiteral("derived=%1").arg(m.expiryDerived)
          << QStringLiteral("expired=%1").arg(m.expired)
          << QStringLiteral("deliveries=%1").arg(m.deliveryCount)
          << QStringLiteral("locked=%1").arg(m.locked)
          << QStringLiteral("holder=%1").arg(m.lockHolder)
          << QStringLiteral("lockedUntil=%1").arg(m.lockedUntil)
          << QStringLiteral("dlReason=%1").arg(m.deadLetterReason)
          << QStringLiteral("dlDescription=%1").arg(m.deadLetterErrorDescription)
          << QStringLiteral("dlSource=%1").arg(m.deadLetterSource)
          << QStringLiteral("props=%1").arg(variantMap(m.applicationProperties))
          << QStringLiteral("size=%1").arg(m.sizeInBytes)
          << QStringLiteral("hasBody=%1").arg(m.hasBody)
          << QStringLiteral("body=%1").arg(QString::fromLatin1(m.body.toHex()));
    return parts.join(QLatin1Char(' '));
}

QString describe(const EntityProperties& p) {
    QStringList parts;
    parts << QStringLiteral("ttl=%1").arg(millis(p.defaultMessageTimeToLive))
          << QStringLiteral("lock=%1").arg(p.lockDuration)
          << QStringLiteral("maxDelivery=%1").arg(p.maxDeliveryCount)
          << QStringLiteral("dlOnExpiry=%1").arg(p.deadLetteringOnMessageExpiration)
          << QStringLiteral("autoDelete=%1").arg(millis(p.autoDeleteOnIdle))
          << QStringLiteral("forwardTo=%1").arg(p.forwardTo)
          << QStringLiteral("forwardDl=%1").arg(p.forwardDeadLetteredMessagesTo)
          << QStringLiteral("dupDetection=%1").arg(p.requiresDuplicateDetection)
          << QStringLiteral("dupWindow=%1").arg(p.duplicateDetectionHistoryTimeWindow)
          << QStringLiteral("maxMb=%1").arg(p.maxSizeInMegabytes)
          << QStringLiteral("maxKb=%1").arg(p.maxMessageSizeInKilobytes)
          << QStringLiteral("status=%1").arg(static_cast<int>(p.status))
          << QStringLiteral("session=%1").arg(p.requiresSession);
    return parts.join(QLatin1Char(' '));
}

QString describe(const Rule& rule) {
    const CorrelationFilter& c = rule.correlation;
    return QStringLiteral("rule %1 type=%2 sql=%3 corr=[%4|%5|%6|%7|%8|%9|%10|%11|%12]")
        .arg(rule.name)
        .arg(static_cast<int>(rule.filterType))
        .arg(rule.sqlExpression, c.correlationId, c.messageId, c.to, c.replyTo, c.subject,
             c.sessionId, c.replyToSessionId, c.contentType)
        .arg(variantMap(c.properties));
}

QString describe(const EntityCounts& c) {
    return QStringLiteral("active=%1 scheduled=%2 deferred=%3 locked=%4 deadLettered=%5 size=%6")
        .arg(c.active)
        .arg(c.scheduled)
        .arg(c.deferred)
        .arg(c.locked)
        .arg(c.deadLettered)
        .arg(c.sizeInBytes);
}

QStringList messageIds(const QList<MessageView>& messages) {
    QStringList ids;
    for (const MessageView& m : messages)
        ids << m.messageId;
    return ids;
}

} // namespace hourglass::testing
