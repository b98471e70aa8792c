// LocalCertificates::ensure: the authority and server certificate it makes, checked with
// OpenSSL's own verifier; what it reuses, what it re-issues and why, and the files it refuses to
// touch.

#include "CertificateAuthority.h"
#include "CertificateChecks.h"
#include "PemFiles.h"
#include "ServerCertificate.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <thread>

using namespace hourglass;
using namespace hourglass::tls;
using namespace tlstest;

namespace {

mode_t fileMode(const QString& path) {
    struct stat info = {};
    ::stat(QFile::encodeName(path).constData(), &info);
    return info.st_mode & 07777;
}

QMap<QString, QByteArray> folderBytes(const QString& dir) {
    QMap<QString, QByteArray> bytes;
    for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        bytes.insert(name, fileBytes(QDir(dir).filePath(name)));
    return bytes;
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

// The folder's authority, read back for a test that issues its own server certificate with it.
Authority authorityOf(const QString& dir) {
    return Authority{certificateFrom(QDir(dir).filePath(kCaCertificateFile)),
                     keyFrom(QDir(dir).filePath(kCaKeyFile))};
}

} // namespace

class TlsCertificatesTest : public QObject {
    Q_OBJECT

private slots:
    void firstUseCreatesAuthorityAndServerCertificate();
    void serverCertificateVerifiesAgainstAuthority();
    void authorityExtensions();
    void serverExtensions();
    void keyFilesAreOwnerOnly();
    void secondEnsureReusesTheFiles();
    void expiringServerCertificateIsReissued_data();
    void expiringServerCertificateIsReissued();
    void newHostNameIsReissued();
    void foreignServerCertificateIsReissued();
    void corruptFileIsAnErrorAndLeftAlone_data();
    void corruptFileIsAnErrorAndLeftAlone();
    void halfAPairIsAnError();
    void folderThatCannotBeMadeIsAnError();
    void badHostNameIsRefused();
    void pathsAreAbsolute();
    void serverCertificateEndsWithItsAuthority();
    void concurrentCallsAgreeOnOnePair();
};

void TlsCertificatesTest::firstUseCreatesAuthorityAndServerCertificate() {
    QTemporaryDir temp;
    const QString dir = temp.filePath(QStringLiteral("certs"));
    const Result<CertificateFiles> files = LocalCertificates::ensure(dir, {});
    QVERIFY2(files.ok(), qPrintable(files.ok() ? QString() : files.error().toString()));
    QCOMPARE(files->caCertificate, QDir(dir).filePath(kCaCertificateFile));
    QCOMPARE(files->serverCertificate, QDir(dir).filePath(kServerCertificateFile));
    QCOMPARE(files->serverKey, QDir(dir).filePath(kServerKeyFile));
    QVERIFY(files->createdAuthority);
    QVERIFY(files->reissued);
    QVERIFY(!files->reissueReason.isEmpty());
    // Exactly the four files and the lock: no temporary file left behind.
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden),
             QStringList({kLockFile, kCaCertificateFile, kCaKeyFile, kServerCertificateFile,
                          kServerKeyFile}));
    Certificate authority = certificateFrom(files->caCertificate);
    QVERIFY(authority);
    QVERIFY(certificateFrom(files->serverCertificate));
    QVERIFY(keyFrom(QDir(dir).filePath(kCaKeyFile)));
    QVERIFY(keyFrom(files->serverKey));
    // The fingerprint is the authority certificate's SHA-256, as openssl x509 -fingerprint shows.
    unsigned char digest[32];
    unsigned int length = 0;
    QVERIFY(X509_digest(authority.get(), EVP_sha256(), digest, &length) == 1);
    QCOMPARE(
        files->caFingerprintSha256,
        QString::fromLatin1(QByteArray(reinterpret_cast<char*>(digest), 32).toHex(':').toUpper()));
}

