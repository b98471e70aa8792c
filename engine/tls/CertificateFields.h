#pragma once
// The pieces both certificates are built from: keys, serials, validity, names and X.509v3
// extensions, each a thin wrapper over OpenSSL that reports failure as false or null.

#include "OpenSslHandles.h"

#include <QString>

namespace hourglass::tls {

// A fresh ECDSA key on P-256 (prime256v1): every TLS client accepts it, and it is small and fast.
PrivateKey generateP256Key();
// Whether the key is an EC key on P-256.
bool isP256Key(EVP_PKEY* key);

// 159 random bits: a new serial per certificate, so that a client that cached an older one
// never mistakes the two.
bool setRandomSerial(X509* certificate);
// Valid from `fromSeconds` to `toSeconds` relative to now (from is negative: clocks differ).
bool setValidity(X509* certificate, long fromSeconds, long toSeconds);
// The subject "O=Hourglass, CN=<commonName>".
bool setSubject(X509* certificate, const QString& commonName);
// One extension in OpenSSL's configuration syntax, e.g. (NID_basic_constraints,
// "critical,CA:TRUE"); `issuer` is the signing certificate (the certificate itself when
// self-signed), which the authority key identifier is taken from.
bool addExtension(X509* certificate, X509* issuer, int nid, const char* value);

// "AB:CD:..." (32 bytes), the form browsers and `openssl x509 -fingerprint -sha256` show.
QString sha256Fingerprint(X509* certificate);
// The end of validity as ISO-8601 (UTC), for messages.
QString notAfterText(X509* certificate);
// Seconds from now to the end of validity (negative once expired).
qint64 secondsUntilExpiry(X509* certificate);

} // namespace hourglass::tls
