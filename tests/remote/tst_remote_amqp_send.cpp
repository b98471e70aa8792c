// The remote AMQP client sends: one message with every property, a batch, a scheduled message,
// each checked on the broker's side; an entity that is not there fails with
// MessagingEntityNotFound and leaves the connection usable.

#include "RemoteTestBase.h"

#include <QDateTime>

#include <future>
#include <vector>

using namespace hourglass;
using namespace hourglass::testing;
using remote::AmqpClient;

namespace {
OutgoingMessage fullMessage() {
    OutgoingMessage message;
    message.messageId = QStringLiteral("m-1");
    message.correlationId = QStringLiteral("c-1");
    message.subject = QStringLiteral("created");
    message.contentType = QStringLiteral("application/json");
    message.to = QStringLiteral("billing");
    message.replyTo = QStringLiteral("replies");
    message.timeToLive = Millis(600000);
    message.body = QByteArrayLiteral("{\"id\":1}");
    message.applicationProperties = {
        {QStringLiteral("count"), 7},
        {QStringLiteral("big"), QVariant::fromValue(qlonglong(1) << 40)},
        {QStringLiteral("region"), QStringLiteral("eu")},
        {QStringLiteral("when"), QDateTime::fromMSecsSinceEpoch(1700000000000, Qt::UTC)},
    };
    return message;
}
} // namespace

class TestRemoteAmqpSend : public RemoteTestBase {
    Q_OBJECT

private slots:
    void cleanup() { reset(); }

    void sendsEveryProperty() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        const OutgoingMessage sent = fullMessage();
        const auto result = client.send(QStringLiteral("orders"), sent);
        QVERIFY2(result.ok(), why(result).constData());
        QCOMPARE(result->messageId, QStringLiteral("m-1"));
        QVERIFY(!result->scheduled);

        const auto stored = m_broker->peek(QStringLiteral("orders"), 0, 10);
        QVERIFY(stored.ok());
        QCOMPARE(stored->size(), 1);
        const MessageView& message = stored->first();
        QCOMPARE(message.systemProperties(), sent.systemProperties());
        QCOMPARE(message.body, sent.body);
        QCOMPARE(message.applicationProperties, sent.applicationProperties);
        QCOMPARE(message.applicationProperties.value("big").metaType().id(), QMetaType::LongLong);
        // Nothing the SDKs would not have sent: no extras to keep.
        QVERIFY(message.wireExtras.isEmpty());
    }

    void aMessageWithoutIdGetsOne() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        OutgoingMessage message;
        message.body = "x";
        const auto result = client.send(QStringLiteral("orders"), message);
        QVERIFY(result.ok());
        QVERIFY(!result->messageId.isEmpty());
        QCOMPARE(m_broker->peek(QStringLiteral("orders"), 0, 1)->first().messageId,
                 result->messageId);
    }

    void sendsABatchInOrder() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        QList<OutgoingMessage> batch;
        for (int i = 0; i < 5; ++i) {
            OutgoingMessage message;
            message.messageId = QStringLiteral("b-%1").arg(i);
            message.body = QByteArray::number(i);
            batch.append(message);
        }
        const auto sent = client.sendBatch(QStringLiteral("orders"), batch);
        QVERIFY2(sent.ok(), why(sent).constData());
        const auto stored = m_broker->peek(QStringLiteral("orders"), 0, 10);
        QCOMPARE(stored->size(), 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(stored->at(i).messageId, QStringLiteral("b-%1").arg(i));
    }

    void sendsAScheduledMessage() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        OutgoingMessage message;
        message.messageId = QStringLiteral("later");
        const Instant at = QDateTime::currentMSecsSinceEpoch() + 3600000;
        message.scheduledEnqueueTime = at;
        const auto result = client.send(QStringLiteral("orders"), message);
        QVERIFY(result.ok());
        QVERIFY(result->scheduled);
        const auto counts = m_broker->counts(QStringLiteral("orders"));
        QCOMPARE(counts->scheduled, 1);
        QCOMPARE(counts->active, 0);
        QCOMPARE(m_broker->peek(QStringLiteral("orders"), 0, 1)->first().scheduledEnqueueTime, at);
    }

    void workersSendAtOnce() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        // As the window's thread pool does: several workers call the one client together.
        std::vector<std::future<int>> workers;
        for (int worker = 0; worker < 4; ++worker)
            workers.push_back(std::async(std::launch::async, [&client, worker] {
                int sent = 0;
                for (int i = 0; i < 25; ++i) {
                    OutgoingMessage message;
                    message.messageId = QStringLiteral("w%1-%2").arg(worker).arg(i);
                    sent += client.send(QStringLiteral("orders"), message).ok() ? 1 : 0;
                }
                return sent;
            }));
        int sent = 0;
        for (auto& worker : workers)
            sent += worker.get();
        QCOMPARE(sent, 100);
        QCOMPARE(m_broker->counts(QStringLiteral("orders"))->active, 100);
    }

    void anUnknownEntityIsNotFound() {
        QVERIFY(startWithQueue(QStringLiteral("orders")));
        AmqpClient client(plainString(), quick());
        const auto result = client.send(QStringLiteral("no-such-queue"), fullMessage());
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::MessagingEntityNotFound);
        // The connection goes on.
        QVERIFY(client.isConnected());
        QVERIFY(client.send(QStringLiteral("orders"), fullMessage()).ok());
        QCOMPARE(m_broker->counts(QStringLiteral("orders"))->active, 1);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAmqpSend)
#include "tst_remote_amqp_send.moc"