void TlsCertificatesTest::serverCertificateVerifiesAgainstAuthority() {
    QTemporaryDir temp;
    const Result<CertificateFiles> files = LocalCertificates::ensure(
        temp.path(), {QStringLiteral("Broker.Example.Test"), QStringLiteral("192.168.7.20")});
    QVERIFY(files.ok());
    Certificate authority = certificateFrom(files->caCertificate);
    Certificate server = certificateFrom(files->serverCertificate);
    QCOMPARE(verifyServer(authority.get(), server.get()), X509_V_OK);
    QCOMPARE(verifyServer(authority.get(), server.get(), "localhost"), X509_V_OK);
    QCOMPARE(verifyServer(authority.get(), server.get(), "broker.example.test"), X509_V_OK);
    QVERIFY(verifyServer(authority.get(), server.get(), "other.example.test") != X509_V_OK);

    QVERIFY(namesDns(server.get(), "localhost"));
    QVERIFY(namesIp(server.get(), "127.0.0.1"));
    QVERIFY(namesIp(server.get(), "::1"));
    QVERIFY(namesDns(server.get(), "broker.example.test"));
    QVERIFY(namesIp(server.get(), "192.168.7.20"));
    // An address is an IP name, not a DNS name; and nothing else is named.
    QVERIFY(!namesDns(server.get(), "192.168.7.20"));
    QVERIFY(!namesDns(server.get(), "other.example.test"));
    QVERIFY(!namesDns(server.get(), "example.test"));
    QVERIFY(!namesIp(server.get(), "10.0.0.1"));
    QVERIFY(!namesIp(server.get(), "::2"));

    // Another folder's authority does not vouch for it.
    QTemporaryDir otherTemp;
    const Result<CertificateFiles> other = LocalCertificates::ensure(otherTemp.path(), {});
    QVERIFY(other.ok());
    Certificate otherAuthority = certificateFrom(other->caCertificate);
    QVERIFY(verifyServer(otherAuthority.get(), server.get()) != X509_V_OK);
}

void TlsCertificatesTest::authorityExtensions() {
    QTemporaryDir temp;
    const Result<CertificateFiles> files = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(files.ok());
    Certificate authority = certificateFrom(files->caCertificate);
    X509* ca = authority.get();
    QVERIFY(extension(ca, NID_basic_constraints).present);
    QVERIFY(extension(ca, NID_basic_constraints).critical);
    QVERIFY(X509_get_extension_flags(ca) & EXFLAG_CA);
    QVERIFY(X509_check_ca(ca) == 1);
    QVERIFY(extension(ca, NID_key_usage).present);
    QVERIFY(extension(ca, NID_key_usage).critical);
    QCOMPARE(X509_get_key_usage(ca), static_cast<uint32_t>(KU_KEY_CERT_SIGN | KU_CRL_SIGN));
    QVERIFY(extension(ca, NID_subject_key_identifier).present);
    QVERIFY(!extension(ca, NID_subject_key_identifier).critical);
    QVERIFY(X509_get0_subject_key_id(ca) != nullptr);
    // Self-signed, about ten years, P-256.
    QCOMPARE(X509_NAME_cmp(X509_get_subject_name(ca), X509_get_issuer_name(ca)), 0);
    QVERIFY(X509_verify(ca, X509_get0_pubkey(ca)) == 1);
    QVERIFY(validityDays(ca) >= 3649 && validityDays(ca) <= 3651);
    QVERIFY(isP256(X509_get0_pubkey(ca)));
    QVERIFY(isP256(keyFrom(QDir(temp.path()).filePath(kCaKeyFile)).get()));
    QCOMPARE(X509_get_version(ca), static_cast<long>(X509_VERSION_3));
}

