// TlsStream, the server side of TLS over bytes, against an OpenSSL client over memory BIOs that
// verifies the server as the SDKs do (the authority LocalCertificates makes, and the host name):
// handshakes in TLS 1.2 and 1.3, data both ways in pieces of any size, what a peer that is not
// TLS or does not trust us gets, close_notify both ways, and the context's file errors.

#include "MemoryTlsClient.h"
#include "ServerCertificateFixture.h"
#include "hourglass/tls/LocalCertificates.h"
#include "hourglass/tls/TlsStream.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::tls;
using hourglass::tls::test::MemoryTlsClient;
using hourglass::tls::test::pump;

namespace {
// Bytes a test puts in what the peer sends, to check that no error text repeats them.
const QByteArray kPeerMarker = "HOURGLASS-PEER-BYTES";

QByteArray randomBytes(QRandomGenerator& random, qsizetype size) {
    QByteArray bytes(size, Qt::Uninitialized);
    for (qsizetype i = 0; i < size; ++i)
        bytes[i] = char(random.bounded(256));
    return bytes;
}
} // namespace

class TlsStreamTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void handshakeAndDataBothWays_data();
    void handshakeAndDataBothWays();
    void bytesThatAreNotTlsGetAnAlert_data();
    void bytesThatAreNotTlsGetAnAlert();
    void clientThatDoesNotTrustUsFailsTheSession_data();
    void clientThatDoesNotTrustUsFailsTheSession();
    void oldProtocolsAreRefused();
    void renegotiationIsRefused();
    void closeNotifyBothWays();
    void contextErrorsNameTheFile();

private:
    ServerCertificateFixture m_tls;
};

void TlsStreamTest::initTestCase() {
    QVERIFY(m_tls.make());
}

void TlsStreamTest::handshakeAndDataBothWays_data() {
    QTest::addColumn<int>("version");
    QTest::addColumn<QString>("protocol");
    QTest::newRow("TLS 1.2") << int(TLS1_2_VERSION) << QStringLiteral("TLSv1.2");
    QTest::newRow("TLS 1.3") << int(TLS1_3_VERSION) << QStringLiteral("TLSv1.3");
}

void TlsStreamTest::handshakeAndDataBothWays() {
    QFETCH(int, version);
    QFETCH(QString, protocol);
    QRandomGenerator random(version);
    MemoryTlsClient client(m_tls.files.caCertificate, "localhost", version);
    TlsStream server(m_tls.context);
    // Written before the handshake: held, then sent first.
    server.write("greeting");
    QCOMPARE(server.takeCiphertext().size(), 0);
    QVERIFY(server.buffered() >= 8);

    pump(client, server, random);
    QVERIFY(client.handshakeDone());
    QCOMPARE(client.verifyResult(), long(X509_V_OK));
    QVERIFY2(server.handshakeDone(), qPrintable(server.error()));
    QVERIFY(!server.failed());
    QCOMPARE(server.protocolVersion(), protocol);
    QCOMPARE(client.protocol(), protocol);
    QCOMPARE(server.serverName(), QStringLiteral("localhost"));
    QCOMPARE(client.takePlaintext(), QByteArray("greeting"));

    client.write("hello");
    pump(client, server, random);
    QCOMPARE(server.takePlaintext(), QByteArray("hello"));
    server.write("hi");
    pump(client, server, random);
    QCOMPARE(client.takePlaintext(), QByteArray("hi"));

    // 1 MiB each way, written in random pieces, carried in random pieces.
    const QByteArray up = randomBytes(random, 1024 * 1024);
    const QByteArray down = randomBytes(random, 1024 * 1024);
    QByteArray received;
    for (qsizetype at = 0; at < up.size();) {
        const qsizetype n = std::min<qsizetype>(up.size() - at, 1 + random.bounded(100000));
        client.write(QByteArrayView(up).sliced(at, n));
        at += n;
        pump(client, server, random, 40000);
        // What is not taken yet counts in buffered().
        const qsizetype held = server.buffered();
        const QByteArray piece = server.takePlaintext();
        QCOMPARE(server.buffered(), held - piece.size());
        received += piece;
    }
    QCOMPARE(received.size(), up.size());
    QVERIFY(received == up);
    qsizetype largestRecord = 0;
    for (qsizetype at = 0; at < down.size();) {
        const qsizetype n = std::min<qsizetype>(down.size() - at, 1 + random.bounded(100000));
        server.write(QByteArrayView(down).sliced(at, n));
        at += n;
        largestRecord = std::max(largestRecord, pump(client, server, random, 40000));
    }
    const QByteArray got = client.takePlaintext();
    QCOMPARE(got.size(), down.size());
    QVERIFY(got == down);
    // Large writes go out in full records of 16 KiB of plaintext, and none larger.
    QVERIFY2(largestRecord > 16 * 1024 && largestRecord <= 16 * 1024 + 256,
             qPrintable(QString::number(largestRecord)));
    QVERIFY(!server.failed());
    QVERIFY(!client.failed());
    QCOMPARE(server.buffered(), 0);
}

