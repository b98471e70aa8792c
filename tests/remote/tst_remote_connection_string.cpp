// Connection strings in every form users paste: keys, signatures, EntityPath, the emulator flag,
// IPv6 hosts, and the mistakes, whose messages never repeat the secret.
#include "hourglass/remote/ConnectionString.h"

#include <QTest>

using hourglass::ErrorCode;
using hourglass::remote::ConnectionString;
using hourglass::remote::parseConnectionString;

class ConnectionStringTest : public QObject {
    Q_OBJECT
private slots:
    void azureKeyString() {
        const auto parsed =
            parseConnectionString(QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/"
                                                 ";SharedAccessKeyName=RootManageSharedAccessKey;"
                                                 "SharedAccessKey=abc+/def=="));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->host, QStringLiteral("contoso.servicebus.windows.net"));
        QCOMPARE(parsed->port, 0);
        QCOMPARE(parsed->credential, ConnectionString::Credential::SharedKey);
        QCOMPARE(parsed->keyName, QStringLiteral("RootManageSharedAccessKey"));
        QCOMPARE(parsed->key, QStringLiteral("abc+/def=="));
        QVERIFY(parsed->usesTls());
        QCOMPARE(parsed->amqpPort(), 5671);
        QCOMPARE(parsed->adminPort(), 443);
        QCOMPARE(parsed->adminBaseUrl(), QStringLiteral("https://contoso.servicebus.windows.net/"));
        QCOMPARE(parsed->namespaceUri(), QStringLiteral("sb://contoso.servicebus.windows.net/"));
        QCOMPARE(parsed->displayName(), QStringLiteral("contoso.servicebus.windows.net"));
    }

    void emulatorStringWithoutPort() {
        const auto parsed = parseConnectionString(
            QStringLiteral("Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;"
                           "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;"));
        QVERIFY(parsed.ok());
        QVERIFY(parsed->developmentEmulator);
        QVERIFY(!parsed->usesTls());
        QCOMPARE(parsed->amqpPort(), 5672);
        QCOMPARE(parsed->adminPort(), 5672);
        QCOMPARE(parsed->adminBaseUrl(), QStringLiteral("http://localhost:5672/"));
    }

    void namedPortServesBothPlanes() {
        const auto tls = parseConnectionString(QStringLiteral(
            "Endpoint=sb://localhost:15671;SharedAccessKeyName=k;SharedAccessKey=v"));
        QVERIFY(tls.ok());
        QCOMPARE(tls->amqpPort(), 15671);
        QCOMPARE(tls->adminBaseUrl(), QStringLiteral("https://localhost:15671/"));
        QCOMPARE(tls->displayName(), QStringLiteral("localhost:15671"));
        const auto admin = parseConnectionString(
            QStringLiteral("Endpoint=sb://localhost:5300;UseDevelopmentEmulator=TRUE"));
        QVERIFY(admin.ok());
        QCOMPARE(admin->adminBaseUrl(), QStringLiteral("http://localhost:5300/"));
        QCOMPARE(admin->credential, ConnectionString::Credential::None);
    }

    void keysAreCaseBlindAndValuesKeepTheirEquals() {
        const auto parsed =
            parseConnectionString(QStringLiteral(" endpoint = amqps://ns.example.org/ ; "
                                                 "sharedaccesskeyname=Send ; SHAREDACCESSKEY=a=b= ;"
                                                 "entitypath=orders;TransportType=AmqpWebSockets"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->host, QStringLiteral("ns.example.org"));
        QCOMPARE(parsed->key, QStringLiteral("a=b="));
        QCOMPARE(parsed->keyName, QStringLiteral("Send"));
        QCOMPARE(parsed->entityPath, QStringLiteral("orders"));
    }

    void signatureString() {
        const QString token = QStringLiteral(
            "SharedAccessSignature sr=sb%3a%2f%2fns%2f&sig=abc%3d&se=1900000000&skn=Listen");
        const auto parsed = parseConnectionString(
            QStringLiteral(
                "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessSignature=%1;EntityPath=q")
                .arg(token));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->credential, ConnectionString::Credential::SignatureOnly);
        QCOMPARE(parsed->signature, token);
        QCOMPARE(parsed->entityPath, QStringLiteral("q"));
    }

    void ipv6Host() {
        const auto parsed = parseConnectionString(
            QStringLiteral("Endpoint=sb://[::1]:5672/;UseDevelopmentEmulator=true"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->host, QStringLiteral("::1"));
        QCOMPARE(parsed->adminBaseUrl(), QStringLiteral("http://[::1]:5672/"));
        QCOMPARE(parsed->namespaceUri(), QStringLiteral("sb://[::1]/"));
    }

    void mistakes_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("blank") << QStringLiteral(" ; ;");
        QTest::newRow("no endpoint")
            << QStringLiteral("SharedAccessKeyName=k;SharedAccessKey=secret1");
        QTest::newRow("no equals") << QStringLiteral("Endpoint=sb://ns/;secret1");
        QTest::newRow("https scheme")
            << QStringLiteral("Endpoint=https://ns/;SharedAccessKey=secret1;SharedAccessKeyName=k");
        QTest::newRow("no host") << QStringLiteral(
            "Endpoint=sb:///;SharedAccessKeyName=k;SharedAccessKey=secret1");
        QTest::newRow("path") << QStringLiteral(
            "Endpoint=sb://ns/queue;SharedAccessKeyName=k;SharedAccessKey=secret1");
        QTest::newRow("port too big") << QStringLiteral(
            "Endpoint=sb://ns:70000/;SharedAccessKeyName=k;SharedAccessKey=secret1");
        QTest::newRow("key without name")
            << QStringLiteral("Endpoint=sb://ns/;SharedAccessKey=secret1");
        QTest::newRow("name without key")
            << QStringLiteral("Endpoint=sb://ns/;SharedAccessKeyName=secret1");
        QTest::newRow("twice") << QStringLiteral(
            "Endpoint=sb://ns/"
            ";SharedAccessKeyName=k;SharedAccessKey=secret1;sharedaccesskey=secret1");
        QTest::newRow("key and signature") << QStringLiteral(
            "Endpoint=sb://ns/"
            ";SharedAccessKeyName=k;SharedAccessKey=secret1;SharedAccessSignature=secret1");
    }
    void mistakes() {
        QFETCH(QString, text);
        const auto parsed = parseConnectionString(text);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().code, ErrorCode::InvalidArgument);
        QVERIFY(!parsed.error().description.isEmpty());
        QVERIFY2(!parsed.error().description.contains(QLatin1String("secret1")),
                 qPrintable(parsed.error().description));
    }
};

QTEST_GUILESS_MAIN(ConnectionStringTest)
#include "tst_remote_connection_string.moc"