void TlsCertificatesTest::serverExtensions() {
    QTemporaryDir temp;
    const Result<CertificateFiles> files = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(files.ok());
    Certificate authority = certificateFrom(files->caCertificate);
    Certificate certificate = certificateFrom(files->serverCertificate);
    X509* server = certificate.get();
    QVERIFY(extension(server, NID_subject_alt_name).present);
    QVERIFY(!extension(server, NID_subject_alt_name).critical);
    QVERIFY(extension(server, NID_basic_constraints).present);
    QVERIFY(extension(server, NID_basic_constraints).critical);
    QVERIFY(!(X509_get_extension_flags(server) & EXFLAG_CA));
    QVERIFY(X509_check_ca(server) == 0);
    QVERIFY(extension(server, NID_key_usage).present);
    QVERIFY(extension(server, NID_key_usage).critical);
    QCOMPARE(X509_get_key_usage(server), static_cast<uint32_t>(KU_DIGITAL_SIGNATURE));
    QVERIFY(extension(server, NID_ext_key_usage).present);
    QVERIFY(!extension(server, NID_ext_key_usage).critical);
    QCOMPARE(X509_get_extended_key_usage(server), static_cast<uint32_t>(XKU_SSL_SERVER));
    QVERIFY(extension(server, NID_subject_key_identifier).present);
    QVERIFY(extension(server, NID_authority_key_identifier).present);
    QVERIFY(!extension(server, NID_authority_key_identifier).critical);
    // The authority key identifier is the authority's subject key identifier.
    const ASN1_OCTET_STRING* authorityKeyId = X509_get0_authority_key_id(server);
    QVERIFY(authorityKeyId);
    QCOMPARE(ASN1_OCTET_STRING_cmp(authorityKeyId, X509_get0_subject_key_id(authority.get())), 0);
    QVERIFY(ASN1_OCTET_STRING_cmp(X509_get0_subject_key_id(server),
                                  X509_get0_subject_key_id(authority.get())) != 0);
    // About a year, P-256, a serial of its own.
    QVERIFY(validityDays(server) >= 364 && validityDays(server) <= 366);
    QVERIFY(isP256(X509_get0_pubkey(server)));
    QVERIFY(isP256(keyFrom(files->serverKey).get()));
    QVERIFY(ASN1_INTEGER_cmp(X509_get0_serialNumber(server),
                             X509_get0_serialNumber(authority.get())) != 0);
    QTemporaryDir otherTemp;
    const Result<CertificateFiles> other = LocalCertificates::ensure(otherTemp.path(), {});
    QVERIFY(other.ok());
    QVERIFY(ASN1_INTEGER_cmp(
                X509_get0_serialNumber(server),
                X509_get0_serialNumber(certificateFrom(other->serverCertificate).get())) != 0);
}

void TlsCertificatesTest::keyFilesAreOwnerOnly() {
    QTemporaryDir temp;
    const Result<CertificateFiles> files = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(files.ok());
    QCOMPARE(fileMode(QDir(temp.path()).filePath(kCaKeyFile)), static_cast<mode_t>(0600));
    QCOMPARE(fileMode(files->serverKey), static_cast<mode_t>(0600));
    QCOMPARE(fileMode(files->caCertificate), static_cast<mode_t>(0644));
    QCOMPARE(fileMode(files->serverCertificate), static_cast<mode_t>(0644));
    // A re-issued key is owner-only too.
    const Result<CertificateFiles> again =
        LocalCertificates::ensure(temp.path(), {QStringLiteral("added.example.test")});
    QVERIFY(again.ok() && again->reissued);
    QCOMPARE(fileMode(again->serverKey), static_cast<mode_t>(0600));
}

void TlsCertificatesTest::secondEnsureReusesTheFiles() {
    QTemporaryDir temp;
    const QStringList hosts{QStringLiteral("broker.example.test")};
    QVERIFY(LocalCertificates::ensure(temp.path(), hosts).ok());
    const QMap<QString, QByteArray> before = folderBytes(temp.path());
    QCOMPARE(before.size(), 5); // the four files and the empty lock file
    const Result<CertificateFiles> again = LocalCertificates::ensure(temp.path(), hosts);
    QVERIFY(again.ok());
    QVERIFY(!again->createdAuthority);
    QVERIFY(!again->reissued);
    QVERIFY(again->reissueReason.isEmpty());
    QCOMPARE(folderBytes(temp.path()), before);
    // The names given again in another spelling are the same names.
    const Result<CertificateFiles> spelled = LocalCertificates::ensure(
        temp.path(), {QStringLiteral("BROKER.example.test."), QStringLiteral("localhost")});
    QVERIFY(spelled.ok() && !spelled->reissued);
    QCOMPARE(folderBytes(temp.path()), before);
}

