// The endpoint over a real socket, without a client library: what a broken or hostile peer
// gets (a closed connection, never a crash), a busy port, a public address without a key of its
// own, and a stop with connections still open. The SDK's own conversation is in tests/sdk.

#include "EndpointTestBase.h"
#include "RawSocket.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::EndpointTestBase;
using hourglass::testing::RawSocket;

namespace {
const QByteArray kSaslHeader("AMQP\x03\x01\x00\x00", 8);
const QByteArray kAmqpHeader("AMQP\x00\x01\x00\x00", 8);
} // namespace

class AmqpEndpointTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void init() { QVERIFY(openBroker()); }
    void cleanup() { reset(); }

    void aClientStuckInSaslIsClosedAndOthersAreServed() {
        EndpointOptions options;
        options.authenticateWithinMs = 300;
        QVERIFY(startEndpoint(options));
        RawSocket stuck(m_port);
        QVERIFY(stuck.connected());
        QVERIFY(stuck.write(kSaslHeader));
        QByteArray answer;
        QVERIFY(stuck.closedByPeerWithin(5000, &answer));
        // It was offered SASL before it went silent: the server spoke AMQP to it.
        QVERIFY(answer.startsWith(kSaslHeader));

        RawSocket next(m_port);
        QVERIFY(next.connected());
        QVERIFY(next.write(kSaslHeader));
        QByteArray greeting;
        next.closedByPeerWithin(200, &greeting);
        QVERIFY(greeting.startsWith(kSaslHeader));
    }

    void garbageIsAnsweredByAClose_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("not AMQP") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        QTest::newRow("garbage frame after the header")
            << kAmqpHeader + QByteArray("\x00\x00\x00\x10\x02\x00\x00\x00\xff\xff\xff\xff\xff\xff"
                                        "\xff\xff",
                                        16);
        QTest::newRow("frame larger than any allowed")
            << kAmqpHeader + QByteArray("\x7f\xff\xff\xff\x02\x00\x00\x00", 8) +
                   QByteArray(64, 'x');
        QTest::newRow("frame shorter than its header")
            << kAmqpHeader + QByteArray("\x00\x00\x00\x04\x02\x00\x00\x00", 8);
    }
    void garbageIsAnsweredByAClose() {
        QFETCH(QByteArray, bytes);
        EndpointOptions options;
        // Proton leaves some garbage unanswered before the peer's open: the deadline to
        // authenticate ends those (20 s by default; short here).
        options.authenticateWithinMs = 500;
        QVERIFY(startEndpoint(options));
        {
            RawSocket peer(m_port);
            QVERIFY(peer.connected());
            peer.write(bytes);
            QVERIFY(peer.closedByPeerWithin(5000));
        }
        // Still serving.
        RawSocket next(m_port);
        QVERIFY(next.connected());
        QVERIFY(next.write(kSaslHeader));
        QByteArray greeting;
        next.closedByPeerWithin(200, &greeting);
        QVERIFY(greeting.startsWith(kSaslHeader));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 1, 5000);
    }

    void manyConnectionsOpenedAndDropped() {
        QVERIFY(startEndpoint());
        for (int round = 0; round < 20; ++round) {
            std::vector<std::unique_ptr<RawSocket>> sockets;
            for (int i = 0; i < 100; ++i) {
                sockets.push_back(std::make_unique<RawSocket>(m_port));
                QVERIFY(sockets.back()->connected());
                if (i % 2 == 0)
                    sockets.back()->write(kSaslHeader);
            }
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 10000);
        RawSocket next(m_port);
        QVERIFY(next.write(kSaslHeader));
        QByteArray greeting;
        next.closedByPeerWithin(200, &greeting);
        QVERIFY(greeting.startsWith(kSaslHeader));
    }

    void aBusyPortIsSaidWithTheReason() {
        QVERIFY(startEndpoint());
        EndpointOptions options;
        options.port = m_port;
        AmqpEndpoint second(*m_broker, options);
        const auto refused = second.start();
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().description.contains(QString::number(m_port)),
                 qPrintable(refused.error().description));
        QVERIFY(!second.running());
        QVERIFY(m_endpoint->running());
    }

    void aPublicAddressNeedsAKeyOfItsOwn() {
        EndpointOptions options;
        options.host = QStringLiteral("0.0.0.0");
        options.port = 0;
        AmqpEndpoint endpoint(*m_broker, options);
        const auto refused = endpoint.start();
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
        QVERIFY(refused.error().description.contains(QStringLiteral("SAS_KEY_VALUE")));
        options.key.value = QStringLiteral("a-key-of-my-own");
        AmqpEndpoint keyed(*m_broker, options);
        QVERIFY(keyed.start().ok());
    }

    void stopWithConnectionsOpenReturns() {
        QVERIFY(startEndpoint());
        RawSocket a(m_port);
        RawSocket b(m_port);
        a.write(kAmqpHeader);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 2, 5000);
        m_endpoint->stop();
        QVERIFY(!m_endpoint->running());
        QVERIFY(a.closedByPeerWithin(5000));
        QVERIFY(b.closedByPeerWithin(5000));
        QCOMPARE(m_endpoint->connectionCount(), 0);
    }

    void connectionStringNamesThePort() {
        QVERIFY(startEndpoint());
        QCOMPARE(m_endpoint->connectionString(),
                 QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                                "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;"
                                "UseDevelopmentEmulator=true;")
                     .arg(m_port));
        QCOMPARE(m_endpoint->snapshot().port, m_port);
        QVERIFY(m_endpoint->snapshot().listening);
    }

    // The .NET SDK only knows SASL MSSBCBS and picks it from what the server offers
    // (amqp-endpoint.md); the JS SDK uses ANONYMOUS. Both are offered and both succeed (the claims
    // come later, over $cbs); an unknown mechanism fails the SASL exchange.
    void saslOffersAndAcceptsMssbcbsAndAnonymous_data() {
        QTest::addColumn<QByteArray>("mechanism");
        QTest::addColumn<int>("outcome");
        QTest::newRow("MSSBCBS") << QByteArray("MSSBCBS") << 0;
        QTest::newRow("ANONYMOUS") << QByteArray("ANONYMOUS") << 0;
        QTest::newRow("PLAIN") << QByteArray("PLAIN") << 1;
    }
    void saslOffersAndAcceptsMssbcbsAndAnonymous() {
        QFETCH(QByteArray, mechanism);
        QFETCH(int, outcome);
        QVERIFY(startEndpoint());
        RawSocket client(m_port);
        QVERIFY(client.write(kSaslHeader));
        QByteArray offered;
        client.closedByPeerWithin(300, &offered);
        QVERIFY(offered.startsWith(kSaslHeader));
        QVERIFY2(offered.contains("MSSBCBS") && offered.contains("ANONYMOUS"), offered.toHex());

        QVERIFY(client.write(saslInitFrame(mechanism)));
        QByteArray answer;
        client.closedByPeerWithin(300, &answer);
        // sasl-outcome: descriptor 0x44, a list whose first field is the code (ubyte 0x50).
        const qsizetype at = answer.indexOf(QByteArray("\x00\x53\x44\xc0", 4));
        QVERIFY2(at >= 0, answer.toHex());
        QCOMPARE(answer.mid(at + 6, 2), (QByteArray("\x50", 1) + char(outcome)));
    }

    // Under steady traffic (a change every few milliseconds) the window's view of the connections
    // still refreshes a few times a second: snapshots go by elapsed time, not by quiet moments.
    void snapshotsKeepComingUnderSteadyTraffic() {
        QVERIFY(m_broker->createQueue(QStringLiteral("busy"), {}).ok());
        QVERIFY(startEndpoint());
        RawSocket client(m_port);
        QVERIFY(client.write(kAmqpHeader));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 1, 5000);
        OutgoingMessage message;
        message.body = "tick";
        bool published = false;
        for (int i = 0; i < 150 && !published; ++i) { // 150 changes, 10 ms apart
            QVERIFY(m_broker->send(QStringLiteral("busy"), message).ok());
            QTest::qWait(10);
            published = m_endpoint->snapshot().connections.size() == 1;
        }
        QVERIFY2(published, "no snapshot in 1.5 s of steady changes");
    }

    // The operator's Close connection is final even when the peer never answers the close:
    // its socket goes within seconds (and its locks at once, L14).
    void anOperatorCloseIsFinalWhenThePeerIsSilent() {
        QVERIFY(startEndpoint());
        RawSocket silent(m_port);
        // The AMQP header and an open (descriptor 0x10, container-id "x"), then nothing more.
        QVERIFY(silent.write(kAmqpHeader));
        QVERIFY(silent.write(QByteArray("\x00\x00\x00\x11\x02\x00\x00\x00"
                                        "\x00\x53\x10\xc0\x04\x01\xa1\x01x",
                                        17)));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 1, 5000);
        m_endpoint->closeConnection(m_endpoint->snapshot().connections.first().id);
        QByteArray answer;
        QVERIFY(silent.closedByPeerWithin(6000, &answer));
        QVERIFY(answer.contains(QByteArray("amqp:connection:forced")));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
    }

private:
    // The preamble of most tests: m_endpoint serving m_broker on a free loopback port (m_port),
    // with `options` otherwise. False (and the reason in the log) when it cannot start.

    // A SASL frame (type 1) holding sasl-init (descriptor 0x41) with just the mechanism.
    static QByteArray saslInitFrame(const QByteArray& mechanism) {
        QByteArray fields;
        fields += char(0xa3); // sym8
        fields += char(mechanism.size());
        fields += mechanism;
        QByteArray body("\x00\x53\x41\xc0", 4);
        body += char(fields.size() + 1); // list8: size counts the count byte and the fields
        body += char(1);
        body += fields;
        QByteArray frame(8, '\0');
        const quint32 size = quint32(8 + body.size());
        frame[0] = char(size >> 24);
        frame[1] = char(size >> 16);
        frame[2] = char(size >> 8);
        frame[3] = char(size);
        frame[4] = 2; // data offset in words
        frame[5] = 1; // SASL
        return frame + body;
    }
};

QTEST_GUILESS_MAIN(AmqpEndpointTest)
#include "tst_amqp_endpoint.moc"
