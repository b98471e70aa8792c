#pragma once
// What the endpoint's socket-level tests share: a fresh database with the namespace "ns" for
// each test function, and the endpoint started on a free port. A test class derives from it,
// calls openBroker() in its init() and reset() in its cleanup().

#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace hourglass::testing {

class EndpointTestBase : public QObject {
protected:
    // False (with a warning) when the database cannot be opened.
    bool openBroker() {
        if (!m_dir.isValid())
            return false;
        BrokerOptions options;
        options.databasePath = m_dir.filePath(QStringLiteral("t%1.db").arg(m_count++));
        auto broker = Broker::open(options);
        if (!broker) {
            qWarning("cannot open the broker: %s", qPrintable(broker.error().toString()));
            return false;
        }
        m_broker = std::move(*broker);
        return m_broker->createNamespace({QStringLiteral("ns"), Tier::Standard}).ok();
    }
    // On a free port, whatever `options` says of the port.
    bool startEndpoint(amqp::EndpointOptions options = {}) {
        options.port = 0;
        m_endpoint = std::make_unique<amqp::AmqpEndpoint>(*m_broker, options);
        const auto port = m_endpoint->start();
        if (!port) {
            qWarning("cannot start the endpoint: %s", qPrintable(port.error().toString()));
            return false;
        }
        m_port = *port;
        return true;
    }
    // The usual start of a test function: a fresh broker with the queue `queue`, and the
    // endpoint serving it.
    bool startWithQueue(const QString& queue) {
        return openBroker() && m_broker->createQueue(queue, {}).ok() && startEndpoint();
    }
    // The endpoint first: it calls into the broker until it has stopped.
    void reset() {
        m_endpoint.reset();
        m_broker.reset();
    }

    QTemporaryDir m_dir;
    int m_count = 0;
    std::unique_ptr<Broker> m_broker;
    std::unique_ptr<amqp::AmqpEndpoint> m_endpoint;
    quint16 m_port = 0;
};

} // namespace hourglass::testing
