// The administration API on the AMQP endpoint's streams: HttpStreamService made by
// adminStreamServices and driven through amqp::StreamService as the endpoint drives it (bytes in
// any pieces, woken() after each wake, tick() with a clock the test moves). Requests are answered
// off the caller's thread, one at a time and in order; the connection's limits and timeouts are
// HttpConnection's; a worker that finishes after its connection (or its factory) has gone harms
// nothing.

#include "AdminFixture.h"
#include "RawHttpClient.h"
#include "StreamDriver.h"

#include "hourglass/admin/AdminStreamServices.h"

#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;
using namespace std::chrono_literals;

namespace {
// The port the test's requests are addressed (and signed) to, as on the endpoint's plain port.
constexpr quint16 kPort = 5672;

const QByteArray kQueueBody = atomEntry(QStringLiteral("QueueDescription"),
                                        QStringLiteral("<MaxDeliveryCount>7</MaxDeliveryCount>"));

QByteArray get(const QByteArray& target, const QByteArray& extra = {}) {
    return httpRequest("GET", target, kPort, {}, extra);
}

// The responses in `bytes`, all of them whole.
QList<RawResponse> responsesIn(QByteArray bytes) {
    QList<RawResponse> responses;
    while (auto response = takeResponse(bytes))
        responses.append(*response);
    return bytes.isEmpty() ? responses : QList<RawResponse>{};
}
} // namespace

class AdminStreamServiceTest : public QObject {
    Q_OBJECT

private:
    FakeClock m_clock;
    std::unique_ptr<StreamFixture> m_streams;
    std::unique_ptr<amqp::StreamService> m_service;

    std::unique_ptr<amqp::StreamService> open(bool secure = false) {
        return m_streams->open(kPort, secure);
    }
    amqp::StreamOutput answer() { return m_streams->answer(*m_service); }

private slots:
    void init() {
        AdminStreamOptions options;
        options.clock = [now = m_clock.now] { return now->load(); };
        m_streams = std::make_unique<StreamFixture>(options);
        m_clock.set(0ms);
        m_service = open();
        QVERIFY(m_service);
    }
    void cleanup() {
        m_service.reset();
        m_streams.reset(); // the factory waits for the workers, then the broker goes
    }

