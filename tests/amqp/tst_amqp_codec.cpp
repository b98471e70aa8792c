// The wire codecs of the AMQP endpoint, table-driven: lock tokens in both byte orders, SAS
// tokens (checked against one made by Node's crypto, not by our own signer), link addresses,
// AMQP values with their types, messages both ways, batch envelopes, and error conditions.

#include "EntityAddress.h"
#include "hourglass/amqpcodec/AmqpNesting.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/LockTokenBytes.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/SasToken.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>
#include <QTest>
#include <QtEndian>

#include <proton/codec.h>
#include <proton/message.h>

#include <cstdlib>

using namespace hourglass;
using namespace hourglass::amqp;

namespace {
// A token for audience sb://localhost:5672/q, se=1700000000, key SAS_KEY_VALUE, as Node's
// crypto module signs it (the JavaScript SDK's own method).
const QString kNodeToken = QStringLiteral(
    "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Fq&sig=LIdmFRqR3M4z1kOekbTXV2vB895l2is5"
    "BG9qgGx30z8%3D&se=1700000000&skn=RootManageSharedAccessKey");

QByteArray encode(pn_message_t* message) {
    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(message, &buffer);
    QByteArray bytes(buffer.start, qsizetype(size));
    std::free(buffer.start);
    return bytes;
}

QByteArray dataSection(const QByteArray& payload) {
    pn_data_t* data = pn_data(4);
    pn_data_put_described(data);
    pn_data_enter(data);
    pn_data_put_ulong(data, 0x75);
    pn_data_put_binary(data, pn_bytes(size_t(payload.size()), payload.constData()));
    pn_data_exit(data);
    char bytes[4096];
    const ssize_t size = pn_data_encode(data, bytes, sizeof bytes);
    pn_data_free(data);
    return QByteArray(bytes, qsizetype(size));
}

QByteArray plainMessage(const QByteArray& body) {
    pn_message_t* message = pn_message();
    pn_message_set_inferred(message, true);
    pn_data_put_binary(pn_message_body(message), pn_bytes(size_t(body.size()), body.constData()));
    const QByteArray bytes = encode(message);
    pn_message_free(message);
    return bytes;
}
} // namespace

class AmqpCodecTest : public QObject {
    Q_OBJECT
private slots:
    void lockTokenTagIsDotNetGuidOrder() {
        const QUuid token(QStringLiteral("{00112233-4455-6677-8899-aabbccddeeff}"));
        const QByteArray tag = lockTokenToDeliveryTag(token);
        QCOMPARE(tag.toHex(), QByteArray("33221100554477668899aabbccddeeff"));
        QCOMPARE(lockTokenFromDeliveryTag(tag), token);
        QVERIFY(lockTokenFromDeliveryTag(QByteArray(8, 'x')).isNull());
    }

    void sasTokenFromNodeIsValid() {
        const TokenCheck check = checkSasToken(kNodeToken, wellKnownEmulatorKey(), 1699999999);
        QVERIFY2(check.valid(), qPrintable(check.description));
        QCOMPARE(check.audience, QStringLiteral("sb://localhost:5672/q"));
        QCOMPARE(check.expiresAt, 1700000000);
    }

    void sasTokenRefusals_data() {
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("key");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<int>("outcome");
        const QString key = QStringLiteral("SAS_KEY_VALUE");
        QTest::newRow("expired") << kNodeToken << key << qint64(1700000000)
                                 << int(TokenCheck::Outcome::Expired);
        QTest::newRow("wrong key") << kNodeToken << QStringLiteral("another") << qint64(0)
                                   << int(TokenCheck::Outcome::WrongSignature);
        QString tampered = kNodeToken;
        tampered.replace(QStringLiteral("se=1700000000"), QStringLiteral("se=1800000000"));
        QTest::newRow("expiry moved")
            << tampered << key << qint64(0) << int(TokenCheck::Outcome::WrongSignature);
        QString otherName = kNodeToken;
        otherName.replace(QStringLiteral("RootManageSharedAccessKey"), QStringLiteral("reader"));
        QTest::newRow("unknown key name")
            << otherName << key << qint64(0) << int(TokenCheck::Outcome::UnknownKeyName);
        QTest::newRow("not a SAS") << QStringLiteral("Bearer abc") << key << qint64(0)
                                   << int(TokenCheck::Outcome::Malformed);
        QTest::newRow("no signature")
            << QStringLiteral("SharedAccessSignature sr=a&se=5&skn=RootManageSharedAccessKey")
            << key << qint64(0) << int(TokenCheck::Outcome::Malformed);
    }
    void sasTokenRefusals() {
        QFETCH(QString, token);
        QFETCH(QString, key);
        QFETCH(qint64, now);
        QFETCH(int, outcome);
        const TokenCheck check =
            checkSasToken(token, {QStringLiteral("RootManageSharedAccessKey"), key}, now);
        QCOMPARE(int(check.outcome), outcome);
        QVERIFY(!check.description.isEmpty());
    }

