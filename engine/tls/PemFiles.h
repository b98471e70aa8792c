#pragma once
// Certificates and keys as PEM files: read with errors that name the file and say what is wrong
// (never its contents), and written whole or not at all.

#include "OpenSslHandles.h"
#include "hourglass/Status.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <vector>

#include <sys/types.h>

namespace hourglass::tls {

// A file larger than this is not a certificate or key of ours and is refused unread.
constexpr qint64 kMaxPemFileBytes = 1024 * 1024;

// The first certificate in a PEM file.
Result<Certificate> readCertificateFile(const QString& path);
// Every certificate in a PEM file, in its order (a server certificate, then the authorities to
// send with it), at most kMaxChainCertificates.
constexpr std::size_t kMaxChainCertificates = 16;
Result<std::vector<Certificate>> readCertificateChainFile(const QString& path);
// An unencrypted private key in a PEM file (an encrypted one is refused: serve cannot ask for a
// passphrase).
Result<PrivateKey> readPrivateKeyFile(const QString& path);

QByteArray certificatePem(X509* certificate);
// PKCS#8, unencrypted: the file's mode is what protects it.
QByteArray privateKeyPem(EVP_PKEY* key);

// Writes `bytes` to a temporary file beside `path` with `mode`, flushes it to disk and renames it
// over `path`, so that a crash leaves the old file or the new one, never half of one.
Result<void> writeFileAtomically(const QString& path, const QByteArray& bytes, mode_t mode);

// The folder's files: 0600 for keys, 0644 for certificates (a client must read those).
constexpr mode_t kKeyFileMode = 0600;
constexpr mode_t kCertificateFileMode = 0644;

} // namespace hourglass::tls
