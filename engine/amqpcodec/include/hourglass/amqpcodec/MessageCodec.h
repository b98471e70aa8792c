#pragma once
// Service Bus messages <-> AMQP 1.0 messages, as the SDKs write and read them (amqp-endpoint.md):
// properties (message-id, to, subject, reply-to, correlation-id, content-type, group-id as
// SessionId, reply-to-group-id), the header's ttl and delivery-count, the x-opt-* message
// annotations, application properties with their AMQP types, and the body; what Service Bus has
// no property for travels in the message's wireExtras (WireExtras.h), so it comes back as sent.

#include "hourglass/Message.h"
#include "hourglass/Status.h"

#include <QByteArray>
#include <QList>
#include <QUuid>

namespace hourglass::amqp {

// The message-format of a batch: one transfer whose body is one data section per encoded
// message. Proton 0.37's C API does not expose a received transfer's message-format, so a batch
// is told by its content instead (isBatchEnvelope).
inline constexpr quint32 kBatchMessageFormat = 0x80013700;

// One encoded AMQP message as a sender's message. InvalidArgument for bytes that are not an AMQP
// message, an application property of a type Service Bus cannot carry (a list, a map), several
// data sections, or data mixed with amqp-value or amqp-sequence sections.
Result<OutgoingMessage> decodeMessage(const QByteArray& encoded);

// Whether a transfer is a batch envelope: its body is two or more data sections (no SDK sends a
// plain message so), or one data section that itself holds an encoded AMQP message (it starts
// with a section descriptor, 0x00 0x53 0x70-0x78). A plain message whose body happens to be an
// encoded AMQP message would be taken for a batch of one.
bool isBatchEnvelope(const QByteArray& transfer);

// The inner messages of a batch envelope: the payload of each data section, in order.
// InvalidArgument when the bytes are not a sequence of AMQP sections or hold no data section.
Result<QList<QByteArray>> splitBatch(const QByteArray& encoded);

// How a message is being handed over: a stored one to a receiver (its delivery counts, the
// header says how many failed before) or in a peek (nothing is delivered); a sender's to the
// service (the remote client's direction: no broker annotations but its schedule).
enum class Handover { Delivery, Peek, Send };

// A stored message, encoded for a receiver or a peek response. The lock, when it has one, is in
// x-opt-locked-until.
QByteArray encodeMessage(const MessageView& message, Handover handover);

// A message locked through $management (receive-by-sequence-number), encoded for the response
// with its lock token also in the delivery annotations, x-opt-lock-token, as the service writes
// it: the Python SDK on uAMQP reads a deferred message's lock only from there (the JavaScript
// and .NET SDKs read the response's lock-token).
QByteArray encodeLockedMessage(const MessageView& message, const QUuid& lockToken);

// The remote client's direction.

// A sender's message as the SDKs send it: its properties, application properties, body and
// wire extras (which decodeMessage reads back), and its scheduled enqueue time, when it has one,
// as x-opt-scheduled-enqueue-time.
QByteArray encodeOutgoingMessage(const OutgoingMessage& message);

// A message as a receiver (Handover::Delivery) or a peek (Handover::Peek) got it from the
// service: what decodeMessage reads, and the broker's annotations (sequence number, enqueued
// time, lock, state, schedule, dead-letter source), the delivery count (a delivery counts itself)
// and the dead-letter reason and description from the application properties. The entity,
// sub-queue and lock token are not in the message: the caller knows them. InvalidArgument as for
// decodeMessage.
Result<MessageView> decodeReceivedMessage(const QByteArray& encoded, Handover handover);

} // namespace hourglass::amqp
