// The codec's client direction (engine/amqpcodec): what the remote client encodes reads back
// through the endpoint's decoders, and what the endpoint encodes reads back through the client's.

#include "hourglass/amqpcodec/ManagementMessages.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>
#include <QTest>

using namespace hourglass;
using namespace hourglass::amqp;

class TestRemoteCodec : public QObject {
    Q_OBJECT

private slots:
    void anOutgoingMessageReadsBackAsSent() {
        OutgoingMessage sent;
        sent.messageId = QStringLiteral("m");
        sent.sessionId = QStringLiteral("s");
        sent.replyToSessionId = QStringLiteral("r");
        sent.timeToLive = Millis(5000);
        sent.scheduledEnqueueTime = Instant(1800000000000);
        sent.body = QByteArrayLiteral("body");
        sent.applicationProperties = {{QStringLiteral("n"), 3}};
        const auto read = decodeMessage(encodeOutgoingMessage(sent));
        QVERIFY(read.ok());
        QCOMPARE(*read, sent);
    }

    void aDeliveredMessageReadsBackWithTheBrokersFields() {
        MessageView stored;
        stored.messageId = QStringLiteral("m");
        stored.sequenceNumber = 42;
        stored.enqueuedTime = 1700000000000;
        stored.expiresAt = stored.enqueuedTime + 60000;
        stored.timeToLive = Millis(60000);
        stored.locked = true;
        stored.lockedUntil = stored.enqueuedTime + 30000;
        stored.deliveryCount = 3; // this delivery is the third
        stored.deadLetterSource = QStringLiteral("orders");
        stored.applicationProperties = {
            {QStringLiteral("DeadLetterReason"), QStringLiteral("bad")}};
        stored.body = "b";
        const auto read =
            decodeReceivedMessage(encodeMessage(stored, Handover::Delivery), Handover::Delivery);
        QVERIFY(read.ok());
        QCOMPARE(read->messageId, stored.messageId);
        QCOMPARE(read->sequenceNumber, 42);
        QCOMPARE(read->enqueuedTime, stored.enqueuedTime);
        QCOMPARE(read->expiresAt, stored.expiresAt);
        QVERIFY(read->locked);
        QCOMPARE(read->lockedUntil, stored.lockedUntil);
        QCOMPARE(read->deliveryCount, 3u);
        QCOMPARE(read->deadLetterSource, QStringLiteral("orders"));
        QCOMPARE(read->deadLetterReason, QStringLiteral("bad"));
        QCOMPARE(read->body, QByteArray("b"));
        // A peek counts no delivery.
        const auto peeked =
            decodeReceivedMessage(encodeMessage(stored, Handover::Peek), Handover::Peek);
        QCOMPARE(peeked->deliveryCount, 3u);
        QVERIFY(!decodeReceivedMessage("junk", Handover::Peek).ok());
    }

    void aRequestAndItsResponseRoundTrip() {
        ManagementRequest request;
        request.operation = QStringLiteral("com.microsoft:peek-message");
        request.properties = {{QStringLiteral("server-timeout"), 5000u}};
        request.body = QVariantMap{{QStringLiteral("message-count"), 10}};
        request.messageId = QVariant::fromValue(qulonglong(7));
        request.replyTo = QStringLiteral("reply");
        const auto decoded = decodeManagementRequest(encodeManagementRequest(request));
        QVERIFY(decoded.ok());
        QCOMPARE(decoded->operation, request.operation);
        QCOMPARE(decoded->replyTo, request.replyTo);
        QCOMPARE(decoded->body, request.body);

        ManagementResponse failed = ManagementResponse::failure(
            Error::make(ErrorCode::MessageLockLost, QStringLiteral("gone")));
        for (const StatusNames names : {StatusNames::Cbs, StatusNames::Management}) {
            const auto response =
                decodeManagementResponse(encodeManagementResponse(*decoded, failed, names));
            QVERIFY(response.ok());
            QCOMPARE(response->statusCode, 410);
            QCOMPARE(response->correlationId.toULongLong(), 7ull);
            QCOMPARE(errorFromStatus(response->statusCode, response->errorCondition,
                                     response->statusDescription)
                         .code,
                     ErrorCode::MessageLockLost);
        }
        QVERIFY(!decodeManagementResponse("junk").ok());
    }

    void wireConditionsMapBack() {
        for (const ErrorCode code :
             {ErrorCode::MessagingEntityNotFound, ErrorCode::MessageLockLost,
              ErrorCode::SessionLockLost, ErrorCode::SessionCannotBeLocked, ErrorCode::ServiceBusy,
              ErrorCode::QuotaExceeded, ErrorCode::MessageNotFound})
            QCOMPARE(errorFromWire(wireCondition(code), QString()).code, code);
        QCOMPARE(errorFromWire(kUnauthorizedAccess, QString()).code, ErrorCode::Unauthorized);
        QVERIFY(errorFromWire(kNotAllowed, QString()).wrongEntityKind);
        QCOMPARE(errorFromWire("amqp:connection:forced", QString()).code,
                 ErrorCode::ServiceCommunicationProblem);
        QCOMPARE(errorFromStatus(401, {}, QString()).code, ErrorCode::Unauthorized);
        // A peer's long description is cut.
        const QString longText(5000, QLatin1Char('x'));
        QVERIFY(errorFromWire("x:y", longText).description.size() <=
                kMaxQuotedDescriptionChars + 1);
    }
};

QTEST_GUILESS_MAIN(TestRemoteCodec)
#include "tst_remote_codec.moc"
