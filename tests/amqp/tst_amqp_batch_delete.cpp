// `com.microsoft:batch-delete-messages` on `$management` (ManagementOperations.h), as the
// connection runs it, without a socket, on a virtual clock: the request the SDKs' deleteMessages
// and purgeMessages send (message-count, enqueued-time-utc, session-id) and the count it answers.
// Over the wire, through the remote client, it is tests/remote/tst_remote_broker_messages.cpp.

#include "ManagementOperations.h"
#include "TestBroker.h"
#include "hourglass/EntityPath.h"

#include <QDateTime>
#include <QTest>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::TestBroker;

namespace {
const QString kQueue = QStringLiteral("orders");

ManagementRequest request(const QVariantMap& body) {
    ManagementRequest made;
    made.operation = QStringLiteral("com.microsoft:batch-delete-messages");
    made.properties.insert(QStringLiteral("operation"), made.operation);
    made.body = body;
    made.messageId = QStringLiteral("request-1");
    return made;
}

ManagementContext on(const QString& path) {
    ManagementContext context;
    context.entityPath = path;
    context.namespaceName = QStringLiteral("test");
    context.brokerPath = QStringLiteral("test:") + path;
    context.receiverName = QStringLiteral("amqp/1/receiver");
    return context;
}

QVariant at(Instant instant) {
    return QDateTime::fromMSecsSinceEpoch(instant, Qt::UTC);
}

int deletedCount(const ManagementOutcome& outcome) {
    return outcome.response.body.toMap().value(QStringLiteral("message-count")).toInt();
}
} // namespace

class AmqpBatchDeleteTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        QVERIFY((*m_broker)->createQueue(kQueue, {}).ok());
    }
    void cleanup() { m_broker.reset(); }

    void deletesUpToTheCountOldestFirstAndAnswersHowMany() {
        sendMany(5);
        const auto outcome = run({{"message-count", 3}, {"enqueued-time-utc", at(now() + 1)}});
        QCOMPARE(outcome.response.statusCode, 200);
        QCOMPARE(deletedCount(outcome), 3);
        QCOMPARE(remainingIds(), QStringList({"m-3", "m-4"}));

        // The rest, then nothing left: 200 with 0, which ends the SDK's purge loop.
        QCOMPARE(deletedCount(run({{"message-count", 3}, {"enqueued-time-utc", at(now() + 1)}})),
                 2);
        const auto empty = run({{"message-count", 3}, {"enqueued-time-utc", at(now() + 1)}});
        QCOMPARE(empty.response.statusCode, 200);
        QCOMPARE(deletedCount(empty), 0);
    }

    void onlyMessagesEnqueuedBeforeTheCutoffGo() {
        sendMany(2);
        const Instant cutoff = now() + 1;
        m_broker->advance(1000);
        QVERIFY((*m_broker)->send(kQueue, TestBroker::message("late")).ok());
        QCOMPARE(deletedCount(run({{"message-count", 10}, {"enqueued-time-utc", at(cutoff)}})), 2);
        QCOMPARE(remainingIds(), QStringList({"late"}));
    }

    void withoutACutoffEverythingEnqueuedUntilNowGoes() {
        sendMany(3);
        QCOMPARE(deletedCount(run({{"message-count", 10}})), 3);
        QCOMPARE(remainingIds(), QStringList());
    }

    void lockedAndScheduledMessagesStayDeferredOnesGo() {
        sendMany(3);
        ReceiveOptions options;
        options.receiver = QStringLiteral("holder");
        const auto locked = (*m_broker)->receive(kQueue, options); // m-0, locked
        QVERIFY(locked.ok() && locked->size() == 1);
        const auto deferred = (*m_broker)->receive(kQueue, options); // m-1, then deferred
        QVERIFY(deferred.ok() && deferred->size() == 1);
        QVERIFY((*m_broker)->defer(LockRef::of(deferred->first())).ok());
        QVERIFY((*m_broker)->schedule(kQueue, TestBroker::message("later"), now() + 60'000).ok());

        QCOMPARE(deletedCount(run({{"message-count", 10}, {"enqueued-time-utc", at(now() + 1)}})),
                 2);
        QCOMPARE(remainingIds(), QStringList({"m-0", "later"}));
    }

    void aSessionIdDeletesThatSessionsMessagesOnly() {
        EntityProperties properties;
        properties.requiresSession = true;
        QVERIFY((*m_broker)->createQueue(QStringLiteral("sessions"), properties).ok());
        for (const QString session : {"a", "b", "a"}) {
            OutgoingMessage message = TestBroker::message(QStringLiteral("in-") + session);
            message.sessionId = session;
            QVERIFY((*m_broker)->send(QStringLiteral("sessions"), message).ok());
        }
        const auto outcome = runManagementOperation(
            m_broker->broker(),
            request(
                {{"message-count", 10}, {"enqueued-time-utc", at(now() + 1)}, {"session-id", "a"}}),
            on(QStringLiteral("sessions")));
        QCOMPARE(deletedCount(outcome), 2);
        QCOMPARE(remainingIds(QStringLiteral("sessions")), QStringList({"in-b"}));
    }

    void theDeadLetterQueueIsPurgedOnItsOwn() {
        sendMany(2);
        ReceiveOptions options;
        options.receiver = QStringLiteral("holder");
        const auto received = (*m_broker)->receive(kQueue, options);
        QVERIFY(received.ok() && received->size() == 1);
        QVERIFY((*m_broker)->deadLetter(LockRef::of(received->first())).ok());
        const QString deadLetters = kQueue + kDeadLetterSuffix;
        const auto outcome = runManagementOperation(
            m_broker->broker(), request({{"message-count", 10}}), on(deadLetters));
        QCOMPARE(deletedCount(outcome), 1);
        QCOMPARE(remainingIds(deadLetters), QStringList());
        QCOMPARE(remainingIds(), QStringList({"m-1"}));
    }

    void aCountOutsideTheServicesBoundsIs400_data() {
        QTest::addColumn<QVariant>("count");
        QTest::newRow("zero") << QVariant(0);
        QTest::newRow("negative") << QVariant(-5);
        QTest::newRow("above 4000") << QVariant(4001);
        QTest::newRow("a string") << QVariant(QStringLiteral("10"));
        QTest::newRow("missing") << QVariant();
    }
    void aCountOutsideTheServicesBoundsIs400() {
        QFETCH(QVariant, count);
        sendMany(1);
        QVariantMap body{{"enqueued-time-utc", at(now() + 1)}};
        if (count.isValid())
            body.insert(QStringLiteral("message-count"), count);
        const auto outcome = run(body);
        QCOMPARE(outcome.response.statusCode, 400);
        QCOMPARE(outcome.response.errorCondition, QByteArray("com.microsoft:argument-error"));
        QVERIFY(outcome.response.statusDescription.contains(QStringLiteral("1 to 4000")));
        QCOMPARE(remainingIds(), QStringList({"m-0"}));
    }

    void aCutoffThatIsNotATimestampIs400() {
        sendMany(1);
        const auto outcome = run({{"message-count", 1}, {"enqueued-time-utc", "yesterday"}});
        QCOMPARE(outcome.response.statusCode, 400);
        QVERIFY(outcome.response.statusDescription.contains(QStringLiteral("timestamp")));
        QCOMPARE(remainingIds(), QStringList({"m-0"}));
    }

    void aMissingEntityIs404() {
        const auto outcome = runManagementOperation(
            m_broker->broker(), request({{"message-count", 1}}), on(QStringLiteral("nowhere")));
        QCOMPARE(outcome.response.statusCode, 404);
        QCOMPARE(outcome.response.errorCondition, QByteArray("amqp:not-found"));
    }

private:
    Instant now() { return (*m_broker)->clock().now(); }
    void sendMany(int n) {
        for (int i = 0; i < n; ++i)
            QVERIFY(
                (*m_broker)->send(kQueue, TestBroker::message(QStringLiteral("m-%1").arg(i))).ok());
    }
    ManagementOutcome run(const QVariantMap& body) {
        return runManagementOperation(m_broker->broker(), request(body), on(kQueue));
    }
    QStringList remainingIds(const QString& path = kQueue) {
        QStringList ids;
        const auto messages = (*m_broker)->listMessages(path, 0, 100, Broker::Bodies::Without);
        if (messages)
            for (const MessageView& message : *messages)
                ids.append(message.messageId);
        return ids;
    }

    std::unique_ptr<TestBroker> m_broker;
};

QTEST_GUILESS_MAIN(AmqpBatchDeleteTest)
#include "tst_amqp_batch_delete.moc"