void TlsStreamTest::bytesThatAreNotTlsGetAnAlert_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("why");
    QTest::newRow("plain HTTP") << "GET /" + kPeerMarker + " HTTP/1.1\r\n\r\n"
                                << QStringLiteral("plain HTTP");
    QTest::newRow("plain AMQP") << QByteArray("AMQP\x00\x01\x00\x00", 8) + kPeerMarker
                                << QStringLiteral("not TLS records");
    // A handshake record whose message is nonsense: OpenSSL's own alert.
    QByteArray record("\x16\x03\x01\x00\x20", 5);
    record += kPeerMarker + QByteArray(12, 'x');
    QTest::newRow("a handshake record of garbage") << record << QString();
}

void TlsStreamTest::bytesThatAreNotTlsGetAnAlert() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, why);
    TlsStream server(m_tls.context);
    QVERIFY(!server.feed(bytes));
    QVERIFY(server.failed());
    QVERIFY(!server.handshakeDone());
    const QByteArray alert = server.takeCiphertext();
    // A plaintext alert record: type 21, fatal (2).
    QVERIFY2(alert.size() >= 7, alert.toHex().constData());
    QCOMPARE(int(alert[0]), 21);
    QCOMPARE(int(alert[5]), 2);
    QVERIFY(server.error().startsWith(QStringLiteral("The TLS handshake failed: ")));
    if (!why.isEmpty())
        QVERIFY2(server.error().contains(why), qPrintable(server.error()));
    QVERIFY(!server.error().contains(QLatin1String(kPeerMarker)));
    QVERIFY(!server.error().contains(QStringLiteral("GET")));
    // Nothing more after a failure.
    QVERIFY(!server.feed("more"));
    server.write("data");
    QCOMPARE(server.takeCiphertext().size(), 0);
}

void TlsStreamTest::clientThatDoesNotTrustUsFailsTheSession_data() {
    QTest::addColumn<int>("version");
    QTest::addColumn<bool>("trustsAuthority");
    QTest::addColumn<long>("verifyError");
    for (int version : {TLS1_2_VERSION, TLS1_3_VERSION}) {
        const QByteArray name = version == TLS1_2_VERSION ? "TLS 1.2" : "TLS 1.3";
        QTest::newRow(name + ", unknown authority")
            << version << false << long(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);
        QTest::newRow(name + ", another host name")
            << version << true << long(X509_V_ERR_HOSTNAME_MISMATCH);
    }
}

void TlsStreamTest::clientThatDoesNotTrustUsFailsTheSession() {
    QFETCH(int, version);
    QFETCH(bool, trustsAuthority);
    QFETCH(long, verifyError);
    QRandomGenerator random(7);
    MemoryTlsClient client(trustsAuthority ? m_tls.files.caCertificate : QString(),
                           trustsAuthority ? "elsewhere.example.test" : "localhost", version);
    TlsStream server(m_tls.context);
    pump(client, server, random);
    QVERIFY(client.failed());
    QCOMPARE(client.verifyResult(), verifyError);
    // The client's alert ends the session on our side too, with a reason of ours.
    QVERIFY(server.failed());
    QVERIFY(!server.handshakeDone());
    QVERIFY2(server.error().startsWith(QStringLiteral(
                 "The TLS handshake failed: the client does not trust the server's certificate")),
             qPrintable(server.error()));
    QVERIFY(!server.feed("more"));
}

void TlsStreamTest::oldProtocolsAreRefused() {
    QRandomGenerator random(11);
    MemoryTlsClient client(m_tls.files.caCertificate, "localhost", TLS1_1_VERSION);
    TlsStream server(m_tls.context);
    pump(client, server, random);
    QVERIFY(!client.handshakeDone());
    QVERIFY(server.failed());
    QVERIFY2(server.error().contains(QStringLiteral("no TLS version this server accepts")),
             qPrintable(server.error()));
    // The server's protocol_version alert reached the client (pump carried it).
    QVERIFY(client.failed());
}

