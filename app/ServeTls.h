#pragma once
// The TLS port of `hourglass serve`: which certificate it presents (the local authority's, made
// on first use and reused, or the user's own pair) and what the user is told so that clients
// trust it.

#include "hourglass/Status.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace hourglass::app {

struct ServeTlsOptions {
    quint16 port = 5671;
    QString dir;             // the local authority's folder; empty: the data folder's "tls"
    QString certificateFile; // the user's own pair (both or neither)
    QString keyFile;
};

struct ServeTls {
    amqp::EndpointTls endpoint;
    QString caFile;      // the authority clients trust; empty for the user's own pair
    QString fingerprint; // SHA-256 of what clients should see at the top of the chain
    QString note;        // made now, re-issued and why; empty when reused as it was
};

// The certificate for `options`, made or loaded; `hosts` are names clients may dial besides
// localhost and the loopback addresses (--host, --accept-host). InvalidArgument says why not.
Result<ServeTls> prepareServeTls(const ServeTlsOptions& options, const QStringList& hosts);

// "Certificate authority: PATH" and one trust hint per client.
void printTrust(const ServeTls& tls, QTextStream& out);

} // namespace hourglass::app
