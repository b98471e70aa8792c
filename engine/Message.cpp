#include "hourglass/Message.h"

namespace hourglass {

QString messageStateName(MessageState state) {
    switch (state) {
    case MessageState::Active:
        return QStringLiteral("Active");
    case MessageState::Deferred:
        return QStringLiteral("Deferred");
    case MessageState::Scheduled:
        return QStringLiteral("Scheduled");
    }
    return QStringLiteral("Active");
}

OutgoingMessage MessageView::asSent() const {
    OutgoingMessage message;
    message.systemProperties() = systemProperties();
    message.body = body;
    message.applicationProperties = applicationProperties;
    message.wireExtras = wireExtras;
    return message;
}

OutgoingMessage transferCopy(OutgoingMessage message, std::optional<Instant> scheduledAt) {
    // Why the message was dead-lettered belongs to its stay in the dead-letter queue, not to the
    // copy (L7): a resubmitted message that fails again gets its own reason.
    message.applicationProperties.remove(QStringLiteral("DeadLetterReason"));
    message.applicationProperties.remove(QStringLiteral("DeadLetterErrorDescription"));
    message.scheduledEnqueueTime = scheduledAt;
    return message;
}

QString camelCaseName(const SystemTextProperty& property) {
    QString name = property.name.toString();
    name[0] = name[0].toLower();
    return name;
}

} // namespace hourglass
