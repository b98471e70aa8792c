// LocalCertificates::load, for a certificate and key the user brings (--tls-cert, --tls-key):
// what it accepts, what it refuses and how the refusal names the file; and the trust hints.

#include "CertificateAuthority.h"
#include "CertificateChecks.h"
#include "PemFiles.h"
#include "ServerCertificate.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::tls;
using namespace tlstest;

namespace {

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

// Text that must never show in an error: what a file holds is not echoed.
const QByteArray kSecretGarbage = QByteArrayLiteral("SECRET-CONTENT-0123456789\n");

} // namespace

class TlsLoadTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void acceptsAGoodPair();
    void refusesAKeyOfAnotherCertificate();
    void refusesAnExpiredCertificate();
    void refusesGarbage_data();
    void refusesGarbage();
    void trustHintsNameTheFile();

private:
    QTemporaryDir m_temp;
    CertificateFiles m_files; // made by ensure() in m_temp/certs
};

void TlsLoadTest::initTestCase() {
    QVERIFY(m_temp.isValid());
    const Result<CertificateFiles> files =
        LocalCertificates::ensure(m_temp.filePath(QStringLiteral("certs")), {});
    QVERIFY(files.ok());
    m_files = *files;
}

void TlsLoadTest::acceptsAGoodPair() {
    const Result<CertificateFiles> loaded =
        LocalCertificates::load(m_files.serverCertificate, m_files.serverKey);
    QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().toString()));
    QCOMPARE(loaded->serverCertificate, m_files.serverCertificate);
    QCOMPARE(loaded->serverKey, m_files.serverKey);
    QVERIFY(loaded->caCertificate.isEmpty());
    QCOMPARE(loaded->caFingerprintSha256.size(), 32 * 3 - 1);
    QVERIFY(!loaded->reissued);
}

void TlsLoadTest::refusesAKeyOfAnotherCertificate() {
    const QString otherKey = QDir(QFileInfo(m_files.caCertificate).path()).filePath(kCaKeyFile);
    const Result<CertificateFiles> loaded =
        LocalCertificates::load(m_files.serverCertificate, otherKey);
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(loaded.error().description.startsWith(otherKey),
             qPrintable(loaded.error().description));
    QVERIFY(loaded.error().description.contains(QStringLiteral("does not belong")));
}

void TlsLoadTest::refusesAnExpiredCertificate() {
    const Authority authority{
        certificateFrom(m_files.caCertificate),
        keyFrom(QDir(QFileInfo(m_files.caCertificate).path()).filePath(kCaKeyFile))};
    const Result<QStringList> names = serverHostNames({});
    QVERIFY(names.ok());
    Result<ServerPair> expired =
        issueServerCertificate(authority, *names, ServerValidity{-3L * 86400, -86400L});
    QVERIFY(expired.ok());
    const QString certificate = m_temp.filePath(QStringLiteral("expired-cert.pem"));
    const QString key = m_temp.filePath(QStringLiteral("expired-key.pem"));
    QVERIFY(writeBytes(certificate, certificatePem(expired->certificate.get())));
    QVERIFY(writeBytes(key, privateKeyPem(expired->key.get())));
    const Result<CertificateFiles> loaded = LocalCertificates::load(certificate, key);
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(loaded.error().description.startsWith(certificate),
             qPrintable(loaded.error().description));
    QVERIFY(loaded.error().description.contains(QStringLiteral("expired")));
}

void TlsLoadTest::refusesGarbage_data() {
    QTest::addColumn<bool>("garbageCertificate"); // else the key is garbage
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("says");
    QTest::newRow("certificate: text") << true << kSecretGarbage << QStringLiteral("certificate");
    QTest::newRow("certificate: a key instead")
        << true << QByteArray() << QStringLiteral("certificate");
    QTest::newRow("certificate: empty") << true << QByteArray("") << QStringLiteral("empty");
    QTest::newRow("key: text") << false << kSecretGarbage << QStringLiteral("private key");
    QTest::newRow("key: a certificate instead")
        << false << QByteArray() << QStringLiteral("private key");
    QTest::newRow("key: missing") << false << QByteArray("-") << QStringLiteral("no such file");
}

void TlsLoadTest::refusesGarbage() {
    QFETCH(bool, garbageCertificate);
    QFETCH(QByteArray, contents);
    QFETCH(QString, says);
    QString certificate = m_files.serverCertificate;
    QString key = m_files.serverKey;
    QString& bad = garbageCertificate ? certificate : key;
    bad = m_temp.filePath(QStringLiteral("bad.pem"));
    QFile::remove(bad);
    if (contents.isNull()) // the other file of the pair in its place
        QVERIFY(
            QFile::copy(garbageCertificate ? m_files.serverKey : m_files.serverCertificate, bad));
    else if (contents != "-")
        QVERIFY(writeBytes(bad, contents));
    const Result<CertificateFiles> loaded = LocalCertificates::load(certificate, key);
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error().code, ErrorCode::InvalidArgument);
    const QString description = loaded.error().description;
    QVERIFY2(description.startsWith(bad + QLatin1Char(':')), qPrintable(description));
    QVERIFY2(description.contains(says), qPrintable(description));
    QVERIFY(!description.contains(QStringLiteral("SECRET")));
    QVERIFY(!description.contains(QStringLiteral("MII"))); // no base64 of a PEM body either
}

void TlsLoadTest::trustHintsNameTheFile() {
    const QList<TrustHint> hints = trustHints(QStringLiteral("/data/hourglass/tls/ca-cert.pem"));
    QCOMPARE(hints.size(), 4);
    QCOMPARE(hints[0].line, QStringLiteral("NODE_EXTRA_CA_CERTS=/data/hourglass/tls/ca-cert.pem"));
    QCOMPARE(hints[1].line,
             QStringLiteral("connection_verify=\"/data/hourglass/tls/ca-cert.pem\""));
    QCOMPARE(hints[2].line, QStringLiteral("REQUESTS_CA_BUNDLE=/data/hourglass/tls/ca-cert.pem"));
    QCOMPARE(hints[3].line, QStringLiteral("--cacert /data/hourglass/tls/ca-cert.pem"));
    for (const TrustHint& hint : hints)
        QVERIFY(!hint.client.isEmpty());
    // A path a shell or Python would split or end early is quoted for each.
    const QList<TrustHint> spaced = trustHints(QStringLiteral("/home/Ann's files/ca \"1\".pem"));
    QCOMPARE(spaced[0].line,
             QStringLiteral("NODE_EXTRA_CA_CERTS='/home/Ann'\\''s files/ca \"1\".pem'"));
    QCOMPARE(spaced[1].line,
             QStringLiteral("connection_verify=\"/home/Ann's files/ca \\\"1\\\".pem\""));
    QCOMPARE(spaced[3].line, QStringLiteral("--cacert '/home/Ann'\\''s files/ca \"1\".pem'"));
}

QTEST_GUILESS_MAIN(TlsLoadTest)
#include "tst_tls_load.moc"
