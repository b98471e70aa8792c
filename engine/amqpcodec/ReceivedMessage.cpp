// The remote client's reading of a message the service handed over (MessageCodec.h): what the
// sender set comes from decodeMessage, the rest from the header and the broker's annotations.

#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"

#include <proton/message.h>

#include <memory>

namespace hourglass::amqp {

namespace {
struct MessageFree {
    void operator()(pn_message_t* message) const { pn_message_free(message); }
};
using MessagePtr = std::unique_ptr<pn_message_t, MessageFree>;

// The broker's annotations into `view`; other keys and values of other types are left alone.
void readBrokerAnnotations(const QVariantMap& annotations, MessageView& view) {
    const auto instant = [&](const char* key) -> Instant {
        const QVariant value = annotations.value(QLatin1String(key));
        return value.metaType().id() == QMetaType::QDateTime
                   ? value.toDateTime().toMSecsSinceEpoch()
                   : 0;
    };
    view.sequenceNumber = annotations.value(QStringLiteral("x-opt-sequence-number")).toLongLong();
    view.enqueuedTime = instant("x-opt-enqueued-time");
    view.lockedUntil = instant("x-opt-locked-until");
    view.locked = view.lockedUntil > 0;
    view.scheduledEnqueueTime = instant("x-opt-scheduled-enqueue-time");
    const int state = annotations.value(QStringLiteral("x-opt-message-state")).toInt();
    if (state == int(MessageState::Deferred) || state == int(MessageState::Scheduled))
        view.state = MessageState(state);
    view.deadLetterSource = annotations.value(QStringLiteral("x-opt-deadletter-source")).toString();
}
} // namespace

Result<MessageView> decodeReceivedMessage(const QByteArray& encoded, Handover handover) {
    // The shape, the nesting and the sender's part are checked here first.
    auto sent = decodeMessage(encoded);
    if (!sent)
        return sent.error();
    MessagePtr message(pn_message());
    if (pn_message_decode(message.get(), encoded.constData(), size_t(encoded.size())) != 0)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The message could not be decoded as AMQP 1.0."));
    MessageView view;
    view.systemProperties() = sent->systemProperties();
    view.applicationProperties = sent->applicationProperties;
    view.body = sent->body;
    view.wireExtras = sent->wireExtras;
    view.hasBody = true;
    view.sizeInBytes = encoded.size();
    const QVariant annotations = readSingleAmqpValue(pn_message_annotations(message.get()));
    readBrokerAnnotations(annotations.toMap(), view);
    // The header counts the deliveries that failed before this one.
    const quint32 earlier = pn_message_get_delivery_count(message.get());
    view.deliveryCount = handover == Handover::Delivery ? earlier + 1 : earlier;
    const pn_timestamp_t expiry = pn_message_get_expiry_time(message.get());
    view.expiresAt = expiry > 0 ? Instant(expiry) : kNever;
    if (view.timeToLive)
        view.effectiveTimeToLive = *view.timeToLive;
    else if (view.expiresAt != kNever && view.enqueuedTime > 0)
        view.effectiveTimeToLive = Millis(view.expiresAt - view.enqueuedTime);
    view.deadLetterReason =
        view.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString();
    view.deadLetterErrorDescription =
        view.applicationProperties.value(QStringLiteral("DeadLetterErrorDescription")).toString();
    return view;
}

} // namespace hourglass::amqp
