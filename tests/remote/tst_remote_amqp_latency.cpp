// The remote AMQP client's round trip: a call answered by a small exchange of frames must not
// wait on the operating system's small-packet coalescing (Nagle's algorithm holding a write back
// until the peer acknowledges the last one, which a delayed acknowledgement puts off by 40 ms on
// Linux). Each of a run of peeks of ten 1 KiB messages, over the plain and the TLS port, is timed:
// their median stays well under that 40 ms (a peek here takes one or two milliseconds).

#include "RemoteTestBase.h"

#include <QElapsedTimer>

#include <algorithm>
#include <vector>

using namespace hourglass;
using namespace hourglass::testing;
using remote::AmqpClient;

class TestRemoteAmqpLatency : public RemoteTestBase {
    Q_OBJECT

private slots:
    void cleanup() { reset(); }

    void peeksAnswerWithoutTheDelayedAcknowledgement_data() {
        QTest::addColumn<bool>("tls");
        QTest::newRow("plain") << false;
        QTest::newRow("tls") << true;
    }

    void peeksAnswerWithoutTheDelayedAcknowledgement() {
        QFETCH(bool, tls);
        QVERIFY(startWithQueue(QStringLiteral("orders"), tls));
        for (int i = 0; i < 10; ++i) {
            OutgoingMessage message;
            message.messageId = QStringLiteral("m-%1").arg(i);
            message.body = QByteArray(1024, 'x');
            QVERIFY(m_broker->send(QStringLiteral("orders"), message).ok());
        }
        AmqpClient client(tls ? tlsString() : plainString(), quick(m_caFile));
        const auto first = client.peek(QStringLiteral("orders"), PeekOptions{0, 10, {}});
        QVERIFY2(first.ok(), why(first).constData()); // the connection and the link
        QCOMPARE(first->size(), 10);

        std::vector<double> peekMs;
        for (int round = 0; round < 21; ++round) {
            QElapsedTimer timer;
            timer.start();
            const auto page = client.peek(QStringLiteral("orders"), PeekOptions{0, 10, {}});
            peekMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            QVERIFY2(page.ok(), why(page).constData());
            QCOMPARE(page->size(), 10);
        }
        std::sort(peekMs.begin(), peekMs.end());
        const double median = peekMs[peekMs.size() / 2];
        QVERIFY2(median < 20, qPrintable(QStringLiteral("median peek %1 ms").arg(median)));
    }
};

QTEST_MAIN(TestRemoteAmqpLatency)
#include "tst_remote_amqp_latency.moc"
