#pragma once
// `hourglass serve`: the broker without a window, behind its AMQP 1.0 endpoint, for CI pipelines
// and scripts.
//   hourglass serve [--host H] [--port P] [--db PATH] [--config emulator-config.json] [--key KEY]
//                   [--http-port P] [--tls | --tls-port P] [--tls-dir DIR]
//                   [--tls-cert FILE --tls-key FILE]
//                   [--durability MODE] [--accept-host NAME]...
//                   [--trust-issuer URL --trust-key FILE]
// Prints the address and each namespace's connection string, creates the config's entities that
// are missing (an empty database gets the config's namespaces, and only those), serves until SIGINT
// or SIGTERM, and exits 0 once every broker call in flight has returned (everything acknowledged is
// durable).

#include "ServeTls.h"
#include "hourglass/Broker.h"

#include <QString>

#include <QStringList>
#include <QTextStream>
#include <optional>

namespace hourglass::app {

struct ServeOptions {
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 5672;                // 0: a free port, printed
    std::optional<quint16> httpPort;    // the administration API over HTTP: off unless given
    std::optional<ServeTlsOptions> tls; // the TLS port: off unless --tls or --tls-port
    QString databasePath;               // empty: a fresh temporary database
    QString configFile;                 // an emulator config.json; empty: none
    QString key;                        // empty: the emulator's well-known key
    QStringList acceptedHosts;          // host names tokens may name besides localhost (containers)
    // An identity provider whose bearer tokens (JWTs) are accepted (both or neither): its `iss`
    // and the PEM file of its public key or certificate.
    QString trustIssuer;
    QString trustKeyFile;
    Durability durability = Durability::PowerSafe;
    bool showHelp = false;
    QString helpText;
    QString error;
};

// Whether the command line is `hourglass serve ...`.
bool isServeCommand(const QStringList& arguments);
// `arguments` as given to main, "serve" included.
ServeOptions parseServeCommandLine(const QStringList& arguments);

// Exit codes: 0 stopped cleanly, 2 the options, database, config or port cannot be used.
int runServe(const ServeOptions& options, QTextStream& out, QTextStream& err);

} // namespace hourglass::app
