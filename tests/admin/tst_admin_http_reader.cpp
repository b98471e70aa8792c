// The HTTP/1.1 request reader and response writer, without a socket: bytes in (whole, in
// pieces, pipelined), requests or refusals out; the limits on heads, header lines and bodies.

#include "HttpRequestReader.h"
#include "HttpResponseWriter.h"

#include <QTest>

using namespace hourglass::admin;

namespace {
using Kind = HttpRequestReader::Kind;

// Every step `bytes` gives, fed at once or `piece` bytes at a time.
QList<HttpRequestReader::Step> stepsOf(const QByteArray& bytes, qsizetype piece = 0) {
    HttpRequestReader reader;
    QList<HttpRequestReader::Step> steps;
    const qsizetype size = piece > 0 ? piece : qMax<qsizetype>(1, bytes.size());
    for (qsizetype at = 0; at < bytes.size(); at += size) {
        reader.append(bytes.mid(at, size));
        for (auto step = reader.next(); step.kind != Kind::NeedMore; step = reader.next()) {
            steps.append(step);
            if (step.kind == Kind::Refuse)
                return steps;
        }
    }
    return steps;
}

int refusalOf(const QByteArray& bytes) {
    const auto steps = stepsOf(bytes);
    return !steps.isEmpty() && steps.last().kind == Kind::Refuse ? steps.last().status : 0;
}

const QByteArray kGet = "GET /orders HTTP/1.1\r\nHost: localhost\r\n\r\n";
} // namespace

class HttpReaderTest : public QObject {
    Q_OBJECT

private slots:
    void readsARequestWithABody() {
        const auto steps = stepsOf("PUT /orders?api-version=2021-05 HTTP/1.1\r\nHost: h\r\n"
                                   "Content-Length: 5\r\nX-Thing:  spaced value \r\n\r\nhello");
        QCOMPARE(steps.size(), 1);
        QCOMPARE(steps[0].kind, Kind::Request);
        QCOMPARE(steps[0].request.method, QByteArray("PUT"));
        QCOMPARE(steps[0].request.target, QByteArray("/orders?api-version=2021-05"));
        QCOMPARE(steps[0].request.body, QByteArray("hello"));
        QCOMPARE(headerValue(steps[0].request.headers, "x-thing"), QByteArray("spaced value"));
        QVERIFY(steps[0].request.keepAlive);
    }

    void oneBytePiecesGiveTheSameRequests() {
        const QByteArray bytes = "PUT /q HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 "3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nTrailer: x\r\n\r\n" +
                                 kGet;
        const auto steps = stepsOf(bytes, 1);
        QCOMPARE(steps.size(), 2);
        QCOMPARE(steps[0].request.body, QByteArray("abcde"));
        QCOMPARE(steps[1].request.target, QByteArray("/orders"));
    }

    void pipelinedRequestsComeOutInOrder() {
        const auto steps = stepsOf(kGet + "DELETE /a HTTP/1.1\r\nHost: h\r\n\r\n" + kGet);
        QCOMPARE(steps.size(), 3);
        QCOMPARE(steps[1].request.method, QByteArray("DELETE"));
        QCOMPARE(steps[2].request.method, QByteArray("GET"));
    }

    void connectionCloseAndHttp10() {
        QVERIFY(!stepsOf("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")[0]
                     .request.keepAlive);
        QVERIFY(!stepsOf("GET / HTTP/1.0\r\n\r\n")[0].request.keepAlive);
        QVERIFY(stepsOf("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")[0].request.keepAlive);
    }

