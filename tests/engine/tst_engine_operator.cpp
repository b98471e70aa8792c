// The explorer's operator tools over stored messages (Broker::deleteMessages, transferMessages,
// resubmit, purge): what they keep and what they drop, that each is all or nothing, and that the
// result survives a restart (D2). Every test runs on a paused VirtualClock.
#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("orders");
const QString kOther = QStringLiteral("archive");
const QString kDeadLetters = QStringLiteral("orders/$deadletterqueue");

// Sends `count` messages "m1".."mN" with an application property and returns their sequence
// numbers.
QList<qint64> sendSome(Broker& broker, const QString& path, int count) {
    QList<qint64> seqs;
    for (int i = 1; i <= count; ++i) {
        OutgoingMessage m = TestBroker::message(QStringLiteral("m%1").arg(i), "payload");
        m.subject = QStringLiteral("subject-%1").arg(i);
        m.applicationProperties.insert(QStringLiteral("tenant"), i);
        const auto sent = broker.send(path, m);
        if (sent)
            seqs.append(sent->sequenceNumber);
    }
    return seqs;
}

// Receives one message as "r" and dead-letters it with a reason.
bool deadLetterOne(Broker& broker, const QString& path, const QString& reason) {
    const auto got = broker.receive(path, peekLock(QStringLiteral("r")));
    if (!got || got->isEmpty())
        return false;
    DeadLetterOptions options;
    options.reason = reason;
    options.description = QStringLiteral("described");
    return broker.deadLetter(LockRef::of(got->first()), options).ok();
}
} // namespace

class TestEngineOperator : public QObject {
    Q_OBJECT
private slots:
    void delete_removesMessagesInEveryState();
    void delete_lockedMessageLosesItsLock();
    void delete_refusesUnknownSequenceNumbersAndChangesNothing();
    void delete_survivesRestart();
    void purge_deletesInStepsOfItsCountAndSurvivesRestart();
    void purge_refusesACountOutsideItsBoundsAndChangesNothing();
    void resubmit_returnsMessageWithoutReasonProperties();
    void resubmit_subscriptionGetsItsOwnMessagesBack();
    void resubmit_refusesPathsThatAreNotDeadLetterQueues();
    void resubmit_refusesDisabledEntityAndChangesNothing();
    void resubmit_atQuotaStillFitsBecauseTheOriginalLeaves();
    void transfer_copyKeepsOriginals();
    void transfer_moveKeepsScheduleAndBypassesDuplicateDetection();
    void transfer_refusesDeadLetterTargetAndUnknownTarget();
    void transfer_survivesRestart();
};

void TestEngineOperator::delete_removesMessagesInEveryState() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 4);
    QCOMPARE(seqs.size(), 4);
    const auto scheduled =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("later")), kTestStart + minutes(5));
    HG_VERIFY_OK(scheduled);
    // Defer m1 so that active, deferred and scheduled messages are all deleted.
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));

    HG_VERIFY_OK(tb->deleteMessages(kQueue, {seqs[0], seqs[2], scheduled->sequenceNumber}));
    const auto left = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(left);
    QCOMPARE(messageIds(*left), (QStringList{QStringLiteral("m2"), QStringLiteral("m4")}));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, 2);
    QCOMPARE(counts->deferred, 0);
    QCOMPARE(counts->scheduled, 0);
}

void TestEngineOperator::delete_lockedMessageLosesItsLock() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    sendSome(tb.broker(), kQueue, 1);
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    HG_VERIFY_OK(tb->deleteMessages(kQueue, {got->first().sequenceNumber}));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(got->first())), ErrorCode::MessageLockLost);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->locked, 0);
    QCOMPARE(counts->active, 0);
}

void TestEngineOperator::delete_refusesUnknownSequenceNumbersAndChangesNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 3);
    HG_VERIFY_REFUSED(tb.broker(), tb->deleteMessages(kQueue, {seqs[0], 999}),
                      ErrorCode::MessageNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->deleteMessages(kDeadLetters, {seqs[0]}),
                      ErrorCode::MessageNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->deleteMessages(QStringLiteral("nowhere"), {seqs[0]}),
                      ErrorCode::MessagingEntityNotFound);
    QList<qint64> tooMany;
    for (int i = 0; i < 10001; ++i)
        tooMany.append(seqs[0]);
    HG_VERIFY_REFUSED(tb.broker(), tb->deleteMessages(kQueue, tooMany), ErrorCode::InvalidArgument);
}

