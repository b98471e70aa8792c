// TlsStream against real clients over TCP: Node (the JavaScript SDK's runtime) with tls.connect,
// and the openssl s_client binary, each talking to an echo server whose sockets are bridged to
// TlsStreams (TlsEchoBridge.h), and verifying it against the authority LocalCertificates makes.

#include "ServerCertificateFixture.h"
#include "TlsEchoBridge.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::tls;
using hourglass::tls::test::TlsEchoBridge;

namespace {

// Sends 1 MiB of random bytes plus a line, reads the echo back whole, compares it, ends with
// close_notify and waits for ours; prints what happened as one line of JSON.
const char* const kNodeEchoScript = R"js(
const tls = require('tls');
const fs = require('fs');
const crypto = require('crypto');
let done = false;
const finish = (result) => {
  if (done) return; done = true; console.log(JSON.stringify(result)); process.exit(0);
};
const options = { host: '127.0.0.1', port: Number(process.env.TLS_TEST_PORT),
                  servername: 'localhost', maxVersion: process.env.TLS_TEST_VERSION,
                  minVersion: process.env.TLS_TEST_VERSION };
if (process.env.TLS_TEST_CA) options.ca = fs.readFileSync(process.env.TLS_TEST_CA);
const payload = Buffer.concat([crypto.randomBytes(1024 * 1024), Buffer.from('hello\n')]);
const chunks = [];
let received = 0;
const socket = tls.connect(options, () => { socket.write(payload); });
socket.on('data', (data) => {
  chunks.push(data); received += data.length;
  if (received >= payload.length) socket.end();
});
socket.on('end', () => finish({ connected: true, authorized: socket.authorized === true,
  protocol: socket.getProtocol(), echoed: Buffer.concat(chunks).equals(payload) }));
socket.on('error', (error) => finish({ connected: false, error: String(error.code || error.message) }));
setTimeout(() => finish({ connected: false, error: 'timeout' }), 40000);
)js";

QProcessEnvironment cleanEnvironment() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("NODE_EXTRA_CA_CERTS"));
    environment.remove(QStringLiteral("NODE_TLS_REJECT_UNAUTHORIZED"));
    environment.remove(QStringLiteral("SSL_CERT_FILE"));
    environment.remove(QStringLiteral("SSL_CERT_DIR"));
    return environment;
}

} // namespace

class TlsStreamClientsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void nodeEchoesThroughTheStream_data();
    void nodeEchoesThroughTheStream();
    void openSslClientEchoesThroughTheStream_data();
    void openSslClientEchoesThroughTheStream();

private:
    ServerCertificateFixture m_tls;
};

void TlsStreamClientsTest::initTestCase() {
    QVERIFY(m_tls.make());
}

void TlsStreamClientsTest::nodeEchoesThroughTheStream_data() {
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("trust"); // "ca" option, NODE_EXTRA_CA_CERTS, or none
    QTest::newRow("TLS 1.3, ca option") << QStringLiteral("TLSv1.3") << QStringLiteral("ca");
    QTest::newRow("TLS 1.2, ca option") << QStringLiteral("TLSv1.2") << QStringLiteral("ca");
    QTest::newRow("TLS 1.3, NODE_EXTRA_CA_CERTS")
        << QStringLiteral("TLSv1.3") << QStringLiteral("extra");
    QTest::newRow("TLS 1.3, not trusted") << QStringLiteral("TLSv1.3") << QStringLiteral("none");
}

