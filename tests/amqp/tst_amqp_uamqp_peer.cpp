// The endpoint answers a client that speaks as uAMQP does (UamqpShapes.h says which uAMQP file
// each shape comes from): SASL MSSBCBS, both links of a node attached with the node as source and
// target, requests without reply-to answered on the client's receiver whose source is that node,
// with the request's message-id type as correlation-id and the status names uAMQP reads. A
// request with nowhere to be answered is rejected before it runs, and a client that grants no
// credit on its reply link cannot make the endpoint hold more than kMaxRepliesHeld answers.

#include "EndpointTestBase.h"
#include "RawAmqpPeer.h"
#include "RawPeerSteps.h"
#include "UamqpShapes.h"
#include "hourglass/amqpcodec/LockTokenBytes.h"
#include "hourglass/amqpcodec/PeerLimits.h"

#include <QTest>

#include <proton/message.h>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;
using namespace hourglass::testing::uamqp;

namespace {
const QString kQueue = QStringLiteral("q");
// The peer's handles: $cbs request and reply links, then the queue's $management pair.
constexpr quint32 kCbsOut = 0;
constexpr quint32 kCbsIn = 1;
constexpr quint32 kMgmtOut = 2;
constexpr quint32 kMgmtIn = 3;
constexpr quint32 kReceiver = 4;
// uAMQP's receiver grants this much credit at once (link.c, DEFAULT_LINK_CREDIT).
constexpr quint32 kUamqpCredit = 10000;

// The endpoint's disposition of delivery `id` and the transfer that answered it on the link
// the endpoint calls `replyHandle`; the disposition must come first (amqp_management.c fails
// an answer whose request was not yet confirmed).
struct Answered {
    Outcome outcome;
    std::optional<Reply> reply;
    bool settledFirst = false;
};
// The transfers the endpoint sent on its link `handle`, among the frames read so far.
QList<AmqpFrame> transfersOn(const RawAmqpPeer& peer, quint32 handle) {
    QList<AmqpFrame> transfers;
    for (const AmqpFrame& frame : peer.received()) {
        if (frame.performative == kTransfer && frame.field(0).toUInt() == handle)
            transfers.append(frame);
    }
    return transfers;
}

// The x-opt-lock-token of an encoded message's delivery annotations; null when it has none.
QUuid deliveryLockToken(const QByteArray& encoded) {
    pn_message_t* message = pn_message();
    QUuid token;
    if (pn_message_decode(message, encoded.constData(), size_t(encoded.size())) == 0) {
        pn_data_t* annotations = pn_message_instructions(message);
        pn_data_rewind(annotations);
        if (pn_data_next(annotations) && pn_data_type(annotations) == PN_MAP) {
            pn_data_enter(annotations);
            while (pn_data_next(annotations)) {
                const pn_bytes_t key = pn_data_get_symbol(annotations);
                const bool isToken =
                    QByteArrayView(key.start, qsizetype(key.size)) == "x-opt-lock-token";
                if (!pn_data_next(annotations))
                    break;
                if (isToken && pn_data_type(annotations) == PN_UUID)
                    token =
                        QUuid::fromRfc4122(QByteArrayView(pn_data_get_uuid(annotations).bytes, 16));
            }
        }
    }
    pn_message_free(message);
    return token;
}

Answered send(RawAmqpPeer& peer, quint32 handle, const QByteArray& request,
              std::optional<quint32> replyHandle) {
    const qsizetype answersBefore = replyHandle ? transfersOn(peer, *replyHandle).size() : 0;
    const quint32 id = peer.transfer(handle, request);
    Answered answered;
    const auto disposition = peer.waitFor(kDisposition, 10000, settles(id));
    if (!disposition)
        return answered;
    answered.outcome = outcomeOf(*disposition);
    if (!replyHandle || answered.outcome.state != 0x24)
        return answered;
    // Bounded polling: read until the link carries one more transfer (the frames may have been
    // read already, even before the disposition).
    QElapsedTimer timer;
    timer.start();
    while (transfersOn(peer, *replyHandle).size() <= answersBefore && timer.elapsed() < 10000)
        peer.waitFor(kEnd, 50, [](const AmqpFrame&) { return false; });
    const auto answers = transfersOn(peer, *replyHandle);
    if (answers.size() <= answersBefore)
        return answered;
    const AmqpFrame& transfer = answers[answersBefore];
    answered.reply = readReply(transfer);
    const qsizetype settledAt = indexOf(peer, kDisposition, settles(id));
    const qsizetype answeredAt =
        indexOf(peer, kTransfer, [&](const AmqpFrame& f) { return f.raw == transfer.raw; });
    answered.settledFirst = settledAt >= 0 && settledAt < answeredAt;
    return answered;
}

int statusCode(const std::optional<Reply>& reply) {
    return reply ? reply->properties.value(QStringLiteral("statusCode")).toInt() : -1;
}
} // namespace

class AmqpUamqpPeerTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void init() { QVERIFY(startWithQueue(kQueue)); }
    void cleanup() { reset(); }

    // saslclientio.c takes the first mechanism of its own it finds offered: MSSBCBS
    // (sasl_mssbcbs.c) with no initial response. Then put-tokens numbered 0, 1, 2 without
    // reply-to, answered on "$cbs-receiver" with a ulong correlation-id and an int status-code.
    void putTokenWithoutReplyToIsAnsweredOnTheCbsReceiver() {
        RawAmqpPeer peer(m_port);
        QVERIFY(peer.connected());
        const auto sasl = peer.sasl("MSSBCBS");
        QVERIFY(sasl);
        QVERIFY2(sasl->first.contains(QStringLiteral("MSSBCBS")),
                 qPrintable(sasl->first.join(',')));
        QCOMPARE(sasl->second, 0); // ok
        QVERIFY(peer.open(openFields));
        attachNode(peer, kCbsOut, "$cbs", true);
        const QByteArray receiverName = attachNode(peer, kCbsIn, "$cbs", false);
        peer.flow(kCbsIn, kUamqpCredit);
        QVERIFY(attachedHandle(peer, "$cbs-sender"));
        const auto replies = attachedHandle(peer, receiverName);
        QVERIFY(replies);

        const QByteArray audience = "sb://localhost/q";
        for (quint64 id : {0ull, 1ull}) {
            const auto answered =
                send(peer, kCbsOut, putToken(id, validToken(audience), audience), *replies);
            QCOMPARE(answered.outcome.state, quint64(0x24)); // accepted
            QVERIFY(answered.reply);
            QVERIFY(answered.settledFirst);
            QCOMPARE(answered.reply->correlationId.typeId(), int(QMetaType::ULongLong));
            QCOMPARE(answered.reply->correlationId.toULongLong(), id);
            const QVariant code = answered.reply->properties.value(QStringLiteral("status-code"));
            QCOMPARE(code.typeId(), int(QMetaType::Int)); // amqpvalue_get_int
            QCOMPARE(code.toInt(), 200);
            QCOMPARE(
                answered.reply->properties.value(QStringLiteral("status-description")).typeId(),
                int(QMetaType::QString));
        }

        // A token signed with another key: refused in the same shapes.
        const QByteArray forged = makeSasToken(QString::fromUtf8(audience),
                                               {QStringLiteral("RootManageSharedAccessKey"),
                                                QStringLiteral("not-the-key")},
                                               QDateTime::currentSecsSinceEpoch() + 3600)
                                      .toUtf8();
        const auto refused = send(peer, kCbsOut, putToken(2, forged, audience), *replies);
        QCOMPARE(refused.outcome.state, quint64(0x24));
        QVERIFY(refused.reply);
        QCOMPARE(refused.reply->correlationId.typeId(), int(QMetaType::ULongLong));
        QCOMPARE(refused.reply->correlationId.toULongLong(), 2ull);
        const QVariant code = refused.reply->properties.value(QStringLiteral("status-code"));
        QCOMPARE(code.typeId(), int(QMetaType::Int));
        QCOMPARE(code.toInt(), 401);
        QVERIFY(!refused.reply->properties.value(QStringLiteral("status-description"))
                     .toString()
                     .isEmpty());
    }

    // amqp_management.c always sends a ulong; other clients that leave out reply-to may use
    // any message-id type: the correlation-id comes back in the same one.
    void managementWithoutReplyTo_data() {
        QTest::addColumn<QVariant>("messageId");
        QTest::newRow("ulong") << QVariant::fromValue(quint64(0));
        QTest::newRow("uuid") << QVariant::fromValue(
            QUuid(QStringLiteral("{5a0b7d1c-3e2f-4a6b-9c8d-0e1f2a3b4c5d}")));
        QTest::newRow("string") << QVariant(QStringLiteral("request-7"));
        QTest::newRow("binary") << QVariant(QByteArray("\x01\x02\xfe", 3));
    }
    void managementWithoutReplyTo() {
        QFETCH(QVariant, messageId);
        OutgoingMessage stored;
        stored.body = "peeked";
        QVERIFY(m_broker->send(kQueue, stored).ok());
        RawAmqpPeer peer(m_port);
        const auto management = connect(peer);
        QVERIFY(management);
        const auto putId = [&messageId](pn_data_t* d) { writeAmqpValue(d, messageId); };
        const auto answered =
            send(peer, kMgmtOut,
                 request(putId, "com.microsoft:peek-message", "entity-mgmt", {}, peekBody(1, 1)),
                 *management);
        QCOMPARE(answered.outcome.state, quint64(0x24));
        QVERIFY(answered.reply);
        QCOMPARE(answered.reply->linkHandle, *management);
        QVERIFY(answered.settledFirst);
        QCOMPARE(answered.reply->correlationId.typeId(), messageId.typeId());
        QCOMPARE(answered.reply->correlationId, messageId);
        const QVariant code = answered.reply->properties.value(QStringLiteral("statusCode"));
        QCOMPARE(code.typeId(), int(QMetaType::Int));
        QCOMPARE(code.toInt(), 200);
        QCOMPARE(answered.reply->properties.value(QStringLiteral("statusDescription")).typeId(),
                 int(QMetaType::QString));
        QCOMPARE(answered.reply->body.toMap().value(QStringLiteral("messages")).toList().size(), 1);
    }

    // The operations the Python SDK runs through uAMQP, in its shapes: a message received on a
    // receiver link, its lock renewed (lock-tokens: an array of uuid), deferred and received
    // again by sequence number (sequence-numbers: an array of long; the SDK takes its lock token
    // from the message's delivery annotations, x-opt-lock-token), completed; a message
    // scheduled and cancelled. Ids count from 0 as set_message_id does.
    void theOperationsOfThePythonSdk() {
        OutgoingMessage stored;
        stored.body = "work";
        const auto sent = m_broker->send(kQueue, stored);
        QVERIFY(sent.ok());
        RawAmqpPeer peer(m_port);
        const auto management = connect(peer);
        QVERIFY(management);
        peer.attach(kReceiver, "q-receiver", "amqps://localhost/q", false);
        peer.flow(kReceiver, 1);
        const auto delivered = peer.waitFor(kTransfer, 10000, [&](const AmqpFrame& f) {
            return f.field(0).toUInt() != *management;
        });
        QVERIFY(delivered);
        const QUuid token = lockTokenFromDeliveryTag(delivered->field(2).toByteArray());
        QVERIFY(!token.isNull());
        quint64 id = 0;
        // Answered on the $management receiver, correlated by the ulong id it was sent with.
        const auto run = [&](const QByteArray& operation,
                             const std::function<void(pn_data_t*)>& body) -> std::optional<Reply> {
            const quint64 sentId = id++;
            const auto answered = send(peer, kMgmtOut,
                                       request(ulongId(sentId), operation, "entity-mgmt",
                                               {{"associated-link-name", "q-receiver"}}, body),
                                       *management);
            if (!answered.reply || answered.reply->linkHandle != *management ||
                answered.reply->correlationId != QVariant::fromValue(sentId))
                return std::nullopt;
            return answered.reply;
        };
        QCOMPARE(statusCode(run("com.microsoft:renew-lock", tokensBody({token}))), 200);
        QCOMPARE(statusCode(run("com.microsoft:update-disposition",
                                dispositionBody(QStringLiteral("defered"), token))),
                 200);
        const auto received = run("com.microsoft:receive-by-sequence-number",
                                  sequenceNumbersBody({sent->sequenceNumber}, true));
        QCOMPARE(statusCode(received), 200);
        const QVariantList messages =
            received->body.toMap().value(QStringLiteral("messages")).toList();
        QCOMPARE(messages.size(), 1);
        const QUuid again = messages[0].toMap().value(QStringLiteral("lock-token")).toUuid();
        QVERIFY(!again.isNull());
        QCOMPARE(
            deliveryLockToken(messages[0].toMap().value(QStringLiteral("message")).toByteArray()),
            again);
        QCOMPARE(statusCode(run("com.microsoft:update-disposition",
                                dispositionBody(QStringLiteral("completed"), again))),
                 200);
        QCOMPARE(statusCode(run("com.microsoft:peek-message", peekBody(1, 10))), 204);
    }

    // The Python SDK's own $management requests (azure-servicebus, _mgmt_request_response) name
    // the node as reply-to: that is the target of uAMQP's receiver, and is answered there.
    void aReplyToNamingTheNodeIsAnsweredOnTheUamqpReceiver() {
        RawAmqpPeer peer(m_port);
        const auto management = connect(peer);
        QVERIFY(management);
        const auto answered = send(peer, kMgmtOut,
                                   request(ulongId(5), "com.microsoft:peek-message", "entity-mgmt",
                                           {}, peekBody(1, 1), "q/$management"),
                                   *management);
        QVERIFY(answered.reply);
        QCOMPARE(answered.reply->correlationId, QVariant::fromValue(quint64(5)));
        QCOMPARE(statusCode(answered.reply), 204); // an empty queue
    }

    // A request without reply-to on a connection with no receiver on its node is rejected on
    // its delivery with amqp:precondition-failed, and not run: the token was not taken.
    void aRequestWithNowhereToBeAnsweredIsRejected() {
        RawAmqpPeer peer(m_port);
        QVERIFY(peer.sasl("MSSBCBS"));
        QVERIFY(peer.open(openFields));
        attachNode(peer, kCbsOut, "$cbs", true);
        QVERIFY(attachedHandle(peer, "$cbs-sender"));
        const QByteArray audience = "sb://localhost/";
        const auto answered =
            send(peer, kCbsOut, putToken(0, validToken(audience), audience), std::nullopt);
        QCOMPARE(answered.outcome.state, quint64(0x25)); // rejected
        QCOMPARE(answered.outcome.condition, QByteArray("amqp:precondition-failed"));
        QVERIFY2(answered.outcome.description.contains(QStringLiteral("'$cbs'")),
                 qPrintable(answered.outcome.description));
        peer.attach(9, "after", kQueue.toUtf8(), true);
        QVERIFY(peer.waitFor(kAttach, 5000, named("after")));
        const auto detach = peer.waitFor(kDetach, 5000);
        QVERIFY2(detach, "the sender was let in: the put-token ran");
        QCOMPARE(RawAmqpPeer::error(detach->field(2)).first,
                 QByteArray("amqp:unauthorized-access"));
    }

    // A client that never grants credit on its reply link: kMaxRepliesHeld answers wait, the
    // next request is rejected with amqp:resource-limit-exceeded before it runs; once credit
    // comes every held answer is delivered and requests are taken again.
    void answersHeldForCreditAreBounded() {
        RawAmqpPeer peer(m_port);
        QVERIFY(peer.sasl("MSSBCBS"));
        QVERIFY(peer.open(openFields));
        attachNode(peer, kCbsOut, "$cbs", true);
        const QByteArray receiverName = attachNode(peer, kCbsIn, "$cbs", false);
        QVERIFY(attachedHandle(peer, "$cbs-sender"));
        const auto replies = attachedHandle(peer, receiverName);
        QVERIFY(replies);
        const QByteArray audience = "sb://localhost/";
        const QByteArray token = validToken(audience);
        peer.dropFrames(kFlow);
        for (int i = 0; i < kMaxRepliesHeld; ++i) {
            const quint32 id = peer.transfer(kCbsOut, putToken(quint64(i), token, audience));
            const auto disposition = peer.waitFor(kDisposition, 10000, settles(id));
            QVERIFY(disposition);
            QCOMPARE(outcomeOf(*disposition).state, quint64(0x24));
        }
        const auto past =
            send(peer, kCbsOut, putToken(quint64(kMaxRepliesHeld), token, audience), std::nullopt);
        QCOMPARE(past.outcome.state, quint64(0x25));
        QCOMPARE(past.outcome.condition, QByteArray("amqp:resource-limit-exceeded"));
        QVERIFY(!peer.waitFor(kTransfer, 0)); // nothing sent without credit

        peer.flow(kCbsIn, kUamqpCredit);
        QSet<quint64> answeredIds;
        while (answeredIds.size() < kMaxRepliesHeld) {
            const auto transfer = peer.waitFor(kTransfer, 10000);
            QVERIFY2(transfer, qPrintable(QString::number(answeredIds.size())));
            answeredIds.insert(readReply(*transfer).correlationId.toULongLong());
        }
        QVERIFY(!answeredIds.contains(quint64(kMaxRepliesHeld))); // the rejected one never ran
        const auto after = send(peer, kCbsOut, putToken(9999, token, audience), *replies);
        QVERIFY(after.reply);
        QCOMPARE(after.reply->correlationId.toULongLong(), 9999ull);
    }

