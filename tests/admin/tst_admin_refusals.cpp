// Who may call the administration API and what it refuses. Tokens as each client signs them
// (JavaScript: the full request URL in lower case; Python: the namespace root with its port;
// the AMQP clients: sb://host:port/entity), a wrong key, an expired token, another host, another
// path, another namespace's key. Bad names, malformed or hostile XML, oversize bodies, unknown
// elements and methods: each gets its HTTP error, quotes at most a short prefix of what was
// sent, and leaves the broker exactly as it was.

#include "AdminErrors.h"
#include "AdminFixture.h"
#include "BrokerSnapshot.h"

#include "hourglass/Broker.h"

#include <QDateTime>
#include <QTest>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
void setAuthorization(AdminRequest& request, const QByteArray& token) {
    for (auto& [name, value] : request.headers)
        if (name.compare("authorization", Qt::CaseInsensitive) == 0)
            value = token;
}

const QByteArray kQueueBody =
    atomEntry("QueueDescription", "<MaxDeliveryCount>3</MaxDeliveryCount>");
} // namespace

class TestAdminRefusals : public QObject {
    Q_OBJECT

private slots:
    void javaScriptTokenCoversItsOwnUrl() {
        AdminFixture f;
        QCOMPARE(f.put("/orders", kQueueBody).status, 201); // signed over the lower-cased URL
        AdminRequest mixedCase = f.request("GET", "/Orders");
        setAuthorization(mixedCase,
                         AdminFixture::token("https://LocalHost:5671/ORDERS?api-version=2021-05",
                                             amqp::wellKnownEmulatorKey()));
        QCOMPARE(f.call(mixedCase).status, 200);
        // The same token does not cover another entity.
        AdminRequest other = f.request("GET", "/$Resources/Queues");
        setAuthorization(other, AdminFixture::token("https://localhost:5671/orders?api-version="
                                                    "2021-05",
                                                    amqp::wellKnownEmulatorKey()));
        QCOMPARE(f.call(other).status, 401);
    }

    void pythonTokenForTheNamespaceRootCoversEverything() {
        AdminFixture f;
        const QByteArray root =
            AdminFixture::token("https://localhost:5671", amqp::wellKnownEmulatorKey());
        AdminRequest create = f.request("PUT", "/orders", kQueueBody);
        setAuthorization(create, root);
        QCOMPARE(f.call(create).status, 201);
        AdminRequest list = f.request("GET", "/$Resources/Queues");
        setAuthorization(list, root);
        QCOMPARE(f.call(list).status, 200);
    }

    void amqpTokenCoversItsEntityWhateverTheSchemeAndPort() {
        AdminFixture f;
        QVERIFY(f.broker().createQueue("orders", EntityProperties::defaults(Tier::Standard)));
        const QByteArray token =
            AdminFixture::token("sb://localhost:5672/orders", amqp::wellKnownEmulatorKey());
        AdminRequest read = f.request("GET", "/orders");
        setAuthorization(read, token);
        QCOMPARE(f.call(read).status, 200);
        AdminRequest other = f.request("GET", "/orders2");
        setAuthorization(other, token);
        QCOMPARE(f.call(other).status, 401);
    }

    void refusedTokensAre401AndChangeNothing_data() {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QString>("why");
        const qint64 hour = QDateTime::currentSecsSinceEpoch() + 3600;
        const amqp::SasKey wrong{"RootManageSharedAccessKey", "not-the-key"};
        QTest::newRow("wrong key")
            << AdminFixture::token("https://localhost:5671", wrong, hour) << "signature";
        QTest::newRow("expired") << AdminFixture::token("https://localhost:5671",
                                                        amqp::wellKnownEmulatorKey(),
                                                        QDateTime::currentSecsSinceEpoch() - 10)
                                 << "expired";
        QTest::newRow("other host")
            << AdminFixture::token("https://example.com/", amqp::wellKnownEmulatorKey(), hour)
            << "host";
        QTest::newRow("missing") << QByteArray() << "Authorization";
        QTest::newRow("not a token") << QByteArray("Bearer abc") << "SharedAccessSignature";
    }

