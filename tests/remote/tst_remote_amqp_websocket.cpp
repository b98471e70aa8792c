// AMQP over WebSockets: the remote client against a served namespace (ServedNamespace.h) on its
// plain port (ws://, an emulator-style string) and its TLS port (wss://), connecting, sending,
// peeking (a 20 MB page too), receiving and settling; a RemoteBroker opened with WebSockets; where
// the upgrade goes and what it asks for; and each way it cannot work is a clear error, returned
// promptly: a certificate that does not verify, a wrong path, an upgrade refused, a WebSocket that
// is not AMQP's, a peer that says nothing.

#include "JunkPeer.h"
#include "RemoteAdminTestSupport.h"
#include "ServedNamespace.h"
#include "WebSocketTransport.h"
#include "WorkerCall.h"

#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/RemoteBroker.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

const QString kQueue = QStringLiteral("orders");

ConnectionString parsed(const QString& text) {
    const auto where = parseConnectionString(text);
    if (!where)
        qFatal("a test connection string does not parse: %s", qPrintable(where.error().toString()));
    return *where;
}

AmqpClientOptions overWebSockets(const QString& caFile = {}) {
    AmqpClientOptions options;
    options.callTimeoutMs = 5000;
    options.extraCaFile = caFile;
    options.webSockets = true;
    return options;
}

ConnectionString emulatorAt(quint16 port) {
    return parsed(QStringLiteral("Endpoint=sb://127.0.0.1:%1;SharedAccessKeyName=k;"
                                 "SharedAccessKey=v;UseDevelopmentEmulator=true")
                      .arg(port));
}

template <typename R> QByteArray why(const R& result) {
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

QString descriptionOf(const Result<void>& result) {
    return result.ok() ? QString() : result.error().description;
}

// A stand-in that accepts the upgrade (a correct Sec-WebSocket-Accept) but names no subprotocol:
// a WebSocket server that is not AMQP's.
class PlainWebSocketServer : public QObject {
public:
    PlainWebSocketServer() {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [socket] {
                    const QByteArray head = socket->readAll();
                    const qsizetype at = head.toLower().indexOf("sec-websocket-key:");
                    if (at < 0)
                        return;
                    const QByteArray key = head.mid(at + 18, head.indexOf("\r\n", at) - at - 18);
                    const QByteArray accept =
                        QCryptographicHash::hash(key.trimmed() +
                                                     "258EAFA5-E914-47DA-95CA-C5AB0DC85B11",
                                                 QCryptographicHash::Sha1)
                            .toBase64();
                    socket->write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                  "Connection: Upgrade\r\nSec-WebSocket-Accept: " +
                                  accept + "\r\n\r\n");
                });
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    QTcpServer m_server;
};

} // namespace

class TestRemoteAmqpWebSocket : public QObject {
    Q_OBJECT

private slots:
    // Where AMQP over WebSockets goes for each kind of string: the HTTP(S) port.
    void theAddressFollowsTheString_data() {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("url");
        QTest::newRow("azure: 443")
            << QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/")
            << QStringLiteral("wss://contoso.servicebus.windows.net/$servicebus/"
                              "websocket");
        QTest::newRow("a named port")
            << QStringLiteral("Endpoint=sb://localhost:5671")
            << QStringLiteral("wss://localhost:5671/$servicebus/websocket");
        QTest::newRow("emulator: 5672")
            << QStringLiteral("Endpoint=sb://localhost;UseDevelopmentEmulator=true")
            << QStringLiteral("ws://localhost:5672/$servicebus/websocket");
        QTest::newRow("emulator, a named port")
            << QStringLiteral("Endpoint=sb://[::1]:6000;UseDevelopmentEmulator=true")
            << QStringLiteral("ws://[::1]:6000/$servicebus/websocket");
    }
    void theAddressFollowsTheString() {
        QFETCH(QString, endpoint);
        QFETCH(QString, url);
        QCOMPARE(webSocketUrl(parsed(endpoint)).toString(), url);
    }

