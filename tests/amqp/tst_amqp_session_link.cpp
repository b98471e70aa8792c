// A session receiver's link over a real socket, on the virtual clock (amqp-endpoint.md "Sessions",
// S5): a link that holds its session but takes nothing (no credit, nothing to settle) is detached
// with com.microsoft:session-lock-lost as soon as its session lock runs out or the entity is
// updated, not at its next receive. The client is Proton's connection driver over a loopback
// socket, pumped from the test's thread; the broker's change feed needs the test's event loop,
// which QTRY_* runs between tries.

#include "TestBroker.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <QDateTime>
#include <QTest>

#include <proton/codec.h>
#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/connection_driver.h>
#include <proton/delivery.h>
#include <proton/link.h>
#include <proton/message.h>
#include <proton/session.h>
#include <proton/terminus.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::TestBroker;

namespace {
const QString kQueue = QStringLiteral("orders");
constexpr Millis kLockDuration = 30000;

void putString(pn_data_t* data, const QByteArray& text) {
    pn_data_put_string(data, pn_bytes(size_t(text.size()), text.constData()));
}

// One AMQP connection to the endpoint (no SASL: the endpoint lets such clients in), with the
// claim of a put-token for the whole namespace.
class WireClient {
public:
    WireClient(quint16 port, const SasKey& key) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
        pn_connection_driver_init(&m_driver, nullptr, nullptr);
        pn_connection_set_container(m_driver.connection, "session-link-test");
        pn_connection_set_hostname(m_driver.connection, "localhost");
        pn_connection_open(m_driver.connection);
        m_session = pn_session(m_driver.connection);
        pn_session_open(m_session);
        putToken(key);
    }
    ~WireClient() {
        pn_connection_driver_destroy(&m_driver);
        ::close(m_fd);
    }
    WireClient(const WireClient&) = delete;
    WireClient& operator=(const WireClient&) = delete;

    bool connected() const { return m_connected; }
    // The put-token was taken: links attached from now on are authorized.
    bool claimed() const { return pn_delivery_remote_state(m_token) == PN_ACCEPTED; }

    // A session receiver for `sessionId`, without credit: it will take nothing.
    pn_link_t* acceptSession(const QByteArray& linkName, const QByteArray& sessionId) {
        pn_link_t* link = pn_receiver(m_session, linkName.constData());
        pn_terminus_t* source = pn_link_source(link);
        pn_terminus_set_address(source, kQueue.toUtf8().constData());
        pn_data_t* filter = pn_terminus_filter(source);
        pn_data_put_map(filter);
        pn_data_enter(filter);
        pn_data_put_symbol(filter, pn_bytes(sizeof "com.microsoft:session-filter" - 1,
                                            "com.microsoft:session-filter"));
        putString(filter, sessionId);
        pn_data_exit(filter);
        pn_link_open(link);
        return link;
    }

    // Moves what is waiting both ways, without blocking; true to let QTRY_* read a condition.
    bool pump() {
        for (pn_bytes_t out = pn_connection_driver_write_buffer(&m_driver); out.size > 0;
             out = pn_connection_driver_write_buffer(&m_driver)) {
            const ssize_t sent = ::send(m_fd, out.start, out.size, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (sent <= 0)
                break;
            pn_connection_driver_write_done(&m_driver, size_t(sent));
        }
        for (pn_rwbytes_t in = pn_connection_driver_read_buffer(&m_driver); in.size > 0;
             in = pn_connection_driver_read_buffer(&m_driver)) {
            const ssize_t got = ::recv(m_fd, in.start, in.size, MSG_DONTWAIT);
            if (got == 0)
                pn_connection_driver_read_close(&m_driver);
            if (got <= 0)
                break;
            pn_connection_driver_read_done(&m_driver, size_t(got));
        }
        while (pn_connection_driver_next_event(&m_driver)) {
        }
        return true;
    }

    static bool attached(pn_link_t* link) { return (pn_link_state(link) & PN_REMOTE_ACTIVE) != 0; }
    static bool detached(pn_link_t* link) { return (pn_link_state(link) & PN_REMOTE_CLOSED) != 0; }
    static QByteArray condition(pn_link_t* link) {
        const char* name = pn_condition_get_name(pn_link_remote_condition(link));
        return name ? QByteArray(name) : QByteArray();
    }

private:
    void putToken(const SasKey& key) {
        pn_link_t* cbs = pn_sender(m_session, "cbs");
        pn_terminus_set_address(pn_link_target(cbs), "$cbs");
        pn_link_open(cbs);
        const QString audience = QStringLiteral("sb://localhost/");
        const QByteArray token =
            makeSasToken(audience, key, QDateTime::currentSecsSinceEpoch() + 3600).toUtf8();
        pn_message_t* message = pn_message();
        pn_data_t* properties = pn_message_properties(message);
        pn_data_put_map(properties);
        pn_data_enter(properties);
        for (const auto& [name, value] :
             {std::pair<QByteArray, QByteArray>{"operation", "put-token"},
              {"type", "servicebus.windows.net:sastoken"},
              {"name", audience.toUtf8()}}) {
            putString(properties, name);
            putString(properties, value);
        }
        pn_data_exit(properties);
        putString(pn_message_body(message), token);
        pn_message_set_reply_to(message, "cbs-replies");
        QByteArray encoded(8192, '\0');
        size_t size = size_t(encoded.size());
        pn_message_encode(message, encoded.data(), &size);
        pn_message_free(message);
        m_token = pn_delivery(cbs, pn_dtag("1", 1));
        pn_link_send(cbs, encoded.constData(), size);
        pn_link_advance(cbs);
    }

    int m_fd = -1;
    bool m_connected = false;
    pn_delivery_t* m_token = nullptr;
    pn_connection_driver_t m_driver;
    pn_session_t* m_session = nullptr;
};
} // namespace

class AmqpSessionLinkTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.requiresSession = true;
        properties.lockDuration = kLockDuration;
        QVERIFY((*m_broker)->createQueue(kQueue, properties).ok());
        EndpointOptions options;
        options.port = 0;
        m_endpoint = std::make_unique<AmqpEndpoint>(m_broker->broker(), options);
        const auto port = m_endpoint->start();
        QVERIFY2(port.ok(), port.ok() ? "" : qPrintable(port.error().toString()));
        m_client = std::make_unique<WireClient>(*port, options.key);
        QVERIFY(m_client->connected());
        QTRY_VERIFY_WITH_TIMEOUT(m_client->pump() && m_client->claimed(), 5000);
    }
    void cleanup() {
        m_client.reset();
        m_endpoint.reset();
        m_broker.reset();
    }

    // S5: the lock runs out on the broker's clock while the link takes nothing.
    void sessionLinks_S5_idleLinkIsDetachedWhenItsLockRunsOut() {
        pn_link_t* idle = m_client->acceptSession("idle", "a");
        pn_link_t* renewed = m_client->acceptSession("renewed", "b");
        QTRY_VERIFY_WITH_TIMEOUT(
            m_client->pump() && WireClient::attached(idle) && WireClient::attached(renewed), 5000);
        // b's holder renews half-way (through the broker: the holder is the link's name), so
        // only a's lock runs out.
        m_broker->advance(kLockDuration / 2);
        QTRY_VERIFY_WITH_TIMEOUT(!m_endpoint->snapshot().connections.isEmpty(), 5000);
        const quint64 connection = m_endpoint->snapshot().connections.first().id;
        const SessionRef b{kQueue, QStringLiteral("b"),
                           QStringLiteral("amqp/%1/renewed").arg(connection)};
        QVERIFY((*m_broker)->renewSessionLock(b).ok());
        m_broker->advance(kLockDuration / 2 + 1);

        QTRY_VERIFY_WITH_TIMEOUT(m_client->pump() && WireClient::detached(idle), 5000);
        QCOMPARE(WireClient::condition(idle), QByteArray("com.microsoft:session-lock-lost"));
        QVERIFY(!WireClient::detached(renewed));
        QVERIFY((*m_broker)->holdsSession(b));
        // The session is free again for anyone.
        QVERIFY((*m_broker)->acceptSession(kQueue, {QStringLiteral("next"), QStringLiteral("a")}));
    }

    // S5, E5: an update of the entity loses every session lock held on it.
    void sessionLinks_S5_idleLinkIsDetachedWhenTheEntityIsUpdated() {
        pn_link_t* idle = m_client->acceptSession("idle", "a");
        QTRY_VERIFY_WITH_TIMEOUT(m_client->pump() && WireClient::attached(idle), 5000);
        EntityProperties properties = (*m_broker)->entity(kQueue)->properties;
        properties.maxDeliveryCount = 3;
        QVERIFY((*m_broker)->updateEntity(kQueue, properties).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_client->pump() && WireClient::detached(idle), 5000);
        QCOMPARE(WireClient::condition(idle), QByteArray("com.microsoft:session-lock-lost"));
    }

private:
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<AmqpEndpoint> m_endpoint;
    std::unique_ptr<WireClient> m_client;
};

QTEST_GUILESS_MAIN(AmqpSessionLinkTest)
#include "tst_amqp_session_link.moc"
