// The administration client against stand-in servers on this thread, for what a real namespace
// never does: answer garbage, something that is not ATOM, each error status, a huge error text,
// a redirect elsewhere, an endless answer, pages that go round, nothing at all; and what goes on
// the wire (paths, api-version, the token's audience, a bearer token). Every call runs on a
// worker (WorkerCall.h) while this thread's event loop serves.

#include "AdminTransport.h"
#include "RemoteAdminTestSupport.h"
#include "WorkerCall.h"

#include <QElapsedTimer>
#include <QTest>
#include <QUrl>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

class RemoteAdminStandInTest : public QObject {
    Q_OBJECT

private slots:
    void requestsAsTheServiceExpects() {
        // What goes on the wire: the method, the path, the api-version, a token signed for the
        // namespace's URL, and a bearer token from the provider when there is one.
        StandInServer server(httpReply("404 Not Found", "<Error><Code>404</Code></Error>"));
        AdminClientOptions options = optionsFor(emulatorString(server.port()));
        AdminClient client(options);
        QCOMPARE(onWorker([&] { return client.entity(QStringLiteral("a b/Subscriptions/s")); })
                     .error()
                     .code,
                 ErrorCode::MessagingEntityNotFound);
        QVERIFY2(server.received.startsWith("GET /a%20b/Subscriptions/s?api-version=2021-05 "),
                 server.received.left(80).constData());
        const QByteArray sr =
            QUrl::toPercentEncoding(QStringLiteral("http://localhost:%1/").arg(server.port()));
        QVERIFY(
            server.received.contains("Authorization: SharedAccessSignature sr=" + sr + "&sig="));

        server.received.clear();
        options.tokenProvider = [] { return Result<QString>(QStringLiteral("eyJ.token.sig")); };
        AdminClient bearer(options);
        QCOMPARE(onWorker([&] { return bearer.queues(); }).error().code,
                 ErrorCode::MessagingEntityNotFound);
        QVERIFY(server.received.startsWith(
            "GET /$Resources/Queues?$skip=0&$top=100&api-version=2021-05 "));
        QVERIFY(server.received.contains("Authorization: Bearer eyJ.token.sig\r\n"));

        options.tokenProvider = [] {
            return Result<QString>(
                makeError(ErrorCode::Unauthorized, QStringLiteral("no sign-in")));
        };
        AdminClient signedOut(options);
        QCOMPARE(onWorker([&] { return signedOut.queues(); }).error().code,
                 ErrorCode::Unauthorized);

        // A token with a line break would start a header of its own: refused before sending.
        server.received.clear();
        options.tokenProvider = [] {
            return Result<QString>(QStringLiteral("abc\r\nX-Injected: yes"));
        };
        AdminClient injected(options);
        QCOMPARE(onWorker([&] { return injected.queues(); }).error().code, ErrorCode::Unauthorized);
        QVERIFY(server.received.isEmpty());
    }

