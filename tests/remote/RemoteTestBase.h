#pragma once
// What the remote client's tests share (on the endpoint tests' base): a real Broker in a temporary
// folder with the namespace "ns", served by an in-process AmqpEndpoint on free ports (plain, and
// TLS with a certificate from LocalCertificates), and the connection strings that reach it.

#include "EndpointTestBase.h"
#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/ConnectionString.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace hourglass::testing {

class RemoteTestBase : public EndpointTestBase {
protected:
    // A fresh broker with the queue `queue`, served on a plain port and, with `tls`, a TLS one.
    bool startWithQueue(const QString& queue, bool tls = false,
                        const EntityProperties& properties = {}) {
        if (!openBroker() || !m_broker->createQueue(queue, properties).ok())
            return false;
        amqp::EndpointOptions endpoint;
        if (tls) {
            const auto files = tls::LocalCertificates::ensure(m_dir.filePath("certs"), {});
            if (!files) {
                qWarning("no certificate: %s", qPrintable(files.error().toString()));
                return false;
            }
            m_caFile = files->caCertificate;
            endpoint.tls = amqp::EndpointTls{0, files->serverCertificate, files->serverKey};
        }
        return startEndpoint(endpoint);
    }

    // An emulator-style string for the plain port, with `key`.
    remote::ConnectionString plainString(const QString& key = QStringLiteral("SAS_KEY_VALUE")) {
        return parsed(QStringLiteral("Endpoint=sb://127.0.0.1:%1;SharedAccessKeyName="
                                     "RootManageSharedAccessKey;SharedAccessKey=%2;"
                                     "UseDevelopmentEmulator=true")
                          .arg(m_port)
                          .arg(key));
    }
    // A string for the TLS port (the certificate names localhost).
    remote::ConnectionString tlsString() {
        return parsed(QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                                     "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE")
                          .arg(m_endpoint->tlsPort()));
    }
    static remote::ConnectionString parsed(const QString& text) {
        auto where = remote::parseConnectionString(text);
        if (!where)
            qFatal("a test connection string does not parse: %s",
                   qPrintable(where.error().toString()));
        return *where;
    }
    // What a failed result says, for QVERIFY2 (which evaluates its message even on success).
    template <typename R> static QByteArray why(const R& result) {
        return result.ok() ? QByteArray() : result.error().toString().toUtf8();
    }
    // Short time-outs: a test that fails must not wait long.
    static remote::AmqpClientOptions quick(const QString& caFile = {}) {
        remote::AmqpClientOptions options;
        options.callTimeoutMs = 5000;
        options.extraCaFile = caFile;
        return options;
    }

    QString m_caFile;
};

} // namespace hourglass::testing