void TlsCertificatesTest::expiringServerCertificateIsReissued_data() {
    QTest::addColumn<long>("fromSeconds");
    QTest::addColumn<long>("toSeconds");
    QTest::addColumn<QString>("reason");
    QTest::newRow("expired") << -2L * 86400 << -86400L << QStringLiteral("expired");
    QTest::newRow("five days left") << -3600L << 5L * 86400 << QStringLiteral("expires soon");
}

void TlsCertificatesTest::expiringServerCertificateIsReissued() {
    QFETCH(long, fromSeconds);
    QFETCH(long, toSeconds);
    QFETCH(QString, reason);
    QTemporaryDir temp;
    const Result<CertificateFiles> first = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(first.ok());
    const QByteArray authorityBytes = fileBytes(first->caCertificate);
    const QByteArray authorityKeyBytes = fileBytes(QDir(temp.path()).filePath(kCaKeyFile));

    // A short-lived certificate from the same authority, in the folder's place.
    const Authority authority = authorityOf(temp.path());
    const Result<QStringList> names = serverHostNames({});
    QVERIFY(names.ok());
    Result<ServerPair> shortLived =
        issueServerCertificate(authority, *names, ServerValidity{fromSeconds, toSeconds});
    QVERIFY(shortLived.ok());
    QVERIFY(writeBytes(first->serverCertificate, certificatePem(shortLived->certificate.get())));
    QVERIFY(writeBytes(first->serverKey, privateKeyPem(shortLived->key.get())));

    const Result<CertificateFiles> again = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(again.ok());
    QVERIFY(again->reissued);
    QVERIFY(!again->createdAuthority);
    QVERIFY2(again->reissueReason.contains(reason), qPrintable(again->reissueReason));
    QCOMPARE(fileBytes(first->caCertificate), authorityBytes);
    QCOMPARE(fileBytes(QDir(temp.path()).filePath(kCaKeyFile)), authorityKeyBytes);
    Certificate server = certificateFrom(again->serverCertificate);
    QCOMPARE(verifyServer(authority.certificate.get(), server.get(), "localhost"), X509_V_OK);
    QVERIFY(validityDays(server.get()) >= 364);
}

void TlsCertificatesTest::newHostNameIsReissued() {
    QTemporaryDir temp;
    const Result<CertificateFiles> first = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(first.ok());
    const QByteArray authorityBytes = fileBytes(first->caCertificate);
    const QByteArray serverBytes = fileBytes(first->serverCertificate);

    const QStringList hosts{QStringLiteral("devbox.example.test"), QStringLiteral("10.1.2.3")};
    const Result<CertificateFiles> again = LocalCertificates::ensure(temp.path(), hosts);
    QVERIFY(again.ok());
    QVERIFY(again->reissued);
    QVERIFY2(again->reissueReason.contains(QStringLiteral("devbox.example.test")),
             qPrintable(again->reissueReason));
    QCOMPARE(fileBytes(first->caCertificate), authorityBytes);
    QVERIFY(fileBytes(again->serverCertificate) != serverBytes);
    Certificate authority = certificateFrom(again->caCertificate);
    Certificate server = certificateFrom(again->serverCertificate);
    QCOMPARE(verifyServer(authority.get(), server.get(), "devbox.example.test"), X509_V_OK);
    QVERIFY(namesIp(server.get(), "10.1.2.3"));
    QVERIFY(namesDns(server.get(), "localhost"));

    // The same names next time: reused.
    const Result<CertificateFiles> third = LocalCertificates::ensure(temp.path(), hosts);
    QVERIFY(third.ok() && !third->reissued);
    // Fewer names than the certificate covers: still reused (it covers what is asked).
    const Result<CertificateFiles> fewer = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(fewer.ok() && !fewer->reissued);
}

