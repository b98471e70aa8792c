// A real client against the certificates LocalCertificates makes: Node (the runtime of the
// JavaScript SDK) connects to a small TLS server presenting the generated pair. With the
// authority in NODE_EXTRA_CA_CERTS the handshake succeeds and the connection is authorized for
// localhost and 127.0.0.1; without it Node refuses the handshake. Node's verifier is strict
// (names only from subjectAltName, a CA that says it is one), which is why these extensions exist.

#include "hourglass/tls/LocalCertificates.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

using namespace hourglass;
using namespace hourglass::tls;

namespace {

// One TLS handshake on 127.0.0.1 with OpenSSL's server side, on a thread of its own, presenting
// the certificate and key it was given.
class OneHandshakeServer {
public:
    OneHandshakeServer(const QString& certificate, const QString& key) {
        m_context = SSL_CTX_new(TLS_server_method());
        const QByteArray certificatePath = QFile::encodeName(certificate);
        const QByteArray keyPath = QFile::encodeName(key);
        m_ready =
            m_context &&
            SSL_CTX_use_certificate_chain_file(m_context, certificatePath.constData()) == 1 &&
            SSL_CTX_use_PrivateKey_file(m_context, keyPath.constData(), SSL_FILETYPE_PEM) == 1 &&
            SSL_CTX_check_private_key(m_context) == 1 && listen();
    }

    ~OneHandshakeServer() {
        if (m_thread.joinable())
            m_thread.join();
        if (m_listener >= 0)
            ::close(m_listener);
        SSL_CTX_free(m_context);
    }

    bool ready() const { return m_ready; }
    quint16 port() const { return m_port; }

    // Accepts one connection (waiting at most 30 s) and runs the handshake on it.
    void start() {
        m_thread = std::thread([this] { serveOne(); });
    }
    void finish() {
        if (m_thread.joinable())
            m_thread.join();
    }
    bool accepted() const { return m_accepted; }
    bool handshakeDone() const { return m_handshakeDone; }

private:
    bool listen() {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (m_listener < 0 ||
            ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
            ::listen(m_listener, 4) != 0 ||
            ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
            return false;
        m_port = ntohs(address.sin_port);
        return true;
    }

    void serveOne() {
        pollfd waiting = {m_listener, POLLIN, 0};
        if (::poll(&waiting, 1, 30000) != 1)
            return;
        const int connection = ::accept(m_listener, nullptr, nullptr);
        if (connection < 0)
            return;
        m_accepted = true;
        // A client that stops talking cannot hold the test.
        timeval limit = {30, 0};
        ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        SSL* ssl = SSL_new(m_context);
        SSL_set_fd(ssl, connection);
        if (SSL_accept(ssl) == 1) {
            m_handshakeDone = true;
            SSL_write(ssl, "hello\n", 6);
            SSL_shutdown(ssl);
        }
        ERR_clear_error();
        SSL_free(ssl);
        ::close(connection);
    }

    SSL_CTX* m_context = nullptr;
    int m_listener = -1;
    quint16 m_port = 0;
    bool m_ready = false;
    std::thread m_thread;
    std::atomic<bool> m_accepted = false;
    std::atomic<bool> m_handshakeDone = false;
};

// Connects once with tls.connect and prints what happened as one line of JSON.
const char* const kClientScript = R"js(
const tls = require('tls');
const finish = (result) => { console.log(JSON.stringify(result)); process.exit(0); };
const options = { host: '127.0.0.1', port: Number(process.env.TLS_TEST_PORT) };
if (process.env.TLS_TEST_SERVERNAME) options.servername = process.env.TLS_TEST_SERVERNAME;
// Waits for the server's greeting, so that the server's side of the handshake is done too.
const socket = tls.connect(options);
socket.on('data', (data) => finish({ connected: true, authorized: socket.authorized === true,
                                      greeting: String(data).trim() }));
socket.on('error', (error) => finish({ connected: false, error: String(error.code || error.message) }));
setTimeout(() => finish({ connected: false, error: 'timeout' }), 20000);
)js";

} // namespace

class TlsNodeClientTest : public QObject {
    Q_OBJECT

private slots:
    void nodeTrustsTheAuthorityOnlyWhenTold_data();
    void nodeTrustsTheAuthorityOnlyWhenTold();
};

void TlsNodeClientTest::nodeTrustsTheAuthorityOnlyWhenTold_data() {
    QTest::addColumn<bool>("trustAuthority");
    QTest::addColumn<QString>("serverName");
    QTest::addColumn<QString>("refusal"); // Node's error code, empty when it must connect
    QTest::newRow("trusted, localhost") << true << QStringLiteral("localhost") << QString();
    QTest::newRow("trusted, 127.0.0.1") << true << QString() << QString();
    // The issuer is unknown to Node without the variable.
    QTest::newRow("not trusted") << false << QStringLiteral("localhost")
                                 << QStringLiteral("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    // Trusted, but a name the certificate does not cover.
    QTest::newRow("trusted, another name") << true << QStringLiteral("elsewhere.example.test")
                                           << QStringLiteral("ERR_TLS_CERT_ALTNAME_INVALID");
}

void TlsNodeClientTest::nodeTrustsTheAuthorityOnlyWhenTold() {
    QFETCH(bool, trustAuthority);
    QFETCH(QString, serverName);
    QFETCH(QString, refusal);
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        QSKIP("no node on PATH (make node-deps puts Node 20 in build/tools)");

    QTemporaryDir temp;
    const Result<CertificateFiles> files = LocalCertificates::ensure(temp.path(), {});
    QVERIFY2(files.ok(), qPrintable(files.ok() ? QString() : files.error().toString()));
    OneHandshakeServer server(files->serverCertificate, files->serverKey);
    QVERIFY(server.ready());
    server.start();

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("NODE_EXTRA_CA_CERTS"));
    environment.remove(QStringLiteral("NODE_TLS_REJECT_UNAUTHORIZED"));
    environment.remove(QStringLiteral("SSL_CERT_FILE"));
    if (trustAuthority)
        environment.insert(QStringLiteral("NODE_EXTRA_CA_CERTS"), files->caCertificate);
    environment.insert(QStringLiteral("TLS_TEST_PORT"), QString::number(server.port()));
    environment.insert(QStringLiteral("TLS_TEST_SERVERNAME"), serverName);
    QProcess client;
    client.setProcessEnvironment(environment);
    client.start(node, {QStringLiteral("-e"), QString::fromLatin1(kClientScript)});
    QVERIFY(client.waitForFinished(40000));
    server.finish();
    const QByteArray output = client.readAllStandardOutput().trimmed();
    const QByteArray errors = client.readAllStandardError();
    QCOMPARE(client.exitCode(), 0);
    const QJsonObject result = QJsonDocument::fromJson(output).object();
    QVERIFY2(!result.isEmpty(), output.constData());
    QVERIFY(server.accepted());

    if (refusal.isEmpty()) {
        QVERIFY2(result.value(QStringLiteral("connected")).toBool(),
                 (output + ' ' + errors).constData());
        QVERIFY(result.value(QStringLiteral("authorized")).toBool());
        QCOMPARE(result.value(QStringLiteral("greeting")).toString(), QStringLiteral("hello"));
        QVERIFY(server.handshakeDone());
    } else {
        QVERIFY2(!result.value(QStringLiteral("connected")).toBool(), output.constData());
        QCOMPARE(result.value(QStringLiteral("error")).toString(), refusal);
        if (!trustAuthority)
            QVERIFY(!server.handshakeDone());
    }
}

QTEST_GUILESS_MAIN(TlsNodeClientTest)
#include "tst_tls_node_client.moc"
