// Microsoft Entra ID end to end: a served namespace (ServedNamespace.h) trusting the stand-in
// identity provider's issuer, as `serve --trust-issuer` does, opened with a connection string
// without a key by the AMQP client, the administration client and RemoteBroker with the
// providers of one sign-in (the browser flow, the test's browser following the redirect): the
// token goes to CBS as `jwt` and to HTTP as `Bearer`, renewed through the refresh token as the
// calls go on. Without a sign-in, or with tokens of a key the namespace does not trust, both
// planes refuse with Unauthorized, at once.

#include "ServedNamespace.h"
#include "StandInIdentityProvider.h"
#include "TestJwtIssuer.h"
#include "WorkerCall.h"

#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/EntraSignIn.h"
#include "hourglass/remote/RemoteBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

const QString kQueue = QStringLiteral("orders");

template <typename T> QString why(const Result<T>& result) {
    return result ? QString() : result.error().toString();
}

QStringList pathsOf(const QList<EntityInfo>& entities) {
    QStringList paths;
    for (const EntityInfo& entity : entities)
        paths.append(entity.path);
    return paths;
}

OutgoingMessage message(const QByteArray& body) {
    OutgoingMessage outgoing;
    outgoing.body = body;
    outgoing.messageId = QString::fromLatin1(body);
    return outgoing;
}

} // namespace

class RemoteEntraNamespaceTest : public QObject {
    Q_OBJECT
private:
    // The AMQP side and the administration API, each with `signIn`'s tokens: both Unauthorized.
    void bothPlanesRefuse(EntraSignIn& signIn) {
        AmqpClientOptions amqpOptions;
        amqpOptions.callTimeoutMs = 10'000;
        amqpOptions.tokenProvider = signIn.tokenProvider();
        AmqpClient amqp(m_served->connection(false), amqpOptions);
        const auto connected = onWorker([&] { return amqp.connect(); });
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::Unauthorized);

        AdminClientOptions adminOptions =
            AdminClientOptions::forConnection(m_served->connection(false));
        adminOptions.tokenProvider = signIn.bearerTokenProvider();
        AdminClient admin(adminOptions);
        const auto queues = onWorker([&] { return admin.queues(); });
        QVERIFY(!queues.ok());
        QCOMPARE(queues.error().code, ErrorCode::Unauthorized);
    }

private slots:
    void initTestCase() {
        m_issuer = std::make_unique<TestJwtIssuer>();
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
        auto validator =
            tls::JwtValidator::fromPem(TestJwtIssuer::kIssuer, m_issuer->publicKeyPem());
        QVERIFY(validator.ok());
        m_served->trustIssuer(
            std::make_shared<const tls::JwtValidator>(std::move(validator.value())));
        m_served->testBroker().clock().resetToRealTime();
        QVERIFY(m_served->broker().createQueue(kQueue, {}).ok());
        QCOMPARE(m_served->connection(false).credential, ConnectionString::Credential::None);
    }
    void init() { m_provider = std::make_unique<StandInIdentityProvider>(*m_issuer); }
    void cleanup() { m_provider.reset(); }

    void oneSignInOpensBothPlanes() {
        // Tokens that live less than renewBefore: every call renews through the refresh token.
        m_provider->tokenLifetime = 120;
        EntraSignIn signIn(settings());
        TestBrowser browser;
        const auto signedIn = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY2(signedIn.ok(), qPrintable(why(signedIn)));

        AmqpClientOptions amqpOptions;
        amqpOptions.callTimeoutMs = 10'000;
        amqpOptions.tokenProvider = signIn.tokenProvider();
        AmqpClient amqp(m_served->connection(false), amqpOptions);
        const auto connected = onWorker([&] { return amqp.connect(); });
        QVERIFY2(connected.ok(), qPrintable(why(connected)));
        const auto sent = onWorker([&] { return amqp.send(kQueue, message("signed-in")); });
        QVERIFY2(sent.ok(), qPrintable(why(sent)));
        PeekOptions peek;
        peek.maxCount = 10;
        const auto peeked = onWorker([&] { return amqp.peek(kQueue, peek); });
        QVERIFY2(peeked.ok(), qPrintable(why(peeked)));
        QVERIFY(!peeked->isEmpty());
        QCOMPARE(peeked->last().messageId, QStringLiteral("signed-in"));

        AdminClientOptions adminOptions =
            AdminClientOptions::forConnection(m_served->connection(false));
        adminOptions.timeout = std::chrono::milliseconds(5000);
        adminOptions.tokenProvider = signIn.bearerTokenProvider();
        AdminClient admin(adminOptions);
        const auto created = onWorker(
            [&] { return admin.createQueue(QStringLiteral("made-by-entra"), EntityProperties{}); });
        QVERIFY2(created.ok(), qPrintable(why(created)));
        const auto queues = onWorker([&] { return admin.queues(); });
        QVERIFY2(queues.ok(), qPrintable(why(queues)));
        QVERIFY(pathsOf(*queues).contains(kQueue));
        QVERIFY(pathsOf(*queues).contains(QStringLiteral("made-by-entra")));
        // The bearer calls renewed the token, and the namespace took each new one.
        QVERIFY(m_provider->refreshGrants >= 2);
        QVERIFY(onWorker([&] { return admin.deleteEntity(QStringLiteral("made-by-entra")); }).ok());
    }

    void aRemoteBrokerTakesTheProviders() {
        EntraSignIn signIn(settings());
        QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
        RemoteBrokerOptions options =
            RemoteBrokerOptions::forConnection(m_served->connection(false));
        options.admin.timeout = std::chrono::milliseconds(5000);
        options.admin.tokenProvider = signIn.bearerTokenProvider();
        options.amqp.tokenProvider = signIn.tokenProvider();
        options.amqp.callTimeoutMs = 10'000;
        options.pollInterval = std::chrono::hours(1);
        RemoteBroker remote(options);
        // The window names a remote entity after the namespace's host.
        const QString path = QStringLiteral("localhost:") + kQueue;
        const auto entity = onWorker([&] { return remote.entity(path); });
        QVERIFY2(entity.ok(), qPrintable(why(entity)));
        const auto sent = onWorker([&] { return remote.send(path, message("through-broker")); });
        QVERIFY2(sent.ok(), qPrintable(why(sent)));
        PeekOptions peek;
        peek.maxCount = 50;
        const auto peeked = onWorker([&] { return remote.peek(path, peek); });
        QVERIFY2(peeked.ok(), qPrintable(why(peeked)));
        QCOMPARE(peeked->last().messageId, QStringLiteral("through-broker"));
    }

    void withoutASignInBothPlanesRefuse() {
        EntraSignIn signIn(settings()); // never signed in
        bothPlanesRefuse(signIn);
    }

    void tokensOfAKeyTheNamespaceDoesNotTrustAreRefused() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::StrangerKeys;
        EntraSignIn signIn(settings());
        QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
        bothPlanesRefuse(signIn);
    }

private:
    EntraSettings settings() const {
        EntraSettings settings;
        settings.authority = m_provider->authority();
        settings.tenant = StandInIdentityProvider::kTenant;
        settings.clientId = StandInIdentityProvider::kClientId;
        settings.httpTimeout = std::chrono::milliseconds(5000);
        settings.browserTimeout = std::chrono::milliseconds(10'000);
        settings.deviceCodeSecond = std::chrono::milliseconds(20);
        return settings;
    }

    std::unique_ptr<TestJwtIssuer> m_issuer;
    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<StandInIdentityProvider> m_provider;
};

QTEST_GUILESS_MAIN(RemoteEntraNamespaceTest)
#include "tst_remote_entra_namespace.moc"