    void sendsPeeksReceivesAndSettles_data() {
        QTest::addColumn<bool>("tls");
        QTest::newRow("ws") << false;
        QTest::newRow("wss") << true;
    }
    void sendsPeeksReceivesAndSettles() {
        QFETCH(bool, tls);
        ServedNamespace served(tls ? ServedNamespace::Transport::Tls
                                   : ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        AmqpClient client(served.connection(), overWebSockets(served.caFile()));
        const auto connected = client.connect();
        QVERIFY2(connected.ok(), why(connected).constData());
        QVERIFY(client.isConnected());

        for (const QString id : {"a", "b", "c", "d"}) {
            const auto sent = client.send(kQueue, TestBroker::message(id, id.toUtf8()));
            QVERIFY2(sent.ok(), why(sent).constData());
        }
        QCOMPARE(served.broker().counts(kQueue)->active, 4);

        const auto peeked = client.peek(kQueue, {0, 10, std::nullopt});
        QVERIFY2(peeked.ok(), why(peeked).constData());
        QCOMPARE(peeked->size(), 4);
        QCOMPARE(peeked->at(2).messageId, QStringLiteral("c"));
        QCOMPARE(peeked->at(2).body, QByteArray("c"));

        ReceiveOptions lock;
        lock.maxCount = 3;
        lock.receiver = QStringLiteral("r1");
        const auto got = client.receive(kQueue, lock, 2000);
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 3);
        QCOMPARE(served.broker().counts(kQueue)->locked, 3);
        QVERIFY(client.complete(LockRef::of(got->at(0))).ok());
        QVERIFY(client.abandon(LockRef::of(got->at(1))).ok());
        DeadLetterOptions reason;
        reason.reason = QStringLiteral("bad");
        QVERIFY(client.deadLetter(LockRef::of(got->at(2)), reason).ok());
        EntityCounts counts = *served.broker().counts(kQueue);
        QCOMPARE(counts.locked, 0);
        QCOMPARE(counts.active, 2); // b given back, d never taken
        QCOMPARE(counts.deadLettered, 1);

        ReceiveOptions take;
        take.mode = ReceiveMode::ReceiveAndDelete;
        take.maxCount = 5;
        take.receiver = QStringLiteral("r2");
        const auto taken = client.receive(kQueue, take, 1000);
        QVERIFY2(taken.ok(), why(taken).constData());
        QCOMPARE(taken->size(), 2);
        QCOMPARE(served.broker().counts(kQueue)->active, 0);
        client.close();
        QVERIFY(!client.isConnected());
    }

