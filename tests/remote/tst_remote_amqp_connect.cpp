// The remote AMQP client's connection: it opens and proves its key on a real endpoint, plain and
// over TLS, and each way it cannot is a clear error, returned promptly: a wrong key, a host that
// is not there, a certificate that does not verify, a peer that answers junk or nothing, and an
// endpoint that goes away.

#include "JunkPeer.h"
#include "RemoteTestBase.h"

#include <QElapsedTimer>
#include <QTcpServer>

using namespace hourglass;
using namespace hourglass::testing;
using remote::AmqpClient;

class TestRemoteAmqpConnect : public RemoteTestBase {
    Q_OBJECT

    // The put-token requests the endpoint has seen (its snapshot is published a few times a
    // second).
    int putTokens() {
        qint64 count = 0;
        for (const auto& connection : m_endpoint->snapshot().connections)
            for (const auto& link : connection.links)
                if (link.address == QStringLiteral("$cbs") &&
                    link.direction == amqp::WireLink::Direction::ClientSends)
                    count += qint64(link.messages);
        return int(count);
    }

private slots:
    void cleanup() { reset(); }

    void connectsWithTheKey() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        QVERIFY(!client.isConnected());
        const auto connected = client.connect();
        QVERIFY2(connected.ok(), why(connected).constData());
        QVERIFY(client.isConnected());
        QVERIFY(client.connect().ok()); // connected: answers at once
        client.close();
        QVERIFY(!client.isConnected());
        // Closed is not final: the next call connects again.
        QVERIFY(client.connect().ok());
    }

    void aWrongKeyIsUnauthorized() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(QStringLiteral("not-the-key")), quick());
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::Unauthorized);
        QVERIFY(!client.isConnected());
        // Nothing was sent with it.
        QVERIFY(!client.send(QStringLiteral("orders"), {}).ok());
        QCOMPARE(m_broker->counts(QStringLiteral("orders"))->active, 0);
    }

    void anUnreachableHostFailsAtOnce() {
        quint16 port = 0;
        {
            QTcpServer closed; // a port that was free a moment ago, and no one listens on it
            QVERIFY(closed.listen(QHostAddress::LocalHost));
            port = closed.serverPort();
        }
        AmqpClient client(parsed(QStringLiteral("Endpoint=sb://127.0.0.1:%1;SharedAccessKeyName=k;"
                                                "SharedAccessKey=v;UseDevelopmentEmulator=true")
                                     .arg(port)),
                          quick());
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("Cannot reach")),
                 qPrintable(connected.ok() ? QString() : connected.error().description));
        QVERIFY(elapsed.elapsed() < 4000);
    }

    void aCertificateThatDoesNotVerifyStopsTheConnection() {
        QVERIFY(startWithQueue(QStringLiteral("orders"), true));
        {
            // Without the endpoint's CA: the system's store does not know it.
            AmqpClient client(tlsString(), quick());
            const auto connected = client.connect();
            QVERIFY(!connected.ok());
            QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
            QVERIFY2(connected.error().description.contains(QStringLiteral("certificate")),
                     qPrintable(connected.ok() ? QString() : connected.error().description));
            const auto sent = client.send(QStringLiteral("orders"), {});
            QCOMPARE(sent.error().code, ErrorCode::ServiceCommunicationProblem);
            QCOMPARE(m_broker->counts(QStringLiteral("orders"))->active, 0);
        }
        // With it, the same endpoint is trusted.
        AmqpClient client(tlsString(), quick(m_caFile));
        const auto connected = client.connect();
        QVERIFY2(connected.ok(), why(connected).constData());
        QVERIFY(client.send(QStringLiteral("orders"), {}).ok());
        QCOMPARE(m_broker->counts(QStringLiteral("orders"))->active, 1);
    }

    void aPeerThatAnswersJunkIsNotAService() {
        JunkPeer junk("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        AmqpClient client(parsed(QStringLiteral("Endpoint=sb://127.0.0.1:%1;SharedAccessKeyName=k;"
                                                "SharedAccessKey=v;UseDevelopmentEmulator=true")
                                     .arg(junk.port())),
                          quick());
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(elapsed.elapsed() < 4000);
        // A short prefix of what it said at most.
        QVERIFY(connected.error().description.size() < 400);
    }

    void aPeerThatAnswersNothingTimesOut() {
        JunkPeer silent{QByteArray()};
        remote::AmqpClientOptions options = quick();
        options.callTimeoutMs = 1000;
        AmqpClient client(parsed(QStringLiteral("Endpoint=sb://127.0.0.1:%1;SharedAccessKeyName=k;"
                                                "SharedAccessKey=v;UseDevelopmentEmulator=true")
                                     .arg(silent.port())),
                          options);
        QElapsedTimer elapsed;
        elapsed.start();
        const auto connected = client.connect();
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(elapsed.elapsed() < 2900);
    }

    void renewsItsTokensBeforeTheyExpire() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        remote::AmqpClientOptions options = quick();
        options.sasTokenLifetimeSeconds = 2; // renewed every second
        AmqpClient client(plainString(), options);
        QVERIFY(client.send(QStringLiteral("orders"), {}).ok());
        // Two tokens (the namespace's at connect, the queue's at the send), then renewals: by the
        // eighth put-token both were renewed twice, so the first ones have expired.
        QTRY_VERIFY_WITH_TIMEOUT(putTokens() >= 8, 8000);
        // A new link is checked against the claims in force now: the renewed ones.
        ReceiveOptions receive;
        receive.receiver = QStringLiteral("r1");
        const auto got = client.receive(QStringLiteral("orders"), receive, 500);
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 1);
    }

    void anEndpointThatStopsFailsTheNextCallPromptly() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        QVERIFY(client.connect().ok());
        m_endpoint.reset();
        QTRY_VERIFY_WITH_TIMEOUT(!client.isConnected(), 5000);
        QElapsedTimer elapsed;
        elapsed.start();
        const auto sent = client.send(QStringLiteral("orders"), {});
        QVERIFY(!sent.ok());
        QCOMPARE(sent.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(elapsed.elapsed() < 4000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAmqpConnect)
#include "tst_remote_amqp_connect.moc"
