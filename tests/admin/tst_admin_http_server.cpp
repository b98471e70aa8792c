// The administration API over plain HTTP (AdminHttpServer) with raw sockets: keep-alive,
// pipelining, HEAD, 100-continue, chunked bodies, requests in 1-byte pieces; every malformed
// request answered with its status, the connection closed and the broker unchanged; slow and
// silent clients dropped on time while others are served; the connection limit; keys of a
// namespace made after the start; a stop with requests in flight.

#include "AdminFixture.h"
#include "RawHttpClient.h"

#include "hourglass/Broker.h"
#include "hourglass/admin/AdminHttpServer.h"

#include <QTest>

#include <list>
#include <memory>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
const QByteArray kQueueBody = atomEntry(QStringLiteral("QueueDescription"),
                                        QStringLiteral("<MaxDeliveryCount>7</MaxDeliveryCount>"));

// Short timeouts, so that the drop tests wait a fraction of a second (QTRY bounds them).
AdminHttpOptions quickOptions() {
    AdminHttpOptions options;
    options.headerTimeout = std::chrono::milliseconds(400);
    options.bodyTimeout = std::chrono::milliseconds(400);
    options.idleTimeout = std::chrono::milliseconds(600);
    return options;
}

QStringList entityPaths(Broker& broker) {
    QStringList paths;
    for (const EntityInfo& entity : broker.entities())
        paths.append(entity.path);
    return paths;
}
} // namespace

class AdminHttpServerTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestBroker> m_broker;
    std::shared_ptr<amqp::NamespaceKeyRing> m_keys;
    std::unique_ptr<AdminHttpServer> m_server;
    quint16 m_port = 0;

    void startServer(AdminHttpOptions options = quickOptions()) {
        m_server = std::make_unique<AdminHttpServer>(m_broker->broker(), m_keys, options);
        const auto port = m_server->start();
        QVERIFY2(bool(port), port ? "" : qPrintable(port.error().toString()));
        m_port = *port;
        QVERIFY(m_port != 0);
    }

    // A well-formed request on a fresh connection gets its answer.
    void checkServed() {
        RawHttpClient other(m_port);
        other.send(httpRequest("GET", "/$namespaceinfo", m_port));
        const auto response = other.response();
        QVERIFY(response);
        QCOMPARE(response->status, 200);
    }