void TlsCertificatesTest::foreignServerCertificateIsReissued() {
    QTemporaryDir mine;
    QTemporaryDir theirs;
    const Result<CertificateFiles> ours = LocalCertificates::ensure(mine.path(), {});
    const Result<CertificateFiles> other = LocalCertificates::ensure(theirs.path(), {});
    QVERIFY(ours.ok() && other.ok());
    QVERIFY(writeBytes(ours->serverCertificate, fileBytes(other->serverCertificate)));
    QVERIFY(writeBytes(ours->serverKey, fileBytes(other->serverKey)));

    const Result<CertificateFiles> again = LocalCertificates::ensure(mine.path(), {});
    QVERIFY(again.ok());
    QVERIFY(again->reissued);
    QVERIFY2(again->reissueReason.contains(QStringLiteral("not signed")),
             qPrintable(again->reissueReason));
    Certificate authority = certificateFrom(ours->caCertificate);
    QCOMPARE(verifyServer(authority.get(), certificateFrom(again->serverCertificate).get()),
             X509_V_OK);
}

void TlsCertificatesTest::corruptFileIsAnErrorAndLeftAlone_data() {
    QTest::addColumn<QString>("fileName");
    QTest::newRow("authority certificate") << kCaCertificateFile;
    QTest::newRow("authority key") << kCaKeyFile;
    QTest::newRow("server certificate") << kServerCertificateFile;
    QTest::newRow("server key") << kServerKeyFile;
}

void TlsCertificatesTest::corruptFileIsAnErrorAndLeftAlone() {
    QFETCH(QString, fileName);
    QTemporaryDir temp;
    QVERIFY(LocalCertificates::ensure(temp.path(), {}).ok());
    const QString path = QDir(temp.path()).filePath(fileName);
    const QByteArray garbage = QByteArrayLiteral("-----BEGIN CERTIFICATE-----\nnot base64 at all "
                                                 "PRIVATE-DETAIL\n-----END CERTIFICATE-----\n");
    QVERIFY(writeBytes(path, garbage));
    QMap<QString, QByteArray> before = folderBytes(temp.path());

    const Result<CertificateFiles> again = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, ErrorCode::GeneralError);
    QVERIFY2(again.error().description.contains(path), qPrintable(again.error().description));
    QVERIFY(!again.error().description.contains(QStringLiteral("PRIVATE-DETAIL")));
    QCOMPARE(folderBytes(temp.path()), before);

    // A folder where the file should be cannot be read as one either.
    QVERIFY(QFile::remove(path));
    QVERIFY(QDir().mkdir(path));
    const Result<CertificateFiles> folderInstead = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(!folderInstead.ok());
    QVERIFY(folderInstead.error().description.contains(path));
    QVERIFY(QFileInfo(path).isDir());
}

void TlsCertificatesTest::halfAPairIsAnError() {
    QTemporaryDir temp;
    QVERIFY(LocalCertificates::ensure(temp.path(), {}).ok());
    const QString caKey = QDir(temp.path()).filePath(kCaKeyFile);
    QVERIFY(QFile::remove(QDir(temp.path()).filePath(kCaCertificateFile)));
    const QMap<QString, QByteArray> before = folderBytes(temp.path());
    const Result<CertificateFiles> again = LocalCertificates::ensure(temp.path(), {});
    QVERIFY(!again.ok());
    QVERIFY2(again.error().description.contains(caKey), qPrintable(again.error().description));
    QCOMPARE(folderBytes(temp.path()), before);
}

void TlsCertificatesTest::folderThatCannotBeMadeIsAnError() {
    QTemporaryDir temp;
    const QString file = temp.filePath(QStringLiteral("a-file"));
    QVERIFY(writeBytes(file, "x"));
    const QString under = file + QStringLiteral("/certs");
    const Result<CertificateFiles> below = LocalCertificates::ensure(under, {});
    QVERIFY(!below.ok());
    QVERIFY2(below.error().description.contains(under), qPrintable(below.error().description));
    const Result<CertificateFiles> onFile = LocalCertificates::ensure(file, {});
    QVERIFY(!onFile.ok());
    QVERIFY(onFile.error().description.contains(file));
    QCOMPARE(fileBytes(file), QByteArray("x"));
}

