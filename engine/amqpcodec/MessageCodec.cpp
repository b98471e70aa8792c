#include "hourglass/amqpcodec/MessageCodec.h"

#include "hourglass/PropertyTypes.h"
#include "hourglass/amqpcodec/AmqpNesting.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireExtras.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QUuid>

#include <proton/message.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace hourglass::amqp {

namespace {
struct MessageFree {
    void operator()(pn_message_t* message) const { pn_message_free(message); }
};
using MessagePtr = std::unique_ptr<pn_message_t, MessageFree>;

struct DataFree {
    void operator()(pn_data_t* data) const { pn_data_free(data); }
};
using DataPtr = std::unique_ptr<pn_data_t, DataFree>;

QString text(const char* value) {
    return value ? QString::fromUtf8(value) : QString();
}

// Message ids may be strings, uuids, ulongs or binary; Service Bus shows them all as text.
QString idText(pn_msgid_t id) {
    switch (id.type) {
    case PN_STRING:
    case PN_SYMBOL:
        return QString::fromUtf8(id.u.as_bytes.start, qsizetype(id.u.as_bytes.size));
    case PN_UUID:
        return QUuid::fromRfc4122(QByteArray(id.u.as_uuid.bytes, 16))
            .toString(QUuid::WithoutBraces);
    case PN_ULONG:
        return QString::number(id.u.as_ulong);
    case PN_BINARY:
        return QString::fromLatin1(
            QByteArray(id.u.as_bytes.start, qsizetype(id.u.as_bytes.size)).toHex());
    default:
        return {};
    }
}

Error invalid(const QString& description) {
    return Error::make(ErrorCode::InvalidArgument, description);
}

void putSymbolKey(pn_data_t* data, const char* key) {
    pn_data_put_symbol(data, pn_bytes(strlen(key), key));
}

void setText(int (*setter)(pn_message_t*, const char*), pn_message_t* message,
             const QString& value) {
    if (!value.isEmpty())
        setter(message, value.toUtf8().constData());
}

void setStringId(pn_data_t* data, const QString& id) {
    if (id.isEmpty())
        return;
    const QByteArray utf8 = id.toUtf8();
    pn_data_clear(data);
    pn_data_put_string(data, pn_bytes(size_t(utf8.size()), utf8.constData()));
}
} // namespace

