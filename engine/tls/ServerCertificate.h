#pragma once
// The server certificate: what the TLS listener presents, signed by the local authority, naming
// every host a client may dial.

#include "CertificateAuthority.h"
#include "OpenSslHandles.h"
#include "hourglass/Status.h"

#include <QStringList>

#include <optional>

namespace hourglass::tls {

struct ServerPair {
    Certificate certificate;
    PrivateKey key;
};

// About a year, under the 398 days that Apple's clients accept for a server certificate.
constexpr long kServerValiditySeconds = 365L * 86400;
// A certificate that expires sooner than this is re-issued at the next start.
constexpr qint64 kRenewBeforeSeconds = 30LL * 86400;

struct ServerValidity {
    long fromSeconds = -3600; // relative to now
    long toSeconds = kServerValiditySeconds;
};

// localhost, 127.0.0.1 and ::1 followed by each extra name, lower-cased, without duplicates and
// without the brackets of "[::1]"; InvalidArgument for a name that is neither a DNS name nor an IP
// address (wildcards included: the certificate names hosts, not patterns).
Result<QStringList> serverHostNames(const QStringList& extraHostNames);

// A new key and a certificate for `hostNames` (from serverHostNames) signed by `authority`:
// subjectAltName with a DNS or IP name for each, basicConstraints critical CA:FALSE, keyUsage
// critical digitalSignature, extendedKeyUsage serverAuth, subject and authority key identifiers.
// It ends when the authority ends, if that is sooner.
Result<ServerPair> issueServerCertificate(const Authority& authority, const QStringList& hostNames,
                                          ServerValidity validity = {});

// Why the server certificate in the folder must be re-issued (it does not match its key, was not
// signed by `authority`, expires within kRenewBeforeSeconds, or does not cover one of
// `hostNames`), or nothing when it can be reused.
std::optional<QString> reissueReason(X509* certificate, EVP_PKEY* key, const Authority& authority,
                                     const QStringList& hostNames);

// Whether `certificate` names `host` in its subjectAltName (an IP name for an address), never
// falling back to the subject's common name, as Node and browsers do not.
bool coversHost(X509* certificate, const QString& host);

} // namespace hourglass::tls
