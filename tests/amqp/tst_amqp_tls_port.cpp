// The endpoint's ports attacked over real sockets: the TLS port (AMQP and SASL through TLS;
// garbage instead of a ClientHello, a client that does not trust the certificate, handshakes that
// never finish, a thousand handshakes at once), the administration API's HTTP on both ports (no
// token, conflicting lengths, a slow client, a half-closed one), AMQP over WebSocket (the upgrade,
// AMQP inside frames that must authenticate in time, a bad upgrade, an unmasked frame), and entity
// names that try to leave their place. Each case checks what the peer sees, that the endpoint goes
// on serving others, and that the broker's entities did not change.

#include "AdminFixture.h"
#include "RawPeerSteps.h"
#include "TlsPortPeers.h"
#include "WebSocketBridge.h"

#include <QTest>

#include <openssl/x509_vfy.h>

#include <memory>
#include <vector>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;

namespace {
// RFC 6455 1.3's example.
const QByteArray kKey = "dGhlIHNhbXBsZSBub25jZQ==";
const QByteArray kAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
// An open frame (descriptor 0x10, container-id "x") and nothing more.
const QByteArray kOpenFrame("\x00\x00\x00\x11\x02\x00\x00\x00"
                            "\x00\x53\x10\xc0\x04\x01\xa1\x01x",
                            17);

QByteArray upgrade(const QByteArray& target, const QByteArray& version = "13") {
    return "GET " + target +
           " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: " +
           kKey + "\r\nSec-WebSocket-Version: " + version +
           "\r\nSec-WebSocket-Protocol: AMQPWSB10\r\n\r\n";
}

quint16 closeCode(const ServerFrame& frame) {
    return frame.payload.size() < 2
               ? 0
               : quint16(quint8(frame.payload[0]) << 8 | quint8(frame.payload[1]));
}
} // namespace