namespace {
struct Section {
    quint64 descriptor = 0;
    QByteArray data;       // a data section's payload
    QByteArray raw;        // the whole section as received
    qsizetype valueAt = 0; // where the section's value starts in `raw` (after the descriptor)
};

constexpr quint64 kHeaderSection = 0x70;
constexpr quint64 kAnnotationsSection = 0x72;
constexpr quint64 kDataSection = 0x75;
constexpr quint64 kSequenceSection = 0x76;
constexpr quint64 kValueSection = 0x77;
constexpr quint64 kFooterSection = 0x78;

// Message annotations the broker writes itself: a sender's are not kept (the scheduled time is
// kept as the message's own field and written back from it).
bool isBrokerAnnotation(const QByteArray& key) {
    static const QByteArray owned[] = {
        "x-opt-sequence-number",
        "x-opt-enqueued-time",
        "x-opt-locked-until",
        "x-opt-message-state",
        "x-opt-scheduled-enqueue-time",
        "x-opt-deadletter-source",
        "x-opt-enqueue-sequence-number",
        "x-opt-lock-token",
    };
    for (const QByteArray& name : owned) {
        if (key == name)
            return true;
    }
    return false;
}

// The encoded items of a message-annotations section that the sender owns; empty when none.
QList<QByteArray> senderAnnotationItems(const QByteArray& section, qsizetype valueAt) {
    QList<QByteArray> kept;
    const auto items = encodedMapItems(section.mid(valueAt));
    if (!items)
        return kept;
    for (qsizetype i = 0; i + 1 < items->size(); i += 2) {
        if (!isBrokerAnnotation(encodedKeyText(items->at(i))))
            kept << items->at(i) << items->at(i + 1);
    }
    return kept;
}

// Every top-level section of an encoded message; nullopt when the bytes are not a sequence of
// described values.
std::optional<QList<Section>> scanSections(const QByteArray& encoded) {
    // Proton's decoder recurses per level: nothing deeper than the limit reaches it.
    if (checkNesting(encoded) != Nesting::Within)
        return std::nullopt;
    QList<Section> sections;
    DataPtr value(pn_data(4));
    const char* at = encoded.constData();
    size_t left = size_t(encoded.size());
    while (left > 0) {
        pn_data_clear(value.get());
        const ssize_t used = pn_data_decode(value.get(), at, left);
        if (used <= 0)
            return std::nullopt;
        Section section;
        section.raw = QByteArray(at, qsizetype(used));
        // The descriptor follows the 0x00 constructor; the value follows the descriptor.
        DataPtr descriptor(pn_data(1));
        const ssize_t descriptorSize =
            used > 1 ? pn_data_decode(descriptor.get(), at + 1, left - 1) : 0;
        section.valueAt = descriptorSize > 0 ? 1 + qsizetype(descriptorSize) : 0;
        at += used;
        left -= size_t(used);
        pn_data_rewind(value.get());
        if (!pn_data_next(value.get()) || pn_data_type(value.get()) != PN_DESCRIBED)
            return std::nullopt;
        pn_data_enter(value.get());
        pn_data_next(value.get());
        if (pn_data_type(value.get()) == PN_ULONG)
            section.descriptor = pn_data_get_ulong(value.get());
        pn_data_next(value.get());
        if (section.descriptor == kDataSection && pn_data_type(value.get()) == PN_BINARY) {
            const pn_bytes_t bytes = pn_data_get_binary(value.get());
            section.data = QByteArray(bytes.start, qsizetype(bytes.size));
        }
        pn_data_exit(value.get());
        sections.append(std::move(section));
    }
    return sections;
}

bool startsWithSectionDescriptor(const QByteArray& bytes) {
    return bytes.size() >= 3 && bytes[0] == '\0' && bytes[1] == '\x53' && uchar(bytes[2]) >= 0x70 &&
           uchar(bytes[2]) <= 0x78;
}
} // namespace

namespace {
// The encoded form of an id that is not a string (a string id is the message's own field).
QByteArray typedId(pn_message_t* message, pn_data_t* (*idOf)(pn_message_t*)) {
    pn_data_t* id = idOf(message);
    pn_data_rewind(id);
    if (!pn_data_next(id) || pn_data_type(id) == PN_STRING || pn_data_type(id) == PN_NULL)
        return {};
    QByteArray buffer(512, Qt::Uninitialized);
    const ssize_t size = pn_data_encode(id, buffer.data(), size_t(buffer.size()));
    return size > 0 ? buffer.left(qsizetype(size)) : QByteArray();
}

// The header fields a sender set that differ from what the broker writes anyway (durable true,
// priority 4). Proton's message API reads an absent field as its default, so the list is read
// here: a field left null by the sender is not kept.
void readHeaderExtras(const QByteArray& section, WireExtras& extras) {
    DataPtr data(pn_data(8));
    pn_data_t* d = data.get();
    if (pn_data_decode(d, section.constData(), size_t(section.size())) <= 0)
        return;
    pn_data_rewind(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_DESCRIBED)
        return;
    pn_data_enter(d);
    pn_data_next(d);
    if (!pn_data_next(d) || pn_data_type(d) != PN_LIST)
        return;
    pn_data_enter(d);
    if (pn_data_next(d) && pn_data_type(d) == PN_BOOL && !pn_data_get_bool(d))
        extras.durable = false;
    if (pn_data_next(d) && pn_data_type(d) == PN_UBYTE &&
        pn_data_get_ubyte(d) != PN_DEFAULT_PRIORITY)
        extras.priority = pn_data_get_ubyte(d);
}

// What the window shows of an amqp-value or amqp-sequence body: a string's text, a binary's
// bytes, anything else as JSON. The wire gets the sections themselves (WireExtras).
QByteArray readableBody(pn_data_t* body, bool isSequence) {
    pn_data_rewind(body);
    QVariantList values;
    while (pn_data_next(body))
        values.append(readAmqpValue(body));
    // Proton reads an amqp-sequence body as one list.
    if (isSequence && values.size() == 1 && values.first().typeId() == QMetaType::QVariantList)
        values = values.first().toList();
    if (!isSequence && values.size() == 1) {
        const QVariant& value = values.first();
        if (value.typeId() == QMetaType::QString)
            return value.toString().toUtf8();
        if (value.typeId() == QMetaType::QByteArray)
            return value.toByteArray();
        const QJsonValue json = QJsonValue::fromVariant(value);
        if (json.isObject())
            return QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact);
        if (json.isArray())
            return QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact);
        return QJsonDocument(QJsonArray{json}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    }
    return QJsonDocument(QJsonArray::fromVariantList(values)).toJson(QJsonDocument::Compact);
}
} // namespace

