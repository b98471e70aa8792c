#pragma once
// The certificates `serve --tls-port` presents. On first use a local certificate authority and a
// server certificate signed by it are made in a folder and reused on later starts; a client
// trusts the endpoint by trusting the authority's file (trustHints says how, per client). Or the
// user brings their own certificate and key (load).
//
// Qt cannot make certificates, so this library uses OpenSSL's C API; nothing of OpenSSL shows in
// this header.

#include "hourglass/Status.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace hourglass::tls {

// File names inside the folder ensure() manages.
inline const QString kCaCertificateFile = QStringLiteral("ca-cert.pem");
inline const QString kCaKeyFile = QStringLiteral("ca-key.pem");
inline const QString kServerCertificateFile = QStringLiteral("server-cert.pem");
inline const QString kServerKeyFile = QStringLiteral("server-key.pem");
// Held while ensure() works in the folder, so that two processes never interleave their writes.
inline const QString kLockFile = QStringLiteral(".lock");

// Absolute paths, so that a trust hint works from any working folder.
struct CertificateFiles {
    QString caCertificate; // empty for a pair the user brought (load)
    QString serverCertificate;
    QString serverKey;
    // SHA-256 of the authority's certificate (of the server's own for load), "AB:CD:...", for
    // the user to compare with what a client shows.
    QString caFingerprintSha256;
    bool createdAuthority = false; // ensure() made a new authority in this call
    bool reissued = false;         // ensure() made a new server certificate in this call
    QString reissueReason;         // why (first use, expired, a host name not covered, ...)
};

class LocalCertificates {
public:
    // The folder the local authority lives in unless the user names another: "tls" in the
    // application's data folder, so that `serve` and the window present one authority and a
    // client trusts it once for both.
    static QString defaultFolder();

    // The authority and server certificate in `dir` (made when absent), covering localhost,
    // 127.0.0.1, ::1 and each of `extraHostNames` (an address as an IP name, the rest as DNS
    // names). The server certificate is re-issued under the same authority when it expires within
    // 30 days, does not cover a requested name, does not match its key or was not signed by this
    // folder's authority. A file that cannot be read or parsed is an error and is left as it is.
    static Result<CertificateFiles> ensure(const QString& dir, const QStringList& extraHostNames);

    // The user's own certificate and key (PEM): both must parse, the key must be the
    // certificate's, and the certificate must be valid now.
    static Result<CertificateFiles> load(const QString& certFile, const QString& keyFile);
};

// How a client is told to trust the authority in `caFile`: one line per client.
struct TrustHint {
    QString client; // "Node.js", "Python (data plane)", ...
    QString line;   // what to set or pass, with the file's path in it
};
QList<TrustHint> trustHints(const QString& caFile);

} // namespace hourglass::tls
