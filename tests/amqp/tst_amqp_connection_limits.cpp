// The endpoint's limits on connections, over real sockets (engine/amqp/README.md, "Limits on
// connections"): a connection that never authenticates is closed after the deadline while one
// that put a valid token stays; a peer silent past the idle time-out is dropped while one that
// sends heartbeats stays; past the cap on unauthenticated connections the oldest go first; past
// the overall limit a new connection is refused, but an unauthenticated one is dropped for it
// first. Deadlines are shortened here; the defaults are 20 s, 120 s, 500 and 1,000.

#include "DrivenClient.h"
#include "EndpointTestBase.h"
#include "FileDescriptorLimit.h"
#include "RawSocket.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <memory>
#include <vector>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::DrivenClient;
using hourglass::testing::EndpointTestBase;
using hourglass::testing::RawSocket;

namespace {
const QByteArray kAmqpHeader("AMQP\x00\x01\x00\x00", 8);
// An open frame (descriptor 0x10, container-id "x") and nothing more.
const QByteArray kOpenFrame("\x00\x00\x00\x11\x02\x00\x00\x00"
                            "\x00\x53\x10\xc0\x04\x01\xa1\x01x",
                            17);
} // namespace

class AmqpConnectionLimitsTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void init() { QVERIFY(openBroker()); }
    void cleanup() { reset(); }

    void anOpenedConnectionWithoutATokenIsClosedAfterTheDeadline() {
        EndpointOptions options;
        options.authenticateWithinMs = 700;
        QVERIFY(startEndpoint(options));
        QElapsedTimer timer;
        timer.start();
        RawSocket silent(m_port);
        QVERIFY(silent.write(kAmqpHeader + kOpenFrame));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 1, 5000);
        QByteArray answer;
        QVERIFY(silent.closedByPeerWithin(5000, &answer));
        QVERIFY2(timer.elapsed() >= 600, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(answer.contains("amqp:unauthorized-access"), answer.toHex());
        // Gone from the count and from the window's view.
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 0, 5000);
    }

    void aConnectionWithAValidTokenStaysAndHeartbeatsKeepItOpen() {
        EndpointOptions options;
        options.authenticateWithinMs = 500;
        options.idleTimeoutMs = 800;
        QVERIFY(startEndpoint(options));
        DrivenClient client(m_port);
        QCOMPARE(client.putToken(token(), 5000), 200);
        // Well past both: Proton answers the advertised idle time-out (400 ms) with empty
        // frames, as the SDKs do.
        QVERIFY2(client.stillOpenAfter(2500), client.closeCondition().constData());
        QCOMPARE(m_endpoint->connectionCount(), 1);
        const auto connections = m_endpoint->snapshot().connections;
        QCOMPARE(connections.size(), 1);
        QVERIFY(!connections.first().keyName.isEmpty());
    }

    void aPeerSilentPastTheIdleTimeOutIsDropped() {
        EndpointOptions options;
        options.idleTimeoutMs = 600;
        QVERIFY(startEndpoint(options));
        DrivenClient client(m_port);
        QCOMPARE(client.putToken(token(), 5000), 200);
        QCOMPARE(m_endpoint->connectionCount(), 1);
        // The client goes silent (nobody drives it): the endpoint drops it after 600 ms.
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 0, 5000);
        QVERIFY(!client.stillOpenAfter(2000));
        QCOMPARE(client.closeCondition(), QByteArray("amqp:resource-limit-exceeded"));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 0, 5000);
    }

    void pastTheUnauthenticatedCapTheOldestAreDroppedFirst() {
        EndpointOptions options;
        options.maxUnauthenticatedConnections = 3;
        QVERIFY(startEndpoint(options));
        DrivenClient authenticated(m_port);
        QCOMPARE(authenticated.putToken(token(), 5000), 200);
        std::vector<std::unique_ptr<RawSocket>> sockets;
        for (int i = 0; i < 5; ++i) {
            sockets.push_back(std::make_unique<RawSocket>(m_port));
            QVERIFY(sockets.back()->write(kAmqpHeader));
            // The header back: the endpoint has taken this one in before the next arrives.
            QByteArray header;
            QVERIFY(sockets.back()->receivedWithin(8, 5000, &header));
        }
        QVERIFY(sockets[0]->closedByPeerWithin(5000));
        QVERIFY(sockets[1]->closedByPeerWithin(5000));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 4, 5000);
        for (int i = 2; i < 5; ++i)
            QVERIFY2(!sockets[std::size_t(i)]->closedByPeerWithin(300),
                     qPrintable(QString::number(i)));
        QVERIFY(authenticated.stillOpenAfter(100));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->snapshot().connections.size(), 4, 5000);
    }

    void pastTheOverallLimitANewConnectionIsRefused() {
        EndpointOptions options;
        options.maxConnections = 3;
        QVERIFY(startEndpoint(options));
        QCOMPARE(m_endpoint->connectionLimit(), 3);
        DrivenClient first(m_port);
        QCOMPARE(first.putToken(token(), 5000), 200);
        DrivenClient second(m_port);
        QCOMPARE(second.putToken(token(), 5000), 200);
        // The last place, taken by an idle socket, goes to an authenticated client's connection
        // when it arrives: the idle one is dropped for it.
        RawSocket idle(m_port);
        QVERIFY(idle.write(kAmqpHeader));
        QByteArray header;
        QVERIFY(idle.receivedWithin(8, 5000, &header));
        DrivenClient third(m_port);
        QCOMPARE(third.putToken(token(), 5000), 200);
        QVERIFY(idle.closedByPeerWithin(5000));
        // Every place held by an authenticated connection: the next one is refused.
        RawSocket refused(m_port);
        QVERIFY(refused.connected());
        refused.write(kAmqpHeader);
        QVERIFY(refused.closedByPeerWithin(5000));
        QVERIFY(first.stillOpenAfter(100));
        QVERIFY(second.stillOpenAfter(100));
        QVERIFY(third.stillOpenAfter(100));
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 3, 5000);
    }

    void startRaisesTheDescriptorLimitAndFitsTheConnectionsUnderIt() {
        rlimit limit{};
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &limit), 0);
        if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max < 512)
            QSKIP("needs a finite hard limit on open files of at least 512");
        const rlimit original = limit;
        limit.rlim_cur = 256;
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &limit), 0);
        QVERIFY(startEndpoint());
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &limit), 0);
        QCOMPARE(limit.rlim_cur, original.rlim_max);
        QCOMPARE(m_endpoint->connectionLimit(),
                 int(connectionsThatFit(1000, std::size_t(original.rlim_max))));
        QVERIFY(m_endpoint->unauthenticatedLimit() <= m_endpoint->connectionLimit());
        // A small limit: the connections fit under it with room kept back.
        QCOMPARE(connectionsThatFit(1000, 1024), std::size_t(1024) - kDescriptorsKeptBack);
        QCOMPARE(connectionsThatFit(200, 1024), std::size_t(200));
        QCOMPARE(connectionsThatFit(1000, 0), std::size_t(1000));
    }

private:
    QString token() const {
        return makeSasToken(QStringLiteral("sb://localhost:%1/").arg(m_port),
                            wellKnownEmulatorKey(), QDateTime::currentSecsSinceEpoch() + 600);
    }
};

QTEST_GUILESS_MAIN(AmqpConnectionLimitsTest)
#include "tst_amqp_connection_limits.moc"
