// Bearer tokens on $cbs: a put-token of type `jwt` (what the Azure SDKs send for a
// TokenCredential) signed by the issuer the endpoint is told to trust (NamespaceKeyRing::
// trustIssuer, `serve --trust-issuer`) authorizes the default namespace for the put-token's name
// until the token's exp, as a signature does; without a trusted issuer, or signed by another
// key, it is refused 401 without a word of the token. Tokens come from a stand-in issuer whose
// key the test makes (tests/tls/TestJwtIssuer.h).

#include "EndpointTestBase.h"
#include "RawPeerSteps.h"
#include "TestJwtIssuer.h"
#include "hourglass/tls/JwtValidator.h"

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;
namespace frames = hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("orders");
constexpr quint32 kLink = 2;

qint64 now() {
    return QDateTime::currentSecsSinceEpoch();
}

struct CbsAnswer {
    int status = 0;
    QString description;
};

// A put-token of type jwt offered for `name`, and the endpoint's answer.
CbsAnswer putJwt(RawAmqpPeer& peer, const QByteArray& token,
                 const QByteArray& name = "sb://localhost/orders") {
    peer.transfer(kCbsSender, cbsRequest("put-token", stringBody(token), "jwt", name));
    const auto reply = peer.waitFor(frames::kTransfer, 10000);
    if (!reply)
        return {};
    const QVariantMap properties = RawAmqpPeer::applicationProperties(reply->payload);
    return {properties.value(QStringLiteral("status-code")).toInt(),
            properties.value(QStringLiteral("status-description")).toString()};
}

// Attaches a sender to `address`: its condition when the endpoint refused it, empty when it
// attached and granted credit.
QByteArray attachRefusal(RawAmqpPeer& peer, quint32 handle, const QByteArray& address) {
    const QByteArray name = "sender-" + QByteArray::number(handle);
    peer.attach(handle, name, address, true);
    if (!peer.waitFor(frames::kAttach, 5000, named(name)))
        return "no attach";
    const auto answer = peer.waitFor(frames::kDetach, 1000);
    return answer ? RawAmqpPeer::error(answer->field(2)).first : QByteArray();
}
} // namespace

class AmqpJwtTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void initTestCase() { m_issuer = std::make_unique<TestJwtIssuer>(); }
    void init() {
        QVERIFY(openBroker());
        QVERIFY(m_broker->createQueue(kQueue, {}).ok());
    }
    void cleanup() { reset(); }

    void aTrustedJwtOnCbsLetsAClientSend() {
        QVERIFY(startTrusting());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        const CbsAnswer answer = putJwt(peer, m_issuer->token(now()));
        QCOMPARE(answer.status, 200);
        const auto sender = attachSender(peer, kLink, "jwt-sender", kQueue.toUtf8());
        QVERIFY(sender);
        const quint32 delivery = peer.transfer(kLink, message("sent with a bearer token"));
        const auto disposition = peer.waitFor(frames::kDisposition, 10000, settles(delivery));
        QVERIFY(disposition);
        QCOMPARE(outcomeOf(*disposition).state, quint64(0x24)); // accepted
        QCOMPARE(m_broker->counts(QStringLiteral("ns:") + kQueue)->active, 1);
        // The window sees how the connection authenticated.
        QTRY_VERIFY_WITH_TIMEOUT(!m_endpoint->snapshot().connections.isEmpty() &&
                                     m_endpoint->snapshot().connections.first().keyName ==
                                         QLatin1String("jwt"),
                                 5000);
    }

    void theNamespacesOwnUrlIsAnAudienceToo() {
        QVERIFY(startTrusting());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QJsonObject claims = m_issuer->claims(now());
        claims.insert("aud", QStringLiteral("https://localhost:%1/").arg(m_port));
        QCOMPARE(putJwt(peer, m_issuer->sign(claims)).status, 200);
        claims.insert("aud", "https://elsewhere.example/");
        const CbsAnswer other = putJwt(peer, m_issuer->sign(claims));
        QCOMPARE(other.status, 401);
        QVERIFY(other.description.contains(QLatin1String("audience")));
    }

    // The put-token's name is the scope: a token offered for one queue opens that queue only.
    void theClaimIsForThePutTokensName() {
        QVERIFY(m_broker->createQueue(QStringLiteral("other"), {}).ok());
        QVERIFY(startTrusting());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QCOMPARE(putJwt(peer, m_issuer->token(now())).status, 200);
        QCOMPARE(attachRefusal(peer, kLink, "orders"), QByteArray());
        QCOMPARE(attachRefusal(peer, kLink + 1, "other"), QByteArray("amqp:unauthorized-access"));
        // A name on a host this endpoint does not serve grants nothing.
        const CbsAnswer foreign = putJwt(peer, m_issuer->token(now()), "sb://elsewhere.example/");
        QCOMPARE(foreign.status, 401);
    }

    // The token's exp is the claim's end, as a signature's expiry is.
    void theTokensLifetimeIsTheClaims() {
        QVERIFY(startTrusting());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        const qint64 expires = now() + 2;
        QJsonObject claims = m_issuer->claims(now());
        claims.insert("exp", double(expires));
        QCOMPARE(putJwt(peer, m_issuer->sign(claims)).status, 200);
        QCOMPARE(attachRefusal(peer, kLink, "orders"), QByteArray());
        QTRY_VERIFY_WITH_TIMEOUT(now() > expires, 5000);
        QCOMPARE(attachRefusal(peer, kLink + 1, "orders"), QByteArray("amqp:unauthorized-access"));
    }

    void refusedJwtsAre401WithoutQuotingThem_data() {
        QTest::addColumn<bool>("trusted");
        QTest::addColumn<int>("what"); // 0 good token, 1 another key's, 2 expired, 3 garbage
        QTest::addColumn<QString>("says");
        QTest::newRow("no trusted issuer") << false << 0 << "trusts no token issuer";
        QTest::newRow("another key") << true << 1 << "signature";
        QTest::newRow("expired") << true << 2 << "expired";
        QTest::newRow("not a JWT") << true << 3 << "three parts";
    }
    void refusedJwtsAre401WithoutQuotingThem() {
        QFETCH(bool, trusted);
        QFETCH(int, what);
        QFETCH(QString, says);
        QVERIFY(trusted ? startTrusting() : startEndpoint());
        const TestJwtIssuer stranger;
        QByteArray token = m_issuer->token(now());
        if (what == 1)
            token = stranger.token(now());
        else if (what == 2)
            token = m_issuer->sign(m_issuer->claims(now() - 7200, 600));
        else if (what == 3)
            token = "secret-looking-text-that-is-no-token";
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        const CbsAnswer answer = putJwt(peer, token);
        QCOMPARE(answer.status, 401);
        QVERIFY2(answer.description.contains(says), qPrintable(answer.description));
        for (const QByteArray& part : token.split('.'))
            QVERIFY(!answer.description.contains(QString::fromLatin1(part.left(12))));
        QCOMPARE(attachRefusal(peer, kLink, "orders"), QByteArray("amqp:unauthorized-access"));
    }

    // A shared access signature still works beside a trusted issuer.
    void signaturesStillWorkBesideATrustedIssuer() {
        QVERIFY(startTrusting());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        QCOMPARE(attachRefusal(peer, kLink, "orders"), QByteArray());
    }

private:
    bool startTrusting() {
        auto validator =
            tls::JwtValidator::fromPem(TestJwtIssuer::kIssuer, m_issuer->publicKeyPem());
        if (!validator)
            return false;
        amqp::EndpointOptions options;
        options.port = 0;
        m_endpoint = std::make_unique<amqp::AmqpEndpoint>(*m_broker, options);
        m_endpoint->keys()->trustIssuer(
            std::make_shared<const tls::JwtValidator>(std::move(*validator)));
        const auto port = m_endpoint->start();
        if (!port)
            return false;
        m_port = *port;
        return true;
    }

    std::unique_ptr<TestJwtIssuer> m_issuer;
};

QTEST_GUILESS_MAIN(AmqpJwtTest)
#include "tst_amqp_jwt.moc"