void TestEngineOperator::delete_survivesRestart() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 3);
    QVERIFY(deadLetterOne(tb.broker(), kQueue, QStringLiteral("poison")));
    HG_VERIFY_OK(tb->deleteMessages(kDeadLetters, {seqs[0]}));
    HG_VERIFY_OK(tb->deleteMessages(kQueue, {seqs[1]}));
    tb.reopen();
    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    QCOMPARE(messageIds(*main), QStringList{QStringLiteral("m3")});
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
}

void TestEngineOperator::purge_deletesInStepsOfItsCountAndSurvivesRestart() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    sendSome(tb.broker(), kQueue, 5);
    PurgeOptions options;
    options.maxCount = 2;
    QCOMPARE(*tb->purge(kQueue, options), qint64(2));
    QCOMPARE(*tb->purge(kQueue, options), qint64(2));
    tb.reopen();
    const auto left = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(left);
    QCOMPARE(messageIds(*left), QStringList{QStringLiteral("m5")});
    QCOMPARE(*tb->purge(kQueue, options), qint64(1));
    QCOMPARE(*tb->purge(kQueue, options), qint64(0));
}

void TestEngineOperator::purge_refusesACountOutsideItsBoundsAndChangesNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    sendSome(tb.broker(), kQueue, 2);
    PurgeOptions none;
    none.maxCount = 0;
    HG_VERIFY_REFUSED(tb.broker(), tb->purge(kQueue, none), ErrorCode::InvalidArgument);
    PurgeOptions tooMany;
    tooMany.maxCount = kMaxPurgeCount + 1;
    HG_VERIFY_REFUSED(tb.broker(), tb->purge(kQueue, tooMany), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->purge(QStringLiteral("nowhere"), {}),
                      ErrorCode::MessagingEntityNotFound);
}

void TestEngineOperator::resubmit_returnsMessageWithoutReasonProperties() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("job-7"), "{\"n\":7}");
    m.correlationId = QStringLiteral("corr");
    m.subject = QStringLiteral("invoice");
    m.contentType = QStringLiteral("application/json");
    m.timeToLive = minutes(30);
    m.applicationProperties.insert(QStringLiteral("tenant"), QStringLiteral("contoso"));
    HG_VERIFY_OK(tb->send(kQueue, m));
    // Three deliveries, then the receiver gives up on it.
    for (int i = 0; i < 2; ++i) {
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
    }
    QVERIFY(deadLetterOne(tb.broker(), kQueue, QStringLiteral("bad-format")));
    tb.advance(minutes(2));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 1);
    const qint64 oldSeq = dead->first().sequenceNumber;

    const auto resubmitted = tb->resubmit(kDeadLetters, {oldSeq});
    HG_VERIFY_OK(resubmitted);
    QCOMPARE(resubmitted->size(), 1);
    const qint64 newSeq = resubmitted->first().sequenceNumber;
    QVERIFY(newSeq > oldSeq);

    const auto back = tb->message(kQueue, newSeq);
    HG_VERIFY_OK(back);
    QCOMPARE(back->messageId, QStringLiteral("job-7"));
    QCOMPARE(back->correlationId, QStringLiteral("corr"));
    QCOMPARE(back->subject, QStringLiteral("invoice"));
    QCOMPARE(back->contentType, QStringLiteral("application/json"));
    QCOMPARE(back->body, QByteArray("{\"n\":7}"));
    QCOMPARE(back->timeToLive, std::optional<Millis>(minutes(30)));
    QCOMPARE(back->deliveryCount, 0u);
    QCOMPARE(back->enqueuedTime, kTestStart + minutes(2));
    QCOMPARE(back->expiresAt, kTestStart + minutes(32));
    QCOMPARE(back->applicationProperties,
             (QVariantMap{{QStringLiteral("tenant"), QStringLiteral("contoso")}}));
    QVERIFY(back->deadLetterReason.isEmpty());
    QVERIFY(back->deadLetterErrorDescription.isEmpty());

    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->deadLettered, 0);
    QCOMPARE(counts->active, 1);
}

