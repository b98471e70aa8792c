// AMQP over WebSocket on the endpoint's streams: the upgrade HttpStreamService answers (RFC 6455's
// accept value, the subprotocol, the bytes past the request handed on) and each refusal, then
// WebSocketFraming both ways: masked client frames in any pieces, payload streamed as it arrives,
// fragmented messages, ping, pong and close, and every framing error closed with its code.

#include "AdminFixture.h"
#include "RawHttpClient.h"
#include "StreamDriver.h"
#include "WebSocketFraming.h"
#include "WebSocketHandshake.h"

#include "hourglass/admin/AdminStreamServices.h"

#include <QRandomGenerator>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
constexpr quint16 kPort = 5671;
// RFC 6455 1.3's example.
const QByteArray kExampleKey = "dGhlIHNhbXBsZSBub25jZQ==";
const QByteArray kExampleAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
const QByteArray kAmqpHeader("AMQP\x00\x01\x00\x00", 8);

enum Op : quint8 { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

// An upgrade as the Azure SDKs send it; `replace` swaps whole header lines ("Name: value", or
// "Name:" alone to drop one).
QByteArray upgradeRequest(const QByteArray& target = "/$servicebus/websocket",
                          const QList<QByteArray>& replace = {}, const QByteArray& method = "GET",
                          const QByteArray& version = "HTTP/1.1") {
    QList<QByteArray> lines = {"Host: localhost:5671",      "Upgrade: websocket",
                               "Connection: Upgrade",       "Sec-WebSocket-Key: " + kExampleKey,
                               "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: AMQPWSB10"};
    for (const QByteArray& line : replace) {
        const QByteArray name = line.left(line.indexOf(':') + 1);
        lines.removeIf(
            [&](const QByteArray& old) { return old.toLower().startsWith(name.toLower()); });
        if (line.size() > name.size())
            lines.append(line);
    }
    return method + ' ' + target + ' ' + version + "\r\n" + lines.join("\r\n") + "\r\n\r\n";
}

QByteArray closePayload(quint16 code) {
    QByteArray payload;
    payload.append(char(code >> 8));
    payload.append(char(code & 0xff));
    return payload;
}

// The close code of the only frame in `reply` (0 when it is not one close frame with a code).
quint16 closeCodeOf(QByteArray reply) {
    const QList<ServerFrame> frames = takeServerFrames(reply);
    if (frames.size() != 1 || frames[0].opcode != Close || frames[0].payload.size() < 2 ||
        !reply.isEmpty() || frames[0].masked)
        return 0;
    return quint16(quint8(frames[0].payload[0]) << 8 | quint8(frames[0].payload[1]));
}

// Unwraps `bytes` in pieces of `piece` bytes, everything joined.
amqp::StreamFraming::Unwrapped unwrapInPieces(WebSocketFraming& framing, const QByteArray& bytes,
                                              qsizetype piece) {
    amqp::StreamFraming::Unwrapped all;
    for (qsizetype at = 0; at < bytes.size(); at += piece) {
        auto out =
            framing.unwrap(QByteArrayView(bytes).sliced(at).first(qMin(piece, bytes.size() - at)));
        all.payload += out.payload;
        all.reply += out.reply;
        all.close = all.close || out.close;
        // Nothing large is held: a header and a control payload at most.
        if (framing.buffered() > 14 + 125)
            return {};
    }
    return all;
}
} // namespace

class AdminWebSocketTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<StreamFixture> m_streams;