    void sasTokenMadeHereIsAccepted() {
        const SasKey key{QStringLiteral("RootManageSharedAccessKey"), QStringLiteral("k!(e)y*")};
        const QString token = makeSasToken(QStringLiteral("sb://host/a b/c"), key, 2000);
        const TokenCheck check = checkSasToken(token, key, 1000);
        QVERIFY2(check.valid(), qPrintable(check.description));
        QCOMPARE(check.audience, QStringLiteral("sb://host/a b/c"));
    }

    void addresses_data() {
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("path");
        using K = EntityAddress::Kind;
        QTest::newRow("queue") << "jobs" << int(K::Entity) << "jobs";
        QTest::newRow("subscription")
            << "t/Subscriptions/s" << int(K::Entity) << "t/Subscriptions/s";
        QTest::newRow("dead letters")
            << "jobs/$DeadLetterQueue" << int(K::Entity) << "jobs/$deadletterqueue";
        QTest::newRow("management") << "jobs/$management" << int(K::Management) << "jobs";
        QTest::newRow("dlq management")
            << "jobs/$DeadLetterQueue/$management" << int(K::Management) << "jobs/$deadletterqueue";
        QTest::newRow("cbs") << "$cbs" << int(K::Cbs) << "";
        QTest::newRow("url") << "amqp://localhost:5672/jobs" << int(K::Entity) << "jobs";
        QTest::newRow("empty") << "" << int(K::Invalid) << "";
    }
    void addresses() {
        QFETCH(QString, address);
        QFETCH(int, kind);
        QFETCH(QString, path);
        const EntityAddress parsed = parseEntityAddress(address);
        QCOMPARE(int(parsed.kind), kind);
        QCOMPARE(parsed.entityPath, path);
    }

    void valuesKeepTheirTypes_data() {
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<int>("amqpType");
        QTest::newRow("int") << QVariant(int(-7)) << int(PN_INT);
        QTest::newRow("long") << QVariant::fromValue(qlonglong(1) << 40) << int(PN_LONG);
        QTest::newRow("uint") << QVariant::fromValue(uint(7)) << int(PN_UINT);
        QTest::newRow("ulong") << QVariant::fromValue(qulonglong(9)) << int(PN_ULONG);
        QTest::newRow("short") << QVariant::fromValue(short(-3)) << int(PN_SHORT);
        QTest::newRow("ubyte") << QVariant::fromValue(uchar(200)) << int(PN_UBYTE);
        QTest::newRow("byte") << QVariant::fromValue(static_cast<signed char>(-2)) << int(PN_BYTE);
        QTest::newRow("double") << QVariant(2.5) << int(PN_DOUBLE);
        QTest::newRow("float") << QVariant::fromValue(1.5f) << int(PN_FLOAT);
        QTest::newRow("bool") << QVariant(true) << int(PN_BOOL);
        QTest::newRow("string") << QVariant(QStringLiteral("é")) << int(PN_STRING);
        QTest::newRow("timestamp")
            << QVariant(QDateTime::fromMSecsSinceEpoch(1715949296789, Qt::UTC))
            << int(PN_TIMESTAMP);
        QTest::newRow("uuid") << QVariant(QUuid::createUuid()) << int(PN_UUID);
        QTest::newRow("binary") << QVariant(QByteArray("\x00\x01", 2)) << int(PN_BINARY);
        QTest::newRow("null") << QVariant::fromValue(nullptr) << int(PN_NULL);
        QTest::newRow("char") << QVariant(QChar(u'x')) << int(PN_CHAR);
    }
    void valuesKeepTheirTypes() {
        QFETCH(QVariant, value);
        QFETCH(int, amqpType);
        pn_data_t* data = pn_data(4);
        QVERIFY(writeAmqpValue(data, value));
        pn_data_rewind(data);
        QVERIFY(pn_data_next(data));
        QCOMPARE(int(pn_data_type(data)), amqpType);
        const QVariant back = readAmqpValue(data);
        pn_data_free(data);
        QCOMPARE(back.typeId(), value.typeId());
        QCOMPARE(back, value);
    }

