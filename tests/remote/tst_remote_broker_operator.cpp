// RemoteBroker's operator steps against an in-process `hourglass` namespace (ServedNamespace.h,
// on real time), only through the Broker interface: copy, move, resubmit and delete of chosen
// messages message by message, a sequence number that is missing or locked elsewhere, purge
// through the service's batch delete, and the read-only refusals with the served broker
// unchanged.

#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/EntityPath.h"
#include "hourglass/remote/RemoteBroker.h"

#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

const QString kJobs = QStringLiteral("jobs");
const QString kArchive = QStringLiteral("archive");
const QString kDeadLetters = kJobs + kDeadLetterSuffix;

std::unique_ptr<RemoteBroker> remoteFor(const ServedNamespace& served, bool readOnly = false) {
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(served.connection());
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.amqp.callTimeoutMs = 5000;
    options.receiveWaitMs = 300;
    options.readOnly = readOnly;
    options.pollInterval = std::chrono::hours(1);
    return std::make_unique<RemoteBroker>(options);
}

QStringList idsOf(const QList<MessageView>& messages) {
    QStringList ids;
    for (const MessageView& message : messages)
        ids.append(message.messageId);
    return ids;
}

} // namespace

class RemoteBrokerOperatorTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<RemoteBroker> m_remote;

    Broker& served() { return m_served->broker(); }
    RemoteBroker& remote() { return *m_remote; }

    // What the served broker holds of a path, in sequence order.
    QList<MessageView> held(const QString& path) {
        const auto messages = served().listMessages(path, 0, 100, Broker::Bodies::With);
        return messages ? *messages : QList<MessageView>();
    }
    // Sends the messages to jobs through the served broker; their sequence numbers by id.
    QHash<QString, qint64> sendJobs(const QStringList& ids) {
        for (const QString& id : ids) {
            OutgoingMessage message = TestBroker::message(id, "body-" + id.toUtf8());
            message.applicationProperties.insert(QStringLiteral("origin"), id);
            message.subject = QStringLiteral("subject-") + id;
            if (!served().send(kJobs, message))
                qFatal("cannot send %s", qPrintable(id));
        }
        QHash<QString, qint64> numbers;
        for (const MessageView& message : held(kJobs))
            numbers.insert(message.messageId, message.sequenceNumber);
        return numbers;
    }
    // Dead-letters the next message of jobs with `reason`.
    void deadLetterNext(const QString& reason) {
        ReceiveOptions options;
        options.receiver = QStringLiteral("failing-worker");
        const auto received = served().receive(kJobs, options);
        QVERIFY(received && received->size() == 1);
        DeadLetterOptions dead;
        dead.reason = reason;
        dead.description = QStringLiteral("could not handle it");
        QVERIFY(served().deadLetter(LockRef::of(received->first()), dead).ok());
    }

