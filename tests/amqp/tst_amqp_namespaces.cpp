// Every namespace reachable on the endpoint: each namespace's key (the default one keeps the
// endpoint's key, the others a random key of their own kept in the database), the claim a token
// grants (namespace and path), the hosts a token's audience may name, and how an address is
// placed: in the namespace of the claims that cover it, never guessed.

#include "Claims.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/amqp/NamespaceKeys.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::amqp;

namespace {
qint64 now() {
    return QDateTime::currentSecsSinceEpoch();
}
qint64 inAnHour() {
    return now() + 3600;
}
} // namespace

class AmqpNamespacesTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("n%1.db").arg(m_count++));
        openBroker();
        QVERIFY(m_broker->createNamespace({QStringLiteral("first"), Tier::Standard}).ok());
        QVERIFY(m_broker->createNamespace({QStringLiteral("second"), Tier::Standard}).ok());
    }
    void cleanup() { m_broker.reset(); }

    void theOldestNamespaceKeepsTheEndpointKeyOthersGetTheirOwn() {
        NamespaceKeyRing ring(wellKnownEmulatorKey());
        QVERIFY(ring.refresh(*m_broker).ok());
        QCOMPARE(ring.defaultNamespace().value_or(QString()), QStringLiteral("first"));
        const auto first = ring.keyOf(QStringLiteral("first"));
        const auto second = ring.keyOf(QStringLiteral("SECOND"));
        QVERIFY(first && second);
        QCOMPARE(first->key.value, wellKnownEmulatorKey().value);
        QVERIFY(second->key.value != wellKnownEmulatorKey().value);
        QVERIFY(second->key.value.size() >= 40);
        QCOMPARE(second->key.name, wellKnownEmulatorKey().name);
    }

    void aNamespaceKeySurvivesARestart() {
        QString before;
        {
            NamespaceKeyRing ring(wellKnownEmulatorKey());
            QVERIFY(ring.refresh(*m_broker).ok());
            before = ring.keyOf(QStringLiteral("second"))->key.value;
        }
        m_broker.reset();
        openBroker();
        NamespaceKeyRing again(wellKnownEmulatorKey());
        QVERIFY(again.refresh(*m_broker).ok());
        QCOMPARE(again.keyOf(QStringLiteral("second"))->key.value, before);
        // A third namespace gets a key different from the second's.
        QVERIFY(m_broker->createNamespace({QStringLiteral("third"), Tier::Standard}).ok());
        QVERIFY(again.refresh(*m_broker).ok());
        const auto third = again.keyOf(QStringLiteral("third"));
        QVERIFY(third);
        QVERIFY(third->key.value != before);
    }

    void theKeyThatVerifiesATokenNamesItsNamespace() {
        NamespaceKeyRing ring(wellKnownEmulatorKey());
        QVERIFY(ring.refresh(*m_broker).ok());
        const SasKey second = ring.keyOf(QStringLiteral("second"))->key;
        const QString audience = QStringLiteral("sb://localhost:5672/orders");

        const TokenVerdict toSecond =
            ring.verify(makeSasToken(audience, second, inAnHour()), now());
        QVERIFY(toSecond.check.valid());
        QCOMPARE(toSecond.name.value_or(QString()), QStringLiteral("second"));

        const TokenVerdict toFirst =
            ring.verify(makeSasToken(audience, wellKnownEmulatorKey(), inAnHour()), now());
        QCOMPARE(toFirst.name.value_or(QString()), QStringLiteral("first"));

        const TokenVerdict nobody = ring.verify(
            makeSasToken(audience, SasKey{second.name, QStringLiteral("not-a-key")}, inAnHour()),
            now());
        QVERIFY(!nobody.check.valid());
        QVERIFY(!nobody.name);
        QVERIFY(nobody.check.description.contains(QStringLiteral("no namespace")));

        const TokenVerdict expired = ring.verify(makeSasToken(audience, second, now() - 10), now());
        QCOMPARE(expired.check.outcome, TokenCheck::Outcome::Expired);
    }

    void audienceHosts_data() {
        QTest::addColumn<QString>("audience");
        QTest::addColumn<bool>("served");
        QTest::newRow("localhost") << "sb://localhost/orders" << true;
        QTest::newRow("localhost, port") << "sb://localhost:5672/orders" << true;
        QTest::newRow("localhost, other case") << "sb://LocalHost:5672/orders" << true;
        QTest::newRow("127.0.0.1") << "sb://127.0.0.1:5672/" << true;
        QTest::newRow("127.0.0.2") << "sb://127.0.0.2/orders" << true;
        QTest::newRow("127.255.255.254") << "sb://127.255.255.254/orders" << true;
        QTest::newRow("::1") << "sb://[::1]:5672/orders" << true;
        QTest::newRow("::1 written long") << "sb://[0:0:0:0:0:0:0:1]/orders" << true;
        QTest::newRow("listen host") << "sb://10.1.2.3:5672/orders" << true;
        QTest::newRow("added name") << "sb://hourglass.internal/orders" << true;
        QTest::newRow("added name, other case, port") << "sb://HourGlass.Internal:1/x" << true;
        QTest::newRow("scheme ignored") << "amqps://localhost/orders" << true;
        QTest::newRow("foreign host") << "sb://evil.example.com/plain" << false;
        QTest::newRow("foreign host, loopback-like name") << "sb://127.0.0.1.evil.com/x" << false;
        QTest::newRow("128.0.0.1") << "sb://128.0.0.1/orders" << false;
        QTest::newRow("127.0.0.256") << "sb://127.0.0.256/orders" << false;
        QTest::newRow("::2") << "sb://[::2]/orders" << false;
        QTest::newRow("localhost as a suffix") << "sb://notlocalhost/orders" << false;
        QTest::newRow("user info") << "sb://localhost@evil.com/orders" << false;
        QTest::newRow("no scheme") << "localhost/orders" << false;
        QTest::newRow("no host") << "sb:///orders" << false;
    }
    void audienceHosts() {
        QFETCH(QString, audience);
        QFETCH(bool, served);
        const ServedHosts hosts(QStringLiteral("10.1.2.3"), {QStringLiteral("hourglass.internal")});
        TokenVerdict verdict;
        verdict.check.outcome = TokenCheck::Outcome::Valid;
        verdict.check.audience = audience;
        verdict.check.expiresAt = inAnHour();
        verdict.name = QStringLiteral("first");
        const ClaimDecision decision = claimFromToken(verdict, hosts);
        QCOMPARE(decision.claim.has_value(), served);
        if (!served) {
            QVERIFY(!decision.refusal.isEmpty());
            // A short prefix of what the peer sent, never more.
            QVERIFY(decision.refusal.size() < 250);
        }
    }

    void aLongForeignHostIsQuotedShort() {
        TokenVerdict verdict;
        verdict.check.outcome = TokenCheck::Outcome::Valid;
        verdict.check.audience =
            QStringLiteral("sb://") + QString(5000, u'a') + QStringLiteral("/q");
        verdict.check.expiresAt = inAnHour();
        verdict.name = QStringLiteral("first");
        const ClaimDecision decision = claimFromToken(verdict, ServedHosts());
        QVERIFY(!decision.claim);
        QVERIFY(decision.refusal.size() < 250);
    }

    void theClaimRecordsNamespaceAndPath() {
        TokenVerdict verdict;
        verdict.check.outcome = TokenCheck::Outcome::Valid;
        verdict.check.audience = QStringLiteral("sb://localhost:5672/Orders/");
        verdict.check.expiresAt = inAnHour();
        verdict.name = QStringLiteral("second");
        const ClaimDecision decision = claimFromToken(verdict, ServedHosts());
        QVERIFY(decision.claim);
        QCOMPARE(decision.claim->namespaceName, QStringLiteral("second"));
        QCOMPARE(decision.claim->audiencePath, QStringLiteral("orders"));
    }

    void addressesArePlacedByTheirClaims() {
        ClaimSet claims;
        QVERIFY(!claims.namespaceFor(QStringLiteral("orders"), now()));
        QVERIFY(
            claims.add({QStringLiteral("second"), QStringLiteral("orders"), inAnHour()}, now()));
        QCOMPARE(claims.namespaceFor(QStringLiteral("orders"), now()).value_or(QString()),
                 QStringLiteral("second"));
        QCOMPARE(
            claims.namespaceFor(QStringLiteral("Orders/$management"), now()).value_or(QString()),
            QStringLiteral("second"));
        // Not covered: refused, not guessed.
        QVERIFY(!claims.namespaceFor(QStringLiteral("payments"), now()));
        QVERIFY(!claims.namespaceFor(QStringLiteral("ordersx"), now()));
        // A claim of the first namespace over its root covers every path there.
        QVERIFY(claims.add({QStringLiteral("first"), QString(), inAnHour()}, now()));
        QCOMPARE(claims.namespaceFor(QStringLiteral("payments"), now()).value_or(QString()),
                 QStringLiteral("first"));
        // Both cover "orders" now: which namespace is meant cannot be told.
        QVERIFY(!claims.namespaceFor(QStringLiteral("orders"), now()));
        QVERIFY(!claims.namespaceFor(QStringLiteral("orders/$management"), now()));
        QCOMPARE(claims.namespaces(),
                 QStringList({QStringLiteral("second"), QStringLiteral("first")}));
    }

    void expiredClaimsPlaceNothing() {
        ClaimSet claims;
        QVERIFY(claims.add({QStringLiteral("first"), QStringLiteral("orders"), now() - 1}, now()));
        QVERIFY(!claims.namespaceFor(QStringLiteral("orders"), now()));
        // An expired claim of another namespace does not make a live one ambiguous.
        QVERIFY(
            claims.add({QStringLiteral("second"), QStringLiteral("orders"), inAnHour()}, now()));
        QCOMPARE(claims.namespaceFor(QStringLiteral("orders"), now()).value_or(QString()),
                 QStringLiteral("second"));
    }

    void aConnectionHoldsABoundedNumberOfClaims() {
        ClaimSet claims;
        const auto pathOf = [](qsizetype i) { return QStringLiteral("queue-%1").arg(i); };
        // Expired claims make room; live ones do not.
        QVERIFY(claims.add({QStringLiteral("first"), pathOf(-1), now() - 1}, now()));
        for (qsizetype i = 1; i < ClaimSet::kMaxClaimsPerConnection; ++i)
            QVERIFY(claims.add({QStringLiteral("first"), pathOf(i), inAnHour()}, now()));
        QVERIFY(claims.add({QStringLiteral("first"), pathOf(0), inAnHour()}, now()));
        QVERIFY(
            !claims.add({QStringLiteral("first"), QStringLiteral("one-more"), inAnHour()}, now()));
        QVERIFY(!claims.namespaceFor(QStringLiteral("one-more"), now()));
        // Renewing a claim it holds still works when full.
        QVERIFY(claims.add({QStringLiteral("first"), pathOf(7), inAnHour() + 60}, now()));
        QCOMPARE(claims.namespaceFor(pathOf(7), now()).value_or(QString()),
                 QStringLiteral("first"));
    }

    void eachNamespaceHasItsConnectionString() {
        AmqpEndpoint endpoint(*m_broker, EndpointOptions{});
        QCOMPARE(endpoint.defaultNamespace(), QStringLiteral("first"));
        // Making them waits on disk for the keys; reading them afterwards is a memory read.
        const QString first = endpoint.makeConnectionString(QStringLiteral("first"));
        const QString second = endpoint.makeConnectionString(QStringLiteral("second"));
        QCOMPARE(endpoint.connectionString(QStringLiteral("second")), second);
        QCOMPARE(endpoint.connectionString(), first);
        QVERIFY(first.contains(QStringLiteral("SharedAccessKey=SAS_KEY_VALUE;")));
        QVERIFY(!second.contains(QStringLiteral("SAS_KEY_VALUE")));
        QVERIFY(second.startsWith(QStringLiteral("Endpoint=sb://localhost:")));
        QVERIFY(endpoint.makeConnectionString(QStringLiteral("nowhere")).isEmpty());
        // The key is the one kept in the database.
        QVERIFY(second.contains(m_broker->setting(kNamespaceKeyPrefix + QStringLiteral("second"))));
    }

private:
    void openBroker() {
        BrokerOptions options;
        options.databasePath = m_path;
        auto broker = Broker::open(options);
        QVERIFY(broker.ok());
        m_broker = std::move(*broker);
    }

    QTemporaryDir m_dir;
    QString m_path;
    int m_count = 0;
    std::unique_ptr<Broker> m_broker;
};

QTEST_GUILESS_MAIN(AmqpNamespacesTest)
#include "tst_amqp_namespaces.moc"