    void arraysAndSymbols() {
        pn_data_t* data = pn_data(8);
        const AmqpArray longs{
            {QVariant::fromValue(qlonglong(1)), QVariant::fromValue(qlonglong(2))}, PN_LONG};
        QVERIFY(writeAmqpValue(data, QVariant::fromValue(longs)));
        QVERIFY(writeAmqpValue(data, QVariant::fromValue(AmqpArray{{}, PN_TIMESTAMP})));
        QVERIFY(writeAmqpValue(data, QVariant::fromValue(AmqpSymbol{"com.microsoft:x"})));
        pn_data_rewind(data);
        pn_data_next(data);
        QCOMPARE(int(pn_data_type(data)), int(PN_ARRAY));
        QCOMPARE(int(pn_data_get_array_type(data)), int(PN_LONG));
        QCOMPARE(readAmqpValue(data).toList().size(), 2);
        pn_data_next(data);
        QCOMPARE(int(pn_data_get_array_type(data)), int(PN_TIMESTAMP));
        pn_data_next(data);
        QCOMPARE(int(pn_data_type(data)), int(PN_SYMBOL));
        pn_data_free(data);
    }

    void messageRoundTrip() {
        MessageView view;
        view.messageId = QStringLiteral("m-1");
        view.correlationId = QStringLiteral("c-1");
        view.sessionId = QStringLiteral("s-1");
        view.replyTo = QStringLiteral("replies");
        view.replyToSessionId = QStringLiteral("rs");
        view.to = QStringLiteral("to");
        view.subject = QStringLiteral("invoice");
        view.contentType = QStringLiteral("application/json");
        view.timeToLive = 60000;
        view.body = QByteArray("{\"a\":1}");
        view.applicationProperties = {
            {QStringLiteral("amount"), 250},
            {QStringLiteral("big"), QVariant::fromValue(qlonglong(5000000000))},
            {QStringLiteral("at"), QDateTime::fromMSecsSinceEpoch(1000, Qt::UTC)}};
        view.sequenceNumber = 42;
        view.deliveryCount = 1;
        const QByteArray encoded = encodeMessage(view, Handover::Delivery);
        const auto decoded = decodeMessage(encoded);
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : qPrintable(decoded.error().toString()));
        QCOMPARE(decoded->messageId, view.messageId);
        QCOMPARE(decoded->correlationId, view.correlationId);
        QCOMPARE(decoded->sessionId, view.sessionId);
        QCOMPARE(decoded->replyTo, view.replyTo);
        QCOMPARE(decoded->replyToSessionId, view.replyToSessionId);
        QCOMPARE(decoded->to, view.to);
        QCOMPARE(decoded->subject, view.subject);
        QCOMPARE(decoded->contentType, view.contentType);
        QCOMPARE(decoded->timeToLive, view.timeToLive);
        QCOMPARE(decoded->body, view.body);
        QCOMPARE(decoded->applicationProperties, view.applicationProperties);
        QCOMPARE(decoded->applicationProperties.value(QStringLiteral("big")).typeId(),
                 int(QMetaType::LongLong));