    void requestInOneBytePieces() {
        const QByteArray request = get("/$namespaceinfo");
        for (char byte : request) {
            const amqp::StreamOutput out = m_service->received(QByteArrayView(&byte, 1));
            QVERIFY(out.bytes.isEmpty()); // answered off this thread, never within the call
            QVERIFY(!out.close);
        }
        const amqp::StreamOutput out = answer();
        const QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 200);
        QVERIFY(responses[0].body.contains("NamespaceInfo"));
        QVERIFY(!out.close); // HTTP/1.1 keeps the connection
        QVERIFY(!out.amqpFraming);
    }

    void idsNameTheHostAndTheScheme() {
        // Plain: http, the Host header's host.
        QVERIFY(m_service->received(get("/$namespaceinfo")).bytes.isEmpty());
        QList<RawResponse> responses = responsesIn(answer().bytes);
        QCOMPARE(responses.size(), 1);
        QVERIFY(responses[0].body.contains("<id>http://127.0.0.1:5672/"));
        // Through TLS: https.
        m_service = open(true);
        QVERIFY(m_service->received(get("/$namespaceinfo")).bytes.isEmpty());
        responses = responsesIn(answer().bytes);
        QCOMPARE(responses.size(), 1);
        QVERIFY2(responses[0].body.contains("<id>https://127.0.0.1:5672/"),
                 responses[0].body.left(400).constData());
    }

    void pipelinedRequestsAreAnsweredInOrder() {
        const QByteArray both =
            httpRequest("PUT", "/orders", kPort, kQueueBody) + get("/orders") + get("/missing");
        QVERIFY(m_service->received(both).bytes.isEmpty());
        QList<int> statuses;
        for (int i = 0; i < 3; ++i) {
            const QList<RawResponse> responses = responsesIn(answer().bytes);
            QCOMPARE(responses.size(), 1); // one request in flight at a time
            statuses.append(responses[0].status);
        }
        QCOMPARE(statuses, (QList<int>{201, 200, 404}));
        QVERIFY(m_streams->broker().entity(QStringLiteral("orders")));
    }

    void continueBeforeTheBody() {
        QByteArray head =
            httpRequest("PUT", "/orders", kPort, kQueueBody, "Expect: 100-continue\r\n");
        head.chop(kQueueBody.size());
        const amqp::StreamOutput continued = m_service->received(head);
        QCOMPARE(continued.bytes, QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
        QVERIFY(!continued.close);
        QVERIFY(m_service->received(kQueueBody).bytes.isEmpty());
        const QList<RawResponse> responses = responsesIn(answer().bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 201);
    }

    void connectionCloseEndsAfterTheAnswer() {
        QVERIFY(
            m_service->received(get("/$namespaceinfo", "Connection: close\r\n")).bytes.isEmpty());
        const amqp::StreamOutput out = answer();
        const QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].header("connection"), QByteArray("close"));
        QVERIFY(out.close);
        // Nothing more is read.
        QVERIFY(m_service->received(get("/$namespaceinfo")).bytes.isEmpty());
    }

    void http10ClosesUnlessKeepAlive() {
        // HTTP/1.0 without Host: the ids name the endpoint's own host and port.
        QByteArray request =
            "GET /$namespaceinfo HTTP/1.0\r\n" + authorizationFor(kPort) + "\r\n\r\n";
        QVERIFY(m_service->received(request).bytes.isEmpty());
        amqp::StreamOutput out = answer();
        QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 200);
        QVERIFY(responses[0].body.contains("<id>http://127.0.0.1:5672/"));
        QVERIFY(out.close);

        m_service = open();
        request.insert(request.size() - 2, "Connection: keep-alive\r\n");
        QVERIFY(m_service->received(request).bytes.isEmpty());
        out = answer();
        QCOMPARE(responsesIn(out.bytes).size(), 1);
        QVERIFY(!out.close);
    }

    void malformedRequestIsRefusedAndClosed() {
        const amqp::StreamOutput out = m_service->received("GET nowhere HTTP/1.1\r\n\r\n");
        const QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 400);
        QVERIFY(out.close);
        QCOMPARE(m_streams->waker().wakes(), 0); // nothing reached a worker
    }

    void headerTimeoutFromTheStart() {
        QVERIFY(!m_service->tick(m_clock.at(9'999ms)).close);
        QVERIFY(m_service->tick(m_clock.at(10'000ms)).close);
        // Closed: nothing more is said.
        QVERIFY(!m_service->tick(m_clock.at(20'000ms)).close);
    }

    void bodyTimeoutFromTheHeaders() {
        QByteArray request = httpRequest("PUT", "/orders", kPort, kQueueBody);
        m_clock.set(5'000ms);
        QVERIFY(m_service->received(request.chopped(kQueueBody.size())).bytes.isEmpty());
        // The head is whole at 5 s: the body has 30 s from then, not the header's 10 s.
        QVERIFY(!m_service->tick(m_clock.at(34'999ms)).close);
        QVERIFY(m_service->tick(m_clock.at(35'000ms)).close);
    }

    void idleAndNextHeaderTimeouts() {
        QVERIFY(m_service->received(get("/$namespaceinfo")).bytes.isEmpty());
        // A request with a worker has no deadline.
        QVERIFY(!m_service->tick(m_clock.at(500'000ms)).close);
        m_clock.set(1'000'000ms);
        QCOMPARE(responsesIn(answer().bytes).size(), 1);
        // Idle from the answer: 60 s.
        QVERIFY(!m_service->tick(m_clock.at(1'059'999ms)).close);
        // The next request's first byte at 1,050 s: its head has 10 s from then.
        m_clock.set(1'050'000ms);
        QVERIFY(m_service->received("GET").bytes.isEmpty());
        QVERIFY(!m_service->tick(m_clock.at(1'059'999ms)).close);
        QVERIFY(m_service->tick(m_clock.at(1'060'000ms)).close);

        m_service = open();
        m_clock.set(0ms);
        QVERIFY(m_service->received(get("/$namespaceinfo")).bytes.isEmpty());
        QCOMPARE(responsesIn(answer().bytes).size(), 1);
        QVERIFY(m_service->tick(m_clock.at(60'000ms)).close);
    }

    void halfClosedClientIsAnsweredThenClosed() {
        QVERIFY(
            m_service->received(httpRequest("PUT", "/orders", kPort, kQueueBody)).bytes.isEmpty());
        const amqp::StreamOutput closing = m_service->peerClosed();
        QVERIFY(!closing.close); // the request in flight is answered first
        const amqp::StreamOutput out = answer();
        const QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 201);
        QVERIFY(out.close);
    }

    void halfClosedClientWithPipelinedRequests() {
        QVERIFY(m_service->received(get("/$namespaceinfo") + get("/missing")).bytes.isEmpty());
        QVERIFY(!m_service->peerClosed().close);
        amqp::StreamOutput out = answer();
        QCOMPARE(responsesIn(out.bytes).size(), 1);
        QVERIFY(!out.close); // the second, whole, is still answered
        out = answer();
        const QList<RawResponse> responses = responsesIn(out.bytes);
        QCOMPARE(responses.size(), 1);
        QCOMPARE(responses[0].status, 404);
        QVERIFY(out.close);
    }

    void halfClosedWithNothingInFlightCloses() {
        QVERIFY(m_service->received("GET /$namespaceinfo HTTP/1.1\r\nHo").bytes.isEmpty());
        const amqp::StreamOutput out = m_service->peerClosed();
        QVERIFY(out.bytes.isEmpty()); // a request cut short is not answered
        QVERIFY(out.close);
    }

    void readAheadIsBounded() {
        QVERIFY(
            m_service->received(httpRequest("PUT", "/orders", kPort, kQueueBody)).bytes.isEmpty());
        // While the request is with a worker, a client pushes more than a whole request's worth.
        const QByteArray flood(256 * 1024, 'x');
        bool closed = false;
        for (int i = 0; i < 8 && !closed; ++i)
            closed = m_service->received(flood).close;
        QVERIFY(closed);
    }

    void workerOutlivesItsConnection() {
        QVERIFY(
            m_service->received(httpRequest("PUT", "/orders", kPort, kQueueBody)).bytes.isEmpty());
        m_service.reset(); // the connection goes while its request runs
        const QDeadlineTimer deadline(10'000);
        while (m_streams->waker().wakes() == 0 && !deadline.hasExpired())
            QThread::msleep(2);
        QCOMPARE(m_streams->waker().wakes(),
                 1); // the worker finished, and woke a connection long gone
        QVERIFY(m_streams->broker().entity(QStringLiteral("orders")));
    }

    void factoryGoesWithRequestsInFlight() {
        for (int i = 0; i < 3; ++i) {
            const QByteArray path = "/queue" + QByteArray::number(i);
            QVERIFY(
                m_service->received(httpRequest("PUT", path, kPort, kQueueBody)).bytes.isEmpty());
            m_service = open();
        }
        // The service and the factory go: the last of them waits for the workers' calls.
        m_service.reset();
        m_streams->dropFactory();
        QCOMPARE(m_streams->waker().wakes(), 3);
        QCOMPARE(m_streams->broker().entities().size(), 3);
    }
};

QTEST_GUILESS_MAIN(AdminStreamServiceTest)
#include "tst_admin_stream_service.moc"