Result<OutgoingMessage> decodeMessage(const QByteArray& encoded) {
    if (checkNesting(encoded) == Nesting::TooDeep)
        return invalid(tooDeepDescription());
    // Proton's decoder accepts some garbage silently: check the shape first, a sequence of
    // message sections (descriptors 0x70 header to 0x78 footer).
    const auto sections = scanSections(encoded);
    if (!sections || sections->isEmpty())
        return invalid(QStringLiteral("The message could not be decoded as AMQP 1.0."));
    int dataSections = 0;
    WireExtras extras;
    const Section* header = nullptr;
    bool isSequence = false;
    for (const Section& section : *sections) {
        if (section.descriptor < 0x70 || section.descriptor > 0x78)
            return invalid(QStringLiteral("The message holds a section AMQP 1.0 does not know."));
        dataSections += section.descriptor == kDataSection ? 1 : 0;
        if (section.descriptor == kHeaderSection)
            header = &section;
        if (section.descriptor == kValueSection || section.descriptor == kSequenceSection) {
            extras.bodySections += section.raw;
            isSequence = section.descriptor == kSequenceSection;
        } else if (section.descriptor == kFooterSection) {
            extras.footer = section.raw;
        } else if (section.descriptor == kAnnotationsSection) {
            const QList<QByteArray> items = senderAnnotationItems(section.raw, section.valueAt);
            if (!items.isEmpty())
                extras.annotations = encodeMapOfItems(items);
        }
    }
    // Proton keeps only the last of several data sections; refuse rather than lose the others.
    if (dataSections > 1)
        return invalid(QStringLiteral("A message with several data sections is not stored."));
    if (dataSections > 0 && !extras.bodySections.isEmpty())
        return invalid(QStringLiteral("A message body is data, value or sequence sections, not "
                                      "a mix of them."));
    // Proton's pn_message_decode asserts on an empty buffer (it aborts the process).
    if (encoded.isEmpty())
        return invalid(QStringLiteral("The message could not be decoded as AMQP 1.0."));
    MessagePtr message(pn_message());
    if (pn_message_decode(message.get(), encoded.constData(), size_t(encoded.size())) != 0)
        return invalid(QStringLiteral("The message could not be decoded as AMQP 1.0."));
    OutgoingMessage out;
    out.messageId = idText(pn_message_get_id(message.get()));
    out.correlationId = idText(pn_message_get_correlation_id(message.get()));
    out.to = text(pn_message_get_address(message.get()));
    out.subject = text(pn_message_get_subject(message.get()));
    out.replyTo = text(pn_message_get_reply_to(message.get()));
    out.contentType = text(pn_message_get_content_type(message.get()));
    out.sessionId = text(pn_message_get_group_id(message.get()));
    out.replyToSessionId = text(pn_message_get_reply_to_group_id(message.get()));
    if (const pn_millis_t ttl = pn_message_get_ttl(message.get()); ttl > 0)
        out.timeToLive = Millis(ttl);

    if (header)
        readHeaderExtras(header->raw, extras);
    const pn_bytes_t userId = pn_message_get_user_id(message.get());
    extras.userId = QByteArray(userId.start, qsizetype(userId.size));
    extras.contentEncoding = QByteArray(pn_message_get_content_encoding(message.get()));
    if (const pn_sequence_t group = pn_message_get_group_sequence(message.get()); group != 0)
        extras.groupSequence = quint32(group);
    extras.typedMessageId = typedId(message.get(), pn_message_id);
    extras.typedCorrelationId = typedId(message.get(), pn_message_correlation_id);

    const QVariantMap annotations =
        readSingleAmqpValue(pn_message_annotations(message.get())).toMap();
    const QVariant scheduled = annotations.value(QStringLiteral("x-opt-scheduled-enqueue-time"));
    if (scheduled.typeId() == QMetaType::QDateTime)
        out.scheduledEnqueueTime = scheduled.toDateTime().toMSecsSinceEpoch();

    const QVariant properties = readSingleAmqpValue(pn_message_properties(message.get()));
    if (properties.isValid() && properties.typeId() != QMetaType::Nullptr) {
        if (properties.typeId() != QMetaType::QVariantMap)
            return invalid(QStringLiteral("The application properties are not a map."));
        const QVariantMap map = properties.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            if (!propertyTypeOf(it.value()))
                return invalid(QStringLiteral("The application property '%1' has a type that "
                                              "Service Bus cannot carry.")
                                   .arg(quoted(it.key())));
        }
        out.applicationProperties = map;
    }

    pn_data_t* body = pn_message_body(message.get());
    if (!extras.bodySections.isEmpty()) {
        out.body = readableBody(body, isSequence);
    } else {
        pn_data_rewind(body);
        if (pn_data_next(body) && pn_data_type(body) == PN_BINARY) {
            const pn_bytes_t bytes = pn_data_get_binary(body);
            out.body = QByteArray(bytes.start, qsizetype(bytes.size));
        }
    }
    out.wireExtras = encodeWireExtras(extras);
    return out;
}