class AmqpTlsPortTest : public TlsPortTestBase {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(makeCertificate()); }
    void init() {
        QVERIFY(openBroker());
        QVERIFY(m_broker->createQueue(QStringLiteral("q"), {}).ok());
        m_before = entityPaths();
    }
    void cleanup() {
        // Whatever a case did to the ports, the broker's entities are as they were (the one case
        // that creates a queue on purpose clears m_before).
        if (!m_before.isEmpty() && m_broker)
            QCOMPARE(entityPaths(), m_before);
        reset();
    }

    void amqpThroughTlsAnswersTheHeaderSaslAndPutToken() {
        QVERIFY(startTlsEndpoint());
        // The raw header: the same header back, decrypted by the client.
        TlsBridge bridge(m_tlsPort, m_files.caCertificate);
        RawSocket raw(bridge.port());
        QVERIFY(raw.write(kAmqpHeader));
        QByteArray header;
        QVERIFY(raw.receivedWithin(8, 5000, &header));
        QCOMPARE(header, kAmqpHeader);
        QVERIFY(bridge.handshakeDone());
        // SASL as uAMQP does it, then open, $cbs and a put-token, written by hand.
        TlsBridge saslBridge(m_tlsPort, m_files.caCertificate);
        RawAmqpPeer peer(saslBridge.port());
        const auto sasl = peer.sasl("MSSBCBS");
        QVERIFY(sasl);
        QVERIFY2(sasl->first.contains(QStringLiteral("MSSBCBS")),
                 qPrintable(sasl->first.join(',')));
        QCOMPARE(sasl->second, 0);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        // A Proton client through TLS too; every one of them is listed.
        QCOMPARE(putTokenStatus(true), 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_endpoint->snapshot().connections.size() >= 2, 5000);
        QCOMPARE(putTokenStatus(false), 200);
    }

    void garbageInsteadOfAClientHelloIsDropped_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("HTTP") << QByteArray("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
        QTest::newRow("AMQP") << kAmqpHeader;
        QByteArray noise(4096, '\0');
        for (qsizetype i = 0; i < noise.size(); ++i)
            noise[i] = char((i * 7919) & 0xff);
        QTest::newRow("noise") << noise;
        // A handshake record header claiming 16 KiB, then a few bytes of it.
        QTest::newRow("record") << QByteArray("\x16\x03\x01\x40\x00\x01\x00\x3f\xfc", 9);
    }
    void garbageInsteadOfAClientHelloIsDropped() {
        QFETCH(QByteArray, bytes);
        EndpointOptions options;
        options.authenticateWithinMs = 600;
        QVERIFY(startTlsEndpoint(options));
        RawSocket socket(m_tlsPort);
        QVERIFY(socket.write(bytes));
        QByteArray answer;
        QVERIFY(socket.closedByPeerWithin(5000, &answer));
        // Nothing but a TLS alert (content type 21), if anything.
        QVERIFY2(answer.isEmpty() || answer.startsWith('\x15'),
                 answer.left(32).toHex().constData());
        QVERIFY(!answer.contains("AMQP"));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 0, 5000);
        QCOMPARE(putTokenStatus(true), 200);
    }

    void aClientThatDoesNotTrustTheCertificateGetsNoConnection() {
        QVERIFY(startTlsEndpoint());
        TlsBridge bridge(m_tlsPort, QString());
        RawSocket socket(bridge.port());
        QVERIFY(socket.write(kAmqpHeader));
        QVERIFY(socket.closedByPeerWithin(5000));
        QTRY_VERIFY_WITH_TIMEOUT(bridge.finished(), 5000);
        QVERIFY(bridge.failed());
        QVERIFY(!bridge.handshakeDone());
        QCOMPARE(bridge.verifyResult(), long(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY));
        // Its alert ends the connection on the endpoint's side: none is left, none listed.
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 0, 5000);
        QCOMPARE(putTokenStatus(true), 200);
    }

    void aHandshakeThatNeverFinishesIsDroppedAtTheDeadline_data() {
        QTest::addColumn<int>("part"); // 0: nothing, 1: half a ClientHello, 2: the handshake
        QTest::newRow("silent") << 0;
        QTest::newRow("half a ClientHello") << 1;
        QTest::newRow("handshake, then silence") << 2;
    }
    void aHandshakeThatNeverFinishesIsDroppedAtTheDeadline() {
        QFETCH(int, part);
        EndpointOptions options;
        options.authenticateWithinMs = 500;
        QVERIFY(startTlsEndpoint(options));
        DrivenClient good(m_port);
        QCOMPARE(good.putToken(token(m_port), 5000), 200);
        QElapsedTimer timer;
        timer.start();
        std::unique_ptr<TlsBridge> bridge;
        std::unique_ptr<RawSocket> socket;
        if (part == 2) {
            bridge = std::make_unique<TlsBridge>(m_tlsPort, m_files.caCertificate);
            socket = std::make_unique<RawSocket>(bridge->port());
            QTRY_VERIFY_WITH_TIMEOUT(bridge->handshakeDone(), 5000);
        } else {
            socket = std::make_unique<RawSocket>(m_tlsPort);
            if (part == 1) {
                tls::test::MemoryTlsClient client(m_files.caCertificate, "localhost");
                const QByteArray hello = client.takeCiphertext();
                QVERIFY(hello.size() > 100);
                QVERIFY(socket->write(hello.first(hello.size() / 2)));
            }
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 2, 5000);
        QByteArray answer;
        QVERIFY(socket->closedByPeerWithin(5000, &answer));
        QVERIFY2(timer.elapsed() >= 450, qPrintable(QString::number(timer.elapsed())));
        // Nothing was opened: the socket goes without a word.
        QVERIFY2(answer.isEmpty(), answer.toHex().constData());
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 1, 5000);
        QVERIFY(good.stillOpenAfter(100));
    }

    void aThousandHandshakesAtOnceLeaveRoomForAGoodClient() {
        EndpointOptions options;
        options.authenticateWithinMs = 3000;
        QVERIFY(startTlsEndpoint(options));
        const int limit = m_endpoint->connectionLimit();
        const int count = qMin(1000, limit - 10);
        QVERIFY2(count >= 200, qPrintable(QString::number(limit)));
        tls::test::MemoryTlsClient client(m_files.caCertificate, "localhost");
        const QByteArray hello = client.takeCiphertext();
        std::vector<std::unique_ptr<RawSocket>> flood;
        flood.reserve(std::size_t(count));
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < count; ++i) {
            flood.push_back(std::make_unique<RawSocket>(m_tlsPort));
            QVERIFY(flood.back()->connected());
            QVERIFY(flood.back()->write(hello));
        }
        qInfo("%d handshakes opened in %lld ms", count, timer.elapsed());
        // A good client during the flood: through TLS, authenticated, in good time.
        timer.restart();
        TlsBridge bridge(m_tlsPort, m_files.caCertificate);
        DrivenClient good(bridge.port());
        QCOMPARE(good.putToken(token(m_tlsPort), 10000), 200);
        qInfo("the good client's put-token took %lld ms", timer.elapsed());
        QVERIFY2(timer.elapsed() < 8000, qPrintable(QString::number(timer.elapsed())));
        // The flood never authenticates: the cap dropped the oldest, the deadline the rest.
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 1, 10000);
        // Each was closed; those read before their eviction had the server's hello first.
        int answered = 0;
        for (const auto& socket : flood) {
            QByteArray answer;
            QVERIFY(socket->closedByPeerWithin(2000, &answer));
            answered += answer.startsWith("\x16\x03") ? 1 : 0;
        }
        qInfo("%d of them had the server's hello", answered);
        QVERIFY(answered > 0);
        QVERIFY(good.stillOpenAfter(100));
        QCOMPARE(putTokenStatus(false), 200);
    }

    void httpWithoutATokenIsRefusedInTheServicesShape_data() { ports(); }
    void httpWithoutATokenIsRefusedInTheServicesShape() {
        QFETCH(bool, tls);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        QVERIFY(client.socket->write("GET /q HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, 401);
        QVERIFY(response->header("content-type").startsWith("application/xml"));
        QVERIFY2(response->body.contains("<Error><Code>401</Code><Detail>"),
                 response->body.constData());
        // The same connection answers a good request next.
        const quint16 port = tls ? m_tlsPort : m_port;
        QVERIFY(client.socket->write(httpRequest("GET", "/q", port)));
        const auto good = readResponse(*client.socket, buffer);
        QVERIFY(good);
        QCOMPARE(good->status, 200);
        QVERIFY(good->body.contains("QueueDescription"));
        QCOMPARE(putTokenStatus(tls), 200);
    }

    // HTTP connections have not put a token either: however many hold the endpoint's places
    // (kept alive after a 401 here), a client with a key still gets in, the oldest of them goes.
    void httpConnectionsCannotKeepAClientWithAKeyOut_data() { ports(); }
    void httpConnectionsCannotKeepAClientWithAKeyOut() {
        QFETCH(bool, tls);
        EndpointOptions options;
        options.maxConnections = 4;
        QVERIFY(startTlsEndpoint(options));
        QCOMPARE(m_endpoint->connectionLimit(), 4);
        std::vector<PortPeer> held;
        for (int i = 0; i < 4; ++i) {
            held.push_back(peer(tls));
            QVERIFY(held.back().socket->write("GET /q HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            QByteArray buffer;
            const auto response = readResponse(*held.back().socket, buffer);
            QVERIFY(response);
            QCOMPARE(response->status, 401);
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 4, 5000);
        QCOMPARE(putTokenStatus(tls), 200);
        QVERIFY(held.front().socket->closedByPeerWithin(5000));
        QVERIFY(m_endpoint->connectionCount() <= 4);
    }

    // ... but they are not held to the deadline to put a token: a keep-alive connection serves
    // its next request well after it.
    void anHttpConnectionOutlivesTheDeadlineToAuthenticate_data() { ports(); }
    void anHttpConnectionOutlivesTheDeadlineToAuthenticate() {
        QFETCH(bool, tls);
        EndpointOptions options;
        options.authenticateWithinMs = 300;
        QVERIFY(startTlsEndpoint(options));
        PortPeer client = peer(tls);
        const quint16 port = tls ? m_tlsPort : m_port;
        QByteArray buffer;
        for (int round = 0; round < 2; ++round) {
            QVERIFY(client.socket->write(httpRequest("GET", "/q", port)));
            const auto response = readResponse(*client.socket, buffer);
            QVERIFY(response);
            QCOMPARE(response->status, 200);
            if (round == 0)
                QVERIFY(!client.socket->closedByPeerWithin(900, &buffer));
        }
    }

    void conflictingContentLengthsAreRefusedAndTheConnectionCloses_data() { ports(); }
    void conflictingContentLengthsAreRefusedAndTheConnectionCloses() {
        QFETCH(bool, tls);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        const QByteArray body = atomEntry(QStringLiteral("QueueDescription"), {});
        const quint16 port = tls ? m_tlsPort : m_port;
        QByteArray request =
            httpRequest("PUT", "/smuggled", port, body,
                        "Content-Length: " + QByteArray::number(body.size() + 1) + "\r\n");
        QVERIFY(client.socket->write(request));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, 400);
        QVERIFY(response->body.contains("<Error><Code>400</Code>"));
        QVERIFY(client.socket->closedByPeerWithin(5000));
        QCOMPARE(putTokenStatus(tls), 200);
    }

    // A client that sends requests and never reads the answers cannot make the endpoint hold
    // them: past a bound of unsent bytes it stops answering (and reading) until the client reads,
    // then every answer comes.
    void aClientThatDoesNotReadCannotMakeTheEndpointHoldItsAnswers() {
        for (int i = 0; i < 60; ++i)
            QVERIFY(m_broker->createQueue(QStringLiteral("big-list-%1").arg(i), {}).ok());
        m_before = entityPaths();
        QVERIFY(startTlsEndpoint());
        RawSocket client(m_port);
        const QByteArray request = httpRequest("GET", "/$Resources/Queues", m_port);
        constexpr int kRequests = 300;
        QByteArray pipelined;
        for (int i = 0; i < kRequests; ++i)
            pipelined += request;
        const qint64 before = residentBytes();
        QVERIFY(client.write(pipelined));
        // Until the endpoint has done what it will do without a reader (its memory settles).
        QElapsedTimer total;
        total.start();
        QElapsedTimer quiet;
        quiet.start();
        qint64 last = residentBytes();
        while (total.elapsed() < 8000 && quiet.elapsed() < 1000) {
            QTest::qWait(100);
            const qint64 now = residentBytes();
            if (qAbs(now - last) > 256 * 1024) {
                last = now;
                quiet.restart();
            }
        }
        const qint64 grown = residentBytes() - before;
        qInfo("resident memory grew by %lld KiB without a reader", grown / 1024);
        QVERIFY2(grown < 16 * 1024 * 1024, qPrintable(QString::number(grown)));
        // Reading now, every answer arrives.
        QByteArray buffer;
        for (int i = 0; i < kRequests; ++i) {
            const auto response = readResponse(client, buffer, 10000);
            QVERIFY2(response, qPrintable(QString::number(i)));
            QCOMPARE(response->status, 200);
            QVERIFY(response->body.size() > 40 * 1024);
        }
    }

    void aSlowClientIsDroppedAtTheHeaderTimeout_data() { ports(); }
    void aSlowClientIsDroppedAtTheHeaderTimeout() {
        QFETCH(bool, tls);
        admin::AdminStreamOptions admin;
        admin.headerTimeout = std::chrono::milliseconds(500);
        QVERIFY(startTlsEndpoint({}, admin));
        PortPeer client = peer(tls);
        const QByteArray request = httpRequest("GET", "/q", tls ? m_tlsPort : m_port);
        QElapsedTimer timer;
        timer.start();
        QByteArray answer;
        bool closed = false;
        for (qsizetype i = 0; i < request.size() - 4 && !closed; ++i) {
            client.socket->write(request.mid(i, 1));
            closed = client.socket->closedByPeerWithin(100, &answer);
        }
        QVERIFY2(closed, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(timer.elapsed() >= 450 && timer.elapsed() < 4000,
                 qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(answer.isEmpty(), answer.constData()); // cut without a word
        QCOMPARE(putTokenStatus(tls), 200);
    }

    void aHalfClosedClientStillGetsItsAnswer_data() {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<bool>("closeNotify");
        QTest::newRow("plain") << false << false;
        QTest::newRow("TLS, FIN") << true << false;
        QTest::newRow("TLS, close_notify and FIN") << true << true;
    }
    void aHalfClosedClientStillGetsItsAnswer() {
        QFETCH(bool, tls);
        QFETCH(bool, closeNotify);
        QVERIFY(startTlsEndpoint());
        std::unique_ptr<TlsBridge> bridge;
        if (tls)
            bridge = std::make_unique<TlsBridge>(m_tlsPort, m_files.caCertificate, closeNotify);
        RawSocket socket(tls ? bridge->port() : m_port);
        QVERIFY(socket.write(httpRequest("GET", "/q", tls ? m_tlsPort : m_port)));
        socket.shutdownWrite();
        QByteArray answer;
        QVERIFY(socket.closedByPeerWithin(5000, &answer));
        const auto response = takeResponse(answer);
        QVERIFY2(response, answer.constData());
        QCOMPARE(response->status, 200);
        QVERIFY(response->body.contains("QueueDescription"));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QCOMPARE(putTokenStatus(tls), 200);
    }

    void aWebSocketUpgradeCarriesAmqp_data() {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QByteArray>("target");
        for (const bool tls : {false, true})
            for (const QByteArray target : {"/$servicebus/websocket", "/$servicebus/websocket/"})
                QTest::addRow("%s %s", tls ? "TLS" : "plain", target.constData()) << tls << target;
    }
    void aWebSocketUpgradeCarriesAmqp() {
        QFETCH(bool, tls);
        QFETCH(QByteArray, target);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        QVERIFY(client.socket->write(upgrade(target)));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, 101);
        QCOMPARE(response->header("sec-websocket-accept"), kAccept);
        QCOMPARE(response->header("sec-websocket-protocol"), QByteArray("AMQPWSB10"));
        QCOMPARE(response->header("upgrade").toLower(), QByteArray("websocket"));
        QVERIFY(client.socket->write(clientFrame(2, kAmqpHeader)));
        const QList<ServerFrame> frames = readFrames(*client.socket, buffer, 1);
        QCOMPARE(frames.size(), 1);
        QCOMPARE(frames[0].opcode, quint8(2));
        QVERIFY(!frames[0].masked);
        QCOMPARE(frames[0].payload, kAmqpHeader);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 1, 5000);
        QCOMPARE(putTokenStatus(tls), 200);
    }

    void aBadUpgradeIsRefusedAndClosed_data() {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray good = upgrade("/$servicebus/websocket");
        const QByteArray noKey =
            QByteArray(good).replace("Sec-WebSocket-Key: " + kKey + "\r\n", "");
        const QByteArray noProtocol =
            QByteArray(good).replace("Sec-WebSocket-Protocol: AMQPWSB10\r\n", "");
        for (const bool tls : {false, true}) {
            const char* port = tls ? "TLS" : "plain";
            QTest::addRow("%s, no key", port) << tls << noKey << 400;
            QTest::addRow("%s, no subprotocol", port) << tls << noProtocol << 400;
            QTest::addRow("%s, version 8", port)
                << tls << upgrade("/$servicebus/websocket", "8") << 426;
        }
    }
    void aBadUpgradeIsRefusedAndClosed() {
        QFETCH(bool, tls);
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        QVERIFY(client.socket->write(request));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, status);
        QVERIFY(response->header("sec-websocket-accept").isEmpty());
        if (status == 426)
            QCOMPARE(response->header("sec-websocket-version"), QByteArray("13"));
        QVERIFY(client.socket->closedByPeerWithin(5000));
        QCOMPARE(m_endpoint->snapshot().connections.size(), 0);
        QCOMPARE(putTokenStatus(tls), 200);
    }

    // AMQP inside WebSocket frames is AMQP as any other: it must put a token in time.
    void amqpOverWebSocketMustAuthenticateInTime_data() { ports(); }
    void amqpOverWebSocketMustAuthenticateInTime() {
        QFETCH(bool, tls);
        EndpointOptions options;
        options.authenticateWithinMs = 500;
        QVERIFY(startTlsEndpoint(options));
        PortPeer client = peer(tls);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(client.socket->write(upgrade("/$servicebus/websocket")));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response && response->status == 101);
        QVERIFY(client.socket->write(clientFrame(2, kAmqpHeader + kOpenFrame)));
        QByteArray rest;
        QVERIFY(client.socket->closedByPeerWithin(5000, &rest));
        QVERIFY2(timer.elapsed() >= 450, qPrintable(QString::number(timer.elapsed())));
        buffer += rest;
        QByteArray amqp;
        for (const ServerFrame& frame : takeServerFrames(buffer))
            amqp += frame.payload;
        QVERIFY(amqp.startsWith(kAmqpHeader));
        QVERIFY2(amqp.contains("amqp:unauthorized-access"), amqp.toHex().constData());
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QCOMPARE(putTokenStatus(tls), 200);
    }

    // ... and one that does stays past the deadline: a Proton client through the upgrade.
    void amqpOverWebSocketThatAuthenticatesStays_data() { ports(); }
    void amqpOverWebSocketThatAuthenticatesStays() {
        QFETCH(bool, tls);
        EndpointOptions options;
        options.authenticateWithinMs = 400;
        QVERIFY(startTlsEndpoint(options));
        std::unique_ptr<TlsBridge> tlsBridge;
        if (tls)
            tlsBridge = std::make_unique<TlsBridge>(m_tlsPort, m_files.caCertificate);
        WebSocketBridge webSocket(tls ? tlsBridge->port() : m_port);
        DrivenClient client(webSocket.port());
        QCOMPARE(client.putToken(token(tls ? m_tlsPort : m_port), 5000), 200);
        QVERIFY(webSocket.upgraded());
        QVERIFY2(client.stillOpenAfter(1000), client.closeCondition().constData());
        const auto connections = m_endpoint->snapshot().connections;
        QCOMPARE(connections.size(), 1);
        QVERIFY(!connections.first().keyName.isEmpty());
    }

    void anUnmaskedClientFrameIsClosedWith1002_data() { ports(); }
    void anUnmaskedClientFrameIsClosedWith1002() {
        QFETCH(bool, tls);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        QVERIFY(client.socket->write(upgrade("/$servicebus/websocket")));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response && response->status == 101);
        QVERIFY(client.socket->write(QByteArray("\x82\x08", 2) + kAmqpHeader)); // no mask
        QByteArray rest;
        QVERIFY(client.socket->closedByPeerWithin(5000, &rest));
        buffer += rest;
        const QList<ServerFrame> frames = takeServerFrames(buffer);
        QCOMPARE(frames.size(), 1); // one close frame, nothing after it
        QCOMPARE(frames[0].opcode, quint8(8));
        QCOMPARE(closeCode(frames[0]), quint16(1002));
        QVERIFY(buffer.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QCOMPARE(putTokenStatus(tls), 200);
    }

    void entityNamesThatLeaveTheirPlaceAreRefused_data() {
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("..") << QByteArray("/..");
        QTest::newRow("q/../x") << QByteArray("/q/../x");
        QTest::newRow("%2e%2e") << QByteArray("/%2e%2e/x");
        QTest::newRow("%2F") << QByteArray("/a%2Fb");
        QTest::newRow("%2f") << QByteArray("/a%2fb");
        QTest::newRow("%5C") << QByteArray("/a%5Cb");
        QTest::newRow("%00") << QByteArray("/a%00b");
        QTest::newRow("%0A") << QByteArray("/a%0Ab");
        QTest::newRow("%7F") << QByteArray("/a%7Fb");
        QTest::newRow("%C0%AE%C0%AE") << QByteArray("/%C0%AE%C0%AE");
    }
    void entityNamesThatLeaveTheirPlaceAreRefused() {
        QFETCH(QByteArray, target);
        QVERIFY(startTlsEndpoint());
        const QByteArray body = atomEntry(QStringLiteral("QueueDescription"), {});
        for (const bool tls : {false, true}) {
            PortPeer client = peer(tls);
            QVERIFY(client.socket->write(httpRequest("PUT", target, tls ? m_tlsPort : m_port, body,
                                                     "Connection: close\r\n")));
            QByteArray answer;
            QVERIFY(client.socket->closedByPeerWithin(5000, &answer));
            const auto response = takeResponse(answer);
            QVERIFY2(response, answer.constData());
            QCOMPARE(response->status, 400);
            QVERIFY(response->body.contains("<Error><Code>400</Code>"));
        }
        QCOMPARE(entityPaths(), m_before);
        QCOMPARE(putTokenStatus(false), 200);
    }

    void aGoodNameIsCreatedSoTheCheckAboveSeesChanges() {
        QVERIFY(startTlsEndpoint());
        const QByteArray body = atomEntry(QStringLiteral("QueueDescription"), {});
        PortPeer client = peer(true);
        QVERIFY(client.socket->write(httpRequest("PUT", "/made-through-tls", m_tlsPort, body)));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, 201);
        QCOMPARE(entityPaths().size(), m_before.size() + 1);
        m_before.clear();
    }

private:
    void ports() {
        QTest::addColumn<bool>("tls");
        QTest::newRow("plain") << false;
        QTest::newRow("TLS") << true;
    }

    QStringList m_before;
};

QTEST_GUILESS_MAIN(AmqpTlsPortTest)
#include "tst_amqp_tls_port.moc"