private slots:
    void init() {
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
        m_served->testBroker().clock().resetToRealTime();
        QVERIFY(served().createQueue(kJobs, {}).ok());
        QVERIFY(served().createQueue(kArchive, {}).ok());
        m_remote = remoteFor(*m_served);
    }
    void cleanup() {
        m_remote.reset();
        m_served.reset();
    }

    void copyKeepsEveryPropertyButTheDeadLetterReasonAndLeavesTheOriginal() {
        sendJobs({"a", "b"});
        deadLetterNext(QStringLiteral("Poison"));
        const qint64 deadLettered = held(kDeadLetters).first().sequenceNumber;
        const auto copied = onWorker([&] {
            return remote().transferMessages(kDeadLetters, {deadLettered}, kArchive,
                                             Broker::Transfer::Copy);
        });
        QVERIFY2(copied, qPrintable(copied ? QString() : copied.error().toString()));
        QCOMPARE(copied->size(), 1);
        QCOMPARE(copied->first().messageId, QStringLiteral("a"));

        const QList<MessageView> archived = held(kArchive);
        QCOMPARE(idsOf(archived), QStringList{QStringLiteral("a")});
        const MessageView& copy = archived.first();
        QCOMPARE(copy.body, QByteArray("body-a"));
        QCOMPARE(copy.subject, QStringLiteral("subject-a"));
        QCOMPARE(copy.applicationProperties.value(QStringLiteral("origin")).toString(),
                 QStringLiteral("a"));
        QVERIFY(!copy.applicationProperties.contains(QStringLiteral("DeadLetterReason")));
        QVERIFY(!copy.applicationProperties.contains(QStringLiteral("DeadLetterErrorDescription")));
        QVERIFY(copy.deadLetterReason.isEmpty());
        // The original stays where it was, unlocked.
        QCOMPARE(idsOf(held(kDeadLetters)), QStringList{QStringLiteral("a")});
        QCOMPARE(served().counts(kJobs)->locked, qint64(0));
    }

    void moveSendsTheChosenThenCompletesThemAndGivesTheOthersBack() {
        const auto numbers = sendJobs({"a", "b", "c", "d"});
        const auto moved = onWorker([&] {
            return remote().transferMessages(kJobs, {numbers["b"], numbers["d"]}, kArchive,
                                             Broker::Transfer::Move);
        });
        QVERIFY2(moved, qPrintable(moved ? QString() : moved.error().toString()));
        QCOMPARE(moved->size(), 2);
        QCOMPARE(idsOf(held(kArchive)), (QStringList{"b", "d"}));
        QCOMPARE(idsOf(held(kJobs)), (QStringList{"a", "c"}));
        // The messages passed over on the way were abandoned, not kept locked.
        const EntityCounts counts = *served().counts(kJobs);
        QCOMPARE(counts.locked, qint64(0));
        QCOMPARE(counts.active, qint64(2));
    }

    void resubmitBringsTheChosenDeadLetterBackWithoutItsReason() {
        sendJobs({"a", "b"});
        deadLetterNext(QStringLiteral("First"));
        deadLetterNext(QStringLiteral("Second"));
        const QList<MessageView> deadLetters = held(kDeadLetters);
        QCOMPARE(idsOf(deadLetters), (QStringList{"a", "b"}));
        const auto resubmitted = onWorker(
            [&] { return remote().resubmit(kDeadLetters, {deadLetters.at(1).sequenceNumber}); });
        QVERIFY2(resubmitted, qPrintable(resubmitted ? QString() : resubmitted.error().toString()));
        const QList<MessageView> back = held(kJobs);
        QCOMPARE(idsOf(back), QStringList{QStringLiteral("b")});
        QVERIFY(!back.first().applicationProperties.contains(QStringLiteral("DeadLetterReason")));
        QCOMPARE(back.first().body, QByteArray("body-b"));
        QCOMPARE(idsOf(held(kDeadLetters)), QStringList{QStringLiteral("a")});
        QCOMPARE(served().counts(kJobs)->locked, qint64(0));
        QCOMPARE(onWorker([&] { return remote().resubmit(kJobs, {1}); }).error().code,
                 ErrorCode::InvalidArgument);
    }

    void deleteRemovesTheChosenActiveDeferredAndScheduledMessages() {
        const auto numbers = sendJobs({"a", "b", "c"});
        ReceiveOptions options;
        options.receiver = QStringLiteral("worker");
        const auto first = served().receive(kJobs, options);
        QVERIFY(first && first->size() == 1);
        QVERIFY(served().defer(LockRef::of(first->first())).ok()); // a: deferred
        const auto scheduled = served().schedule(kJobs, TestBroker::message("later"),
                                                 VirtualClock::realNow() + 3'600'000);
        QVERIFY(scheduled.ok());
        QVERIFY(onWorker([&] {
                    return remote().deleteMessages(
                        kJobs, {numbers["a"], numbers["c"], scheduled->sequenceNumber});
                }).ok());
        QCOMPARE(idsOf(held(kJobs)), QStringList{QStringLiteral("b")});
        QCOMPARE(served().counts(kJobs)->locked, qint64(0));
    }

    void aMissingSequenceNumberChangesNothing() {
        const auto numbers = sendJobs({"a", "b"});
        const auto refused = onWorker([&] {
            return remote().deleteMessages(kJobs, {numbers["a"], 9999});
        });
        QCOMPARE(refused.error().code, ErrorCode::MessageNotFound);
        QVERIFY2(refused.error().description.contains(QStringLiteral("1 of the 2")),
                 qPrintable(refused.error().description));
        QCOMPARE(idsOf(held(kJobs)), (QStringList{"a", "b"}));
        QCOMPARE(served().counts(kJobs)->locked, qint64(0));
        const auto notMoved = onWorker([&] {
            return remote().transferMessages(kJobs, {9999}, kArchive, Broker::Transfer::Copy);
        });
        QCOMPARE(notMoved.error().code, ErrorCode::MessageNotFound);
        QVERIFY(held(kArchive).isEmpty());
    }

    void aMessageLockedByAnotherReceiverIsNotFoundAndTheRestIsDone() {
        const auto numbers = sendJobs({"a", "b", "c"});
        ReceiveOptions options;
        options.receiver = QStringLiteral("someone-else");
        const auto locked = served().receive(kJobs, options); // a, locked elsewhere
        QVERIFY(locked && locked->size() == 1);
        const auto refused = onWorker([&] {
            return remote().deleteMessages(kJobs, {numbers["a"], numbers["c"]});
        });
        QCOMPARE(refused.error().code, ErrorCode::MessageNotFound);
        QVERIFY2(refused.error().description.contains(QStringLiteral("another receiver")),
                 qPrintable(refused.error().description));
        // Never all or nothing: c went, a stays with its holder, b was given back.
        QCOMPARE(idsOf(held(kJobs)), (QStringList{"a", "b"}));
        const EntityCounts counts = *served().counts(kJobs);
        QCOMPARE(counts.locked, qint64(1));
        QCOMPARE(counts.active, qint64(1));
    }

    void movingIntoADeadLetterQueueIsRefused() {
        const auto numbers = sendJobs({"a"});
        const auto refused = onWorker([&] {
            return remote().transferMessages(kJobs, {numbers["a"]}, kArchive + kDeadLetterSuffix,
                                             Broker::Transfer::Move);
        });
        QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(idsOf(held(kJobs)), QStringList{QStringLiteral("a")});
    }

    void purgeGoesThroughTheBatchDeleteWithItsCutoff() {
        sendJobs({"a", "b", "c", "d", "e"});
        // A deferred message goes too: receive-and-delete could not take it, the batch delete
        // does.
        ReceiveOptions options;
        options.receiver = QStringLiteral("worker");
        const auto first = served().receive(kJobs, options);
        QVERIFY(first && first->size() == 1);
        QVERIFY(served().defer(LockRef::of(first->first())).ok());
        const Instant cutoff = VirtualClock::realNow() + 1;
        QTest::qWait(5); // the late message is enqueued after the cutoff
        QVERIFY(served().send(kJobs, TestBroker::message("late")).ok());

        PurgeOptions purge;
        purge.maxCount = 3;
        purge.enqueuedBefore = cutoff;
        QCOMPARE(*onWorker([&] { return remote().purge(kJobs, purge); }), qint64(3));
        QCOMPARE(idsOf(held(kJobs)), (QStringList{"d", "e", "late"}));
        QCOMPARE(*onWorker([&] { return remote().purge(kJobs, purge); }), qint64(2));
        QCOMPARE(*onWorker([&] { return remote().purge(kJobs, purge); }), qint64(0));
        QCOMPARE(idsOf(held(kJobs)), QStringList{QStringLiteral("late")});

        // Without a cutoff: everything enqueued until the call.
        QCOMPARE(*onWorker([&] { return remote().purge(kJobs, {}); }), qint64(1));
        QVERIFY(held(kJobs).isEmpty());
        PurgeOptions tooMany;
        tooMany.maxCount = kMaxPurgeCount + 1;
        QCOMPARE(onWorker([&] { return remote().purge(kJobs, tooMany); }).error().code,
                 ErrorCode::InvalidArgument);
    }

    void theClientsBatchDeleteAnswersHowManyWent() {
        sendJobs({"a", "b", "c"});
        AmqpClientOptions options;
        options.callTimeoutMs = 5000;
        AmqpClient client(m_served->connection(), options);
        const auto deleted = onWorker([&] { return client.batchDelete(kJobs, 2); });
        QVERIFY2(deleted, qPrintable(deleted ? QString() : deleted.error().toString()));
        QCOMPARE(deleted->value_or(-1), qint64(2));
        QCOMPARE(idsOf(held(kJobs)), QStringList{QStringLiteral("c")});
        // The service's bounds are checked before the wire.
        QCOMPARE(onWorker([&] { return client.batchDelete(kJobs, 0); }).error().code,
                 ErrorCode::InvalidArgument);
        QCOMPARE(
            onWorker([&] { return client.batchDelete(QStringLiteral("nowhere"), 1); }).error().code,
            ErrorCode::MessagingEntityNotFound);
    }

    void readOnlyRefusesEveryOperatorStepBeforeTheWire() {
        const auto numbers = sendJobs({"a", "b"});
        deadLetterNext(QStringLiteral("Poison")); // a
        const qint64 deadLettered = held(kDeadLetters).first().sequenceNumber;
        auto readOnly = remoteFor(*m_served, true);
        const QList<std::function<Error()>> calls = {
            [&] { return readOnly->deleteMessages(kJobs, {numbers["b"]}).error(); },
            [&] {
                return readOnly
                    ->transferMessages(kJobs, {numbers["b"]}, kArchive, Broker::Transfer::Copy)
                    .error();
            },
            [&] {
                return readOnly
                    ->transferMessages(kJobs, {numbers["b"]}, kArchive, Broker::Transfer::Move)
                    .error();
            },
            [&] { return readOnly->resubmit(kDeadLetters, {deadLettered}).error(); },
            [&] { return readOnly->purge(kJobs, {}).error(); },
        };
        for (const auto& call : calls) {
            const Error error = onWorker(call);
            QCOMPARE(error.code, ErrorCode::InvalidArgument);
            QCOMPARE(error.description, QStringLiteral("This connection is read-only."));
        }
        QCOMPARE(idsOf(held(kJobs)), QStringList{QStringLiteral("b")});
        QCOMPARE(idsOf(held(kDeadLetters)), QStringList{QStringLiteral("a")});
        QVERIFY(held(kArchive).isEmpty());
    }
};

QTEST_GUILESS_MAIN(RemoteBrokerOperatorTest)
#include "tst_remote_broker_operator.moc"