bool isBatchEnvelope(const QByteArray& transfer) {
    const auto sections = scanSections(transfer);
    if (!sections)
        return false;
    QList<const Section*> data;
    for (const Section& section : *sections) {
        if (section.descriptor == kDataSection)
            data.append(&section);
    }
    return data.size() >= 2 || (data.size() == 1 && startsWithSectionDescriptor(data[0]->data));
}

Result<QList<QByteArray>> splitBatch(const QByteArray& encoded) {
    if (checkNesting(encoded) == Nesting::TooDeep)
        return invalid(tooDeepDescription());
    const auto sections = scanSections(encoded);
    if (!sections)
        return invalid(QStringLiteral("The batch is not a sequence of AMQP sections."));
    QList<QByteArray> messages;
    for (const Section& section : *sections) {
        if (section.descriptor == kDataSection)
            messages.append(section.data);
    }
    if (messages.isEmpty())
        return invalid(QStringLiteral("The batch holds no message."));
    return messages;
}

namespace {
// The header section, every field written: durable, priority 4, ttl (null when the message has
// none of its own), first-acquirer, delivery-count. The count is of earlier failed deliveries;
// a delivery in progress is not one of them.
QByteArray encodeHeader(const MessageView& view, const WireExtras& extras, Handover handover) {
    DataPtr header(pn_data(8));
    pn_data_t* d = header.get();
    pn_data_put_described(d);
    pn_data_enter(d);
    pn_data_put_ulong(d, 0x70);
    pn_data_put_list(d);
    pn_data_enter(d);
    pn_data_put_bool(d, extras.durable.value_or(true));
    pn_data_put_ubyte(d, extras.priority.value_or(PN_DEFAULT_PRIORITY));
    if (view.timeToLive && *view.timeToLive > 0 && *view.timeToLive <= Millis(UINT32_MAX))
        pn_data_put_uint(d, uint32_t(*view.timeToLive));
    else
        pn_data_put_null(d);
    pn_data_put_bool(d, view.deliveryCount <= 1);
    const quint32 earlier = handover == Handover::Delivery && view.deliveryCount > 0
                                ? view.deliveryCount - 1
                                : view.deliveryCount;
    pn_data_put_uint(d, earlier);
    pn_data_exit(d);
    pn_data_exit(d);
    char bytes[64];
    const ssize_t size = pn_data_encode(d, bytes, sizeof bytes);
    return size > 0 ? QByteArray(bytes, qsizetype(size)) : QByteArray();
}
} // namespace

