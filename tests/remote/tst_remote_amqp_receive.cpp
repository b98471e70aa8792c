// The remote AMQP client's reads and settlements against a real endpoint, each checked on the
// broker's side: peek through $management, receive in both modes with a bounded wait, complete,
// abandon, defer and dead-letter on the link, renew-lock, deferred messages by sequence number
// settled through $management, schedule and cancel, close giving back the locks, a lost lock,
// and the endpoint stopping in the middle of a receive.

#include "RemoteTestBase.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <future>

using namespace hourglass;
using namespace hourglass::testing;
using remote::AmqpClient;

class TestRemoteAmqpReceive : public RemoteTestBase {
    Q_OBJECT

    const QString q = QStringLiteral("orders");

    // `count` messages "0", "1"... sent straight to the broker.
    bool fill(int count) {
        for (int i = 0; i < count; ++i) {
            OutgoingMessage message;
            message.messageId = QStringLiteral("m%1").arg(i);
            message.body = QByteArray::number(i);
            if (!m_broker->send(q, message).ok())
                return false;
        }
        return true;
    }
    EntityCounts counts(const QString& path = {}) {
        return *m_broker->counts(path.isEmpty() ? q : path);
    }
    // The credit our receiver links have granted the endpoint, as it sees them.
    int receiverCredit() {
        int credit = 0;
        for (const auto& connection : m_endpoint->snapshot().connections)
            for (const auto& link : connection.links)
                if (link.direction == amqp::WireLink::Direction::ClientReceives &&
                    !link.settleMode.isEmpty())
                    credit += link.credit;
        return credit;
    }
    static ReceiveOptions peekLock(int count, const QString& receiver = QStringLiteral("r1")) {
        ReceiveOptions options;
        options.maxCount = count;
        options.receiver = receiver;
        return options;
    }

private slots:
    void cleanup() { reset(); }

    void peeksPageByPage() {
        QVERIFY(startWithQueue(q) && fill(5));
        AmqpClient client(plainString(), quick());
        const auto first = client.peek(q, {0, 3, std::nullopt});
        QVERIFY2(first.ok(), why(first).constData());
        QCOMPARE(first->size(), 3);
        QCOMPARE(first->at(0).body, QByteArray("0"));
        QCOMPARE(first->at(0).entityPath, q);
        const auto rest = client.peek(q, {first->last().sequenceNumber + 1, 10, std::nullopt});
        QCOMPARE(rest->size(), 2);
        QCOMPARE(rest->at(1).messageId, QStringLiteral("m4"));
        QVERIFY(rest->at(1).sequenceNumber > first->last().sequenceNumber);
        QVERIFY(rest->at(1).enqueuedTime > 0);
        // Past the end: none. Nothing was locked or taken.
        QCOMPARE(client.peek(q, {rest->last().sequenceNumber + 1, 10, std::nullopt})->size(), 0);
        QCOMPARE(counts().active, 5);
        QCOMPARE(client.peek(QStringLiteral("nope"), {0, 1, std::nullopt}).error().code,
                 ErrorCode::MessagingEntityNotFound);
    }