void TlsCertificatesTest::badHostNameIsRefused() {
    QTemporaryDir temp;
    const QString dir = temp.filePath(QStringLiteral("certs"));
    for (const QString& bad :
         {QStringLiteral("bad name"), QStringLiteral("*.example.test"),
          QStringLiteral("a,DNS:evil.test"), QString(), QStringLiteral("-lead.example.test")}) {
        const Result<CertificateFiles> files = LocalCertificates::ensure(dir, {bad});
        QVERIFY2(!files.ok(), qPrintable(bad));
        QCOMPARE(files.error().code, ErrorCode::InvalidArgument);
    }
    // Nothing was made for a refused name.
    QVERIFY(!QFileInfo::exists(dir));
    // An address in brackets is an address.
    const Result<CertificateFiles> bracketed =
        LocalCertificates::ensure(dir, {QStringLiteral("[fd00::5]")});
    QVERIFY(bracketed.ok());
    QVERIFY(namesIp(certificateFrom(bracketed->serverCertificate).get(), "fd00::5"));
}

void TlsCertificatesTest::pathsAreAbsolute() {
    QTemporaryDir temp;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(temp.path()));
    const Result<CertificateFiles> files = LocalCertificates::ensure(QStringLiteral("certs"), {});
    QVERIFY(QDir::setCurrent(before));
    QVERIFY(files.ok());
    QCOMPARE(files->caCertificate,
             QDir(temp.path()).absoluteFilePath("certs/" + kCaCertificateFile));
    QVERIFY(QFileInfo(files->serverCertificate).isAbsolute());
    QVERIFY(QFileInfo(files->serverKey).isAbsolute());
    QVERIFY(trustHints(files->caCertificate)[0].line.contains(temp.path()));
}

void TlsCertificatesTest::serverCertificateEndsWithItsAuthority() {
    Result<Authority> authority = createAuthority(100L * 86400);
    QVERIFY(authority.ok());
    const Result<QStringList> names = serverHostNames({});
    QVERIFY(names.ok());
    Result<ServerPair> server = issueServerCertificate(*authority, *names);
    QVERIFY(server.ok());
    QCOMPARE(ASN1_TIME_compare(X509_get0_notAfter(server->certificate.get()),
                               X509_get0_notAfter(authority->certificate.get())),
             0);
    QCOMPARE(verifyServer(authority->certificate.get(), server->certificate.get(), "localhost"),
             X509_V_OK);
    // With ten years left, the server certificate gets its full year.
    Result<Authority> young = createAuthority();
    QVERIFY(young.ok());
    Result<ServerPair> full = issueServerCertificate(*young, *names);
    QVERIFY(full.ok());
    QVERIFY(validityDays(full->certificate.get()) >= 364);
}

// Two starts at once (the window and serve, or parallel tests) on a new folder: both get the
// same authority and a server certificate that matches its key and was signed by it.
void TlsCertificatesTest::concurrentCallsAgreeOnOnePair() {
    for (int round = 0; round < 10; ++round) {
        QTemporaryDir temp;
        const QString dir = temp.filePath(QStringLiteral("certs"));
        std::optional<Result<CertificateFiles>> first;
        std::optional<Result<CertificateFiles>> second;
        std::thread one([&] { first.emplace(LocalCertificates::ensure(dir, {})); });
        std::thread other([&] {
            second.emplace(LocalCertificates::ensure(dir, {QStringLiteral("other.example.test")}));
        });
        one.join();
        other.join();
        QVERIFY(first->ok() && second->ok());
        QCOMPARE((*first)->caFingerprintSha256, (*second)->caFingerprintSha256);
        QCOMPARE(int((*first)->createdAuthority) + int((*second)->createdAuthority), 1);
        Certificate authority = certificateFrom((*first)->caCertificate);
        QCOMPARE(sha256FingerprintOf(authority.get()), (*first)->caFingerprintSha256);
        Certificate server = certificateFrom((*first)->serverCertificate);
        QCOMPARE(verifyServer(authority.get(), server.get()), X509_V_OK);
        QVERIFY(LocalCertificates::load((*first)->serverCertificate, (*first)->serverKey).ok());
    }
}

QTEST_GUILESS_MAIN(TlsCertificatesTest)
#include "tst_tls_certificates.moc"
