// A transfer's bytes as the endpoint reads a sent message (MessageCodec decodeMessage), then the
// message as a receiver would get it back (encodeMessage reads what WireExtras kept of it: the
// sender's annotations, a value or sequence body, the footer, byte for byte). The same bytes as
// the remote client reads a delivered or peeked message (decodeReceivedMessage: the service's
// annotations too), and what it read sent on again (encodeOutgoingMessage).

#include "FuzzInput.h"
#include "hourglass/amqpcodec/MessageCodec.h"

using namespace hourglass;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = fuzz::bytesOf(data, size);
    amqp::isBatchEnvelope(bytes);
    for (const auto handover : {amqp::Handover::Delivery, amqp::Handover::Peek}) {
        const auto received = amqp::decodeReceivedMessage(bytes, handover);
        if (!received)
            continue;
        OutgoingMessage again;
        again.messageId = received->messageId;
        again.sessionId = received->sessionId;
        again.applicationProperties = received->applicationProperties;
        again.body = received->body;
        again.wireExtras = received->wireExtras;
        amqp::encodeOutgoingMessage(again);
    }
    const auto decoded = amqp::decodeMessage(bytes);
    if (!decoded)
        return 0;
    MessageView view;
    view.entityPath = QStringLiteral("queue");
    view.sequenceNumber = 1;
    view.messageId = decoded->messageId;
    view.correlationId = decoded->correlationId;
    view.sessionId = decoded->sessionId;
    view.replyTo = decoded->replyTo;
    view.to = decoded->to;
    view.subject = decoded->subject;
    view.contentType = decoded->contentType;
    view.timeToLive = decoded->timeToLive;
    view.applicationProperties = decoded->applicationProperties;
    view.body = decoded->body;
    view.wireExtras = decoded->wireExtras;
    view.hasBody = true;
    amqp::encodeMessage(view, amqp::Handover::Delivery);
    amqp::encodeMessage(view, amqp::Handover::Peek);
    return 0;
}
