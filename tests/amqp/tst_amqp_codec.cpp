// The wire codecs of the AMQP endpoint, table-driven: lock tokens in both byte orders, SAS
// tokens (checked against one made by Node's crypto, not by our own signer), link addresses,
// AMQP values with their types, messages both ways, batch envelopes, and error conditions.

#include "AmqpValue.h"
#include "EntityAddress.h"
#include "LockTokenBytes.h"
#include "MessageCodec.h"
#include "SasToken.h"
#include "WireErrors.h"

#include <QDateTime>
#include <QTest>

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

    void badMessagesAreRefused_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("garbage") << QByteArray("\xff\xfe\x01", 3);
        QTest::newRow("truncated") << plainMessage("hello").left(5);
        pn_message_t* message = pn_message();
        pn_data_put_string(pn_message_body(message), pn_bytes(2, "hi"));
        QTest::newRow("value body") << encode(message);
        pn_message_free(message);
        QTest::newRow("two data sections") << dataSection("a") + dataSection("b");
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
};

QTEST_GUILESS_MAIN(AmqpCodecTest)
#include "tst_amqp_codec.moc"