void TestEngineOperator::resubmit_subscriptionGetsItsOwnMessagesBack() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("events"), {}));
    const QString audit = QStringLiteral("events/Subscriptions/audit");
    const QString billing = QStringLiteral("events/Subscriptions/billing");
    HG_VERIFY_OK(tb->createSubscription(audit, {}));
    HG_VERIFY_OK(tb->createSubscription(billing, {}));
    sendSome(tb.broker(), QStringLiteral("events"), 1);
    QVERIFY(deadLetterOne(tb.broker(), audit, QStringLiteral("rejected")));
    const auto dead = tb->listMessages(audit + QStringLiteral("/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 1);

    HG_VERIFY_OK(
        tb->resubmit(audit + QStringLiteral("/$deadletterqueue"), {dead->first().sequenceNumber}));
    const auto auditCounts = tb->counts(audit);
    HG_VERIFY_OK(auditCounts);
    QCOMPARE(auditCounts->active, 1);
    QCOMPARE(auditCounts->deadLettered, 0);
    // Billing kept its own copy and got no second one.
    const auto billingCounts = tb->counts(billing);
    HG_VERIFY_OK(billingCounts);
    QCOMPARE(billingCounts->active, 1);

    // The resubmitted message took a number of the subscription's own: the topic's next message
    // gets a fresh one in every subscription, and each keeps all its messages.
    sendSome(tb.broker(), QStringLiteral("events"), 1);
    const auto auditAfter = tb->listMessages(audit, 0, 10);
    HG_VERIFY_OK(auditAfter);
    QCOMPARE(auditAfter->size(), 2);
    QVERIFY(auditAfter->at(0).sequenceNumber < auditAfter->at(1).sequenceNumber);
    tb.reopen();
    const auto reopened = tb->counts(audit);
    HG_VERIFY_OK(reopened);
    QCOMPARE(reopened->active, 2);
    HG_VERIFY_OK(tb->counts(billing));
    QCOMPARE(tb->counts(billing)->active, 2);
}

void TestEngineOperator::resubmit_refusesPathsThatAreNotDeadLetterQueues() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 1);
    HG_VERIFY_REFUSED(tb.broker(), tb->resubmit(kQueue, seqs), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->resubmit(kDeadLetters, seqs), ErrorCode::MessageNotFound);
}

void TestEngineOperator::resubmit_refusesDisabledEntityAndChangesNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    sendSome(tb.broker(), kQueue, 1);
    QVERIFY(deadLetterOne(tb.broker(), kQueue, QStringLiteral("poison")));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    EntityProperties properties = info->properties;
    properties.status = EntityStatus::SendDisabled;
    HG_VERIFY_OK(tb->updateEntity(kQueue, properties));
    HG_VERIFY_REFUSED(tb.broker(), tb->resubmit(kDeadLetters, {dead->first().sequenceNumber}),
                      ErrorCode::MessagingEntityDisabled);
}

void TestEngineOperator::resubmit_atQuotaStillFitsBecauseTheOriginalLeaves() {
    TestBroker tb;
    EntityProperties properties;
    properties.maxSizeInMegabytes = 1;
    HG_VERIFY_OK(tb->createQueue(kQueue, properties));
    QList<qint64> seqs;
    for (int i = 0; i < 5; ++i) {
        OutgoingMessage m =
            TestBroker::message(QStringLiteral("big%1").arg(i), QByteArray(200 * 1024, 'x'));
        const auto sent = tb->send(kQueue, m);
        HG_VERIFY_OK(sent);
        seqs.append(sent->sequenceNumber);
    }
    HG_VERIFY_ERROR(tb->send(kQueue, TestBroker::message(QStringLiteral("one-more"),
                                                         QByteArray(200 * 1024, 'x'))),
                    ErrorCode::QuotaExceeded);
    QVERIFY(deadLetterOne(tb.broker(), kQueue, QStringLiteral("poison")));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    HG_VERIFY_OK(tb->resubmit(kDeadLetters, {dead->first().sequenceNumber}));
    // A copy would not fit.
    const auto main = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(main);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->transferMessages(kQueue, {main->first().sequenceNumber}, kQueue,
                                           Broker::Transfer::Copy),
                      ErrorCode::QuotaExceeded);
}