namespace {
QByteArray senderAnnotations(pn_data_t* annotations, const WireExtras& extras);

// The message-annotations section: the broker's own (sequence number, enqueued time, lock, state,
// schedule, dead-letter source), then the sender's as it sent them.
// A sender's message has only the schedule of the broker's (when it has one).
QByteArray encodeAnnotations(const MessageView& view, const WireExtras& extras, Handover handover) {
    DataPtr ours(pn_data(16));
    pn_data_t* annotations = ours.get();
    pn_data_put_map(annotations);
    pn_data_enter(annotations);
    if (handover == Handover::Send) {
        if (view.scheduledEnqueueTime > 0) {
            putSymbolKey(annotations, "x-opt-scheduled-enqueue-time");
            pn_data_put_timestamp(annotations, view.scheduledEnqueueTime);
        }
        return senderAnnotations(annotations, extras);
    }
    putSymbolKey(annotations, "x-opt-sequence-number");
    pn_data_put_long(annotations, view.sequenceNumber);
    putSymbolKey(annotations, "x-opt-enqueued-time");
    pn_data_put_timestamp(annotations, view.enqueuedTime);
    if (view.locked && view.lockedUntil > 0) {
        putSymbolKey(annotations, "x-opt-locked-until");
        pn_data_put_timestamp(annotations, view.lockedUntil);
    }
    putSymbolKey(annotations, "x-opt-message-state");
    pn_data_put_int(annotations, int(view.state));
    if (view.scheduledEnqueueTime > 0) {
        putSymbolKey(annotations, "x-opt-scheduled-enqueue-time");
        pn_data_put_timestamp(annotations, view.scheduledEnqueueTime);
    }
    if (!view.deadLetterSource.isEmpty()) {
        putSymbolKey(annotations, "x-opt-deadletter-source");
        const QByteArray source = view.deadLetterSource.toUtf8();
        pn_data_put_string(annotations, pn_bytes(size_t(source.size()), source.constData()));
    }
    return senderAnnotations(annotations, extras);
}

// The section of the broker's annotations written so far in `annotations` (an open map), then
// the sender's as it sent them.
QByteArray senderAnnotations(pn_data_t* annotations, const WireExtras& extras) {
    pn_data_exit(annotations);
    QByteArray map(4096, Qt::Uninitialized);
    const ssize_t size = pn_data_encode(annotations, map.data(), size_t(map.size()));
    map.truncate(qsizetype(std::max<ssize_t>(size, 0)));
    if (extras.annotations.isEmpty()) // the common case: ours only, already one map
        return QByteArray("\x00\x53\x72", 3) + map;
    QList<QByteArray> items = encodedMapItems(map).value_or(QList<QByteArray>());
    if (!extras.annotations.isEmpty()) {
        const auto sent = encodedMapItems(extras.annotations);
        for (qsizetype i = 0; sent && i + 1 < sent->size(); i += 2) {
            if (!isBrokerAnnotation(encodedKeyText(sent->at(i))))
                items << sent->at(i) << sent->at(i + 1);
        }
    }
    return QByteArray("\x00\x53\x72", 3) + encodeMapOfItems(items);
}

void setId(pn_data_t* id, const QString& text, const QByteArray& typed) {
    if (typed.isEmpty()) {
        setStringId(id, text);
        return;
    }
    pn_data_clear(id);
    if (pn_data_decode(id, typed.constData(), size_t(typed.size())) <= 0)
        setStringId(id, text);
}
} // namespace