    // Large messages, many at once: more than one WebSocket message's bound in one peek.
    void largePagesComeThrough() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        const QByteArray body(200 * 1024, 'x');
        AmqpClient client(served.connection(), overWebSockets());
        QList<OutgoingMessage> batch;
        for (int i = 0; i < 100; ++i)
            batch.append(TestBroker::message(QString::number(i), body));
        for (const OutgoingMessage& message : batch) {
            const auto sent = client.send(kQueue, message);
            QVERIFY2(sent.ok(), why(sent).constData());
        }
        const auto peeked = client.peek(kQueue, {0, 100, std::nullopt});
        QVERIFY2(peeked.ok(), why(peeked).constData());
        QCOMPARE(peeked->size(), 100);
        QCOMPARE(peeked->last().body, body);
    }

    // A RemoteBroker with the option: entities through the administration API, messages over
    // WebSockets, through the Broker interface only.
    void aRemoteBrokerOpensWithWebSockets_data() { sendsPeeksReceivesAndSettles_data(); }
    void aRemoteBrokerOpensWithWebSockets() {
        QFETCH(bool, tls);
        ServedNamespace served(tls ? ServedNamespace::Transport::Tls
                                   : ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(served.connection());
        options.admin.extraCaFile = served.caFile();
        options.admin.timeout = std::chrono::milliseconds(5000);
        options.amqp = overWebSockets(served.caFile());
        options.pollInterval = std::chrono::hours(1);
        RemoteBroker remote(options);
        QVERIFY(remote.options().amqp.webSockets);

        QCOMPARE(remote.entities({}).size(), 1);
        const auto sent = remote.send(kQueue, TestBroker::message(QStringLiteral("m1")));
        QVERIFY2(sent.ok(), why(sent).constData());
        QCOMPARE(sent->messageId, QStringLiteral("m1"));
        const auto peeked = remote.peek(kQueue, PeekOptions{0, 5, std::nullopt});
        QVERIFY2(peeked.ok(), why(peeked).constData());
        QCOMPARE(peeked->size(), 1);
        ReceiveOptions lock;
        lock.receiver = QStringLiteral("r");
        const auto got = remote.receive(kQueue, lock);
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 1);
        QVERIFY(remote.complete(LockRef::of(got->first())).ok());
        QCOMPARE(served.broker().counts(kQueue)->active, 0);
        QCOMPARE(served.broker().counts(kQueue)->locked, 0);
    }

    // The proof that the option changes the wire: an endpoint that serves AMQP but no WebSocket
    // upgrade (no administration stream services) takes the same string without the option and
    // turns the client with it away, promptly.
    void anEndpointWithoutWebSocketsTurnsTheClientAway_data() {
        sendsPeeksReceivesAndSettles_data();
    }
    void anEndpointWithoutWebSocketsTurnsTheClientAway() {
        QFETCH(bool, tls);
        TestBroker broker;
        QVERIFY(broker->createQueue(kQueue, {}).ok());
        QTemporaryDir certs;
        amqp::EndpointOptions options;
        options.port = 0;
        QString caFile;
        if (tls) {
            const auto files = tls::LocalCertificates::ensure(certs.path(), {});
            QVERIFY(files.ok());
            caFile = files->caCertificate;
            options.tls = amqp::EndpointTls{0, files->serverCertificate, files->serverKey};
        }
        amqp::AmqpEndpoint endpoint(broker.broker(), options);
        const auto port = endpoint.start();
        QVERIFY(port.ok());
        const ConnectionString where =
            tls ? parsed(QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                                        "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE")
                             .arg(endpoint.tlsPort()))
                : parsed(QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                                        "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;"
                                        "UseDevelopmentEmulator=true")
                             .arg(*port));

        AmqpClientOptions direct = overWebSockets(caFile);
        direct.webSockets = false;
        AmqpClient amqpClient(where, direct);
        const auto plain = amqpClient.connect();
        QVERIFY2(plain.ok(), why(plain).constData());

        AmqpClient webSocketClient(where, overWebSockets(caFile));
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = webSocketClient.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("WebSocket upgrade")),
                 qPrintable(descriptionOf(connected)));
        QVERIFY(elapsed.elapsed() < 4000);
    }

    void aCertificateThatDoesNotVerifyStopsTheConnection() {
        ServedNamespace served(ServedNamespace::Transport::Tls);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        AmqpClient client(served.connection(), overWebSockets()); // the system's CAs only
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("does not verify")),
                 qPrintable(descriptionOf(connected)));
        QVERIFY(!client.send(kQueue, TestBroker::message(QStringLiteral("m"))).ok());
        QCOMPARE(served.broker().counts(kQueue)->active, 0);
    }

    // The upgrade as the service expects it: GET /$servicebus/websocket, subprotocol AMQPWSB10.
    // A refusal names the status, and the call returns at once.
    void aRefusedUpgradeSaysSo() {
        StandInServer refusing(
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        AmqpClient client(emulatorAt(refusing.port()), overWebSockets());
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = onWorker([&] { return client.connect(); });
        QVERIFY(elapsed.elapsed() < 4000);
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("HTTP 404")),
                 qPrintable(descriptionOf(connected)));
        QVERIFY2(refusing.received.startsWith("GET /$servicebus/websocket HTTP/1.1\r\n"),
                 refusing.received.left(200).constData());
        QVERIFY(refusing.received.toLower().contains("\r\nsec-websocket-protocol: amqpwsb10\r\n"));
        QVERIFY(refusing.received.toLower().contains("\r\nupgrade: websocket\r\n"));
    }

    // The endpoint refuses an upgrade at any other path: the transport reports it, no hang.
    void aWrongPathIsRefused() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QUrl url = webSocketUrl(served.connection());
        url.setPath(QStringLiteral("/somewhere/else"));
        WebSocketTransport transport(WebSocketEndpoint{url, {}});
        bool opened = false;
        std::optional<Error> failed;
        transport.open({[&] { opened = true; }, [](const QByteArray&) {},
                        [&](const Error& why) { failed = why; }});
        QTRY_VERIFY_WITH_TIMEOUT(failed.has_value(), 5000);
        QVERIFY(!opened);
        QCOMPARE(failed->code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(failed->description.contains(QStringLiteral("HTTP 404")),
                 qPrintable(failed->description));
        QVERIFY(failed->description.contains(QStringLiteral("/somewhere/else")));
    }

    void aWebSocketThatIsNotAmqpsIsRefused() {
        PlainWebSocketServer server;
        AmqpClient client(emulatorAt(server.port()), overWebSockets());
        const auto connected = onWorker([&] { return client.connect(); });
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("AMQPWSB10")),
                 qPrintable(descriptionOf(connected)));
    }

    void aPeerThatAnswersNothingTimesOut() {
        JunkPeer silent{QByteArray()};
        AmqpClientOptions options = overWebSockets();
        options.callTimeoutMs = 1000;
        AmqpClient client(emulatorAt(silent.port()), options);
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(elapsed.elapsed() < 2900);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAmqpWebSocket)
#include "tst_remote_amqp_websocket.moc"
