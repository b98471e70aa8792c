#include "hourglass/tls/LocalCertificates.h"

#include "CertificateAuthority.h"
#include "CertificateFields.h"
#include "PemFiles.h"
#include "ServerCertificate.h"

#include <openssl/err.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace hourglass::tls {

namespace {

Error folderError(const QString& description) {
    return makeError(ErrorCode::GeneralError, description);
}

// The folder, made (owner-only) when missing.
Result<void> prepareFolder(const QString& dir) {
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        return folderError(
            QStringLiteral("%1 is not a folder; the certificates need a folder there.").arg(dir));
    if (info.exists())
        return {};
    if (!QDir().mkpath(dir))
        return folderError(QStringLiteral("Cannot create the certificate folder %1.").arg(dir));
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return {};
}

// Both files of a pair present, neither, or an error for one without the other (left as it is:
// the user may have put it there).
Result<bool> pairPresent(const QString& certificatePath, const QString& keyPath,
                         const QString& what) {
    const bool certificate = QFileInfo::exists(certificatePath);
    const bool key = QFileInfo::exists(keyPath);
    if (certificate == key)
        return certificate;
    const QString present = certificate ? certificatePath : keyPath;
    const QString missing = certificate ? keyPath : certificatePath;
    return folderError(QStringLiteral("%1 is there but %2 is not: the %3 is incomplete. Restore "
                                      "the missing file, or move the other away to make a new one.")
                           .arg(present, missing, what));
}

Result<void> writePair(X509* certificate, EVP_PKEY* key, const QString& certificatePath,
                       const QString& keyPath) {
    // The key first: a crash in between leaves a certificate that does not match its key, which
    // the next start notices.
    Result<void> written = writeFileAtomically(keyPath, privateKeyPem(key), kKeyFileMode);
    if (!written)
        return written;
    return writeFileAtomically(certificatePath, certificatePem(certificate), kCertificateFileMode);
}

Result<Authority> authorityIn(const QString& dir, bool& created) {
    const QString certificatePath = QDir(dir).absoluteFilePath(kCaCertificateFile);
    const QString keyPath = QDir(dir).absoluteFilePath(kCaKeyFile);
    Result<bool> present =
        pairPresent(certificatePath, keyPath, QStringLiteral("local certificate authority"));
    if (!present)
        return present.error();
    if (!*present) {
        Result<Authority> authority = createAuthority();
        if (!authority)
            return authority.error();
        Result<void> written =
            writePair(authority->certificate.get(), authority->key.get(), certificatePath, keyPath);
        if (!written)
            return written.error();
        created = true;
        return authority;
    }
    Result<Certificate> certificate = readCertificateFile(certificatePath);
    if (!certificate)
        return certificate.error();
    Result<PrivateKey> key = readPrivateKeyFile(keyPath);
    if (!key)
        return key.error();
    if (const auto problem = authorityProblem(certificate->get(), key->get()))
        return folderError(QStringLiteral("%1 %2. Move the authority's two files away to make a "
                                          "new one (clients must then trust the new one).")
                               .arg(certificatePath, *problem));
    return Authority{std::move(*certificate), std::move(*key)};
}

// Holds the folder's lock file (flock) while ensure() reads and writes, so that two processes
// starting at once (the window and serve, or tests run in parallel) never mix one's key with
// the other's certificate. Without a lock file (a read-only folder) ensure() goes on unlocked:
// it then only reads, or fails to write with an error that says so.
class FolderLock {
public:
    explicit FolderLock(const QString& dir) {
        const QByteArray path = QFile::encodeName(QDir(dir).absoluteFilePath(kLockFile));
        m_fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd >= 0)
            ::flock(m_fd, LOCK_EX);
    }
    ~FolderLock() {
        if (m_fd >= 0)
            ::close(m_fd); // releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

private:
    int m_fd = -1;
};

Error asInvalidArgument(Error error) {
    error.code = ErrorCode::InvalidArgument;
    error.retryable = false;
    return error;
}

} // namespace

QString LocalCertificates::defaultFolder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("tls"));
}

Result<CertificateFiles> LocalCertificates::ensure(const QString& dir,
                                                   const QStringList& extraHostNames) {
    Result<QStringList> hostNames = serverHostNames(extraHostNames);
    if (!hostNames)
        return hostNames.error();
    Result<void> folder = prepareFolder(dir);
    if (!folder)
        return folder.error();
    const FolderLock lock(dir);

    CertificateFiles files;
    files.caCertificate = QDir(dir).absoluteFilePath(kCaCertificateFile);
    files.serverCertificate = QDir(dir).absoluteFilePath(kServerCertificateFile);
    files.serverKey = QDir(dir).absoluteFilePath(kServerKeyFile);

    Result<Authority> authority = authorityIn(dir, files.createdAuthority);
    if (!authority)
        return authority.error();
    files.caFingerprintSha256 = sha256Fingerprint(authority->certificate.get());

    Result<bool> present =
        pairPresent(files.serverCertificate, files.serverKey, QStringLiteral("server certificate"));
    if (!present)
        return present.error();
    std::optional<QString> reason;
    if (!*present) {
        reason = QStringLiteral("no server certificate yet");
    } else {
        Result<Certificate> certificate = readCertificateFile(files.serverCertificate);
        if (!certificate)
            return certificate.error();
        Result<PrivateKey> key = readPrivateKeyFile(files.serverKey);
        if (!key)
            return key.error();
        reason = reissueReason(certificate->get(), key->get(), *authority, *hostNames);
    }
    if (!reason)
        return files;

    Result<ServerPair> server = issueServerCertificate(*authority, *hostNames);
    if (!server)
        return server.error();
    Result<void> written = writePair(server->certificate.get(), server->key.get(),
                                     files.serverCertificate, files.serverKey);
    if (!written)
        return written.error();
    files.reissued = true;
    files.reissueReason = *reason;
    return files;
}

Result<CertificateFiles> LocalCertificates::load(const QString& certFile, const QString& keyFile) {
    Result<Certificate> certificate = readCertificateFile(certFile);
    if (!certificate)
        return asInvalidArgument(certificate.error());
    Result<PrivateKey> key = readPrivateKeyFile(keyFile);
    if (!key)
        return asInvalidArgument(key.error());
    const int matches = X509_check_private_key(certificate->get(), key->get());
    ERR_clear_error();
    if (matches != 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1: this key does not belong to the certificate in %2.")
                             .arg(keyFile, certFile));
    if (secondsUntilExpiry(certificate->get()) <= 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1: the certificate expired on %2.")
                             .arg(certFile, notAfterText(certificate->get())));
    if (X509_cmp_current_time(X509_get0_notBefore(certificate->get())) > 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1: the certificate is not valid yet.").arg(certFile));
    CertificateFiles files;
    files.serverCertificate = QFileInfo(certFile).absoluteFilePath();
    files.serverKey = QFileInfo(keyFile).absoluteFilePath();
    files.caFingerprintSha256 = sha256Fingerprint(certificate->get());
    return files;
}

} // namespace hourglass::tls
