#include "hourglass/amqp/AmqpEndpoint.h"

#include "EndpointLoop.h"
#include "FileDescriptorLimit.h"

#include "hourglass/Broker.h"
#include "hourglass/tls/TlsStream.h"

namespace hourglass::amqp {

bool isLoopbackHost(const QString& host) {
    if (host.compare(QStringLiteral("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    return host.startsWith(QStringLiteral("127.")) || host == QStringLiteral("::1") ||
           host == QStringLiteral("[::1]");
}

AmqpEndpoint::AmqpEndpoint(Broker& broker, EndpointOptions options)
    : m_broker(broker)
    , m_options(std::move(options))
    , m_keys(std::make_shared<NamespaceKeyRing>(m_options.key)) {}

AmqpEndpoint::~AmqpEndpoint() {
    stop();
}

Result<quint16> AmqpEndpoint::start() {
    if (m_loop)
        return m_port;
    const SasKey wellKnown = wellKnownEmulatorKey();
    if (!isLoopbackHost(m_options.host) && m_options.key.value == wellKnown.value)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("Listening on %1 reaches other machines: set a key of "
                                          "your own (the well-known emulator key '%2' would let "
                                          "anyone in).")
                               .arg(m_options.host, wellKnown.value));
    // Every namespace's key before the first client: a key made now is on disk before it is
    // handed out.
    if (auto keys = m_keys->refresh(m_broker); !keys)
        return keys.error();
    // Every socket is a descriptor: take what the system allows, and fit the limit under it.
    const std::size_t descriptorLimit = raiseFileDescriptorLimit();
    std::shared_ptr<const tls::TlsServerContext> tlsContext;
    if (m_options.tls) {
        auto loaded = tls::TlsServerContext::fromFiles(m_options.tls->certificateFile,
                                                       m_options.tls->keyFile);
        if (!loaded)
            return Error::make(ErrorCode::InvalidArgument, loaded.error().description);
        tlsContext = *loaded;
    }
    auto loop = std::make_unique<EndpointLoop>(m_broker, m_options, descriptorLimit, m_keys,
                                               std::move(tlsContext));
    const auto port = loop->listen();
    if (!port)
        return port.error();
    m_port = *port;
    m_tlsPort = loop->tlsPort();
    m_loop = std::move(loop);
    return m_port;
}

void AmqpEndpoint::stop(const QString& reason) {
    if (!m_loop)
        return;
    m_loop->stop(reason);
    m_loop.reset();
}

bool AmqpEndpoint::running() const {
    return m_loop != nullptr;
}

int AmqpEndpoint::connectionCount() const {
    return m_loop ? m_loop->connectionCount() : 0;
}

int AmqpEndpoint::connectionLimit() const {
    return m_loop ? int(m_loop->limits().maxConnections) : 0;
}

int AmqpEndpoint::unauthenticatedLimit() const {
    return m_loop ? int(m_loop->limits().maxUnauthenticated) : 0;
}

EndpointSnapshot AmqpEndpoint::snapshot() const {
    EndpointSnapshot snapshot;
    snapshot.host = m_options.host;
    snapshot.listening = m_loop != nullptr;
    if (!m_loop)
        return snapshot;
    snapshot.port = m_port;
    snapshot.connectionString = connectionString();
    snapshot.connections = m_loop->connections();
    return snapshot;
}

void AmqpEndpoint::closeConnection(quint64 id) {
    if (m_loop)
        m_loop->closeConnection(id);
}

QString connectionStringFor(quint16 port, const SasKey& key, bool emulator) {
    return QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=%2;SharedAccessKey=%3;")
               .arg(port)
               .arg(key.name, key.value) +
           (emulator ? QStringLiteral("UseDevelopmentEmulator=true;") : QString());
}

std::optional<SasKey> AmqpEndpoint::keyFor(const QString& namespaceName) const {
    const QString wanted = namespaceName.isEmpty() ? defaultNamespace() : namespaceName;
    const auto key = m_keys->keyOf(wanted);
    // No namespace at all yet: the default key is the one the first namespace will have.
    const SasKey sas = key ? key->key : namespaceName.isEmpty() ? m_options.key : SasKey{};
    if (sas.value.isEmpty())
        return std::nullopt;
    return sas;
}

QString AmqpEndpoint::connectionString(const QString& namespaceName) const {
    const auto key = keyFor(namespaceName);
    return key ? connectionStringFor(m_port, *key) : QString();
}

QString AmqpEndpoint::tlsConnectionString(const QString& namespaceName) const {
    const auto key = m_tlsPort ? keyFor(namespaceName) : std::nullopt;
    return key ? connectionStringFor(m_tlsPort, *key, false) : QString();
}

QString AmqpEndpoint::makeConnectionString(const QString& namespaceName) const {
    const QString wanted = namespaceName.isEmpty() ? defaultNamespace() : namespaceName;
    if (!wanted.isEmpty() && !m_keys->keyOf(wanted))
        (void)m_keys->refresh(m_broker); // created since the last refresh
    return connectionString(namespaceName);
}

QString AmqpEndpoint::defaultNamespace() const {
    if (const auto name = m_keys->defaultNamespace())
        return *name;
    const auto namespaces = m_broker.namespaces();
    return namespaces.isEmpty() ? QString() : namespaces.first().name;
}

} // namespace hourglass::amqp