    void receivesLockedAndSettlesOnTheLink() {
        QVERIFY(startWithQueue(q) && fill(3));
        AmqpClient client(plainString(), quick());
        const auto got = client.receive(q, peekLock(3));
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 3);
        for (const MessageView& message : *got) {
            QVERIFY(message.locked);
            QVERIFY(!message.lockToken.isNull());
            QCOMPARE(message.deliveryCount, 1u);
        }
        QCOMPARE(counts().locked, 3);
        QVERIFY(client.complete(LockRef::of(got->at(0))).ok());
        QCOMPARE(client.abandon(LockRef::of(got->at(1)), {{QStringLiteral("why"), 1}}).ok(), true);
        QVERIFY(client.defer(LockRef::of(got->at(2))).ok());
        const EntityCounts after = counts();
        QCOMPARE(after.active, 1);
        QCOMPARE(after.deferred, 1);
        QCOMPARE(after.locked, 0);
        const auto abandoned = m_broker->peek(q, 0, 10)->first();
        QCOMPARE(abandoned.messageId, QStringLiteral("m1"));
        QCOMPARE(abandoned.applicationProperties.value("why").toInt(), 1);
        QCOMPARE(abandoned.deliveryCount, 1u);
        // A lock settled once is gone: settling again fails as the service says.
        QCOMPARE(client.complete(LockRef::of(got->at(0))).error().code, ErrorCode::MessageLockLost);
    }

    void deadLettersWithReason() {
        QVERIFY(startWithQueue(q) && fill(1));
        AmqpClient client(plainString(), quick());
        const auto got = client.receive(q, peekLock(1));
        QCOMPARE(got->size(), 1);
        DeadLetterOptions options{QStringLiteral("poison"),
                                  QStringLiteral("bad shape"),
                                  {{QStringLiteral("seen"), true}}};
        const auto dead = client.deadLetter(LockRef::of(got->first()), options);
        QVERIFY2(dead.ok(), why(dead).constData());
        QCOMPARE(counts().deadLettered, 1);
        const QString dlq = q + QStringLiteral("/$deadletterqueue");
        const auto peeked = client.peek(dlq, {0, 1, std::nullopt});
        QCOMPARE(peeked->size(), 1);
        QCOMPARE(peeked->first().deadLetterReason, QStringLiteral("poison"));
        QCOMPARE(peeked->first().deadLetterErrorDescription, QStringLiteral("bad shape"));
        QCOMPARE(peeked->first().applicationProperties.value("seen").toBool(), true);
        QCOMPARE(peeked->first().subQueue, SubQueue::DeadLetter);
        QCOMPARE(peeked->first().entityPath, q);
    }

    void receiveAndDeleteTakesThem() {
        QVERIFY(startWithQueue(q) && fill(2));
        AmqpClient client(plainString(), quick());
        ReceiveOptions options = peekLock(5);
        options.mode = ReceiveMode::ReceiveAndDelete;
        const auto got = client.receive(q, options, 500);
        QCOMPARE(got->size(), 2);
        QVERIFY(!got->first().locked);
        QTRY_COMPARE(counts().active, 0);
        QCOMPARE(counts().locked, 0);
        // An entity that is not there refuses the link.
        QCOMPARE(client.receive(QStringLiteral("nope"), options, 500).error().code,
                 ErrorCode::MessagingEntityNotFound);
    }

    void anEmptyReceiveWaitsItsTimeOnly() {
        QVERIFY(startWithQueue(q));
        AmqpClient client(plainString(), quick());
        QVERIFY(client.connect().ok());
        QElapsedTimer elapsed;
        elapsed.start();
        const auto got = client.receive(q, peekLock(1), 700);
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 0);
        QVERIFY(elapsed.elapsed() >= 600);
        QVERIFY(elapsed.elapsed() < 3000);
        // The credit was drained: the endpoint holds none for us, so a message sent now is not
        // taken unasked.
        QTRY_COMPARE(receiverCredit(), 0);
        QVERIFY(fill(1));
        QCOMPARE(counts().active, 1);
        QCOMPARE(client.receive(q, peekLock(1))->size(), 1);
    }

    void deferredMessagesByNumberSettleThroughManagement() {
        QVERIFY(startWithQueue(q) && fill(1));
        AmqpClient client(plainString(), quick());
        const auto got = client.receive(q, peekLock(1));
        QVERIFY(client.defer(LockRef::of(got->first())).ok());
        const auto deferred =
            client.receiveDeferred(q, got->first().sequenceNumber, QStringLiteral("r1"));
        QVERIFY2(deferred.ok(), why(deferred).constData());
        QCOMPARE(deferred->messageId, QStringLiteral("m0"));
        QVERIFY(!deferred->lockToken.isNull());
        QCOMPARE(counts().locked, 1);
        const auto renewed = client.renewLock(LockRef::of(*deferred));
        QVERIFY2(renewed.ok(), why(renewed).constData());
        QVERIFY(*renewed >= deferred->lockedUntil);
        QVERIFY(client.complete(LockRef::of(*deferred)).ok());
        QCOMPARE(m_broker->peek(q, 0, 10)->size(), 0);
        QCOMPARE(client.receiveDeferred(q, got->first().sequenceNumber).error().code,
                 ErrorCode::MessageNotFound);
    }

    void renewsALockOnTheLink() {
        QVERIFY(startWithQueue(q) && fill(1));
        AmqpClient client(plainString(), quick());
        const auto got = client.receive(q, peekLock(1));
        const auto renewed = client.renewLock(LockRef::of(got->first()));
        QVERIFY2(renewed.ok(), why(renewed).constData());
        QVERIFY(*renewed >= got->first().lockedUntil);
        QCOMPARE(m_broker->peek(q, 0, 1)->first().lockedUntil, *renewed);
    }

    void schedulesAndCancels() {
        QVERIFY(startWithQueue(q));
        AmqpClient client(plainString(), quick());
        OutgoingMessage message;
        message.body = "later";
        const auto number =
            client.schedule(q, message, QDateTime::currentMSecsSinceEpoch() + 3600000);
        QVERIFY2(number.ok(), why(number).constData());
        QCOMPARE(counts().scheduled, 1);
        QCOMPARE(m_broker->peek(q, 0, 1)->first().sequenceNumber, *number);
        QVERIFY(client.cancelScheduled(q, *number).ok());
        QCOMPARE(counts().scheduled, 0);
        QCOMPARE(client.cancelScheduled(q, *number).error().code, ErrorCode::MessageNotFound);
    }

    void closingGivesTheLocksBack() {
        QVERIFY(startWithQueue(q) && fill(2));
        AmqpClient client(plainString(), quick());
        QCOMPARE(client.receive(q, peekLock(2))->size(), 2);
        QCOMPARE(counts().locked, 2);
        client.close();
        QTRY_COMPARE(counts().active, 2);
    }

    void anEndpointStoppedMidReceiveFailsItPromptly() {
        QVERIFY(startWithQueue(q));
        AmqpClient client(plainString(), quick());
        QVERIFY(client.connect().ok());
        QElapsedTimer elapsed;
        elapsed.start();
        auto receiving =
            std::async(std::launch::async, [&] { return client.receive(q, peekLock(1), 4500); });
        QTRY_VERIFY(receiverCredit() > 0); // the receive is out, waiting for a message
        m_endpoint.reset();
        const auto got = receiving.get();
        QVERIFY(!got.ok());
        QCOMPARE(got.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(elapsed.elapsed() < 3000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAmqpReceive)
#include "tst_remote_amqp_receive.moc"