private slots:
    void init() { m_streams = std::make_unique<StreamFixture>(); }
    void cleanup() { m_streams.reset(); }

    void acceptValueIsRfc6455s() { QCOMPARE(webSocketAccept(kExampleKey), kExampleAccept); }

    void upgradeIsAnswered_data() {
        QTest::addColumn<QByteArray>("request");
        QTest::newRow("as the SDKs send it") << upgradeRequest();
        QTest::newRow("trailing slash") << upgradeRequest("/$servicebus/websocket/");
        QTest::newRow("query ignored") << upgradeRequest("/$servicebus/websocket?iothub-no-ok=1");
        QTest::newRow("tokens in any case, among others") << upgradeRequest(
            "/$servicebus/websocket", {"upgrade: WebSocket", "CONNECTION: keep-alive, upgrade",
                                       "Sec-WebSocket-Protocol: amqp, AMQPWSB10"});
    }
    void upgradeIsAnswered() {
        QFETCH(QByteArray, request);
        auto service = m_streams->open(kPort, true);
        // The client's first frames come in the same read as its upgrade.
        const QByteArray frames = clientFrame(Binary, kAmqpHeader);
        amqp::StreamOutput out = service->received(request + frames);
        QVERIFY(out.bytes.startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        QVERIFY(out.bytes.contains("\r\nSec-WebSocket-Accept: " + kExampleAccept + "\r\n"));
        QVERIFY(out.bytes.contains("\r\nSec-WebSocket-Protocol: AMQPWSB10\r\n"));
        QVERIFY(out.bytes.contains("\r\nUpgrade: websocket\r\n"));
        QVERIFY(out.bytes.contains("\r\nConnection: Upgrade\r\n"));
        QVERIFY(!out.bytes.contains("Content-Length"));
        QVERIFY(out.bytes.endsWith("\r\n\r\n"));
        QVERIFY(!out.close);
        QVERIFY(out.amqpFraming);
        QCOMPARE(out.leftover, frames);
        const auto unwrapped = out.amqpFraming->unwrap(out.leftover);
        QCOMPARE(unwrapped.payload, kAmqpHeader);
        QCOMPARE(m_streams->waker().wakes(), 0); // no broker call
        // The service has handed the connection on: it says nothing more.
        QVERIFY(service->received(upgradeRequest()).bytes.isEmpty());
        QVERIFY(!service->tick(std::chrono::steady_clock::now() + std::chrono::hours(1)).close);
    }

    void upgradeWaitsForTheRequestInFlight() {
        auto service = m_streams->open(kPort, true);
        const QByteArray first = httpRequest("GET", "/$namespaceinfo", kPort);
        amqp::StreamOutput out = service->received(first + upgradeRequest());
        QVERIFY(out.bytes.isEmpty());
        QVERIFY(!out.amqpFraming);
        out = m_streams->answer(*service);
        QByteArray bytes = out.bytes;
        const auto response = takeResponse(bytes);
        QVERIFY(response);
        QCOMPARE(response->status, 200);
        QVERIFY(bytes.startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        QVERIFY(out.amqpFraming);
        QVERIFY(out.leftover.isEmpty());
    }

    void badUpgradeIsRefused_data() {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray path = "/$servicebus/websocket";
        QTest::newRow("another path") << upgradeRequest("/$servicebus/other") << 404;
        QTest::newRow("the API's path") << upgradeRequest("/orders") << 404;
        QTest::newRow("no Upgrade") << upgradeRequest(path, {"Upgrade:"}) << 400;
        QTest::newRow("Upgrade h2c") << upgradeRequest(path, {"Upgrade: h2c"}) << 400;
        QTest::newRow("no Connection") << upgradeRequest(path, {"Connection:"}) << 400;
        QTest::newRow("Connection keep-alive")
            << upgradeRequest(path, {"Connection: keep-alive"}) << 400;
        QTest::newRow("POST") << upgradeRequest(path, {}, "POST") << 400;
        QTest::newRow("HTTP/1.0") << upgradeRequest(path, {}, "GET", "HTTP/1.0") << 400;
        QTest::newRow("version 8") << upgradeRequest(path, {"Sec-WebSocket-Version: 8"}) << 426;
        QTest::newRow("no version") << upgradeRequest(path, {"Sec-WebSocket-Version:"}) << 426;
        QTest::newRow("no key") << upgradeRequest(path, {"Sec-WebSocket-Key:"}) << 400;
        QTest::newRow("short key")
            << upgradeRequest(path, {"Sec-WebSocket-Key: dGhlIHNhbXBsZQ=="}) << 400;
        QTest::newRow("key not base64")
            << upgradeRequest(path, {"Sec-WebSocket-Key: dGhlIHNhbXBsZ!Bub25jZQ=="}) << 400;
        QTest::newRow("two keys") << upgradeRequest(path, {"Sec-WebSocket-Key: " + kExampleKey +
                                                           "\r\nSec-WebSocket-Key: " + kExampleKey})
                                  << 400;
        QTest::newRow("no subprotocol") << upgradeRequest(path, {"Sec-WebSocket-Protocol:"}) << 400;
        QTest::newRow("another subprotocol")
            << upgradeRequest(path, {"Sec-WebSocket-Protocol: mqtt"}) << 400;
    }
    void badUpgradeIsRefused() {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        auto service = m_streams->open(kPort, true);
        const amqp::StreamOutput out = service->received(request);
        QByteArray bytes = out.bytes;
        const auto response = takeResponse(bytes);
        QVERIFY(response);
        QCOMPARE(response->status, status);
        QVERIFY(bytes.isEmpty());
        QVERIFY(response->body.contains("<Error>"));
        QVERIFY(out.close);
        QVERIFY(!out.amqpFraming);
        QCOMPARE(response->header("sec-websocket-version"),
                 status == 426 ? QByteArray("13") : QByteArray());
        QCOMPARE(m_streams->waker().wakes(), 0); // nothing reached the broker
    }

    void anUpgradeToAnotherProtocolIsIgnoredElsewhere() {
        auto service = m_streams->open(kPort, true);
        const amqp::StreamOutput out =
            service->received(httpRequest("GET", "/$namespaceinfo", kPort, {}, "Upgrade: h2c\r\n"));
        QVERIFY(out.bytes.isEmpty()); // served as an ordinary request
        QVERIFY(!out.close);
        QVERIFY(m_streams->answer(*service).bytes.startsWith("HTTP/1.1 "));
    }

    void binaryFramesInAnyPieces_data() {
        QTest::addColumn<qsizetype>("piece");
        for (qsizetype piece : {1, 2, 3, 7, 13, 64, 1000, 100000})
            QTest::newRow(qPrintable(QString::number(piece))) << piece;
    }
    void binaryFramesInAnyPieces() {
        QFETCH(qsizetype, piece);
        QByteArray payload;
        QByteArray stream;
        // 7-bit, 16-bit and 64-bit lengths; an empty frame; a fragmented message.
        for (qsizetype size : {0, 5, 125, 126, 300, 65535, 65536, 70000}) {
            QByteArray data(size, Qt::Uninitialized);
            for (qsizetype i = 0; i < size; ++i)
                data[i] = char(QRandomGenerator::global()->bounded(256));
            payload += data;
            stream += clientFrame(Binary, data, true, quint32(size * 2654435761u));
        }
        stream += clientFrame(Binary, "frag", false) + clientFrame(Ping, "hi") +
                  clientFrame(Continuation, "ment", false) + clientFrame(Continuation, "ed", true);
        payload += "fragmented";
        WebSocketFraming framing;
        const auto all = unwrapInPieces(framing, stream, piece);
        QCOMPARE(all.payload.size(), payload.size());
        QVERIFY(all.payload == payload);
        QVERIFY(!all.close);
        QByteArray reply = all.reply;
        const QList<ServerFrame> pongs = takeServerFrames(reply);
        QCOMPARE(pongs.size(), 1);
        QCOMPARE(pongs[0].opcode, quint8(Pong));
        QCOMPARE(pongs[0].payload, QByteArray("hi"));
    }

    void payloadIsStreamedBeforeTheFrameEnds() {
        WebSocketFraming framing;
        const QByteArray frame = clientFrame(Binary, QByteArray(1000, 'a'));
        // Header (2 + 2 + 4 bytes) and 10 bytes of payload.
        const auto first = framing.unwrap(QByteArrayView(frame).first(18));
        QCOMPARE(first.payload, QByteArray(10, 'a'));
        const auto rest = framing.unwrap(QByteArrayView(frame).sliced(18));
        QCOMPARE(rest.payload, QByteArray(990, 'a'));
    }

    void pingIsAnsweredWithItsPayload() {
        WebSocketFraming framing;
        const QByteArray payload(125, 'p');
        const auto out = unwrapInPieces(framing, clientFrame(Ping, payload), 3);
        QByteArray reply = out.reply;
        const QList<ServerFrame> frames = takeServerFrames(reply);
        QCOMPARE(frames.size(), 1);
        QVERIFY(frames[0].fin);
        QVERIFY(!frames[0].masked);
        QCOMPARE(frames[0].opcode, quint8(Pong));
        QCOMPARE(frames[0].payload, payload);
        QVERIFY(!out.close);
        // A pong answers nothing.
        const auto pong = framing.unwrap(clientFrame(Pong, "x"));
        QVERIFY(pong.reply.isEmpty() && pong.payload.isEmpty() && !pong.close);
    }

    void closeIsEchoed() {
        WebSocketFraming framing;
        const auto out = framing.unwrap(clientFrame(Binary, "ab") +
                                        clientFrame(Close, closePayload(1000) + "bye") +
                                        clientFrame(Binary, "after"));
        QCOMPARE(out.payload, QByteArray("ab")); // nothing after the close
        QCOMPARE(closeCodeOf(out.reply), quint16(1000));
        QVERIFY(out.close);
        QVERIFY(framing.closing().isEmpty()); // a close went already
        const auto later = framing.unwrap(clientFrame(Binary, "more"));
        QVERIFY(later.payload.isEmpty() && later.reply.isEmpty());

        WebSocketFraming empty;
        const auto bare = empty.unwrap(clientFrame(Close, {}));
        QCOMPARE(bare.reply, QByteArray("\x88\x00", 2));
        QVERIFY(bare.close);
    }

    void framingErrorsClose_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("code");
        QByteArray unmasked = clientFrame(Binary, "abc");
        unmasked[1] = char(quint8(unmasked[1]) & 0x7f);
        QTest::newRow("unmasked") << unmasked.first(2) << 1002;
        QTest::newRow("text") << clientFrame(Text, "hello") << 1003;
        QByteArray reserved = clientFrame(Binary, "abc");
        reserved[0] = char(quint8(reserved[0]) | 0x40);
        QTest::newRow("reserved bit") << reserved << 1002;
        QTest::newRow("opcode 3") << clientFrame(3, "abc") << 1002;
        QTest::newRow("opcode 11") << clientFrame(11, "abc") << 1002;
        QTest::newRow("long ping") << clientFrame(Ping, QByteArray(126, 'x')) << 1002;
        QTest::newRow("fragmented ping") << clientFrame(Ping, "x", false) << 1002;
        QTest::newRow("close of one byte") << clientFrame(Close, "x") << 1002;
        QTest::newRow("close code 1005") << clientFrame(Close, closePayload(1005)) << 1002;
        QTest::newRow("continuation first") << clientFrame(Continuation, "x") << 1002;
        QTest::newRow("binary inside a message")
            << clientFrame(Binary, "a", false) + clientFrame(Binary, "b") << 1002;
        QTest::newRow("text inside a message")
            << clientFrame(Binary, "a", false) + clientFrame(Text, "b") << 1002;
        const QByteArray topBit("\x82\xff\x80\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04", 14);
        QTest::newRow("64-bit length, top bit") << topBit << 1002;
    }
    void framingErrorsClose() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, code);
        for (qsizetype piece : {qsizetype(1), bytes.size()}) {
            WebSocketFraming framing;
            const auto out = unwrapInPieces(framing, bytes, piece);
            QCOMPARE(closeCodeOf(out.reply), quint16(code));
            QVERIFY(out.close);
            QVERIFY(framing.closing().isEmpty());
            const auto later = framing.unwrap(clientFrame(Binary, "more"));
            QVERIFY(later.payload.isEmpty() && later.reply.isEmpty() && later.close);
        }
    }

    void wrapWritesServerFrames_data() {
        QTest::addColumn<qsizetype>("size");
        QTest::addColumn<int>("frames");
        QTest::newRow("small") << qsizetype(8) << 1;
        QTest::newRow("16-bit length") << qsizetype(300) << 1;
        QTest::newRow("64 KiB") << kMaxWebSocketFramePayload << 1;
        QTest::newRow("split") << kMaxWebSocketFramePayload * 2 + 5 << 3;
    }
    void wrapWritesServerFrames() {
        QFETCH(qsizetype, size);
        QFETCH(int, frames);
        QByteArray payload(size, Qt::Uninitialized);
        for (qsizetype i = 0; i < size; ++i)
            payload[i] = char(i * 31);
        WebSocketFraming framing;
        QByteArray wire = framing.wrap(payload);
        const QList<ServerFrame> read = takeServerFrames(wire);
        QVERIFY(wire.isEmpty());
        QCOMPARE(read.size(), frames);
        QByteArray joined;
        for (const ServerFrame& frame : read) {
            QVERIFY(frame.fin);
            QVERIFY(!frame.masked);
            QCOMPARE(frame.opcode, quint8(Binary));
            joined += frame.payload;
        }
        QVERIFY(joined == payload);
        QVERIFY(framing.wrap({}).isEmpty());
    }

    void closingSaysGoingAway() {
        WebSocketFraming framing;
        QCOMPARE(closeCodeOf(framing.closing()), quint16(1001));
        QVERIFY(framing.closing().isEmpty()); // once
    }
};

QTEST_GUILESS_MAIN(AdminWebSocketTest)
#include "tst_admin_websocket.moc"