    void refusedTokensAre401AndChangeNothing() {
        QFETCH(QByteArray, token);
        QFETCH(QString, why);
        AdminFixture f;
        AdminRequest create = f.request("PUT", "/orders", kQueueBody);
        setAuthorization(create, token);
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse refused = f.call(create);
        QCOMPARE(refused.status, 401);
        QVERIFY(refused.body.contains("<Error><Code>401</Code><Detail>"));
        QVERIFY2(errorDetail(refused).contains(why, Qt::CaseInsensitive),
                 qPrintable(errorDetail(refused)));
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    // The key that verifies the token names the namespace the request is for.
    void anotherNamespacesKeyReachesThatNamespace() {
        AdminFixture f;
        QVERIFY(f.broker().createNamespace({"second", Tier::Premium}));
        QVERIFY(f.keys().refresh(f.broker()));
        const auto key = f.keys().keyOf("second");
        QVERIFY(key);
        AdminRequest create = f.request("PUT", "/orders", kQueueBody);
        setAuthorization(create, AdminFixture::token("https://localhost:5671", key->key));
        QCOMPARE(f.call(create).status, 201);
        QVERIFY(f.broker().entity("second:orders"));
        QVERIFY(!f.broker().entity("test:orders"));
        AdminRequest info = f.request("GET", "/$namespaceinfo");
        setAuthorization(info, AdminFixture::token("https://localhost:5671", key->key));
        const AdminResponse read = f.call(info);
        QCOMPARE(childText(descriptionOf(*parsedBody(read)), "Name"), QStringLiteral("second"));
        QCOMPARE(childText(descriptionOf(*parsedBody(read)), "MessagingSKU"),
                 QStringLiteral("Premium"));
    }

    void badTargetsAre400AndChangeNothing_data() {
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("dot dot") << QByteArray("/a/../orders");
        QTest::newRow("lone dot dot") << QByteArray("/..");
        QTest::newRow("encoded slash") << QByteArray("/a%2Forders");
        QTest::newRow("encoded slash, lower case") << QByteArray("/a%2forders");
        QTest::newRow("backslash") << QByteArray("/a\\orders");
        QTest::newRow("control character") << QByteArray("/ord%01ers");
        QTest::newRow("nul") << QByteArray("/orders%00");
        QTest::newRow("star") << QByteArray("/orders*");
        QTest::newRow("empty segment") << QByteArray("/a//orders");
        QTest::newRow("too long") << "/" + QByteArray(300, 'x');
        QTest::newRow("subscription name too long") << "/t/Subscriptions/" + QByteArray(51, 's');
        QTest::newRow("bad top") << QByteArray("/orders?$top=abc&api-version=2021-05");
        QTest::newRow("no name") << QByteArray("/");
    }

    void badTargetsAre400AndChangeNothing() {
        QFETCH(QByteArray, target);
        AdminFixture f;
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse refused = f.put(target, kQueueBody);
        QCOMPARE(refused.status, 400);
        QVERIFY(refused.body.startsWith("<?xml"));
        QVERIFY(!errorDetail(refused).contains(QString(65, u'x')));
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    void badBodiesAre400AndChangeNothing_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("why");
        QTest::newRow("truncated") << QByteArray("<entry xmlns=\"http://www.w3.org/2005/Atom\">"
                                                 "<content><QueueDescription>")
                                   << "well-formed";
        QTest::newRow("not xml") << QByteArray("{\"LockDuration\": \"PT1M\"}") << "well-formed";
        QTest::newRow("empty") << QByteArray() << "no body";
        QTest::newRow("other root") << QByteArray("<feed/>") << "description";
        QTest::newRow("unknown element")
            << atomEntry("QueueDescription", "<Bogus>1</Bogus>") << "Bogus";
        QTest::newRow("topic property on a queue")
            << atomEntry("QueueDescription", "<SubscriptionCount>1</SubscriptionCount>"
                                             "<DeadLetteringOnFilterEvaluationExceptions>true"
                                             "</DeadLetteringOnFilterEvaluationExceptions>")
            << "DeadLetteringOnFilterEvaluationExceptions";
        QTest::newRow("not a number")
            << atomEntry("QueueDescription", "<MaxDeliveryCount>many</MaxDeliveryCount>")
            << "whole number";
        QTest::newRow("not a duration")
            << atomEntry("QueueDescription", "<LockDuration>soon</LockDuration>") << "ISO-8601";
        QTest::newRow("out of the engine's bounds")
            << atomEntry("QueueDescription", "<LockDuration>PT1H</LockDuration>") << "LockDuration";
        QTest::newRow("entity expansion")
            << QByteArray("<?xml version=\"1.0\"?><!DOCTYPE e [<!ENTITY x \"xxxxxxxx\">"
                          "<!ENTITY y \"&x;&x;&x;&x;&x;&x;\">]><entry>&y;</entry>")
            << "document type";
        QByteArray deep;
        for (int i = 0; i < 200; ++i)
            deep += "<a>";
        QTest::newRow("deep") << deep << "deeper";
    }

    void badBodiesAre400AndChangeNothing() {
        QFETCH(QByteArray, body);
        QFETCH(QString, why);
        AdminFixture f;
        QVERIFY(f.broker().createQueue("existing", EntityProperties::defaults(Tier::Standard)));
        const auto before = BrokerSnapshot::take(f.broker());
        for (const bool update : {false, true}) {
            const AdminResponse refused = f.put(update ? "/existing" : "/orders", body, update);
            QCOMPARE(refused.status, 400);
            QVERIFY2(errorDetail(refused).contains(why), qPrintable(errorDetail(refused)));
        }
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    void oversizeBodyIs413() {
        AdminFixture f;
        const auto before = BrokerSnapshot::take(f.broker());
        QByteArray body = atomEntry("QueueDescription", "");
        body += QByteArray(kMaxAdminBodyBytes, ' ');
        const AdminResponse refused = f.put("/orders", body);
        QCOMPARE(refused.status, 413);
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
        // At the limit it is read.
        QByteArray fits = atomEntry("QueueDescription", "");
        fits += QByteArray(kMaxAdminBodyBytes - fits.size(), ' ');
        QCOMPARE(f.put("/orders", fits).status, 201);
    }

    void errorsQuoteOnlyAShortPrefix() {
        AdminFixture f;
        const QByteArray name(1000, 'x');
        const AdminResponse refused =
            f.put("/orders", atomEntry("QueueDescription", "<" + name + ">1</" + name + ">"));
        QCOMPARE(refused.status, 400);
        const QString detail = errorDetail(refused);
        QVERIFY2(detail.contains(QString(64, u'x')), refused.body.constData());
        QVERIFY(!detail.contains(QString(65, u'x')));
        QVERIFY(refused.body.size() < 1024);
    }

    // The engine's own descriptions quote names and SQL tokens whole; replies clip them.
    void engineDescriptionsAreClipped() {
        AdminFixture f;
        const QByteArray name(200, 'q');
        const AdminResponse missing = f.get("/" + name);
        QCOMPARE(missing.status, 404);
        QVERIFY2(errorDetail(missing).contains(QString(64, u'q')),
                 qPrintable(errorDetail(missing)));
        QVERIFY(!errorDetail(missing).contains(QString(65, u'q')));
        QVERIFY(f.broker().createQueue(QString::fromLatin1(name),
                                       EntityProperties::defaults(Tier::Standard)));
        const AdminResponse exists = f.put("/" + name, kQueueBody);
        QCOMPARE(exists.status, 409);
        QVERIFY(!errorDetail(exists).contains(QString(65, u'q')));

        const QString token(300, u't');
        const QString sql = QStringLiteral("There was an error parsing the SQL expression. [Token "
                                           "line=1, column=5, Token in error= %1, Additional "
                                           "details= near 'x']")
                                .arg(token);
        const QString clipped = clippedEngineText(sql);
        QVERIFY(clipped.contains(QString(64, u't')));
        QVERIFY(!clipped.contains(QString(65, u't')));
        QVERIFY(clipped.endsWith(QStringLiteral(", Additional details= near 'x']")));
        const QString words =
            QStringLiteral("The subscription's rule '%1' is the topic's.").arg(QString(80, u'r'));
        QCOMPARE(clippedEngineText(words),
                 QStringLiteral("The subscription's rule '%1...' is the topic's.")
                     .arg(QString(64, u'r')));
    }

    void otherMethodsAre405() {
        AdminFixture f;
        const AdminResponse post = f.call(f.request("POST", "/orders", kQueueBody));
        QCOMPARE(post.status, 405);
        QCOMPARE(post.header("Allow"), QByteArray("GET, PUT, DELETE"));
        const AdminResponse putList = f.put("/$Resources/Queues", kQueueBody);
        QCOMPARE(putList.status, 405);
        QCOMPARE(putList.header("Allow"), QByteArray("GET"));
        QVERIFY(!f.broker().entity("orders"));
    }

    void hostileHostIs400() {
        AdminFixture f;
        AdminRequest request = f.request("GET", "/$namespaceinfo");
        request.host = QStringLiteral("localhost\"><x/>");
        QCOMPARE(f.call(request).status, 400);
    }
};

QTEST_GUILESS_MAIN(TestAdminRefusals)
#include "tst_admin_refusals.moc"
