#include "PemFiles.h"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hourglass::tls {

namespace {

Error fileError(const QString& path, const QString& what) {
    return makeError(ErrorCode::GeneralError, QStringLiteral("%1: %2").arg(path, what));
}

// The whole file, within kMaxPemFileBytes, or why it cannot be had.
Result<QByteArray> readSmallFile(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        return fileError(path, QStringLiteral("no such file"));
    if (!info.isFile())
        return fileError(path, QStringLiteral("not a regular file"));
    if (info.size() > kMaxPemFileBytes)
        return fileError(
            path, QStringLiteral("too large for a certificate or key (%1 bytes)").arg(info.size()));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fileError(path, QStringLiteral("cannot be read (%1)").arg(file.errorString()));
    QByteArray bytes = file.read(kMaxPemFileBytes + 1);
    if (bytes.isEmpty())
        return fileError(path, QStringLiteral("is empty"));
    if (bytes.size() > kMaxPemFileBytes) // grew since it was looked at
        return fileError(path, QStringLiteral("too large for a certificate or key"));
    return bytes;
}

// OpenSSL's default would ask for a passphrase on the terminal; an encrypted key is refused.
int refusePassphrase(char*, int, int, void* asked) {
    *static_cast<bool*>(asked) = true;
    return -1;
}

Result<void> fail(int fd, const QByteArray& temporary, const QString& path, const QString& step) {
    const QString reason = QString::fromLocal8Bit(std::strerror(errno));
    if (fd >= 0)
        ::close(fd);
    ::unlink(temporary.constData());
    return fileError(path, QStringLiteral("cannot be written (%1: %2)").arg(step, reason));
}

} // namespace

Result<Certificate> readCertificateFile(const QString& path) {
    Result<QByteArray> bytes = readSmallFile(path);
    if (!bytes)
        return bytes.error();
    Bio bio = memoryBioOver(*bytes);
    Certificate certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    ERR_clear_error();
    if (!certificate)
        return fileError(path, QStringLiteral("does not hold a PEM certificate (BEGIN "
                                              "CERTIFICATE) that OpenSSL can parse"));
    return certificate;
}

Result<std::vector<Certificate>> readCertificateChainFile(const QString& path) {
    Result<QByteArray> bytes = readSmallFile(path);
    if (!bytes)
        return bytes.error();
    Bio bio = memoryBioOver(*bytes);
    std::vector<Certificate> chain;
    while (Certificate next{PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)}) {
        if (chain.size() == kMaxChainCertificates) {
            ERR_clear_error();
            return fileError(
                path, QStringLiteral("holds more than %1 certificates").arg(kMaxChainCertificates));
        }
        chain.push_back(std::move(next));
    }
    // The loop ends on the end of the file (no more BEGIN lines) or on a block that does not
    // parse; only the first is the whole chain.
    const unsigned long last = ERR_peek_last_error();
    const bool endOfFile =
        ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE;
    ERR_clear_error();
    if (chain.empty())
        return fileError(path, QStringLiteral("does not hold a PEM certificate (BEGIN "
                                              "CERTIFICATE) that OpenSSL can parse"));
    if (!endOfFile)
        return fileError(path, QStringLiteral("holds a certificate after the first %1 that "
                                              "OpenSSL cannot parse")
                                   .arg(chain.size()));
    return chain;
}

Result<PrivateKey> readPrivateKeyFile(const QString& path) {
    Result<QByteArray> bytes = readSmallFile(path);
    if (!bytes)
        return bytes.error();
    Bio bio = memoryBioOver(*bytes);
    bool askedForPassphrase = false;
    PrivateKey key(
        PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, &askedForPassphrase));
    ERR_clear_error();
    if (!key && askedForPassphrase)
        return fileError(path, QStringLiteral("holds an encrypted private key; give an "
                                              "unencrypted one (protect it with the file's mode)"));
    if (!key)
        return fileError(path, QStringLiteral("does not hold a PEM private key (BEGIN PRIVATE "
                                              "KEY) that OpenSSL can parse"));
    return key;
}

QByteArray certificatePem(X509* certificate) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), certificate) != 1)
        return {};
    return bioBytes(bio.get());
}

QByteArray privateKeyPem(EVP_PKEY* key) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio ||
        PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return bioBytes(bio.get());
}

Result<void> writeFileAtomically(const QString& path, const QByteArray& bytes, mode_t mode) {
    if (bytes.isEmpty())
        return fileError(path, QStringLiteral("nothing to write (OpenSSL could not encode it)"));
    const QByteArray target = QFile::encodeName(path);
    QByteArray temporary = target + ".tmp-XXXXXX";
    // mkstemp creates the file 0600, so a key is never readable by others, not even briefly.
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0)
        return fail(fd, temporary, path, QStringLiteral("create"));
    if (::fchmod(fd, mode) != 0)
        return fail(fd, temporary, path, QStringLiteral("chmod"));
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n =
            ::write(fd, bytes.constData() + written, static_cast<size_t>(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(fd, temporary, path, QStringLiteral("write"));
        written += n;
    }
    if (::fsync(fd) != 0)
        return fail(fd, temporary, path, QStringLiteral("fsync"));
    if (::close(fd) != 0)
        return fail(-1, temporary, path, QStringLiteral("close"));
    if (::rename(temporary.constData(), target.constData()) != 0)
        return fail(-1, temporary, path, QStringLiteral("rename"));
    // The rename itself is durable once the folder is flushed.
    const QByteArray folder = QFile::encodeName(QFileInfo(path).absolutePath());
    const int folderFd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY);
    if (folderFd >= 0) {
        ::fsync(folderFd);
        ::close(folderFd);
    }
    return {};
}

} // namespace hourglass::tls