        // The header carries the delivery count even when it is 0 (the SDK reads it raw).
        pn_message_t* message = pn_message();
        QCOMPARE(pn_message_decode(message, encoded.constData(), size_t(encoded.size())), 0);
        QCOMPARE(pn_message_get_delivery_count(message), 0u);
        QVERIFY(pn_message_is_durable(message));
        pn_message_free(message);
        QVERIFY(encoded.startsWith(QByteArray("\x00\x53\x70", 3)));
    }

    // What a sender sets beyond Service Bus's properties comes back as sent: typed
    // ids, user-id, content-encoding, group-sequence, the header's priority and durable, the
    // sender's annotations (not the broker's), an amqp-value or amqp-sequence body and the
    // footer, the last two byte for byte. The engine's body holds a readable form for the window.
    void senderFieldsRoundTripExactly_data() {
        QTest::addColumn<bool>("sequence");
        QTest::addColumn<QByteArray>("readable");
        QTest::newRow("amqp-value string") << false << QByteArray("hello");
        QTest::newRow("amqp-sequence") << true << QByteArray("[1,\"two\"]");
    }
    void senderFieldsRoundTripExactly() {
        QFETCH(bool, sequence);
        QFETCH(QByteArray, readable);
        pn_message_t* sent = pn_message();
        pn_data_t* id = pn_message_id(sent);
        pn_uuid_t uuid;
        for (int i = 0; i < 16; ++i)
            uuid.bytes[i] = char(i * 17);
        pn_data_put_uuid(id, uuid);
        pn_data_put_ulong(pn_message_correlation_id(sent), 77);
        pn_message_set_user_id(sent, pn_bytes(5, "alice"));
        pn_message_set_content_encoding(sent, "gzip");
        pn_message_set_group_sequence(sent, 9);
        pn_message_set_priority(sent, 7);
        pn_data_t* annotations = pn_message_annotations(sent);
        pn_data_put_map(annotations);
        pn_data_enter(annotations);
        pn_data_put_symbol(annotations, pn_bytes(19, "x-opt-partition-key"));
        pn_data_put_string(annotations, pn_bytes(2, "pk"));
        pn_data_put_symbol(annotations, pn_bytes(21, "x-opt-sequence-number"));
        pn_data_put_long(annotations, 999); // the broker's own: not kept
        pn_data_put_symbol(annotations, pn_bytes(6, "custom"));
        pn_data_put_int(annotations, 5);
        pn_data_exit(annotations);
        pn_data_t* body = pn_message_body(sent);
        if (sequence) {
            pn_message_set_inferred(sent, true);
            pn_data_put_list(body);
            pn_data_enter(body);
            pn_data_put_int(body, 1);
            pn_data_put_string(body, pn_bytes(3, "two"));
            pn_data_exit(body);
        } else {
            pn_data_put_string(body, pn_bytes(5, "hello"));
        }
        // A footer (map8 {f: 5}), which Proton's message API cannot write.
        const QByteArray footer("\x00\x53\x78\xc1\x06\x02\xa3\x01\x66\x54\x05", 11);
        const QByteArray bytes = encode(sent) + footer;
        pn_message_free(sent);
        const QByteArray bodySection =
            bytes.mid(bytes.lastIndexOf(sequence ? "\x00\x53\x76" : "\x00\x53\x77"))
                .chopped(footer.size());

        const auto decoded = decodeMessage(bytes);
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : qPrintable(decoded.error().toString()));
        QCOMPARE(decoded->body, readable);
        QCOMPARE(decoded->messageId, QStringLiteral("00112233-4455-6677-8899-aabbccddeeff"));
        QCOMPARE(decoded->correlationId, QStringLiteral("77"));

        MessageView view;
        view.messageId = decoded->messageId;
        view.correlationId = decoded->correlationId;
        view.body = decoded->body;
        view.wireExtras = decoded->wireExtras;
        view.sequenceNumber = 5;
        const QByteArray again = encodeMessage(view, Handover::Peek);
        QVERIFY2(again.contains(bodySection), again.toHex().constData());
        QVERIFY(again.endsWith(footer));

        pn_message_t* read = pn_message();
        QCOMPARE(pn_message_decode(read, again.constData(), size_t(again.size())), 0);
        pn_data_t* readId = pn_message_id(read);
        pn_data_rewind(readId);
        QVERIFY(pn_data_next(readId));
        QCOMPARE(int(pn_data_type(readId)), int(PN_UUID));
        QCOMPARE(QByteArray(pn_data_get_uuid(readId).bytes, 16), QByteArray(uuid.bytes, 16));
        QCOMPARE(pn_message_get_correlation_id(read).type, PN_ULONG);
        QCOMPARE(pn_message_get_correlation_id(read).u.as_ulong, quint64(77));
        const pn_bytes_t user = pn_message_get_user_id(read);
        QCOMPARE(QByteArray(user.start, qsizetype(user.size)), QByteArray("alice"));
        QCOMPARE(QByteArray(pn_message_get_content_encoding(read)), QByteArray("gzip"));
        QCOMPARE(pn_message_get_group_sequence(read), 9);
        QCOMPARE(int(pn_message_get_priority(read)), 7);
        QVERIFY(pn_message_is_durable(read)); // left null by the sender: the broker's true
        const QVariantMap readAnnotations =
            readSingleAmqpValue(pn_message_annotations(read)).toMap();
        QCOMPARE(readAnnotations.value(QStringLiteral("x-opt-partition-key")),
                 QVariant(QStringLiteral("pk")));
        QCOMPARE(readAnnotations.value(QStringLiteral("custom")), QVariant(5));
        QCOMPARE(readAnnotations.value(QStringLiteral("x-opt-sequence-number")),
                 QVariant::fromValue(qlonglong(5)));
        pn_message_free(read);
    }

    // A header written by hand, as another client may: durable false and priority 9 are kept.
    // (Its list size counts the count byte and the fields: a wrong size is refused as malformed.)
    void explicitHeaderFieldsAreKept() {
        const QByteArray header("\x00\x53\x70\xc0\x04\x02\x42\x50\x09", 9);
        const auto decoded = decodeMessage(header + dataSection("x"));
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : qPrintable(decoded.error().toString()));
        MessageView view;
        view.body = decoded->body;
        view.wireExtras = decoded->wireExtras;
        const QByteArray again = encodeMessage(view, Handover::Delivery);
        pn_message_t* read = pn_message();
        QCOMPARE(pn_message_decode(read, again.constData(), size_t(again.size())), 0);
        QVERIFY(!pn_message_is_durable(read));
        QCOMPARE(int(pn_message_get_priority(read)), 9);
        pn_message_free(read);
    }

    // A message without extras (every message the window sends) stores none.
    void plainMessagesStoreNoExtras() {
        const auto decoded = decodeMessage(plainMessage("hello"));
        QVERIFY(decoded.ok());
        QCOMPARE(decoded->body, QByteArray("hello"));
        QVERIFY(decoded->wireExtras.isEmpty());
    }

    void badMessagesAreRefused_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("garbage") << QByteArray("\xff\xfe\x01", 3);
        QTest::newRow("truncated") << plainMessage("hello").left(5);
        QTest::newRow("two data sections") << dataSection("a") + dataSection("b");
        QTest::newRow("data and value")
            << dataSection("a") + QByteArray("\x00\x53\x77\xa1\x02hi", 7);
    }
    void badMessagesAreRefused() {
        QFETCH(QByteArray, bytes);
        const auto decoded = decodeMessage(bytes);
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().code, ErrorCode::InvalidArgument);
    }

    void batchEnvelopes() {
        const QByteArray one = plainMessage("one");
        const QByteArray two = plainMessage("two");
        const QByteArray batch = dataSection(one) + dataSection(two);
        QVERIFY(isBatchEnvelope(batch));
        const auto inner = splitBatch(batch);
        QVERIFY(inner.ok());
        QCOMPARE(inner->size(), 2);
        QCOMPARE(decodeMessage(inner->at(1))->body, QByteArray("two"));
        // A batch of one: its single data section holds an encoded message.
        QVERIFY(isBatchEnvelope(dataSection(one)));
        // A plain message whose body is JSON is not a batch.
        QVERIFY(!isBatchEnvelope(plainMessage("{\"x\":1}")));
        QVERIFY(!isBatchEnvelope(QByteArray("\x01\x02", 2)));
        // An envelope with a corrupt inner message is still a batch, and refused whole.
        const QByteArray corrupt =
            dataSection(one) + dataSection(QByteArray("\x00\x53\x75\xff", 4));
        QVERIFY(isBatchEnvelope(corrupt));
        const auto parts = splitBatch(corrupt);
        QVERIFY(parts.ok());
        QVERIFY(!decodeMessage(parts->at(1)).ok());
    }

    // The depth of encoded values, measured without recursion (Proton's decoder recurses).
    void nestingIsMeasuredWithoutRecursion_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("expected");
        const auto lists = [](int depth) {
            QByteArray bytes;
            for (int level = depth; level >= 1; --level) {
                QByteArray header(9, '\0');
                header[0] = char(0xd0);
                qToBigEndian<quint32>(quint32(9 * level - 4), header.data() + 1);
                qToBigEndian<quint32>(1, header.data() + 5);
                bytes += header;
            }
            return bytes + char(0x45);
        };
        const auto within = int(Nesting::Within);
        const auto tooDeep = int(Nesting::TooDeep);
        const auto malformed = int(Nesting::Malformed);
        QTest::newRow("a string") << QByteArray("\xa1\x02hi", 4) << within;
        QTest::newRow("lists at the limit") << lists(kMaxNesting) << within;
        QTest::newRow("lists past the limit") << lists(kMaxNesting + 1) << tooDeep;
        QTest::newRow("26,000 lists") << lists(26000) << tooDeep;
        QTest::newRow("described chain")
            << QByteArray(kMaxNesting + 1, '\0') + QByteArray("\x53\x70\x45", 3) << tooDeep;
        QTest::newRow("two sections")
            << QByteArray("\x00\x53\x70\x45\x00\x53\x77\x40", 8) << within;
        QTest::newRow("a list's size past the bytes")
            << QByteArray("\xc0\x09\x01\x40", 4) << malformed;
        QTest::newRow("an unknown constructor") << QByteArray("\x01", 1) << malformed;
        QTest::newRow("four billion nulls in an array, skipped whole")
            << QByteArray("\xf0\x00\x00\x00\x05\xff\xff\xff\xff\x40", 10) << within;
        // Arrays of arrays: the outer constructor is written once, each element array without.
        const auto arrays = [](int depth) {
            QByteArray element("\x00\x00\x00\x05\x00\x00\x00\x01\x40", 9); // one null
            for (int level = 1; level < depth; ++level) {
                QByteArray outer(8, '\0');
                qToBigEndian<quint32>(quint32(4 + 1 + element.size()), outer.data());
                qToBigEndian<quint32>(1, outer.data() + 4);
                element = outer + char(0xf0) + element;
            }
            return char(0xf0) + element;
        };
        QTest::newRow("arrays at the limit") << arrays(kMaxNesting) << within;
        QTest::newRow("arrays past the limit") << arrays(kMaxNesting + 1) << tooDeep;
    }
    void nestingIsMeasuredWithoutRecursion() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, expected);
        QCOMPARE(int(checkNesting(bytes)), expected);
    }

    void errorConditions_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QByteArray>("condition");
        QTest::addColumn<int>("status");
        QTest::newRow("not found")
            << int(ErrorCode::MessagingEntityNotFound) << QByteArray("amqp:not-found") << 404;
        QTest::newRow("lock lost") << int(ErrorCode::MessageLockLost)
                                   << QByteArray("com.microsoft:message-lock-lost") << 410;
        QTest::newRow("size") << int(ErrorCode::MessageSizeExceeded)
                              << QByteArray("amqp:link:message-size-exceeded") << 400;
        QTest::newRow("disabled") << int(ErrorCode::MessagingEntityDisabled)
                                  << QByteArray("com.microsoft:entity-disabled") << 403;
        QTest::newRow("quota") << int(ErrorCode::QuotaExceeded)
                               << QByteArray("amqp:resource-limit-exceeded") << 403;
        QTest::newRow("message not found") << int(ErrorCode::MessageNotFound)
                                           << QByteArray("com.microsoft:message-not-found") << 404;
        QTest::newRow("exists") << int(ErrorCode::MessagingEntityAlreadyExists)
                                << QByteArray("com.microsoft:entity-already-exists") << 409;
    }
    void errorConditions() {
        QFETCH(int, code);
        QFETCH(QByteArray, condition);
        QFETCH(int, status);
        QCOMPARE(wireCondition(ErrorCode(code)), condition);
        QCOMPARE(wireStatusCode(ErrorCode(code)), status);
    }

    // A link or transfer the broker refused: amqp:not-allowed when it does not fit the kind of
    // entity (the broker says so), the code's condition otherwise; a missing entity's attach
    // quotes a short prefix of the address only.
    void refusalConditions() {
        const Error wrongKind = makeWrongEntityKindError(QStringLiteral("'q' requires sessions."));
        QCOMPARE(refusalCondition(wrongKind), QByteArray("amqp:not-allowed"));
        const Error badValue = makeError(ErrorCode::InvalidArgument, QStringLiteral("bad"));
        QCOMPARE(refusalCondition(badValue), QByteArray("com.microsoft:argument-error"));
        const Error missing = makeError(ErrorCode::MessagingEntityNotFound, QStringLiteral("no"));
        QCOMPARE(refusalCondition(missing), QByteArray("amqp:not-found"));
        const QString longAddress(1000, QLatin1Char('a'));
        const QString description = attachRefusalDescription(missing, longAddress);
        QVERIFY(description.startsWith(QStringLiteral("The messaging entity '")));
        QVERIFY(description.endsWith(QStringLiteral("' could not be found.")));
        QVERIFY2(description.count(QLatin1Char('a')) <= kMaxQuotedChars + 10,
                 qPrintable(description));
        QVERIFY(attachRefusalDescription(wrongKind, longAddress).contains(wrongKind.description));
    }
};

QTEST_GUILESS_MAIN(AmqpCodecTest)
#include "tst_amqp_codec.moc"