namespace {
// The delivery-annotations section of a message handed over through $management: its lock token
// as x-opt-lock-token (a uuid).
QByteArray encodeLockTokenAnnotation(const QUuid& lockToken) {
    DataPtr annotations(pn_data(4));
    pn_data_t* d = annotations.get();
    pn_data_put_map(d);
    pn_data_enter(d);
    putSymbolKey(d, "x-opt-lock-token");
    pn_uuid_t uuid;
    const QByteArray bytes = lockToken.toRfc4122();
    std::copy(bytes.begin(), bytes.end(), uuid.bytes);
    pn_data_put_uuid(d, uuid);
    pn_data_exit(d);
    char encoded[64];
    const ssize_t size = pn_data_encode(d, encoded, sizeof encoded);
    return size > 0 ? QByteArray("\x00\x53\x71", 3) + QByteArray(encoded, qsizetype(size))
                    : QByteArray();
}

// The sections in their order: header, delivery annotations (when given), message annotations,
// properties, application properties, body, footer.
QByteArray encodeSections(const MessageView& view, Handover handover,
                          const QByteArray& deliveryAnnotations) {
    // Extras the engine stored are ours; bytes that do not read back are left out.
    const WireExtras extras = decodeWireExtras(view.wireExtras).value_or(WireExtras{});
    MessagePtr message(pn_message());
    pn_message_t* m = message.get();
    setId(pn_message_id(m), view.messageId, extras.typedMessageId);
    setId(pn_message_correlation_id(m), view.correlationId, extras.typedCorrelationId);
    setText(pn_message_set_address, m, view.to);
    setText(pn_message_set_subject, m, view.subject);
    setText(pn_message_set_reply_to, m, view.replyTo);
    setText(pn_message_set_content_type, m, view.contentType);
    setText(pn_message_set_group_id, m, view.sessionId);
    setText(pn_message_set_reply_to_group_id, m, view.replyToSessionId);
    if (!extras.userId.isEmpty())
        pn_message_set_user_id(m,
                               pn_bytes(size_t(extras.userId.size()), extras.userId.constData()));
    if (!extras.contentEncoding.isEmpty())
        pn_message_set_content_encoding(m, extras.contentEncoding.constData());
    if (extras.groupSequence)
        pn_message_set_group_sequence(m, pn_sequence_t(*extras.groupSequence));

    // The header is written by encodeHeader: Proton leaves out a delivery-count of 0, and the
    // JavaScript SDK then reports it as undefined.
    if (handover != Handover::Send)
        pn_message_set_creation_time(m, view.enqueuedTime);
    if (view.expiresAt != kNever)
        pn_message_set_expiry_time(m, view.expiresAt);

    if (!view.applicationProperties.isEmpty())
        writeAmqpValue(pn_message_properties(m), view.applicationProperties);

    // An amqp-value or amqp-sequence body goes out as received, after what Proton writes.
    if (extras.bodySections.isEmpty()) {
        pn_data_t* body = pn_message_body(m);
        pn_message_set_inferred(m, true);
        pn_data_put_binary(body, pn_bytes(size_t(view.body.size()), view.body.constData()));
    }

    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(m, &buffer);
    QByteArray encoded = size > 0 ? QByteArray(buffer.start, qsizetype(size)) : QByteArray();
    std::free(buffer.start);
    // Proton writes an empty header of its own first; ours replaces it (a reader keeping the
    // last header would otherwise lose the ttl and the delivery count).
    static const QByteArray emptyHeader("\x00\x53\x70\x45", 4); // described list0
    if (encoded.startsWith(emptyHeader)) {
        encoded.remove(0, emptyHeader.size());
    } else if (encoded.startsWith(QByteArray("\x00\x53\x70", 3))) {
        DataPtr first(pn_data(4));
        const ssize_t used =
            pn_data_decode(first.get(), encoded.constData(), size_t(encoded.size()));
        if (used > 0)
            encoded.remove(0, qsizetype(used));
    }
    const QByteArray header = encodeHeader(view, extras, handover);
    const QByteArray annotations = encodeAnnotations(view, extras, handover);
    QByteArray whole;
    whole.reserve(header.size() + deliveryAnnotations.size() + annotations.size() + encoded.size() +
                  extras.bodySections.size() + extras.footer.size());
    whole.append(header)
        .append(deliveryAnnotations)
        .append(annotations)
        .append(encoded)
        .append(extras.bodySections)
        .append(extras.footer);
    return whole;
}
} // namespace

QByteArray encodeMessage(const MessageView& view, Handover handover) {
    return encodeSections(view, handover, QByteArray());
}

QByteArray encodeLockedMessage(const MessageView& view, const QUuid& lockToken) {
    return encodeSections(view, Handover::Delivery, encodeLockTokenAnnotation(lockToken));
}

QByteArray encodeOutgoingMessage(const OutgoingMessage& message) {
    MessageView view;
    view.systemProperties() = message.systemProperties();
    view.scheduledEnqueueTime = message.scheduledEnqueueTime.value_or(0);
    view.applicationProperties = message.applicationProperties;
    view.body = message.body;
    view.wireExtras = message.wireExtras;
    return encodeSections(view, Handover::Send, QByteArray());
}

} // namespace hourglass::amqp