private:
    // SASL, open, the $cbs pair, a put-token for the queue, then the queue's $management pair
    // as the Python SDK attaches it; the endpoint's handle of the $management receiver.
    std::optional<quint32> connect(RawAmqpPeer& peer) {
        if (!peer.connected() || !peer.sasl("MSSBCBS") || !peer.open(openFields))
            return std::nullopt;
        attachNode(peer, kCbsOut, "$cbs", true);
        attachNode(peer, kCbsIn, "$cbs", false);
        peer.flow(kCbsIn, kUamqpCredit);
        const auto cbs = attachedHandle(peer, "$cbs-receiver");
        if (!cbs)
            return std::nullopt;
        const QByteArray audience = "sb://localhost/q";
        const auto token = send(peer, kCbsOut, putToken(0, validToken(audience), audience), *cbs);
        if (!token.reply ||
            token.reply->properties.value(QStringLiteral("status-code")).toInt() != 200)
            return std::nullopt;
        attachNode(peer, kMgmtOut, "q/$management", true);
        attachNode(peer, kMgmtIn, "q/$management", false);
        peer.flow(kMgmtIn, kUamqpCredit);
        if (!attachedHandle(peer, "q/$management-sender"))
            return std::nullopt;
        return attachedHandle(peer, "q/$management-receiver");
    }

    // Bodies as the Python SDK's management calls build them (amqp-value maps, string keys).
    static std::function<void(pn_data_t*)> peekBody(qint64 from, int count) {
        return [=](pn_data_t* d) {
            writeAmqpValue(d, QVariantMap{{QStringLiteral("from-sequence-number"),
                                           QVariant::fromValue(qlonglong(from))},
                                          {QStringLiteral("message-count"), count}});
        };
    }
    static std::function<void(pn_data_t*)> tokensBody(const QList<QUuid>& tokens) {
        return [=](pn_data_t* d) {
            writeAmqpValue(d, QVariantMap{{QStringLiteral("lock-tokens"), uuids(tokens)}});
        };
    }
    static std::function<void(pn_data_t*)> dispositionBody(const QString& status,
                                                           const QUuid& token) {
        return [=](pn_data_t* d) {
            writeAmqpValue(d, QVariantMap{{QStringLiteral("disposition-status"), status},
                                          {QStringLiteral("lock-tokens"), uuids({token})}});
        };
    }
    static std::function<void(pn_data_t*)> sequenceNumbersBody(const QList<qint64>& numbers,
                                                               bool peekLock) {
        return [=](pn_data_t* d) {
            AmqpArray array{{}, PN_LONG};
            for (const qint64 number : numbers)
                array.items.append(QVariant::fromValue(qlonglong(number)));
            writeAmqpValue(
                d, QVariantMap{{QStringLiteral("sequence-numbers"), QVariant::fromValue(array)},
                               {QStringLiteral("receiver-settle-mode"),
                                QVariant::fromValue(uint(peekLock ? 1 : 0))}});
        };
    }
    static QVariant uuids(const QList<QUuid>& tokens) {
        AmqpArray array{{}, PN_UUID};
        for (const QUuid& token : tokens)
            array.items.append(QVariant::fromValue(token));
        return QVariant::fromValue(array);
    }
};

QTEST_GUILESS_MAIN(AmqpUamqpPeerTest)
#include "tst_amqp_uamqp_peer.moc"
