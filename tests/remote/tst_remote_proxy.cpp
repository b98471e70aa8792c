// The system's proxy (SystemProxy.h): with https_proxy (or http_proxy) naming an HTTP proxy, AMQP
// over WebSockets and the administration API reach a served namespace (ServedNamespace.h)
// through it, by CONNECT, and work; plain AMQP goes direct; no_proxy is honoured; a proxy that
// refuses the address is a clear error. The proxy (ConnectProxy.h) lives on the test's thread,
// so every client call runs on a worker (WorkerCall.h).

#include "ConnectProxy.h"
#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/RemoteBroker.h"

#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

const QString kQueue = QStringLiteral("orders");

// Every variable the system's proxy settings are read from on Linux, both spellings.
const char* const kProxyVariables[] = {"http_proxy", "https_proxy", "all_proxy", "no_proxy",
                                       "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"};

AmqpClientOptions amqpOptions(const ServedNamespace& served, bool webSockets) {
    AmqpClientOptions options;
    options.callTimeoutMs = 5000;
    options.extraCaFile = served.caFile();
    options.webSockets = webSockets;
    return options;
}

std::unique_ptr<RemoteBroker> remoteOverWebSockets(const ServedNamespace& served) {
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(served.connection());
    options.admin.extraCaFile = served.caFile();
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.amqp = amqpOptions(served, true);
    options.pollInterval = std::chrono::hours(1);
    return std::make_unique<RemoteBroker>(options);
}

// "localhost:<port>": what a CONNECT to the served namespace names.
QString targetOf(const ServedNamespace& served) {
    return QStringLiteral("localhost:%1").arg(served.connection().port);
}

template <typename R> QByteArray why(const R& result) {
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

} // namespace

class TestRemoteProxy : public QObject {
    Q_OBJECT

    static void clearProxyVariables() {
        for (const char* name : kProxyVariables)
            qunsetenv(name);
    }

private slots:
    // In a desktop session libproxy reads the desktop's proxy settings rather than the
    // environment's; the test sets the environment's, so it leaves the desktop out. Done before
    // the first network call: libproxy picks its sources once.
    void initTestCase() {
        for (const char* name : {"GNOME_DESKTOP_SESSION_ID", "DESKTOP_SESSION",
                                 "XDG_CURRENT_DESKTOP", "KDE_FULL_SESSION"})
            qunsetenv(name);
    }
    void init() { clearProxyVariables(); }
    void cleanup() { clearProxyVariables(); }

    // What the option is for: AMQP over WebSockets on HTTPS's port through the proxy, and the
    // administration API with it. Each goes through the proxy (it counts them) and works.
    void webSocketsAndAdministrationGoThroughTheHttpsProxy() {
        ServedNamespace served(ServedNamespace::Transport::Tls);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        ConnectProxy proxy;
        qputenv("https_proxy", proxy.url());
        auto remote = remoteOverWebSockets(served);

        // An administration call first: the AMQP side is not connected yet.
        const auto entities = onWorker([&] { return remote->entities({}); });
        QCOMPARE(entities.size(), 1);
        QVERIFY(!proxy.targets.isEmpty());
        const qsizetype afterAdministration = proxy.targets.size();

        const auto sent = onWorker(
            [&] { return remote->send(kQueue, TestBroker::message(QStringLiteral("m"))); });
        QVERIFY2(sent.ok(), why(sent).constData());
        const auto peeked = onWorker([&] {
            return remote->peek(kQueue, PeekOptions{0, 5, std::nullopt});
        });
        QVERIFY2(peeked.ok(), why(peeked).constData());
        QCOMPARE(peeked->size(), 1);
        QCOMPARE(served.broker().counts(kQueue)->active, 1);
        // The WebSocket went through the proxy too, to the same host and port.
        QVERIFY(proxy.targets.size() > afterAdministration);
        for (const QString& target : std::as_const(proxy.targets))
            QCOMPARE(target, targetOf(served));
    }

    // An emulator-style string's ws:// is an http address: http_proxy covers it.
    void plainWebSocketsGoThroughTheHttpProxy() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        ConnectProxy proxy;
        qputenv("http_proxy", proxy.url());
        AmqpClient client(served.connection(), amqpOptions(served, true));
        const auto sent =
            onWorker([&] { return client.send(kQueue, TestBroker::message(QStringLiteral("m"))); });
        QVERIFY2(sent.ok(), why(sent).constData());
        QCOMPARE(proxy.targets, QStringList{targetOf(served)});
        QCOMPARE(served.broker().counts(kQueue)->active, 1);
    }

    // AMQP on its own port goes direct, as the SDKs do: the proxy is for HTTPS's port.
    void plainAmqpGoesDirect() {
        ServedNamespace served(ServedNamespace::Transport::Tls);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        ConnectProxy proxy;
        qputenv("https_proxy", proxy.url());
        qputenv("http_proxy", proxy.url());
        AmqpClient client(served.connection(), amqpOptions(served, false));
        const auto sent =
            onWorker([&] { return client.send(kQueue, TestBroker::message(QStringLiteral("m"))); });
        QVERIFY2(sent.ok(), why(sent).constData());
        QVERIFY(proxy.targets.isEmpty());
    }

    void noProxyIsHonoured() {
        ServedNamespace served(ServedNamespace::Transport::Tls);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        ConnectProxy proxy;
        qputenv("https_proxy", proxy.url());
        qputenv("no_proxy", "localhost");
        auto remote = remoteOverWebSockets(served);
        QCOMPARE(onWorker([&] { return remote->entities({}); }).size(), 1);
        const auto sent = onWorker(
            [&] { return remote->send(kQueue, TestBroker::message(QStringLiteral("m"))); });
        QVERIFY2(sent.ok(), why(sent).constData());
        QVERIFY(proxy.targets.isEmpty());
    }

    // A proxy that forbids the address: both clients say why, promptly, and nothing is sent.
    void aProxyThatRefusesIsAClearError() {
        ServedNamespace served(ServedNamespace::Transport::Tls);
        QVERIFY(served.broker().createQueue(kQueue, {}).ok());
        ConnectProxy proxy(true);
        qputenv("https_proxy", proxy.url());

        AmqpClient client(served.connection(), amqpOptions(served, true));
        const auto connected = onWorker([&] { return client.connect(); });
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(connected.error().description.contains(QStringLiteral("proxy")),
                 qPrintable(connected.error().description));

        AdminClientOptions options = AdminClientOptions::forConnection(served.connection());
        options.extraCaFile = served.caFile();
        options.timeout = std::chrono::milliseconds(5000);
        AdminClient admin(options);
        const auto queue = onWorker([&] { return admin.entity(kQueue); });
        QVERIFY(!queue.ok());
        QCOMPARE(queue.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(proxy.targets.size() >= 2);
        QCOMPARE(served.broker().counts(kQueue)->active, 0);
    }
};

QTEST_GUILESS_MAIN(TestRemoteProxy)
#include "tst_remote_proxy.moc"
