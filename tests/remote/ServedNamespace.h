#pragma once
// An in-process `hourglass` namespace for the remote tests: a real broker (TestBroker: its own
// database in a temporary folder) served by the AMQP endpoint with the administration API's
// stream services, on a plain port (reached by an emulator-style string) and, when asked, a TLS
// port with a certificate from a LocalCertificates authority (reached by a plain string naming
// that port, trusting the authority's CA file). It can trust an identity provider's bearer
// tokens, as `serve --trust-issuer` does (reached by a string without a key).

#include "TestBroker.h"

#include "hourglass/admin/AdminStreamServices.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/remote/ConnectionString.h"
#include "hourglass/tls/JwtValidator.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

class ServedNamespace {
public:
    enum class Transport { Plain, Tls };

    explicit ServedNamespace(Transport transport)
        : m_transport(transport) {
        amqp::EndpointOptions endpoint;
        endpoint.port = 0;
        if (transport == Transport::Tls) {
            const auto files = tls::LocalCertificates::ensure(m_certDir.path(), {});
            if (!files)
                qFatal("no test certificates: %s", qPrintable(files.error().toString()));
            m_caFile = files->caCertificate;
            endpoint.tls = amqp::EndpointTls{0, files->serverCertificate, files->serverKey};
        }
        m_endpoint = std::make_unique<amqp::AmqpEndpoint>(m_broker.broker(), endpoint);
        m_endpoint->setStreamServices(
            admin::adminStreamServices(m_broker.broker(), m_endpoint->keys()));
        const auto port = m_endpoint->start();
        if (!port)
            qFatal("the endpoint did not start: %s", qPrintable(port.error().toString()));
        m_port = transport == Transport::Tls ? m_endpoint->tlsPort() : *port;
    }

    Broker& broker() { return m_broker.broker(); }
    TestBroker& testBroker() { return m_broker; }
    // The port clients reach (the TLS port when served over TLS).
    quint16 port() const { return m_port; }
    // The CA file a client trusts for the TLS port; empty for plain.
    QString caFile() const { return m_caFile; }

    // Bearer tokens of `issuer` are taken on both planes besides the keys' signatures.
    void trustIssuer(std::shared_ptr<const tls::JwtValidator> issuer) {
        m_endpoint->keys()->trustIssuer(std::move(issuer));
    }

    // With the namespace's key, or without one (Credential::None: a sign-in's tokens).
    QString connectionText(bool withKey = true) const {
        QString text = QStringLiteral("Endpoint=sb://localhost:%1").arg(m_port);
        if (withKey)
            text += QStringLiteral(
                ";SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE");
        if (m_transport == Transport::Plain)
            text += QStringLiteral(";UseDevelopmentEmulator=true");
        return text;
    }
    remote::ConnectionString connection(bool withKey = true) const {
        const auto parsed = remote::parseConnectionString(connectionText(withKey));
        if (!parsed)
            qFatal("bad connection string in a test");
        return *parsed;
    }

private:
    Transport m_transport;
    QTemporaryDir m_certDir;
    QString m_caFile;
    TestBroker m_broker;
    std::unique_ptr<amqp::AmqpEndpoint> m_endpoint;
    quint16 m_port = 0;
};

} // namespace hourglass::testing
