// The administration client over HTTPS, as it reaches `hourglass serve --tls`: the AMQP
// endpoint's TLS port (which hands HTTP to the administration API) with a certificate from a
// LocalCertificates authority in a temporary folder. Trusted through the extra CA file, every
// kind of call works; without it, or with a file that holds no certificate, nothing is sent past
// the handshake and the broker is unchanged.

#include "WorkerCall.h"

#include "TestBroker.h"

#include "hourglass/admin/AdminStreamServices.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

class RemoteAdminHttpsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_certDir;
    tls::CertificateFiles m_files;
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<amqp::AmqpEndpoint> m_endpoint;
    quint16 m_tlsPort = 0;

    AdminClientOptions options(const QString& caFile) const {
        // Not an emulator string: HTTPS, on the port the string names.
        const auto connection = parseConnectionString(
            QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                           "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE")
                .arg(m_tlsPort));
        if (!connection)
            qFatal("bad connection string in a test");
        AdminClientOptions options = AdminClientOptions::forConnection(*connection);
        options.extraCaFile = caFile;
        options.timeout = std::chrono::milliseconds(5000);
        return options;
    }

private slots:
    void initTestCase() {
        const auto files = tls::LocalCertificates::ensure(m_certDir.path(), {});
        QVERIFY2(bool(files), files ? "" : qPrintable(files.error().toString()));
        m_files = *files;
    }

    void init() {
        m_broker = std::make_unique<TestBroker>();
        amqp::EndpointOptions endpoint;
        endpoint.port = 0;
        endpoint.tls = amqp::EndpointTls{0, m_files.serverCertificate, m_files.serverKey};
        m_endpoint = std::make_unique<amqp::AmqpEndpoint>(m_broker->broker(), endpoint);
        m_endpoint->setStreamServices(
            admin::adminStreamServices(m_broker->broker(), m_endpoint->keys()));
        const auto port = m_endpoint->start();
        QVERIFY2(bool(port), port ? "" : qPrintable(port.error().toString()));
        m_tlsPort = m_endpoint->tlsPort();
        QVERIFY(m_tlsPort != 0);
    }
    void cleanup() {
        m_endpoint.reset();
        m_broker.reset();
    }

    void everyKindOfCallWhenTrusted() {
        AdminClient client(options(m_files.caCertificate));
        QCOMPARE(client.options().baseUrl, QStringLiteral("https://localhost:%1/").arg(m_tlsPort));
        const auto info = onWorker([&] { return client.namespaceInfo(); });
        QVERIFY2(bool(info), info ? "" : qPrintable(info.error().toString()));
        QCOMPARE(info->name, QStringLiteral("test"));

        EntityProperties properties;
        properties.maxDeliveryCount = 6;
        QVERIFY(onWorker([&] {
                    return client.createQueue(QStringLiteral("secure"), properties);
                }).ok());
        QCOMPARE(m_broker->broker().entity(QStringLiteral("secure"))->properties.maxDeliveryCount,
                 6);
        QVERIFY(onWorker([&] { return client.createTopic(QStringLiteral("t"), {}); }).ok());
        QVERIFY(onWorker([&] {
                    return client.createSubscription(QStringLiteral("t/Subscriptions/s"), {});
                }).ok());
        const auto queues = onWorker([&] { return client.queues(); });
        QVERIFY(bool(queues));
        QCOMPARE(queues->size(), 1);
        const auto subscription =
            onWorker([&] { return client.entity(QStringLiteral("t/Subscriptions/s")); });
        QVERIFY(bool(subscription));
        QCOMPARE(subscription->rules.size(), 1);
        properties.maxDeliveryCount = 2;
        QVERIFY(onWorker([&] {
                    return client.updateEntity(QStringLiteral("secure"), properties);
                }).ok());
        QCOMPARE(m_broker->broker().entity(QStringLiteral("secure"))->properties.maxDeliveryCount,
                 2);
        QVERIFY(onWorker([&] { return client.deleteEntity(QStringLiteral("t")); }).ok());
        QCOMPARE(onWorker([&] { return client.entity(QStringLiteral("t")); }).error().code,
                 ErrorCode::MessagingEntityNotFound);
    }

    void untrustedCertificateIsRefused() {
        AdminClient client(options({})); // the system's authorities only
        const auto answer =
            onWorker([&] { return client.createQueue(QStringLiteral("never"), {}); });
        QVERIFY(!answer);
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(!m_broker->broker().entity(QStringLiteral("never")));
    }

    void caFileWithoutCertificates() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.pem"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a certificate\n");
        file.close();
        for (const QString& caFile : {path, dir.filePath(QStringLiteral("missing.pem"))}) {
            AdminClient client(options(caFile));
            const auto answer = onWorker([&] { return client.namespaceInfo(); });
            QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        }
    }
};

QTEST_GUILESS_MAIN(RemoteAdminHttpsTest)
#include "tst_remote_admin_https.moc"