void TestEngineOperator::transfer_copyKeepsOriginals() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->createQueue(kOther, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 3);
    const auto copied =
        tb->transferMessages(kQueue, {seqs[1], seqs[2]}, kOther, Broker::Transfer::Copy);
    HG_VERIFY_OK(copied);
    QCOMPARE(copied->size(), 2);
    const auto source = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(source);
    QCOMPARE(source->size(), 3);
    const auto target = tb->listMessages(kOther, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(target);
    QCOMPARE(messageIds(*target), (QStringList{QStringLiteral("m2"), QStringLiteral("m3")}));
    QCOMPARE(target->first().subject, QStringLiteral("subject-2"));
    QCOMPARE(target->first().applicationProperties.value(QStringLiteral("tenant")).toInt(), 2);
    QCOMPARE(target->first().body, QByteArray("payload"));
    QCOMPARE(target->first().sequenceNumber, copied->first().sequenceNumber);
}

void TestEngineOperator::transfer_moveKeepsScheduleAndBypassesDuplicateDetection() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    EntityProperties dedup;
    dedup.requiresDuplicateDetection = true;
    HG_VERIFY_OK(tb->createQueue(kOther, dedup));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 1);
    // The target has already seen "m1": a send would be dropped, a transfer is not.
    HG_VERIFY_OK(tb->send(kOther, TestBroker::message(QStringLiteral("m1"))));
    const Instant at = kTestStart + minutes(10);
    const auto scheduled = tb->schedule(kQueue, TestBroker::message(QStringLiteral("later")), at);
    HG_VERIFY_OK(scheduled);

    const auto moved = tb->transferMessages(kQueue, {seqs[0], scheduled->sequenceNumber}, kOther,
                                            Broker::Transfer::Move);
    HG_VERIFY_OK(moved);
    QCOMPARE(moved->size(), 2);
    QVERIFY(!moved->at(0).duplicate);
    QVERIFY(!moved->at(0).scheduled);
    QVERIFY(moved->at(1).scheduled);
    const auto source = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(source);
    QVERIFY(source->isEmpty());
    const auto later = tb->message(kOther, moved->at(1).sequenceNumber);
    HG_VERIFY_OK(later);
    QCOMPARE(later->state, MessageState::Scheduled);
    QCOMPARE(later->scheduledEnqueueTime, at);
    const auto counts = tb->counts(kOther);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, 2);
    QCOMPARE(counts->scheduled, 1);
}

void TestEngineOperator::transfer_refusesDeadLetterTargetAndUnknownTarget() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->createQueue(kOther, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 1);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->transferMessages(kQueue, seqs, QStringLiteral("archive/$deadletterqueue"),
                                           Broker::Transfer::Move),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->transferMessages(kQueue, seqs, QStringLiteral("missing"), Broker::Transfer::Move),
        ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->transferMessages(kQueue, {seqs[0], 77}, kOther, Broker::Transfer::Move),
                      ErrorCode::MessageNotFound);
}

void TestEngineOperator::transfer_survivesRestart() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->createQueue(kOther, {}));
    const QList<qint64> seqs = sendSome(tb.broker(), kQueue, 2);
    HG_VERIFY_OK(tb->transferMessages(kQueue, {seqs[0]}, kOther, Broker::Transfer::Move));
    tb.reopen();
    const auto source = tb->listMessages(kQueue, 0, 10);
    HG_VERIFY_OK(source);
    QCOMPARE(messageIds(*source), QStringList{QStringLiteral("m2")});
    const auto target = tb->listMessages(kOther, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(target);
    QCOMPARE(messageIds(*target), QStringList{QStringLiteral("m1")});
    QCOMPARE(target->first().body, QByteArray("payload"));
}

QTEST_GUILESS_MAIN(TestEngineOperator)
#include "tst_engine_operator.moc"
