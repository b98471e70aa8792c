// The administration API with `Authorization: Bearer <jwt>` (what the Azure SDKs send for a
// TokenCredential): a token of the trusted issuer (NamespaceKeyRing::trustIssuer, `serve
// --trust-issuer`) acts on the default namespace with every right; without a trusted issuer, or
// signed by another key, expired, for another audience or issuer, it is 401 without a word of
// the token and the broker is left as it was. Through AdminApi, and once over HTTP. Tokens come
// from a stand-in issuer whose key the test makes (tests/tls/TestJwtIssuer.h).

#include "AdminFixture.h"
#include "BrokerSnapshot.h"
#include "RawHttpClient.h"
#include "TestJwtIssuer.h"

#include "hourglass/Broker.h"
#include "hourglass/admin/AdminHttpServer.h"
#include "hourglass/tls/JwtValidator.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTest>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
const QByteArray kQueueBody =
    atomEntry("QueueDescription", "<MaxDeliveryCount>3</MaxDeliveryCount>");

qint64 now() {
    return QDateTime::currentSecsSinceEpoch();
}

void setAuthorization(AdminRequest& request, const QByteArray& value) {
    for (auto& [name, header] : request.headers)
        if (name.compare("authorization", Qt::CaseInsensitive) == 0)
            header = value;
}

std::shared_ptr<const tls::JwtValidator> trusting(const TestJwtIssuer& issuer) {
    auto validator = tls::JwtValidator::fromPem(TestJwtIssuer::kIssuer, issuer.publicKeyPem());
    return validator ? std::make_shared<const tls::JwtValidator>(std::move(*validator)) : nullptr;
}
} // namespace

class AdminBearerTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        m_issuer = std::make_unique<TestJwtIssuer>();
        m_stranger = std::make_unique<TestJwtIssuer>();
    }

    void aTrustedBearerTokenManagesTheDefaultNamespace() {
        AdminFixture f;
        // Another namespace exists: a bearer token still names the default one.
        QVERIFY(f.broker().createNamespace({"second", Tier::Premium}));
        QVERIFY(f.keys().refresh(f.broker()));
        f.keys().trustIssuer(trusting(*m_issuer));
        AdminRequest create = f.request("PUT", "/orders", kQueueBody);
        setAuthorization(create, "Bearer " + m_issuer->token(now()));
        QCOMPARE(f.call(create).status, 201);
        QVERIFY(f.broker().entity("test:orders"));
        QVERIFY(!f.broker().entity("second:orders"));
        // The scheme is read without case; the namespace's own URL is an audience too.
        QJsonObject claims = m_issuer->claims(now());
        claims.insert("aud", "https://localhost:5671/");
        AdminRequest read = f.request("GET", "/orders");
        setAuthorization(read, "bearer " + m_issuer->sign(claims));
        QCOMPARE(f.call(read).status, 200);
        AdminRequest remove = f.request("DELETE", "/orders");
        setAuthorization(remove, "Bearer " + m_issuer->token(now()));
        QCOMPARE(f.call(remove).status, 200);
        QVERIFY(!f.broker().entity("test:orders"));
    }

    void refusedBearerTokensAre401AndChangeNothing_data() {
        QTest::addColumn<bool>("trusted");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("why");
        const qint64 t = now();
        QJsonObject otherAudience = m_issuer->claims(t);
        otherAudience.insert("aud", "https://example.com/");
        QJsonObject otherIssuer = m_issuer->claims(t);
        otherIssuer.insert("iss", "https://login.example.test/someone-else/v2.0");
        const QByteArray none =
            TestJwtIssuer::base64Url(R"({"alg":"none","typ":"JWT"})") + '.' +
            TestJwtIssuer::base64Url(QJsonDocument(m_issuer->claims(t)).toJson()) + '.';
        QTest::newRow("no trusted issuer")
            << false << "Bearer " + m_issuer->token(t) << "SharedAccessSignature";
        QTest::newRow("another key") << true << "Bearer " + m_stranger->token(t) << "signature";
        QTest::newRow("expired") << true
                                 << "Bearer " + m_issuer->sign(m_issuer->claims(t - 7200, 60))
                                 << "expired";
        QTest::newRow("another audience")
            << true << "Bearer " + m_issuer->sign(otherAudience) << "audience";
        QTest::newRow("another issuer")
            << true << "Bearer " + m_issuer->sign(otherIssuer) << "issuer";
        QTest::newRow("alg none") << true << "Bearer " + none << "not signed";
        QTest::newRow("garbage") << true << QByteArray("Bearer abc.def") << "three parts";
        QTest::newRow("oversize") << true << "Bearer " + QByteArray(9000, 'A') << "longer than";
    }
    void refusedBearerTokensAre401AndChangeNothing() {
        QFETCH(bool, trusted);
        QFETCH(QByteArray, value);
        QFETCH(QString, why);
        AdminFixture f;
        if (trusted)
            f.keys().trustIssuer(trusting(*m_issuer));
        AdminRequest create = f.request("PUT", "/orders", kQueueBody);
        setAuthorization(create, value);
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse refused = f.call(create);
        QCOMPARE(refused.status, 401);
        const QString detail = errorDetail(refused);
        QVERIFY2(detail.contains(why, Qt::CaseInsensitive), qPrintable(detail));
        for (const QByteArray& part : value.mid(7).split('.'))
            QVERIFY2(part.size() < 8 || !detail.contains(QString::fromLatin1(part.left(12))),
                     qPrintable(detail));
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    // Over HTTP, as the SDKs' administration clients send it.
    void aBearerTokenOverHttp() {
        TestBroker broker;
        auto keys = std::make_shared<amqp::NamespaceKeyRing>(amqp::wellKnownEmulatorKey());
        keys->trustIssuer(trusting(*m_issuer));
        AdminHttpOptions options;
        options.host = QStringLiteral("127.0.0.1");
        options.port = 0;
        AdminHttpServer server(broker.broker(), keys, options);
        const auto port = server.start();
        QVERIFY(port.ok());
        const auto sendAs = [&](const QByteArray& token) {
            RawHttpClient client(*port);
            client.send("PUT /orders?api-version=2021-05 HTTP/1.1\r\nHost: 127.0.0.1:" +
                        QByteArray::number(*port) + "\r\nAuthorization: Bearer " + token +
                        "\r\nContent-Type: application/atom+xml\r\nContent-Length: " +
                        QByteArray::number(kQueueBody.size()) + "\r\n\r\n" + kQueueBody);
            const auto response = client.response();
            return response ? response->status : 0;
        };
        QCOMPARE(sendAs(m_stranger->token(now())), 401);
        QVERIFY(!broker.broker().entity("test:orders"));
        QCOMPARE(sendAs(m_issuer->token(now())), 201);
        QVERIFY(broker.broker().entity("test:orders"));
    }

private:
    std::unique_ptr<TestJwtIssuer> m_issuer;
    std::unique_ptr<TestJwtIssuer> m_stranger;
};

QTEST_GUILESS_MAIN(AdminBearerTest)
#include "tst_admin_bearer.moc"
