#include "ServeCommand.h"

#include "CommandLine.h"
#include "hourglass/EntityPath.h"
#include "hourglass/admin/AdminHttpServer.h"
#include "hourglass/admin/AdminStreamServices.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/scenario/EmulatorConfig.h"
#include "hourglass/tls/JwtValidator.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <pthread.h>
#include <thread>

namespace hourglass::app {

namespace {
// The namespace an empty database gets, as Microsoft's emulator names its own.
const QString kDefaultNamespace = QStringLiteral("sbemulatorns");

// SIGINT and SIGTERM end the event loop. They are blocked in every thread (set before any
// thread starts, so the endpoint's threads inherit the mask) and taken by one waiting thread.
class StopSignals {
public:
    StopSignals() {
        sigemptyset(&m_signals);
        sigaddset(&m_signals, SIGINT);
        sigaddset(&m_signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &m_signals, nullptr);
        m_waiter = std::thread([this] {
            int signal = 0;
            sigwait(&m_signals, &signal);
            if (!m_leaving && (signal == SIGINT || signal == SIGTERM))
                QMetaObject::invokeMethod(QCoreApplication::instance(), &QCoreApplication::quit,
                                          Qt::QueuedConnection);
        });
    }
    ~StopSignals() {
        // Wake the waiter if no signal came (the loop ended another way); that wake is no stop
        // request: a quit queued now would end the next event loop of this process at its start.
        m_leaving = true;
        pthread_kill(m_waiter.native_handle(), SIGTERM);
        m_waiter.join();
    }

private:
    sigset_t m_signals;
    std::atomic<bool> m_leaving{false};
    std::thread m_waiter;
};

Result<UserConfig> readConfigFile(const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
    return parseEmulatorConfigDocument(in.readAll());
}

// "ns:path" of every entity, to tell what applying a config created.
QSet<QString> entityKeys(const Broker& broker) {
    QSet<QString> keys;
    for (const NamespaceInfo& ns : broker.namespaces()) {
        for (const EntityInfo& entity : broker.entities(ns.name))
            keys.insert(qualifiedPath(ns.name, entity.path));
    }
    return keys;
}

QStringList namespaceNames(const Broker& broker) {
    QStringList names;
    for (const NamespaceInfo& ns : broker.namespaces())
        names.append(ns.name);
    return names;
}

// The port an option names, or an error saying what it must be.
std::optional<quint16> portOf(const QCommandLineParser& parser, const QCommandLineOption& option,
                              QString* error) {
    bool ok = false;
    const uint number = parser.value(option).toUInt(&ok);
    if (ok && number <= 65535)
        return quint16(number);
    *error = QStringLiteral("--%1 must be a number from 0 to 65535, not '%2'")
                 .arg(option.names().constLast(), parser.value(option));
    return std::nullopt;
}
} // namespace

bool isServeCommand(const QStringList& arguments) {
    return arguments.size() > 1 && arguments.at(1) == QLatin1String("serve");
}

ServeOptions parseServeCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("hourglass serve: the broker without a window, behind an AMQP 1.0 endpoint "
                       "that the Azure Service Bus SDKs connect to with the printed connection "
                       "string. Serves until SIGINT or SIGTERM.\n"
                       "Example: hourglass serve --port 5672 --config config.json --db ci.db\n"
                       "The plain port also answers the administration API "
                       "(ServiceBusAdministrationClient) over HTTP with the same string.\n"
                       "With TLS, as the SDKs speak it without the emulator flag (AMQP, HTTPS "
                       "and AMQP over WebSockets on one port): hourglass serve --tls\n"
                       "The administration API alone on a port of its own, as Microsoft's "
                       "emulator has it: hourglass serve --http-port 5300\n"
                       "Bearer tokens (JWTs, as Microsoft Entra ID issues them) from an issuer "
                       "you trust, on AMQP (put-token of type jwt) and the administration API "
                       "(Authorization: Bearer): hourglass serve --trust-issuer URL --trust-key "
                       "issuer.pem\n") +
        connectionLimitsHelp());
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Shows this help."));
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("The address to listen on (default 127.0.0.1). "
                                                 "Another than this machine's needs --key."),
                                  QStringLiteral("H"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption port(QStringLiteral("port"),
                                  QStringLiteral("The port (default 5672; 0 picks a free one)."),
                                  QStringLiteral("P"), QStringLiteral("5672"));
    const QCommandLineOption db(QStringLiteral("db"),
                                QStringLiteral("The database PATH (created when missing; default "
                                               "a fresh temporary one)."),
                                QStringLiteral("PATH"));
    const QCommandLineOption config(QStringLiteral("config"),
                                    QStringLiteral("An emulator config.json: its entities that "
                                                   "are missing are created."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption key(QStringLiteral("key"),
                                 QStringLiteral("The SharedAccessKey clients must sign with, "
                                                "kept in the database for the next start "
                                                "(default: the key kept there, else the "
                                                "emulator's SAS_KEY_VALUE)."),
                                 QStringLiteral("KEY"));
    const QCommandLineOption acceptHost(
        QStringLiteral("accept-host"),
        QStringLiteral("A host name tokens may be issued for besides localhost, the loopback "
                       "addresses and --host (the name a container reaches this machine by). "
                       "Repeatable."),
        QStringLiteral("NAME"));
    const QCommandLineOption durability(QStringLiteral("durability"),
                                        QStringLiteral("power-safe (default) or crash-only."),
                                        QStringLiteral("MODE"), QStringLiteral("power-safe"));
    const QCommandLineOption httpPort(
        QStringLiteral("http-port"),
        QStringLiteral("Also serve the administration API (ServiceBusAdministrationClient) over "
                       "plain HTTP on this port, as the emulator does on 5300 (0 picks a free "
                       "one; default off)."),
        QStringLiteral("P"));
    const QCommandLineOption tls(
        QStringLiteral("tls"),
        QStringLiteral("Also serve TLS on port 5671, where the SDKs connect when the connection "
                       "string has no UseDevelopmentEmulator=true (Python's SDK dials 5671 "
                       "whatever port the string names)."));
    const QCommandLineOption tlsPort(
        QStringLiteral("tls-port"),
        QStringLiteral("Serve TLS on this port instead of 5671 (0 picks a free one)."),
        QStringLiteral("P"));
    const QCommandLineOption tlsDir(
        QStringLiteral("tls-dir"),
        QStringLiteral("The folder of the local certificate authority, made on first use and "
                       "reused (default: %1).")
            .arg(tls::LocalCertificates::defaultFolder()),
        QStringLiteral("DIR"));
    const QCommandLineOption tlsCert(
        QStringLiteral("tls-cert"),
        QStringLiteral("Your own server certificate (PEM; the chain may follow) instead of the "
                       "local authority's; with --tls-key."),
        QStringLiteral("FILE"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"),
                                    QStringLiteral("The private key of --tls-cert (PEM)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption trustIssuer(
        QStringLiteral("trust-issuer"),
        QStringLiteral("Accept bearer tokens (JWTs) whose iss is URL, signed by --trust-key, for "
                       "the audience https://servicebus.azure.net or this namespace's URL; they "
                       "grant Manage, Send and Listen on the default namespace."),
        QStringLiteral("URL"));
    const QCommandLineOption trustKey(
        QStringLiteral("trust-key"),
        QStringLiteral("The public key (PEM: RSA for RS256, EC P-256 for ES256) or certificate "
                       "of --trust-issuer."),
        QStringLiteral("FILE"));
    parser.addOptions({help, host, port, db, config, key, acceptHost, durability, httpPort, tls,
                       tlsPort, tlsDir, tlsCert, tlsKey, trustIssuer, trustKey});

    ServeOptions options;
    options.helpText = helpNamingTheProgram(parser, QStringLiteral("hourglass serve [options]"));
    QStringList rest = arguments;
    rest.removeAt(1); // "serve"
    options.error = parseOptionsOnly(parser, rest);
    if (!options.error.isEmpty())
        return options;
    options.showHelp = parser.isSet(help);
    options.host = parser.value(host);
    const auto portNumber = portOf(parser, port, &options.error);
    if (!portNumber)
        return options;
    options.port = *portNumber;
    if (parser.isSet(httpPort)) {
        options.httpPort = portOf(parser, httpPort, &options.error);
        if (!options.httpPort)
            return options;
    }
    const bool tlsAsked = parser.isSet(tls) || parser.isSet(tlsPort) || parser.isSet(tlsDir) ||
                          parser.isSet(tlsCert) || parser.isSet(tlsKey);
    if (tlsAsked) {
        ServeTlsOptions tlsOptions;
        if (parser.isSet(tlsPort)) {
            const auto number = portOf(parser, tlsPort, &options.error);
            if (!number)
                return options;
            tlsOptions.port = *number;
        }
        tlsOptions.dir = parser.value(tlsDir);
        tlsOptions.certificateFile = parser.value(tlsCert);
        tlsOptions.keyFile = parser.value(tlsKey);
        if (tlsOptions.certificateFile.isEmpty() != tlsOptions.keyFile.isEmpty()) {
            options.error = QStringLiteral("--tls-cert and --tls-key go together");
            return options;
        }
        options.tls = tlsOptions;
    }
    options.databasePath = parser.value(db);
    options.configFile = parser.value(config);
    options.key = parser.value(key);
    options.acceptedHosts = parser.values(acceptHost);
    options.trustIssuer = parser.value(trustIssuer);
    options.trustKeyFile = parser.value(trustKey);
    if (options.trustIssuer.isEmpty() != options.trustKeyFile.isEmpty()) {
        options.error = QStringLiteral("--trust-issuer and --trust-key go together");
        return options;
    }
    if (parser.isSet(key) && options.key.isEmpty()) {
        options.error = QStringLiteral("--key must not be empty");
        return options;
    }
    const QString mode = parser.value(durability);
    if (const auto chosen = durabilityFromName(mode))
        options.durability = *chosen;
    else
        options.error =
            QStringLiteral("--durability must be power-safe or crash-only, not '%1'").arg(mode);
    return options;
}

int runServe(const ServeOptions& options, QTextStream& out, QTextStream& err) {
    StopSignals stopSignals;
    QTemporaryDir temporary;
    BrokerOptions brokerOptions;
    brokerOptions.databasePath = options.databasePath.isEmpty()
                                     ? temporary.filePath(QStringLiteral("hourglass.db"))
                                     : options.databasePath;
    brokerOptions.durability = options.durability;
    brokerOptions.owner = QStringLiteral("hourglass serve");
    auto broker = Broker::open(brokerOptions);
    if (!broker) {
        err << "hourglass serve: " << broker.error().toString() << Qt::endl;
        return ExitInvalidFile;
    }
    std::optional<UserConfig> config;
    if (!options.configFile.isEmpty()) {
        auto read = readConfigFile(options.configFile);
        if (!read) {
            err << "hourglass serve: " << options.configFile << ": " << read.error().toString()
                << Qt::endl;
            return ExitInvalidFile;
        }
        config = std::move(*read);
    }
    const QStringList namespacesBefore = namespaceNames(**broker);
    const QSet<QString> entitiesBefore = entityKeys(**broker);
    // An empty database takes its namespaces from the config (the first one is the default, the
    // one the well-known key reaches); without a config it gets the emulator's namespace.
    if (namespacesBefore.isEmpty() && (!config || config->namespaces.isEmpty())) {
        if (auto created = (*broker)->createNamespace({kDefaultNamespace, Tier::Standard});
            !created) {
            err << "hourglass serve: " << created.error().toString() << Qt::endl;
            return ExitInvalidFile;
        }
    }
    if (config) {
        if (auto applied = applyUserConfig(**broker, *config, ExistingEntities::Keep); !applied) {
            err << "hourglass serve: " << options.configFile << ": " << applied.error().toString()
                << Qt::endl;
            return ExitInvalidFile;
        }
    }
    for (const QString& name : namespaceNames(**broker)) {
        if (!namespacesBefore.contains(name))
            out << "Created namespace " << name << Qt::endl;
    }
    const QSet<QString> entitiesAfter = entityKeys(**broker);
    QStringList created(entitiesAfter.begin(), entitiesAfter.end());
    created.removeIf([&](const QString& key) { return entitiesBefore.contains(key); });
    created.sort(Qt::CaseInsensitive);
    for (const QString& key : created)
        out << "Created " << key << Qt::endl;

    amqp::EndpointOptions endpointOptions;
    endpointOptions.host = options.host;
    endpointOptions.port = options.port;
    endpointOptions.acceptedHosts = options.acceptedHosts;
    // --key is kept in the database, so that the window and the next serve use it too.
    if (!options.key.isEmpty()) {
        if (auto saved = (*broker)->setSetting(amqp::kKeySetting, options.key); !saved) {
            err << "hourglass serve: cannot keep the key: " << saved.error().toString() << Qt::endl;
            return ExitInvalidFile;
        }
    }
    if (const QString stored = (*broker)->setting(amqp::kKeySetting); !stored.isEmpty())
        endpointOptions.key.value = stored;
    std::optional<ServeTls> tls;
    if (options.tls) {
        auto prepared =
            prepareServeTls(*options.tls, QStringList{options.host} + options.acceptedHosts);
        if (!prepared) {
            err << "hourglass serve: TLS: " << prepared.error().description << Qt::endl;
            return ExitInvalidFile;
        }
        tls = std::move(*prepared);
        endpointOptions.tls = tls->endpoint;
    }
    std::shared_ptr<const hourglass::tls::JwtValidator> trusted;
    if (!options.trustIssuer.isEmpty()) {
        auto validator =
            hourglass::tls::JwtValidator::fromFile(options.trustIssuer, options.trustKeyFile);
        if (!validator) {
            err << "hourglass serve: " << validator.error().description << Qt::endl;
            return ExitInvalidFile;
        }
        trusted = std::make_shared<const hourglass::tls::JwtValidator>(std::move(*validator));
    }
    amqp::AmqpEndpoint endpoint(**broker, endpointOptions);
    // Both ports and --http-port check tokens with the endpoint's keys, and so trust the issuer.
    endpoint.keys()->trustIssuer(trusted);
    // Both ports answer the administration API over HTTP, and a WebSocket upgrade carries AMQP.
    endpoint.setStreamServices(admin::adminStreamServices(**broker, endpoint.keys()));
    const auto port = endpoint.start();
    if (!port) {
        err << "hourglass serve: " << port.error().description << Qt::endl;
        return ExitInvalidFile;
    }
    // The administration API shares the endpoint's keys (and refreshes them as it does).
    std::unique_ptr<admin::AdminHttpServer> adminServer;
    quint16 adminPort = 0;
    if (options.httpPort) {
        admin::AdminHttpOptions httpOptions;
        httpOptions.host = options.host;
        httpOptions.port = *options.httpPort;
        adminServer =
            std::make_unique<admin::AdminHttpServer>(**broker, endpoint.keys(), httpOptions);
        const auto listened = adminServer->start();
        if (!listened) {
            err << "hourglass serve: administration API: " << listened.error().description
                << Qt::endl;
            endpoint.stop(amqp::kShuttingDownReason);
            return ExitInvalidFile;
        }
        adminPort = *listened;
    }
    // A second opener of the database is told where to find this one.
    (*broker)->describeOwner(QStringLiteral("AMQP on %1:%2").arg(options.host).arg(*port));
    out << "Hourglass AMQP endpoint listening on " << options.host << ":" << *port
        << " (and the administration API over HTTP)" << Qt::endl;
    if (tls) {
        out << "Hourglass TLS endpoint listening on " << options.host << ":" << endpoint.tlsPort()
            << " (AMQP, HTTPS administration, AMQP over WebSockets at /$servicebus/websocket)"
            << Qt::endl;
        printTrust(*tls, out);
        // The default namespace's, without the emulator flag: the SDKs speak TLS with it.
        (void)endpoint.makeConnectionString();
        out << "TLS connection string: " << endpoint.tlsConnectionString() << Qt::endl;
    }
    if (adminServer) {
        out << "Administration API (HTTP) listening on " << options.host << ":" << adminPort
            << Qt::endl;
        // The emulator's second string: the same key, the HTTP port (the SDKs build
        // http://localhost:PORT/ from it when UseDevelopmentEmulator=true).
        if (const auto key = endpoint.keys()->keyOf(endpoint.defaultNamespace()))
            out << "Administration connection string: "
                << amqp::connectionStringFor(adminPort, key->key) << Qt::endl;
    }
    // The default namespace's string first, as before; then each other namespace's own key.
    out << "Default namespace: " << endpoint.defaultNamespace() << Qt::endl;
    out << "Connection string: " << endpoint.makeConnectionString() << Qt::endl;
    for (const QString& name : namespaceNames(**broker)) {
        if (name != endpoint.defaultNamespace())
            out << "Connection string of namespace " << name << ": "
                << endpoint.makeConnectionString(name) << Qt::endl;
    }
    if (trusted)
        out << "Trusted token issuer: " << trusted->issuer() << " (" << trusted->algorithm()
            << "); its bearer tokens manage, send and listen on " << endpoint.defaultNamespace()
            << Qt::endl;
    out << "Connections: at most " << endpoint.connectionLimit() << ", "
        << endpoint.unauthenticatedLimit() << " of them without a token" << Qt::endl;

    // Expiry, lock expiry and scheduled messages happen even when no client calls.
    QTimer due;
    QObject::connect(&due, &QTimer::timeout, [&broker] { (*broker)->runDue(); });
    due.start(100);
    QCoreApplication::exec();
    // Applications are told in an AMQP close (amqp:connection:forced) why their connection ends.
    adminServer.reset(); // requests in flight finish first
    endpoint.stop(amqp::kShuttingDownReason);
    err << "hourglass serve: stopped" << Qt::endl;
    return 0;
}

} // namespace hourglass::app
