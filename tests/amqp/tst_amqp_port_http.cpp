// The administration API's HTTP on the endpoint's ports, plain and through TLS, attacked over real
// sockets: no token, conflicting lengths, a slow client, a half-closed one, one that never reads
// its answers, idle connections that would hold every place, and entity names that try to leave
// their place. Each case checks what the peer sees, that the endpoint goes on serving others, and
// that the broker's entities did not change (but where a case creates one on purpose).

#include "AdminFixture.h"
#include "TlsPortPeers.h"

#include <QTest>

#include <memory>
#include <vector>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;

class AmqpPortHttpTest : public TlsPortTestBase {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(makeCertificate()); }
    void init() { QVERIFY(openBrokerWithQueue()); }
    void cleanup() { finishCase(); }

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

    // Large answers to pipelined requests, the last of which closes the connection, arrive
    // whole before the close, even to a client that reads late: more than the sockets hold is
    // still queued when the endpoint decides to close.
    void largeAnswersArriveWholeBeforeTheClose_data() { ports(); }
    void largeAnswersArriveWholeBeforeTheClose() {
        QFETCH(bool, tls);
        for (int i = 0; i < 60; ++i)
            QVERIFY(m_broker->createQueue(QStringLiteral("big-list-%1").arg(i), {}).ok());
        m_before = entityPaths();
        QVERIFY(startTlsEndpoint());
        PortPeer client = peer(tls);
        const quint16 port = tls ? m_tlsPort : m_port;
        constexpr int kRequests = 40;
        QByteArray requests;
        for (int i = 0; i < kRequests; ++i)
            requests += httpRequest("GET", "/$Resources/Queues", port, {},
                                    i + 1 == kRequests ? "Connection: close\r\n" : "");
        QVERIFY(client.socket->write(requests));
        // The client reads nothing until the endpoint has written what the sockets take.
        QTest::qWait(500);
        QByteArray answer;
        QVERIFY(client.socket->closedByPeerWithin(10000, &answer));
        for (int i = 0; i < kRequests; ++i) {
            const auto response = takeResponse(answer);
            QVERIFY2(response,
                     qPrintable(QStringLiteral("%1: %2 bytes left").arg(i).arg(answer.size())));
            QCOMPARE(response->status, 200);
            QVERIFY(response->body.trimmed().endsWith("</feed>"));
        }
        QVERIFY(answer.isEmpty());
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
};

QTEST_GUILESS_MAIN(AmqpPortHttpTest)
#include "tst_amqp_port_http.moc"
