#pragma once
// The AMQP 1.0 endpoint: lets applications written against the official Azure Service Bus SDKs
// talk to the embedded broker with the emulator's connection string (amqp-endpoint.md). It is an
// adapter like the window: frames become Broker calls, results become frames; the broker never
// knows a socket exists.
//
// Threads. One proactor thread owns every Proton object; broker calls run on a pool of workers
// and hand their results back to it. The public functions may be called from any thread.

#include "hourglass/Status.h"
#include "hourglass/amqp/EndpointSnapshot.h"
#include "hourglass/amqp/NamespaceKeys.h"
#include "hourglass/amqp/StreamService.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace hourglass {
class Broker;
}

namespace hourglass::amqp {

// The database setting (Broker::setting) that keeps the key clients of the default namespace
// sign with, when the user set one of their own; unset, the well-known key serves. The other
// namespaces have keys of their own (NamespaceKeys.h).
inline const QString kKeySetting = QStringLiteral("amqp.sharedAccessKey");

// Why stop() closes the applications' connections (the description of their
// amqp:connection:forced close): the process ends, or the database they use was closed.
inline const QString kShuttingDownReason = QStringLiteral("Hourglass is shutting down.");
inline const QString kDatabaseClosedReason = QStringLiteral("The database was closed.");

// A second port where TLS ends first; after the handshake it serves what the plain port serves
// (AMQP, and HTTP and WebSocket upgrades when a StreamServiceFactory is given).
struct EndpointTls {
    quint16 port = 5671; // 0: any free port (AmqpEndpoint::tlsPort() says which)
    // PEM files (the server's certificate, its chain may follow; its private key), as
    // tls::LocalCertificates makes them or the user brings them.
    QString certificateFile;
    QString keyFile;
};

struct EndpointOptions {
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 5672;                 // 0: any free port (the one chosen is returned by start())
    SasKey key = wellKnownEmulatorKey(); // the default namespace's (NamespaceKeys.h)
    // Host names a token's audience may name besides localhost, the loopback addresses and
    // `host` (AudienceHosts.h): the names containers reach this machine by.
    QStringList acceptedHosts;
    int workerThreads = 64;
    // Limits on connections (README.md here, "Limits on connections"). A connection that has
    // had no put-token accepted on $cbs this long after it was accepted is closed, with
    // amqp:unauthorized-access when it opened, its socket dropped when it never did (a client
    // stuck in or before SASL included). Azure allows 20 s.
    int authenticateWithinMs = 20000;
    // A peer silent this long is dropped (amqp:resource-limit-exceeded); the open advertises
    // half of it, as the spec recommends, so clients send a heartbeat at least that often.
    int idleTimeoutMs = 120000;
    // Unauthenticated connections at once: past it the oldest of them is closed for the new one.
    int maxUnauthenticatedConnections = 500;
    // All connections at once, fitted under the file-descriptor limit at start: past it a new
    // connection is refused (closed at once), once no unauthenticated one is left to drop.
    int maxConnections = 1000;
    // What serves a connection that does not start with AMQP's header (StreamService.h): the
    // administration API's HTTP and WebSocket upgrades. None: such a connection is closed.
    StreamServiceFactory streamServices;
    std::optional<EndpointTls> tls; // none: no TLS port
};

class EndpointLoop;

class AmqpEndpoint {
public:
    // `broker` must outlive the endpoint.
    AmqpEndpoint(Broker& broker, EndpointOptions options);
    // Stops it.
    ~AmqpEndpoint();
    AmqpEndpoint(const AmqpEndpoint&) = delete;
    AmqpEndpoint& operator=(const AmqpEndpoint&) = delete;

    // What serves connections that do not start with AMQP (StreamService.h); before start().
    // Separate from the options because it usually needs keys() of this endpoint.
    void setStreamServices(StreamServiceFactory factory) {
        m_options.streamServices = std::move(factory);
    }

    // Listens and starts serving; returns the plain port listened on (tlsPort() has the other).
    // InvalidArgument for a non-loopback host with the well-known key, or a certificate or key
    // that cannot be used; GeneralError when a port cannot be bound (the description says why,
    // e.g. "Address already in use").
    Result<quint16> start();
    // Closes every connection with an AMQP close carrying amqp:connection:forced and `reason`
    // (their locks go back), waits a moment for their sockets to go (a peer that does not
    // answer is dropped within a quarter of a second), then until every broker call in flight
    // has returned, so everything acknowledged is durable. Safe to call twice.
    void stop(const QString& reason = kShuttingDownReason);
    bool running() const;

    int connectionCount() const;
    // The overall connection limit in force once started (maxConnections, fitted under the
    // file-descriptor limit), and the cap on unauthenticated connections; 0 before start.
    int connectionLimit() const;
    int unauthenticatedLimit() const;
    // What the window shows: the connections, their links and locks, as published by the
    // proactor thread a few times a second. Cheap; any thread.
    EndpointSnapshot snapshot() const;
    // Closes a connection as the operator asks; its locks go back at once (L14).
    void closeConnection(quint64 id);
    const EndpointOptions& options() const { return m_options; }
    // "Endpoint=sb://localhost:5672;SharedAccessKeyName=...;SharedAccessKey=...;
    // UseDevelopmentEmulator=true;" for the port listened on, with the key of `namespaceName`
    // (empty: the default namespace). A memory read, never the disk (the window's thread calls
    // it): empty for an unknown namespace, and for one created a moment ago whose key is not
    // made yet (the change feed has a worker make it; makeConnectionString waits for it).
    QString connectionString(const QString& namespaceName = {}) const;
    // The same, making the namespace's key first when it has none yet: that waits on disk
    // once, so never on the window's thread. Empty for an unknown namespace.
    QString makeConnectionString(const QString& namespaceName = {}) const;
    // The keys, shared with the loop (and with work the window runs off its thread).
    std::shared_ptr<NamespaceKeyRing> keys() const { return m_keys; }
    quint16 port() const { return m_port; }
    // The TLS port listened on; 0 when there is none.
    quint16 tlsPort() const { return m_tlsPort; }
    // "Endpoint=sb://localhost:TLSPORT;SharedAccessKeyName=...;SharedAccessKey=...;" (no
    // emulator flag: the SDKs then speak TLS), as connectionString() otherwise; empty without
    // a TLS port.
    QString tlsConnectionString(const QString& namespaceName = {}) const;
    // The namespace the well-known (or the user's own) key reaches: the oldest one.
    QString defaultNamespace() const;

private:
    // The key clients of `namespaceName` sign with (empty: the default namespace's).
    std::optional<SasKey> keyFor(const QString& namespaceName) const;

    Broker& m_broker;
    EndpointOptions m_options;
    quint16 m_port = 0;
    quint16 m_tlsPort = 0;
    std::shared_ptr<NamespaceKeyRing> m_keys;
    std::unique_ptr<EndpointLoop> m_loop;
};

// The emulator-style connection string for `port` and `key`; with `emulator` false, the one a
// TLS port is reached by (the SDKs speak TLS unless the string says UseDevelopmentEmulator).
QString connectionStringFor(quint16 port, const SasKey& key, bool emulator = true);

// Whether `host` names this machine only (127.0.0.0/8, ::1, localhost).
bool isLoopbackHost(const QString& host);

} // namespace hourglass::amqp
