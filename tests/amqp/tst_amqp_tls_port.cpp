// The endpoint's ports attacked over real sockets: the TLS port (AMQP and SASL through TLS;
// garbage instead of a ClientHello, a client that does not trust the certificate, handshakes that
// never finish, a thousand handshakes at once), AMQP over WebSocket on both ports (the upgrade,
// AMQP inside frames that must authenticate in time, a bad upgrade, an unmasked frame), and a stop
// with every kind of connection open. Each case checks what the peer sees, that the endpoint goes
// on serving others, and that the broker's entities did not change. The administration API's
// HTTP on the same ports: tst_amqp_port_http.

#include "RawPeerSteps.h"
#include "TlsPortPeers.h"
#include "WebSocketBridge.h"

#include <QTest>

#include <openssl/x509_vfy.h>

#include <sys/resource.h>

#include <memory>
#include <vector>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;

class AmqpTlsPortTest : public TlsPortTestBase {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(makeCertificate()); }
    void init() { QVERIFY(openBrokerWithQueue()); }
    void cleanup() { finishCase(); }

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
        // As many as the endpoint takes, and as this process's descriptors allow: each socket
        // is two of them here, the client's and the endpoint's.
        const int limit = m_endpoint->connectionLimit();
        rlimit files{};
        ::getrlimit(RLIMIT_NOFILE, &files);
        const int count =
            int(qMin<qint64>(qMin(1000, limit - 10), (qint64(files.rlim_cur) - 256) / 2));
        QVERIFY2(count >= 200, qPrintable(QStringLiteral("%1, %2").arg(limit).arg(files.rlim_cur)));
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

    void aWebSocketUpgradeCarriesAmqp_data() {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<bool>("together"); // the first frame in the upgrade's own write
        for (const bool tls : {false, true})
            for (const QByteArray target : {"/$servicebus/websocket", "/$servicebus/websocket/"})
                QTest::addRow("%s %s", tls ? "TLS" : "plain", target.constData())
                    << tls << target << false;
        QTest::newRow("plain, frame with the upgrade")
            << false << QByteArray("/$servicebus/websocket") << true;
        QTest::newRow("TLS, frame with the upgrade")
            << true << QByteArray("/$servicebus/websocket") << true;
    }
    void aWebSocketUpgradeCarriesAmqp() {
        QFETCH(bool, tls);
        QFETCH(QByteArray, target);
        QFETCH(bool, together);
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        QVERIFY(client.socket->write(upgrade(target) +
                                     (together ? clientFrame(2, kAmqpHeader) : QByteArray())));
        QByteArray buffer;
        const auto response = readResponse(*client.socket, buffer);
        QVERIFY(response);
        QCOMPARE(response->status, 101);
        QCOMPARE(response->header("sec-websocket-accept"), kWebSocketAccept);
        QCOMPARE(response->header("sec-websocket-protocol"), QByteArray("AMQPWSB10"));
        QCOMPARE(response->header("upgrade").toLower(), QByteArray("websocket"));
        if (!together)
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
            QByteArray(good).replace("Sec-WebSocket-Key: " + kWebSocketKey + "\r\n", "");
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

    // A WebSocket peer that sends pings and never reads cannot make the endpoint hold its pongs:
    // past a bound of unsent bytes the endpoint stops reading, and the peer's sends stall.
    void aWebSocketPeerThatDoesNotReadIsNotReadEither() {
        QVERIFY(startTlsEndpoint());
        RawSocket client(m_port);
        QVERIFY(client.write(upgrade("/$servicebus/websocket")));
        QByteArray buffer;
        const auto response = readResponse(client, buffer);
        QVERIFY(response && response->status == 101);
        QByteArray burst;
        for (int i = 0; i < 512; ++i)
            burst += clientFrame(9, QByteArray(125, 'p'));
        constexpr qint64 kCap = 64 * 1024 * 1024;
        qint64 sent = 0;
        QByteArray pending;
        QElapsedTimer total;
        total.start();
        QElapsedTimer stalled;
        stalled.start();
        while (sent < kCap && total.elapsed() < 10000 && stalled.elapsed() < 1000) {
            if (pending.isEmpty())
                pending = burst;
            const qsizetype n = client.writeSome(pending);
            QVERIFY(n >= 0);
            if (n > 0) {
                sent += n;
                pending.remove(0, n);
                stalled.restart();
            } else {
                QTest::qWait(5);
            }
        }
        qInfo("%lld KiB of pings taken before the endpoint stopped reading", sent / 1024);
        QVERIFY2(sent < kCap / 2, qPrintable(QString::number(sent)));
        QCOMPARE(putTokenStatus(false), 200);
    }

    // Stopping with every kind of connection open: AMQP is told why, the rest just go, and the
    // stop does not wait on any of them.
    void stoppingEndsEveryKindOfConnection() {
        QVERIFY(startTlsEndpoint());
        DrivenClient amqp(m_port);
        QCOMPARE(amqp.putToken(token(m_port), 5000), 200);
        TlsBridge tlsBridge(m_tlsPort, m_files.caCertificate);
        WebSocketBridge webSocket(tlsBridge.port());
        DrivenClient overWebSocket(webSocket.port());
        QCOMPARE(overWebSocket.putToken(token(m_tlsPort), 5000), 200);
        PortPeer http = peer(true);
        QVERIFY(http.socket->write(httpRequest("GET", "/q", m_tlsPort)));
        QByteArray buffer;
        QVERIFY(readResponse(*http.socket, buffer));
        RawSocket handshaking(m_tlsPort);
        tls::test::MemoryTlsClient hello(m_files.caCertificate, "localhost");
        QVERIFY(handshaking.write(hello.takeCiphertext()));
        RawSocket silent(m_port);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 5, 5000);
        QElapsedTimer timer;
        timer.start();
        m_endpoint->stop(QStringLiteral("Stopping for the test."));
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(m_endpoint->connectionCount(), 0);
        QVERIFY(!amqp.stillOpenAfter(1000));
        QCOMPARE(amqp.closeCondition(), QByteArray("amqp:connection:forced"));
        QVERIFY(!overWebSocket.stillOpenAfter(1000));
        QCOMPARE(overWebSocket.closeCondition(), QByteArray("amqp:connection:forced"));
        QVERIFY(http.socket->closedByPeerWithin(2000));
        QVERIFY(handshaking.closedByPeerWithin(2000));
        QVERIFY(silent.closedByPeerWithin(2000));
    }
};

QTEST_GUILESS_MAIN(AmqpTlsPortTest)
#include "tst_amqp_tls_port.moc"