void TlsStreamClientsTest::nodeEchoesThroughTheStream() {
    QFETCH(QString, version);
    QFETCH(QString, trust);
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        QSKIP("no node on PATH (make node-deps puts Node 20 in build/tools)");
    TlsEchoBridge bridge(m_tls.context);
    QVERIFY(bridge.listen());

    QProcessEnvironment environment = cleanEnvironment();
    environment.insert(QStringLiteral("TLS_TEST_PORT"), QString::number(bridge.port()));
    environment.insert(QStringLiteral("TLS_TEST_VERSION"), version);
    if (trust == QLatin1String("ca"))
        environment.insert(QStringLiteral("TLS_TEST_CA"), m_tls.files.caCertificate);
    else if (trust == QLatin1String("extra"))
        environment.insert(QStringLiteral("NODE_EXTRA_CA_CERTS"), m_tls.files.caCertificate);
    QProcess client;
    client.setProcessEnvironment(environment);
    client.start(node, {QStringLiteral("-e"), QString::fromLatin1(kNodeEchoScript)});
    QVERIFY(client.waitForStarted(10000));
    // The bridge runs on this thread's event loop while Node works.
    QTRY_VERIFY_WITH_TIMEOUT(client.state() == QProcess::NotRunning, 60000);
    const QByteArray output = client.readAllStandardOutput().trimmed();
    const QByteArray errors = client.readAllStandardError();
    QCOMPARE(client.exitCode(), 0);
    const QJsonObject result = QJsonDocument::fromJson(output).object();
    QVERIFY2(!result.isEmpty(), (output + ' ' + errors).constData());

    if (trust == QLatin1String("none")) {
        QVERIFY2(!result.value(QStringLiteral("connected")).toBool(), output.constData());
        QCOMPARE(result.value(QStringLiteral("error")).toString(),
                 QStringLiteral("UNABLE_TO_VERIFY_LEAF_SIGNATURE"));
        QCOMPARE(bridge.echoed(), 0);
        return;
    }
    QVERIFY2(result.value(QStringLiteral("connected")).toBool(), output.constData());
    QVERIFY(result.value(QStringLiteral("authorized")).toBool());
    QCOMPARE(result.value(QStringLiteral("protocol")).toString(), version);
    QVERIFY(result.value(QStringLiteral("echoed")).toBool());
    QCOMPARE(bridge.echoed(), qint64(1024 * 1024 + 6));
    QCOMPARE(bridge.handshakes(), 1);
    QCOMPARE(bridge.serverNames(), QStringList{QStringLiteral("localhost")});
    QCOMPARE(bridge.protocols(), QStringList{version});
    QVERIFY2(bridge.errors().isEmpty(), qPrintable(bridge.errors().join(u'\n')));
}

void TlsStreamClientsTest::openSslClientEchoesThroughTheStream_data() {
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("protocol");
    QTest::newRow("TLS 1.3") << QStringLiteral("-tls1_3") << QStringLiteral("TLSv1.3");
    QTest::newRow("TLS 1.2") << QStringLiteral("-tls1_2") << QStringLiteral("TLSv1.2");
}

void TlsStreamClientsTest::openSslClientEchoesThroughTheStream() {
    QFETCH(QString, option);
    QFETCH(QString, protocol);
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (openssl.isEmpty())
        QSKIP("no openssl binary on PATH");
    TlsEchoBridge bridge(m_tls.context);
    QVERIFY(bridge.listen());

    QProcess client;
    client.setProcessEnvironment(cleanEnvironment());
    client.start(openssl,
                 {QStringLiteral("s_client"), QStringLiteral("-connect"),
                  QStringLiteral("127.0.0.1:%1").arg(bridge.port()), QStringLiteral("-servername"),
                  QStringLiteral("localhost"), QStringLiteral("-CAfile"), m_tls.files.caCertificate,
                  QStringLiteral("-verify_hostname"), QStringLiteral("localhost"),
                  QStringLiteral("-verify_return_error"), QStringLiteral("-brief"),
                  QStringLiteral("-ign_eof"), option});
    QVERIFY(client.waitForStarted(10000));
    const QByteArray line = "ping through the stream\n";
    client.write(line);
    client.closeWriteChannel();
    QTRY_COMPARE_WITH_TIMEOUT(bridge.echoed(), qint64(line.size()), 30000);
    // Our close_notify ends s_client (-ign_eof: it waits for the server to close).
    bridge.closeAll();
    QTRY_VERIFY_WITH_TIMEOUT(client.state() == QProcess::NotRunning, 30000);
    const QByteArray output = client.readAllStandardOutput();
    const QByteArray errors = client.readAllStandardError();
    QVERIFY2(output.contains(line), (output + errors).constData());
    QVERIFY2(errors.contains("Verification: OK"), errors.constData());
    QVERIFY2(errors.contains("Protocol version: " + protocol.toLatin1()), errors.constData());
    QCOMPARE(bridge.serverNames(), QStringList{QStringLiteral("localhost")});
    QVERIFY2(bridge.errors().isEmpty(), qPrintable(bridge.errors().join(u'\n')));
}

QTEST_GUILESS_MAIN(TlsStreamClientsTest)
#include "tst_tls_stream_clients.moc"