void TlsStreamTest::renegotiationIsRefused() {
    QRandomGenerator random(13);
    MemoryTlsClient client(m_tls.files.caCertificate, "localhost", TLS1_2_VERSION);
    TlsStream server(m_tls.context);
    pump(client, server, random);
    QVERIFY(server.handshakeDone());
    client.renegotiate();
    pump(client, server, random);
    // The server answers the new ClientHello with no_renegotiation, which ends the client's try.
    QVERIFY(client.failed());
    QCOMPARE(client.lastReason(), SSL_R_NO_RENEGOTIATION);
    QVERIFY(server.failed());
    QVERIFY2(server.error().startsWith(QStringLiteral("The TLS session failed: the client sent")),
             qPrintable(server.error()));
}

void TlsStreamTest::closeNotifyBothWays() {
    QRandomGenerator random(5);
    {
        // We close: the client reads our close_notify after the last data.
        MemoryTlsClient client(m_tls.files.caCertificate, "localhost");
        TlsStream server(m_tls.context);
        pump(client, server, random);
        QVERIFY(server.handshakeDone());
        server.write("last words");
        server.close();
        server.write("too late"); // ignored after close()
        pump(client, server, random);
        QCOMPARE(client.takePlaintext(), QByteArray("last words"));
        QVERIFY(client.peerClosed());
        QVERIFY(!server.peerClosed());
        // The client answers; the server sees it.
        client.close();
        pump(client, server, random);
        QVERIFY(server.peerClosed());
        QVERIFY(!server.failed());
    }
    {
        // The client closes first, after data in the same bytes.
        MemoryTlsClient client(m_tls.files.caCertificate, "localhost");
        TlsStream server(m_tls.context);
        pump(client, server, random);
        client.write("bye");
        client.close();
        pump(client, server, random);
        QCOMPARE(server.takePlaintext(), QByteArray("bye"));
        QVERIFY(server.peerClosed());
        QVERIFY(!server.failed());
        // Bytes after close_notify are ignored.
        QVERIFY(server.feed("trailing"));
        QCOMPARE(server.takePlaintext().size(), 0);
        server.close();
        QVERIFY(!server.takeCiphertext().isEmpty()); // our close_notify
    }
}

void TlsStreamTest::contextErrorsNameTheFile() {
    QTemporaryDir other;
    const Result<CertificateFiles> otherFiles = LocalCertificates::ensure(other.path(), {});
    QVERIFY(otherFiles.ok());

    const QString missing = m_tls.dir.filePath(QStringLiteral("missing.pem"));
    auto result = TlsServerContext::fromFiles(missing, m_tls.files.serverKey);
    QVERIFY(!result.ok());
    QVERIFY(result.error().description.startsWith(missing));

    // A key that is not the certificate's.
    result = TlsServerContext::fromFiles(m_tls.files.serverCertificate, otherFiles->serverKey);
    QVERIFY(!result.ok());
    QVERIFY2(result.error().description.startsWith(otherFiles->serverKey),
             qPrintable(result.error().description));

    // A file that is not PEM: named, its content not repeated.
    const QString garbage = m_tls.dir.filePath(QStringLiteral("garbage.pem"));
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kPeerMarker);
    file.close();
    result = TlsServerContext::fromFiles(garbage, m_tls.files.serverKey);
    QVERIFY(!result.ok());
    QVERIFY(result.error().description.startsWith(garbage));
    QVERIFY(!result.error().description.contains(QLatin1String(kPeerMarker)));

    // A chain (server certificate, then its authority) is accepted.
    QFile chainFile(m_tls.dir.filePath(QStringLiteral("chain.pem")));
    QFile server(m_tls.files.serverCertificate), authority(m_tls.files.caCertificate);
    QVERIFY(chainFile.open(QIODevice::WriteOnly) && server.open(QIODevice::ReadOnly) &&
            authority.open(QIODevice::ReadOnly));
    chainFile.write(server.readAll() + authority.readAll());
    chainFile.close();
    result = TlsServerContext::fromFiles(chainFile.fileName(), m_tls.files.serverKey);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QRandomGenerator random(3);
    MemoryTlsClient client(m_tls.files.caCertificate, "localhost");
    TlsStream stream(*result);
    pump(client, stream, random);
    QVERIFY(client.handshakeDone());
    QVERIFY(stream.handshakeDone());
}

QTEST_GUILESS_MAIN(TlsStreamTest)
#include "tst_tls_stream.moc"