    void answersThatAreNotTheService_data() {
        QTest::addColumn<QByteArray>("reply");
        QTest::newRow("not HTTP") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n\r\n");
        QTest::newRow("not XML") << httpReply("200 OK", "<html><body>hello", "text/html");
        QTest::newRow("not ATOM") << httpReply("200 OK", "<Something><Else/></Something>");
        QTest::newRow("entry of nothing")
            << httpReply("200 OK", "<entry xmlns=\"http://www.w3.org/2005/Atom\"><id>x</id>"
                                   "<content><Mystery/></content></entry>");
        QTest::newRow("a DTD") << httpReply(
            "200 OK", "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><entry>&a;</entry>");
        QTest::newRow("a server error") << httpReply("500 Internal Server Error", "");
    }
    void answersThatAreNotTheService() {
        QFETCH(QByteArray, reply);
        StandInServer server(reply);
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.entity(QStringLiteral("q")); });
        QVERIFY(!answer);
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        const auto list = onWorker([&] { return client.queues(); });
        QCOMPARE(list.error().code, ErrorCode::ServiceCommunicationProblem);
    }

    void errorTextsQuoteLittle() {
        const QByteArray secret(5000, 'x');
        StandInServer server(httpReply("400 Bad Request", "<Error><Code>400</Code><Detail>" +
                                                              secret + "</Detail></Error>"));
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.entity(QStringLiteral("q")); });
        QCOMPARE(answer.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(answer.error().description.size() < 200,
                 qPrintable(answer.error().description.left(300)));
        QVERIFY(answer.error().description.contains(QStringLiteral("xxxx")));
    }

    void statusesAsErrorCodes_data() {
        QTest::addColumn<QByteArray>("status");
        QTest::addColumn<int>("code");
        QTest::newRow("401") << QByteArray("401 Unauthorized") << int(ErrorCode::Unauthorized);
        // A key without Manage: the window still browses what the user names.
        QTest::newRow("403") << QByteArray("403 Forbidden") << int(ErrorCode::Unauthorized);
        QTest::newRow("404") << QByteArray("404 Not Found")
                             << int(ErrorCode::MessagingEntityNotFound);
        QTest::newRow("409") << QByteArray("409 Conflict")
                             << int(ErrorCode::MessagingEntityAlreadyExists);
        QTest::newRow("400") << QByteArray("400 Bad Request") << int(ErrorCode::InvalidArgument);
        QTest::newRow("503") << QByteArray("503 Service Unavailable")
                             << int(ErrorCode::ServiceBusy);
        QTest::newRow("418") << QByteArray("418 I'm a teapot")
                             << int(ErrorCode::ServiceCommunicationProblem);
    }
    void statusesAsErrorCodes() {
        QFETCH(QByteArray, status);
        QFETCH(int, code);
        StandInServer server(httpReply(status, "<Error><Code>" + status.left(3) +
                                                   "</Code><Detail>said so</Detail></Error>"));
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.createQueue(QStringLiteral("q"), {}); });
        QCOMPARE(int(answer.error().code), code);
        QVERIFY2(answer.error().description.contains(QStringLiteral("said so")),
                 qPrintable(answer.error().description));
    }

    void redirectsAreNotFollowed() {
        // The token would go with the request to wherever the answer points.
        StandInServer elsewhere(httpReply("200 OK", "<feed/>"));
        StandInServer server("HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:" +
                             QByteArray::number(elsewhere.port()) +
                             "/$Resources/Queues\r\nContent-Length: 0\r\n\r\n");
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.queues(); });
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(!server.received.isEmpty());
        QVERIFY(elsewhere.received.isEmpty());
    }

    void hugeAnswerIsCut() {
        const QByteArray body = "<feed>" + QByteArray(kMaxAdminReplyBytes + 1024, ' ');
        StandInServer server(httpReply("200 OK", body));
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.queues(); });
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(answer.error().description.contains(QStringLiteral("MiB")),
                 qPrintable(answer.error().description));
    }

    void pagesThatGoRoundAreRefused() {
        // Every page names itself as the next one: the client stops instead of going round.
        const QByteArray feed =
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Queues</title>"
            "<link rel=\"next\" href=\"http://localhost/$Resources/Queues?$skip=0&amp;$top=100\"/>"
            "<entry><id>http://localhost/q</id><content type=\"application/xml\">"
            "<QueueDescription/></content></entry></feed>";
        StandInServer server(httpReply("200 OK", feed));
        AdminClient client(optionsFor(emulatorString(server.port())));
        const auto answer = onWorker([&] { return client.queues(); });
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
    }

    void silentServerTimesOut() {
        StandInServer server({}); // reads, never answers
        AdminClientOptions options = optionsFor(emulatorString(server.port()));
        options.timeout = std::chrono::milliseconds(600);
        AdminClient client(options);
        QElapsedTimer timer;
        timer.start();
        const auto answer = onWorker([&] { return client.namespaceInfo(); });
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(timer.elapsed() >= 500);
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!server.received.isEmpty());
    }

    void nobodyListening() {
        quint16 closed = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            closed = probe.serverPort();
        }
        AdminClient client(optionsFor(emulatorString(closed)));
        const auto answer = onWorker([&] { return client.namespaceInfo(); });
        QCOMPARE(answer.error().code, ErrorCode::ServiceCommunicationProblem);
    }
};

QTEST_GUILESS_MAIN(RemoteAdminStandInTest)
#include "tst_remote_admin_standins.moc"
