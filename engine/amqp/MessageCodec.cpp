#include "MessageCodec.h"

#include "AmqpValue.h"
#include "PropertyTypes.h"

#include <QDateTime>
#include <QUuid>

#include <proton/message.h>

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
    QByteArray data; // a data section's payload
};

constexpr quint64 kDataSection = 0x75;

// Every top-level section of an encoded message; nullopt when the bytes are not a sequence of
// described values.
std::optional<QList<Section>> scanSections(const QByteArray& encoded) {
    QList<Section> sections;
    DataPtr value(pn_data(4));
    const char* at = encoded.constData();
    size_t left = size_t(encoded.size());
    while (left > 0) {
        pn_data_clear(value.get());
        const ssize_t used = pn_data_decode(value.get(), at, left);
        if (used <= 0)
            return std::nullopt;
        at += used;
        left -= size_t(used);
        pn_data_rewind(value.get());
        if (!pn_data_next(value.get()) || pn_data_type(value.get()) != PN_DESCRIBED)
            return std::nullopt;
        pn_data_enter(value.get());
        pn_data_next(value.get());
        Section section;
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

Result<OutgoingMessage> decodeMessage(const QByteArray& encoded) {
    // Proton's decoder accepts some garbage silently: check the shape first, a sequence of
    // message sections (descriptors 0x70 header to 0x78 footer).
    const auto sections = scanSections(encoded);
    if (!sections || sections->isEmpty())
        return invalid(QStringLiteral("The message could not be decoded as AMQP 1.0."));
    int dataSections = 0;
    for (const Section& section : *sections) {
        if (section.descriptor < 0x70 || section.descriptor > 0x78)
            return invalid(QStringLiteral("The message holds a section AMQP 1.0 does not know."));
        dataSections += section.descriptor == kDataSection ? 1 : 0;
    }
    // Proton keeps only the last of several data sections; refuse rather than lose the others.
    if (dataSections > 1)
        return invalid(QStringLiteral("A message with several data sections is not stored."));
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
                                   .arg(it.key()));
        }
        out.applicationProperties = map;
    }

    pn_data_t* body = pn_message_body(message.get());
    pn_data_rewind(body);

    if (pn_data_next(body)) {
        if (!pn_message_is_inferred(message.get()) || pn_data_type(body) != PN_BINARY)
            return invalid(QStringLiteral("Only data-section bodies are stored; this message's "
                                          "body is an AMQP value or sequence."));
        const pn_bytes_t bytes = pn_data_get_binary(body);
        out.body = QByteArray(bytes.start, qsizetype(bytes.size));
    }
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
QByteArray encodeHeader(const MessageView& view, Handover handover) {
    DataPtr header(pn_data(8));
    pn_data_t* d = header.get();
    pn_data_put_described(d);
    pn_data_enter(d);
    pn_data_put_ulong(d, 0x70);
    pn_data_put_list(d);
    pn_data_enter(d);
    pn_data_put_bool(d, true);
    pn_data_put_ubyte(d, 4);
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

QByteArray encodeMessage(const MessageView& view, Handover handover) {
    MessagePtr message(pn_message());
    pn_message_t* m = message.get();
    setStringId(pn_message_id(m), view.messageId);
    setStringId(pn_message_correlation_id(m), view.correlationId);
    setText(pn_message_set_address, m, view.to);
    setText(pn_message_set_subject, m, view.subject);
    setText(pn_message_set_reply_to, m, view.replyTo);
    setText(pn_message_set_content_type, m, view.contentType);
    setText(pn_message_set_group_id, m, view.sessionId);
    setText(pn_message_set_reply_to_group_id, m, view.replyToSessionId);

    // The header is written by encodeHeader: Proton leaves out a delivery-count of 0, and the
    // JavaScript SDK then reports it as undefined.
    pn_message_set_creation_time(m, view.enqueuedTime);
    if (view.expiresAt != kNever)
        pn_message_set_expiry_time(m, view.expiresAt);

    pn_data_t* annotations = pn_message_annotations(m);
    pn_data_put_map(annotations);
    pn_data_enter(annotations);
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
    pn_data_exit(annotations);

    if (!view.applicationProperties.isEmpty())
        writeAmqpValue(pn_message_properties(m), view.applicationProperties);

    pn_data_t* body = pn_message_body(m);
    pn_message_set_inferred(m, true);
    pn_data_put_binary(body, pn_bytes(size_t(view.body.size()), view.body.constData()));

    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(m, &buffer);
    QByteArray encoded = size > 0 ? QByteArray(buffer.start, qsizetype(size)) : QByteArray();
    std::free(buffer.start);
    // Proton writes an empty header of its own first; ours replaces it (a reader keeping the
    // last header would otherwise lose the ttl and the delivery count).
    if (encoded.startsWith(QByteArray("\x00\x53\x70", 3))) {
        DataPtr first(pn_data(4));
        const ssize_t used =
            pn_data_decode(first.get(), encoded.constData(), size_t(encoded.size()));
        if (used > 0)
            encoded.remove(0, qsizetype(used));
    }
    return encodeHeader(view, handover) + encoded;
}

} // namespace hourglass::amqp
