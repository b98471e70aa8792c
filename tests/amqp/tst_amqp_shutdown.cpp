// What applications see when the endpoint stops or the broker restarts, over a real socket with
// frames written by hand (RawAmqpPeer): every connection gets an AMQP close carrying
// amqp:connection:forced and why (the window quits or switches databases, serve stops), not a
// dropped socket, whether it authenticated or not and whether it answers or not; and after a
// restart, settling through $management a message of a session the restart ended is answered
// 410 com.microsoft:session-lock-lost (S5), as the SDKs expect of a session they no longer hold.

#include "RawAmqpPeer.h"
#include "RawPeerSteps.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::AmqpFrame;
using hourglass::testing::RawAmqpPeer;
using namespace hourglass::testing;
namespace frames = hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
constexpr quint32 kManagementSender = 2;
constexpr quint32 kManagementReplies = 3;

// A request message with `operation` in its application properties, answered on `replyTo`;
// `body` writes the amqp-value body (a map).
QByteArray request(const QByteArray& operation, const QByteArray& replyTo,
                   const std::function<void(pn_data_t*)>& body, const QByteArray& audience = {}) {
    pn_message_t* message = pn_message();
    pn_message_set_reply_to(message, replyTo.constData());
    putString(pn_message_id(message), "request-1");
    pn_data_t* properties = pn_message_properties(message);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    putString(properties, "operation");
    putString(properties, operation);
    if (!audience.isEmpty()) {
        putString(properties, "type");
        putString(properties, "servicebus.windows.net:sastoken");
        putString(properties, "name");
        putString(properties, audience);
    }
    pn_data_exit(properties);
    body(pn_message_body(message));
    const QByteArray encoded = RawAmqpPeer::encode(message);
    pn_message_free(message);
    return encoded;
}

// The close frame's error: condition and description.
std::pair<QByteArray, QString> closeError(const AmqpFrame& close) {
    return RawAmqpPeer::error(close.field(0));
}
} // namespace

class AmqpShutdownTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("t%1.db").arg(m_count++));
        QVERIFY(openBroker());
        QVERIFY(m_broker->createNamespace({QStringLiteral("ns"), Tier::Standard}).ok());
        QVERIFY(startEndpoint());
    }
    void cleanup() {
        m_endpoint.reset();
        m_broker.reset();
    }

    void stopClosesEveryConnectionWithConnectionForced_data() {
        QTest::addColumn<QString>("reason");
        QTest::newRow("the window quits, serve stops") << kShuttingDownReason;
        QTest::newRow("another database opens") << kDatabaseClosedReason;
    }
    void stopClosesEveryConnectionWithConnectionForced() {
        QFETCH(QString, reason);
        // One that put a token and one that did not: both are told, and neither answers.
        RawAmqpPeer authenticated(m_port);
        QVERIFY(openWithCbs(authenticated));
        QVERIFY(putToken(authenticated));
        RawAmqpPeer anonymous(m_port);
        QVERIFY(anonymous.connected() && anonymous.open());
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->connectionCount(), 2, 5000);

        QElapsedTimer timer;
        timer.start();
        m_endpoint->stop(reason);
        // A peer that does not answer the close loses its socket on the next tick: stop does
        // not wait out its bound.
        QVERIFY2(timer.elapsed() < 1500, qPrintable(QString::number(timer.elapsed())));
        for (RawAmqpPeer* peer : {&authenticated, &anonymous}) {
            const auto close = peer->waitFor(frames::kClose, 5000);
            QVERIFY2(close, "the socket was dropped without a close");
            const auto [condition, description] = closeError(*close);
            QCOMPARE(condition, QByteArray("amqp:connection:forced"));
            QCOMPARE(description, reason);
            // And then the socket goes.
            QTRY_VERIFY_WITH_TIMEOUT(!peer->drain(), 5000);
        }
        QCOMPARE(m_endpoint->connectionCount(), 0);
    }

    void stopWithoutConnectionsReturnsAtOnce() {
        QElapsedTimer timer;
        timer.start();
        m_endpoint->stop();
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!m_endpoint->running());
        // Nobody listens any more.
        RawAmqpPeer late(m_port);
        QVERIFY(!late.connected() || !late.open());
    }

    void afterARestartSettlingASessionMessageIs410SessionLockLost() {
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.requiresSession = true;
        const QString& path = kQueue;
        QVERIFY(m_broker->createQueue(path, properties).ok());
        OutgoingMessage sent;
        sent.messageId = QStringLiteral("m1");
        sent.sessionId = QStringLiteral("A");
        sent.body = "hello";
        QVERIFY(m_broker->send(path, sent).ok());
        // An application holds session A and the message's lock, as its receiver link would.
        SessionAcceptOptions accept;
        accept.receiver = QStringLiteral("amqp/1/session-link");
        accept.sessionId = QStringLiteral("A");
        const auto session = m_broker->acceptSession(path, accept);
        QVERIFY(session.ok());
        const auto received =
            m_broker->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, 1);
        QVERIFY(received.ok() && received->size() == 1);
        const QUuid token = received->first().lockToken;

        // The restart: the endpoint and the broker go, and come back on the same database.
        cleanup();
        QVERIFY(openBroker());
        QVERIFY(startEndpoint());

        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        const QByteArray management = kQueue.toUtf8() + "/$management";
        peer.attach(kManagementSender, "mgmt-requests", management, true);
        peer.attach(kManagementReplies, "mgmt-replies", management, false);
        peer.flow(kManagementReplies, 10);
        QVERIFY(peer.waitFor(frames::kAttach, 5000, named("mgmt-requests")));
        QVERIFY(peer.waitFor(frames::kAttach, 5000, named("mgmt-replies")));
        // (The endpoint granted the request link's credit with its attach.)
        peer.transfer(
            kManagementSender,
            request("com.microsoft:update-disposition", "mgmt-replies", [&](pn_data_t* d) {
                pn_data_put_map(d);
                pn_data_enter(d);
                putString(d, "lock-tokens");
                pn_data_put_array(d, false, PN_UUID);
                pn_data_enter(d);
                pn_uuid_t uuid;
                const QByteArray bytes = token.toRfc4122();
                std::copy(bytes.cbegin(), bytes.cend(), uuid.bytes);
                pn_data_put_uuid(d, uuid);
                pn_data_exit(d);
                putString(d, "disposition-status");
                putString(d, "completed");
                putString(d, "session-id");
                putString(d, "A");
                pn_data_exit(d);
            }));
        const auto reply = peer.waitFor(frames::kTransfer, 10000, [](const AmqpFrame& frame) {
            return !RawAmqpPeer::applicationProperties(frame.payload)
                        .value(QStringLiteral("statusCode"))
                        .isNull();
        });
        QVERIFY2(reply, "no answer to update-disposition");
        const QVariantMap answer = RawAmqpPeer::applicationProperties(reply->payload);
        QCOMPARE(answer.value(QStringLiteral("statusCode")).toInt(), 410);
        QCOMPARE(answer.value(QStringLiteral("errorCondition")).toString(),
                 QStringLiteral("com.microsoft:session-lock-lost"));
        // Nothing was settled: the message waits for the session's next holder.
        QCOMPARE(m_broker->counts(path)->active, 1);
    }

private:
    bool openBroker() {
        BrokerOptions options;
        options.databasePath = m_path;
        auto broker = Broker::open(options);
        if (!broker) {
            qWarning("cannot open the broker: %s", qPrintable(broker.error().toString()));
            return false;
        }
        m_broker = std::move(*broker);
        return true;
    }
    bool startEndpoint() {
        EndpointOptions options;
        options.port = 0;
        m_endpoint = std::make_unique<AmqpEndpoint>(*m_broker, options);
        const auto port = m_endpoint->start();
        if (!port)
            return false;
        m_port = *port;
        return true;
    }

    QTemporaryDir m_dir;
    int m_count = 0;
    QString m_path;
    std::unique_ptr<Broker> m_broker;
    std::unique_ptr<AmqpEndpoint> m_endpoint;
    quint16 m_port = 0;
};

QTEST_GUILESS_MAIN(AmqpShutdownTest)
#include "tst_amqp_shutdown.moc"
