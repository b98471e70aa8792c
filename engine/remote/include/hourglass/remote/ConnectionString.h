#pragma once
// A Service Bus connection string, read the way the SDKs read it: `Key=Value` pairs separated by
// semicolons, keys without case, values taken whole after the first `=` (a base64 key ends in
// `=`). It says where a namespace is and how to prove who we are; what the transport is follows
// from it:
// - `UseDevelopmentEmulator=true`: plain AMQP and plain HTTP on the port the string names (5672
//   when none), as Microsoft's emulator and `hourglass serve` serve them;
// - otherwise AMQP over TLS on the port the string names (5671 when none) and HTTPS on 443 (on the
//   named port when there is one: `hourglass serve --tls-port` serves both on it).
//
// Errors never repeat the string: it carries a secret.

#include "hourglass/Status.h"

#include <QString>

namespace hourglass::remote {

struct ConnectionString {
    enum class Credential {
        None,          // no key and no signature: Microsoft Entra ID, or asked for later
        SharedKey,     // SharedAccessKeyName + SharedAccessKey: tokens are signed here
        SignatureOnly, // SharedAccessSignature: a token made elsewhere, used until it expires
    };

    QString host; // "contoso.servicebus.windows.net", "localhost", "::1"
    int port = 0; // the port the Endpoint names; 0 when it names none
    Credential credential = Credential::None;
    QString keyName;    // SharedAccessKeyName
    QString key;        // SharedAccessKey
    QString signature;  // SharedAccessSignature, the whole token
    QString entityPath; // EntityPath: the one entity a key may be scoped to
    bool developmentEmulator = false;

    // Where each plane is reached, from the rules above.
    bool usesTls() const { return !developmentEmulator; }
    int amqpPort() const;
    int adminPort() const;
    // "http://localhost:5672/" or "https://contoso.servicebus.windows.net/" (host in brackets
    // when it is an IPv6 address; the port only when it is not the scheme's own).
    QString adminBaseUrl() const;
    // "sb://contoso.servicebus.windows.net/": the audience a namespace-wide token is made for.
    QString namespaceUri() const;
    // What the window shows for it: the host, and the port when the string names one.
    QString displayName() const;
};

// Reads `text`. InvalidArgument when it is empty, has no Endpoint, names a scheme other than
// sb://, amqps:// or amqp://, an empty host or a port out of 1-65535, gives SharedAccessKeyName
// without SharedAccessKey (or the other way round), or repeats a key.
Result<ConnectionString> parseConnectionString(const QString& text);

} // namespace hourglass::remote