private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        m_keys = std::make_shared<amqp::NamespaceKeyRing>(amqp::wellKnownEmulatorKey());
        startServer();
    }
    void cleanup() {
        m_server.reset();
        m_broker.reset();
    }

    void defaultsAreTheDocumentedOnes() {
        const AdminHttpOptions defaults;
        QCOMPARE(defaults.headerTimeout, std::chrono::milliseconds(10'000));
        QCOMPARE(defaults.idleTimeout, std::chrono::milliseconds(60'000));
        QCOMPARE(defaults.maxConnections, 1000);
        QCOMPARE(defaults.port, quint16(0));
    }

    void keepAliveServesSeveralRequests() {
        RawHttpClient client(m_port);
        client.send(httpRequest("PUT", "/orders", m_port, kQueueBody));
        auto created = client.response();
        QVERIFY(created);
        QCOMPARE(created->status, 201);
        QVERIFY(created->header("content-type").startsWith("application/atom+xml"));
        QVERIFY(!created->header("date").isEmpty());
        QCOMPARE(created->header("server"), QByteArray("Hourglass"));
        QCOMPARE(entityPaths(m_broker->broker()), QStringList{"orders"});
        for (int i = 0; i < 3; ++i) {
            client.send(httpRequest("GET", "/orders", m_port));
            const auto read = client.response();
            QVERIFY(read);
            QCOMPARE(read->status, 200);
            QVERIFY(read->body.contains("<MaxDeliveryCount>7</MaxDeliveryCount>"));
        }
        QVERIFY(client.connected());
        client.send(httpRequest("DELETE", "/orders", m_port, {}, "Connection: close\r\n"));
        const auto deleted = client.response();
        QVERIFY(deleted);
        QCOMPARE(deleted->status, 200);
        QCOMPARE(deleted->header("connection"), QByteArray("close"));
        QVERIFY(client.closedByServer());
        QVERIFY(entityPaths(m_broker->broker()).isEmpty());
    }

    void pipelinedRequestsAreAnsweredInOrder() {
        RawHttpClient client(m_port);
        client.send(httpRequest("PUT", "/a", m_port, kQueueBody) +
                    httpRequest("GET", "/missing", m_port) +
                    httpRequest("PUT", "/b", m_port, kQueueBody) +
                    httpRequest("GET", "/$Resources/Queues", m_port));
        QList<int> statuses;
        for (int i = 0; i < 4; ++i) {
            const auto response = client.response();
            QVERIFY(response);
            statuses.append(response->status);
            if (i == 3) {
                QVERIFY(response->body.contains("<title type=\"text\">a</title>"));
                QVERIFY(response->body.contains("<title type=\"text\">b</title>"));
            }
        }
        QCOMPARE(statuses, (QList<int>{201, 404, 201, 200}));
    }

    void headHasTheGetsHeadersWithoutABody() {
        RawHttpClient client(m_port);
        client.send(httpRequest("GET", "/$namespaceinfo", m_port));
        const auto get = client.response();
        QVERIFY(get);
        client.send(httpRequest("HEAD", "/$namespaceinfo", m_port) +
                    httpRequest("GET", "/$namespaceinfo", m_port));
        const auto head = client.response(true);
        QVERIFY(head);
        QCOMPARE(head->status, 200);
        QCOMPARE(head->header("content-length").toLongLong(), get->body.size());
        // The next response follows the HEAD's headers at once: no body came between.
        const auto after = client.response();
        QVERIFY(after);
        QCOMPARE(after->status, 200);
        QCOMPARE(after->body.size(), get->body.size());
    }

    void expectContinueThenTheBody() {
        RawHttpClient client(m_port);
        QByteArray request =
            httpRequest("PUT", "/orders", m_port, kQueueBody, "Expect: 100-continue\r\n");
        request.chop(kQueueBody.size());
        client.send(request);
        const auto interim = client.response();
        QVERIFY(interim);
        QCOMPARE(interim->status, 100);
        QVERIFY(entityPaths(m_broker->broker()).isEmpty());
        client.send(kQueueBody);
        const auto created = client.response();
        QVERIFY(created);
        QCOMPARE(created->status, 201);
    }

    void expectContinueOverTheLimitIs413WithoutTheBody() {
        RawHttpClient client(m_port);
        client.send("PUT /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n" + authorizationFor(m_port) +
                    "\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n");
        const auto refused = client.response();
        QVERIFY(refused);
        QCOMPARE(refused->status, 413);
        QVERIFY(client.closedByServer());
        QVERIFY(entityPaths(m_broker->broker()).isEmpty());
    }

    void chunkedBodyInOneBytePieces() {
        RawHttpClient client(m_port);
        QByteArray request = "PUT /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                             authorizationFor(m_port) + "\r\nTransfer-Encoding: chunked\r\n\r\n";
        const qsizetype half = kQueueBody.size() / 2;
        request += QByteArray::number(half, 16) + "\r\n" + kQueueBody.first(half) + "\r\n";
        request += QByteArray::number(kQueueBody.size() - half, 16) + "\r\n" +
                   kQueueBody.sliced(half) + "\r\n0\r\n\r\n";
        for (char byte : request)
            client.send(QByteArray(1, byte));
        const auto created = client.response();
        QVERIFY(created);
        QCOMPARE(created->status, 201);
        QCOMPARE(entityPaths(m_broker->broker()), QStringList{"orders"});
    }

    void malformedRequestsAreRefusedAndChangeNothing_data() {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("status");
        const QByteArray put = "PUT /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        QTest::newRow("request line") << QByteArray("PUT/orders HTTP/1.1\r\n") << 400;
        QTest::newRow("header") << QByteArray(put + "No colon here\r\n") << 400;
        QTest::newRow("conflicting lengths")
            << QByteArray(put + "Content-Length: 10\r\nContent-Length: 11\r\n") << 400;
        QTest::newRow("length and chunked")
            << QByteArray(put + "Content-Length: 10\r\nTransfer-Encoding: chunked\r\n") << 400;
        QTest::newRow("bad chunk size")
            << QByteArray(put + "Transfer-Encoding: chunked\r\n\r\nxyz\r\n") << 400;
        QTest::newRow("declared body too large")
            << QByteArray(put + "Content-Length: 1048577\r\n") << 413;
        QTest::newRow("header too large")
            << QByteArray(put + "X-Big: " + QByteArray(17 * 1024, 'a') + "\r\n") << 431;
    }
    void malformedRequestsAreRefusedAndChangeNothing() {
        QFETCH(QByteArray, head);
        QFETCH(int, status);
        RawHttpClient client(m_port);
        // Each with a valid token and a body that would create the queue, were it read.
        QByteArray bytes = head;
        if (!bytes.contains("\r\n\r\n"))
            bytes += authorizationFor(m_port) + "\r\n\r\n" + kQueueBody;
        client.send(bytes);
        const auto refused = client.response();
        QVERIFY(refused);
        QCOMPARE(refused->status, status);
        QCOMPARE(refused->header("connection"), QByteArray("close"));
        QVERIFY(refused->body.contains("<Error><Code>"));
        QVERIFY(client.closedByServer());
        QVERIFY(entityPaths(m_broker->broker()).isEmpty());
        checkServed();
    }

    void slowHeadersAreDroppedWhileOthersAreServed() {
        QElapsedTimer elapsed;
        elapsed.start();
        RawHttpClient slow(m_port);
        const QByteArray request = httpRequest("GET", "/$namespaceinfo", m_port);
        qsizetype sent = 0;
        // One byte at a time, a byte per 50 ms: the headers would take far longer than allowed.
        while (slow.connected() && sent < request.size() && elapsed.elapsed() < 5000) {
            slow.send(request.mid(sent++, 1));
            checkServed(); // the other connection is answered meanwhile
            slow.socket().waitForReadyRead(50);
        }
        QVERIFY(slow.closedByServer(2000));
        QVERIFY(sent < request.size());
        QVERIFY(elapsed.elapsed() >= 350); // 400 ms, less a coarse timer's 5 %
        QByteArray rest = slow.pending();
        QVERIFY(!takeResponse(rest)); // dropped without an answer
    }

    void silentAndIdleClientsAreDropped() {
        RawHttpClient silent(m_port); // connects and never sends (a half-open peer alike)
        RawHttpClient idle(m_port);
        idle.send(httpRequest("GET", "/$namespaceinfo", m_port));
        QVERIFY(idle.response());
        RawHttpClient partial(m_port); // stops in the middle of its headers
        partial.send("GET /$namespaceinfo HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 3, 5000);
        QVERIFY(silent.closedByServer(3000));
        QVERIFY(partial.closedByServer(3000));
        QVERIFY(idle.closedByServer(3000));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 0, 5000);
    }

    void theConnectionAfterTheLimitIsClosedAtOnce() {
        AdminHttpOptions options; // the default timeouts: nobody is dropped for silence here
        startServer(options);
        std::list<QTcpSocket> clients;
        for (int i = 0; i < options.maxConnections; ++i)
            clients.emplace_back().connectToHost(QStringLiteral("127.0.0.1"), m_port);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), options.maxConnections, 30000);
        RawHttpClient refused(m_port);
        QVERIFY(refused.closedByServer(5000));
        QCOMPARE(m_server->connectionCount(), options.maxConnections);
        // One of the thousand is still served.
        QTcpSocket& first = clients.front();
        QTRY_COMPARE(first.state(), QAbstractSocket::ConnectedState);
        first.write(httpRequest("GET", "/$namespaceinfo", m_port));
        QByteArray buffer;
        QTRY_VERIFY_WITH_TIMEOUT((buffer += first.readAll()).contains("</entry>"), 10000);
        const auto served = takeResponse(buffer);
        QVERIFY(served);
        QCOMPARE(served->status, 200);
        clients.clear();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 0, 30000);
        checkServed();
    }

    void aNamespaceMadeAfterTheStartIsReachable() {
        QVERIFY(m_broker->broker().createNamespace({QStringLiteral("second"), Tier::Standard}));
        QTRY_VERIFY_WITH_TIMEOUT(m_keys->keyOf(QStringLiteral("second")).has_value(), 5000);
        const amqp::SasKey key = m_keys->keyOf(QStringLiteral("second"))->key;
        RawHttpClient client(m_port);
        client.send("GET /$namespaceinfo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " +
                    AdminFixture::token(QStringLiteral("http://127.0.0.1/"), key) + "\r\n\r\n");
        const auto response = client.response();
        QVERIFY(response);
        QCOMPARE(response->status, 200);
        QVERIFY(response->body.contains("<Name>second</Name>"));
    }

    void stopsWithRequestsInFlight() {
        std::list<RawHttpClient> clients;
        for (int i = 0; i < 8; ++i) {
            RawHttpClient& client = clients.emplace_back(m_port);
            QByteArray requests;
            for (int j = 0; j < 5; ++j)
                requests +=
                    httpRequest("PUT", "/q" + QByteArray::number(i * 5 + j), m_port, kQueueBody);
            client.send(requests);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!m_broker->broker().entities().isEmpty(), 10000);
        m_server.reset(); // returns once the calls under way are done
        for (RawHttpClient& client : clients)
            QVERIFY(client.closedByServer(5000));
        RawHttpClient after(m_port);
        QVERIFY(!after.connected());
    }

    void aPortInUseIsAClearError() {
        AdminHttpOptions options;
        options.port = m_port;
        AdminHttpServer second(m_broker->broker(), m_keys, options);
        const auto port = second.start();
        QVERIFY(!port);
        QVERIFY2(port.error().description.startsWith(
                     QStringLiteral("Cannot listen on 127.0.0.1:%1").arg(m_port)),
                 qPrintable(port.error().description));
    }
};

QTEST_GUILESS_MAIN(AdminHttpServerTest)
#include "tst_admin_http_server.moc"