    void expectContinueComesBeforeTheBody() {
        HttpRequestReader reader;
        reader.append("PUT /q HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                      "Content-Length: 2\r\n\r\n");
        QCOMPARE(reader.next().kind, Kind::Continue);
        QCOMPARE(reader.next().kind, Kind::NeedMore);
        QVERIFY(reader.headersComplete());
        reader.append("ok");
        const auto step = reader.next();
        QCOMPARE(step.kind, Kind::Request);
        QCOMPARE(step.request.body, QByteArray("ok"));
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("status");
        QTest::newRow("request line") << QByteArray("GARBAGE\r\n\r\n") << 400;
        QTest::newRow("target") << QByteArray("GET orders HTTP/1.1\r\nHost: h\r\n\r\n") << 400;
        QTest::newRow("version") << QByteArray("GET / HTTP/2.0\r\nHost: h\r\n\r\n") << 505;
        QTest::newRow("no host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("two hosts")
            << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") << 400;
        QTest::newRow("header without colon")
            << QByteArray("GET / HTTP/1.1\r\nHost: h\r\nBroken\r\n\r\n") << 400;
        QTest::newRow("space before colon")
            << QByteArray("GET / HTTP/1.1\r\nHost : h\r\n\r\n") << 400;
        QTest::newRow("folded line")
            << QByteArray("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n") << 400;
        QTest::newRow("control character")
            << QByteArray("GET / HTTP/1.1\r\nHost: h\r\nX: a\x01\r\n\r\n", 37) << 400;
        QTest::newRow("length not a number")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n") << 400;
        QTest::newRow("negative length")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n") << 400;
        QTest::newRow("conflicting lengths")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n"
                          "Content-Length: 3\r\n\r\nabc")
            << 400;
        QTest::newRow("conflicting list")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 3\r\n\r\nabc") << 400;
        QTest::newRow("length and chunked")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
            << 400;
        QTest::newRow("bad chunk size")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "zz\r\nabc\r\n0\r\n\r\n")
            << 400;
        QTest::newRow("huge chunk size")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "fffffffff\r\n")
            << 400;
        QTest::newRow("chunk longer than its size")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "2\r\nabc\r\n0\r\n\r\n")
            << 400;
        QTest::newRow("other coding")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n") << 501;
        QTest::newRow("declared body over 1 MiB")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n") << 413;
        QTest::newRow("chunks over 1 MiB")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "100001\r\n")
            << 413;
        QTest::newRow("other expectation")
            << QByteArray("PUT / HTTP/1.1\r\nHost: h\r\nExpect: magic\r\n\r\n") << 417;
    }
    void refusals() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, status);
        QCOMPARE(refusalOf(bytes), status);
    }

    void headLimits() {
        QByteArray many = "GET / HTTP/1.1\r\nHost: h\r\n";
        for (int i = 0; i < kMaxHttpHeaderLines; ++i)
            many += "X-" + QByteArray::number(i) + ": v\r\n";
        QCOMPARE(refusalOf(many + "\r\n"), 431); // 101 header lines
        many.chop(QByteArray("X-99: v\r\n").size());
        QCOMPARE(stepsOf(many + "\r\n").value(0).kind, Kind::Request); // exactly 100

        const QByteArray big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + QByteArray(16 * 1024, 'a');
        QCOMPARE(refusalOf(big), 431); // refused before its end arrives
        HttpRequestReader reader;
        reader.append(QByteArray(4000, 'a'));
        QCOMPARE(reader.next().kind, Kind::NeedMore); // under the limit: still waiting
    }

    void bodyAtTheLimitIsRead() {
        const QByteArray body(kMaxAdminBodyBytes, 'x');
        const auto steps = stepsOf("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: " +
                                   QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QCOMPARE(steps.size(), 1);
        QCOMPARE(steps[0].request.body.size(), kMaxAdminBodyBytes);
    }

    void nothingAfterARefusal() {
        HttpRequestReader reader;
        reader.append("BAD\r\n\r\n" + kGet);
        QCOMPARE(reader.next().kind, Kind::Refuse);
        QCOMPARE(reader.next().kind, Kind::NeedMore);
    }

    void writerFields() {
        AdminResponse response;
        response.status = 201;
        response.body = "<entry/>";
        response.headers.append(qMakePair(QByteArray("Location"), QByteArray("http://h/q")));
        HttpResponseOptions options;
        options.now = QDateTime(QDate(2026, 11, 27), QTime(10, 20, 49), Qt::UTC);
        const QByteArray out = writeHttpResponse(response, options);
        QVERIFY(out.startsWith("HTTP/1.1 201 Created\r\n"));
        QVERIFY(out.contains("\r\nContent-Length: 8\r\n"));
        QVERIFY(
            out.contains("\r\nContent-Type: application/atom+xml;type=entry;charset=utf-8\r\n"));
        QVERIFY(out.contains("\r\nDate: Fri, 27 Nov 2026 10:20:49 GMT\r\n"));
        QVERIFY(out.contains("\r\nServer: Hourglass\r\n"));
        QVERIFY(out.contains("\r\nLocation: http://h/q\r\n"));
        QVERIFY(!out.contains("Connection"));
        QVERIFY(out.endsWith("\r\n\r\n<entry/>"));

        response.headers.append(
            qMakePair(QByteArray("Content-Type"), QByteArray("application/xml")));
        options.headOnly = true;
        options.close = true;
        const QByteArray head = writeHttpResponse(response, options);
        QVERIFY(head.contains("\r\nContent-Type: application/xml\r\n"));
        QVERIFY(!head.contains("atom"));
        QVERIFY(head.contains("\r\nContent-Length: 8\r\n")); // the GET's length, no body
        QVERIFY(head.contains("\r\nConnection: close\r\n"));
        QVERIFY(head.endsWith("\r\n\r\n"));
        QCOMPARE(writeHttpContinue(), QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
    }
};

QTEST_GUILESS_MAIN(HttpReaderTest)
#include "tst_admin_http_reader.moc"
