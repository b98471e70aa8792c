// Bad input, part 2: messages, locks, sequence numbers, rules and the clock (L, R2).
#include "TestEngineBadInput.h"

#include "BadInputFixture.h"
#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = BadInputFixture::kQueue;
const QString& kTopic = BadInputFixture::kTopic;
const QString& kSub = BadInputFixture::kSub;
} // namespace

void TestEngineBadInput::badinput_L1_oversizeMessages_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("path");
    for (const char* op : {"send", "sendBatch", "schedule"}) {
        QTest::addRow("%s, queue over the 256 KB default", op) << op << "q";
        QTest::addRow("%s, topic over the 256 KB default", op) << op << "t";
        QTest::addRow("%s, queue over its own 1 KB", op) << op << "small";
    }
}

void TestEngineBadInput::badinput_L1_oversizeMessages() {
    QFETCH(QString, op);
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    EntityProperties small;
    small.maxMessageSizeInKilobytes = 1;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("small"), small));
    const int limitKb = path == QLatin1String("small") ? 1 : 256;
    // A body alone over the limit; a small message fits.
    const OutgoingMessage big =
        TestBroker::message(QStringLiteral("big"), QByteArray(limitKb * 1024 + 1, 'x'));
    const OutgoingMessage fits =
        TestBroker::message(QStringLiteral("fits"), QByteArray(limitKb * 1024 / 2, 'x'));
    if (op == QLatin1String("send")) {
        HG_VERIFY_REFUSED(tb.broker(), tb->send(path, big), ErrorCode::MessageSizeExceeded);
        HG_VERIFY_OK(tb->send(path, fits));
    } else if (op == QLatin1String("sendBatch")) {
        HG_VERIFY_REFUSED(tb.broker(), tb->sendBatch(path, {fits, big}),
                          ErrorCode::MessageSizeExceeded);
        HG_VERIFY_OK(tb->sendBatch(path, {fits}));
    } else {
        HG_VERIFY_REFUSED(tb.broker(), tb->schedule(path, big, kTestStart + hours(1)),
                          ErrorCode::MessageSizeExceeded);
        HG_VERIFY_OK(tb->schedule(path, fits, kTestStart + hours(1)));
    }
}

void TestEngineBadInput::badinput_L1_disabledEntities_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("sendRefused");
    QTest::addColumn<bool>("receiveRefused");
    const struct {
        const char* name;
        EntityStatus status;
        bool send;
        bool receive;
    } statuses[] = {{"Active", EntityStatus::Active, false, false},
                    {"Disabled", EntityStatus::Disabled, true, true},
                    {"SendDisabled", EntityStatus::SendDisabled, true, false},
                    {"ReceiveDisabled", EntityStatus::ReceiveDisabled, false, true}};
    for (const auto& s : statuses) {
        QTest::addRow("queue %s", s.name) << "queue" << int(s.status) << s.send << s.receive;
        // A topic only sends; a subscription only receives.
        QTest::addRow("topic %s", s.name) << "topic" << int(s.status) << s.send << false;
        QTest::addRow("subscription %s", s.name)
            << "subscription" << int(s.status) << false << s.receive;
    }
}

void TestEngineBadInput::badinput_L1_disabledEntities() {
    QFETCH(QString, kind);
    QFETCH(int, status);
    QFETCH(bool, sendRefused);
    QFETCH(bool, receiveRefused);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    const QString path = kind == QLatin1String("queue")   ? kQueue
                         : kind == QLatin1String("topic") ? kTopic
                                                          : kSub;
    // The deferred message of `path` (populate deferred the second one received).
    qint64 deferredSeq = 0;
    if (kind != QLatin1String("topic")) {
        const auto listed = tb->listMessages(path, 0, 100);
        HG_VERIFY_OK(listed);
        for (const MessageView& m : *listed) {
            if (m.state == MessageState::Deferred)
                deferredSeq = m.sequenceNumber;
        }
        QVERIFY(deferredSeq > 0);
    }
    HG_VERIFY_OK(tb->updateEntity(path, BadInputFixture::withStatus(EntityStatus(status))));
    const OutgoingMessage m = TestBroker::message(QStringLiteral("new"));
    if (kind != QLatin1String("subscription")) {
        if (sendRefused) {
            HG_VERIFY_REFUSED(tb.broker(), tb->send(path, m), ErrorCode::MessagingEntityDisabled);
            HG_VERIFY_REFUSED(tb.broker(), tb->sendBatch(path, {m, m}),
                              ErrorCode::MessagingEntityDisabled);
            HG_VERIFY_REFUSED(tb.broker(), tb->schedule(path, m, kTestStart + hours(1)),
                              ErrorCode::MessagingEntityDisabled);
        } else {
            HG_VERIFY_OK(tb->send(path, m));
            HG_VERIFY_OK(tb->sendBatch(path, {m, m}));
            HG_VERIFY_OK(tb->schedule(path, m, kTestStart + hours(1)));
        }
    }
    if (kind != QLatin1String("topic")) {
        if (receiveRefused) {
            HG_VERIFY_REFUSED(tb.broker(), tb->receive(path, peekLock(QStringLiteral("r"))),
                              ErrorCode::MessagingEntityDisabled);
            HG_VERIFY_REFUSED(tb.broker(), tb->receive(path, receiveAndDelete()),
                              ErrorCode::MessagingEntityDisabled);
            HG_VERIFY_REFUSED(tb.broker(),
                              tb->receiveDeferred(path, deferredSeq, QStringLiteral("r")),
                              ErrorCode::MessagingEntityDisabled);
        } else {
            const auto got = tb->receive(path, peekLock(QStringLiteral("r")));
            HG_VERIFY_OK(got);
            QCOMPARE(got->size(), 1);
            HG_VERIFY_OK(tb->receiveDeferred(path, deferredSeq, QStringLiteral("r")));
        }
    }
}

void TestEngineBadInput::badinput_L1_quotaExceededOnTopic() {
    TestBroker tb;
    EntityProperties small;
    small.maxSizeInMegabytes = 1;
    HG_VERIFY_OK(tb->createTopic(kTopic, small));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}));
    const QByteArray body(250 * 1024, 'x');
    for (int i = 0; i < 4; ++i)
        HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QString::number(i), body)));
    // About 1000 KB held by the subscription: the next 250 KB would pass 1 MB.
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kTopic, TestBroker::message("over", body)),
                      ErrorCode::QuotaExceeded);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->sendBatch(kTopic, {TestBroker::message("a", QByteArray(100 * 1024, 'x')),
                                             TestBroker::message("b", body)}),
                      ErrorCode::QuotaExceeded);
}

void TestEngineBadInput::badinput_L1_badMessageFields_data() {
    QTest::addColumn<qint64>("ttl");
    QTest::newRow("negative TTL") << qint64(-1);
    QTest::newRow("zero TTL") << qint64(0);
}

void TestEngineBadInput::badinput_L1_badMessageFields() {
    QFETCH(qint64, ttl);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    const OutgoingMessage m = messageWithTtl(QStringLiteral("m"), ttl);
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kQueue, m), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->sendBatch(kQueue, {TestBroker::message("ok"), m}),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->schedule(kQueue, m, kTestStart + hours(1)),
                      ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_L3_badCounts_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("count");
    for (const char* op : {"receive", "receiveAndDelete", "peek", "listMessages"}) {
        QTest::addRow("%s 0", op) << op << 0;
        QTest::addRow("%s -1", op) << op << -1;
    }
}

void TestEngineBadInput::badinput_L3_badCounts() {
    QFETCH(QString, op);
    QFETCH(int, count);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    if (op == QLatin1String("receive"))
        HG_VERIFY_REFUSED(tb.broker(), tb->receive(kQueue, peekLock(QStringLiteral("r"), count)),
                          ErrorCode::InvalidArgument);
    else if (op == QLatin1String("receiveAndDelete"))
        HG_VERIFY_REFUSED(tb.broker(), tb->receive(kQueue, receiveAndDelete(count)),
                          ErrorCode::InvalidArgument);
    else if (op == QLatin1String("peek"))
        HG_VERIFY_REFUSED(tb.broker(), tb->peek(kQueue, 0, count), ErrorCode::InvalidArgument);
    else
        HG_VERIFY_REFUSED(tb.broker(), tb->listMessages(kQueue, 0, count),
                          ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_L8_receiveDeferredUnknownSequenceNumber_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("never used") << "unknown";
    QTest::newRow("active message") << "active";
    QTest::newRow("locked message") << "locked";
    QTest::newRow("scheduled message") << "scheduled";
    QTest::newRow("completed message") << "completed";
    QTest::newRow("deferred, but in the dead-letter queue path") << "deadLetterPath";
}

void TestEngineBadInput::badinput_L8_receiveDeferredUnknownSequenceNumber() {
    QFETCH(QString, which);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    const auto listed = tb->listMessages(kQueue, 0, 100);
    HG_VERIFY_OK(listed);
    qint64 seq = 0;
    QString path = kQueue;
    for (const MessageView& m : *listed) {
        const bool match =
            (which == QLatin1String("active") && m.state == MessageState::Active && !m.locked) ||
            (which == QLatin1String("locked") && m.locked) ||
            (which == QLatin1String("scheduled") && m.state == MessageState::Scheduled) ||
            (which == QLatin1String("deadLetterPath") && m.state == MessageState::Deferred);
        if (match)
            seq = m.sequenceNumber;
    }
    if (which == QLatin1String("unknown")) {
        seq = 987654321;
    } else if (which == QLatin1String("completed")) {
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        HG_VERIFY_OK(tb->complete(LockRef::of(got->first())));
        seq = got->first().sequenceNumber;
    } else if (which == QLatin1String("deadLetterPath")) {
        path = QStringLiteral("q/$deadletterqueue");
    }
    QVERIFY(seq > 0);
    HG_VERIFY_REFUSED(tb.broker(), tb->receiveDeferred(path, seq, QStringLiteral("r")),
                      ErrorCode::MessageNotFound);
}

void TestEngineBadInput::badinput_L9_badLocks_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("lock");
    for (const char* action : {"complete", "abandon", "deadLetter", "defer", "renewLock"}) {
        for (const char* lock :
             {"null token", "unknown token", "another receiver", "no receiver named",
              "another entity", "dead-letter path", "expired", "settled twice"})
            QTest::addRow("%s, %s", action, lock) << action << lock;
    }
}

void TestEngineBadInput::badinput_L9_badLocks() {
    QFETCH(QString, action);
    QFETCH(QString, lock);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("mine")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    LockRef ref = LockRef::of(got->first());
    if (lock == QLatin1String("null token"))
        ref.lockToken = QUuid();
    else if (lock == QLatin1String("unknown token"))
        ref.lockToken = QUuid::createUuid();
    else if (lock == QLatin1String("another receiver"))
        ref.receiver = QStringLiteral("holder");
    else if (lock == QLatin1String("no receiver named"))
        ref.receiver.clear();
    else if (lock == QLatin1String("another entity"))
        ref.entityPath = kSub;
    else if (lock == QLatin1String("dead-letter path"))
        ref.entityPath = QStringLiteral("q/$deadletterqueue");
    else if (lock == QLatin1String("expired"))
        tb.advance(seconds(30) + 1);
    else if (lock == QLatin1String("settled twice"))
        HG_VERIFY_OK(tb->complete(ref));

    if (action == QLatin1String("complete"))
        HG_VERIFY_REFUSED(tb.broker(), tb->complete(ref), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("abandon"))
        HG_VERIFY_REFUSED(tb.broker(), tb->abandon(ref), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("deadLetter"))
        HG_VERIFY_REFUSED(tb.broker(), tb->deadLetter(ref), ErrorCode::MessageLockLost);
    else if (action == QLatin1String("defer"))
        HG_VERIFY_REFUSED(tb.broker(), tb->defer(ref), ErrorCode::MessageLockLost);
    else
        HG_VERIFY_REFUSED(tb.broker(), tb->renewLock(ref), ErrorCode::MessageLockLost);
}

void TestEngineBadInput::badinput_L11_cancelScheduledUnknownSequenceNumber_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("never used") << "unknown";
    QTest::newRow("active message") << "active";
    QTest::newRow("deferred message") << "deferred";
    QTest::newRow("cancelled already") << "cancelled";
    QTest::newRow("scheduled in another queue") << "otherQueue";
}

void TestEngineBadInput::badinput_L11_cancelScheduledUnknownSequenceNumber() {
    QFETCH(QString, which);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    qint64 seq = 0;
    const auto listed = tb->listMessages(kQueue, 0, 100);
    HG_VERIFY_OK(listed);
    for (const MessageView& m : *listed) {
        if ((which == QLatin1String("active") && m.state == MessageState::Active) ||
            (which == QLatin1String("deferred") && m.state == MessageState::Deferred))
            seq = m.sequenceNumber;
    }
    if (which == QLatin1String("unknown")) {
        seq = 987654321;
    } else if (which == QLatin1String("cancelled")) {
        const auto scheduled =
            tb->schedule(kQueue, TestBroker::message(QStringLiteral("c")), kTestStart + hours(3));
        HG_VERIFY_OK(scheduled);
        seq = scheduled->sequenceNumber;
        HG_VERIFY_OK(tb->cancelScheduled(kQueue, seq));
    } else if (which == QLatin1String("otherQueue")) {
        HG_VERIFY_OK(tb->createQueue(QStringLiteral("other"), {}));
        // Numbers past every number q has used, in case numbering is per entity.
        for (int i = 0; i < 8; ++i)
            HG_VERIFY_OK(tb->send(QStringLiteral("other"), TestBroker::message("pad")));
        const auto scheduled =
            tb->schedule(QStringLiteral("other"), TestBroker::message(QStringLiteral("o")),
                         kTestStart + hours(3));
        HG_VERIFY_OK(scheduled);
        seq = scheduled->sequenceNumber;
        const auto inQueue = tb->message(kQueue, seq);
        QVERIFY2(!inQueue || inQueue->state != MessageState::Scheduled,
                 "test setup: the number also names a scheduled message of q");
    }
    QVERIFY(seq > 0);
    HG_VERIFY_REFUSED(tb.broker(), tb->cancelScheduled(kQueue, seq), ErrorCode::MessageNotFound);
}

void TestEngineBadInput::badinput_L12_messageUnknownSequenceNumber() {
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(), tb->message(kQueue, 987654321), ErrorCode::MessageNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->message(QStringLiteral("q/$deadletterqueue"), 987654321),
                      ErrorCode::MessageNotFound);
    // The dead-lettered message is not in the main queue under its number, nor the reverse.
    const auto dead = tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 1);
    const auto main = tb->listMessages(kQueue, 0, 100);
    HG_VERIFY_OK(main);
    for (const MessageView& m : *main)
        QVERIFY(m.sequenceNumber != dead->first().sequenceNumber);
    HG_VERIFY_REFUSED(tb.broker(), tb->message(kQueue, dead->first().sequenceNumber),
                      ErrorCode::MessageNotFound);
}

void TestEngineBadInput::badinput_R2_badRules_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("SQL filter") << "sql";
    QTest::newRow("empty correlation filter") << "emptyCorrelation";
}

void TestEngineBadInput::badinput_R2_badRules() {
    QFETCH(QString, kind);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    Rule rule;
    rule.name = QStringLiteral("bad");
    if (kind == QLatin1String("sql")) {
        rule.filterType = FilterType::Sql;
        rule.sqlExpression = QStringLiteral("sys.Label = = 'x'");
    } else {
        rule.filterType = FilterType::Correlation;
    }
    HG_VERIFY_REFUSED(tb.broker(), tb->addRule(kSub, rule), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->createSubscription(QStringLiteral("t/Subscriptions/s2"), {}, {rule}),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->removeRule(kSub, QStringLiteral("bad")),
                      ErrorCode::MessagingEntityNotFound);
}

void TestEngineBadInput::badinput_advanceClockBackwards() {
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    const Instant before = tb.clock().now();
    HG_VERIFY_REFUSED(tb.broker(), tb->advanceClock(-1), ErrorCode::InvalidArgument);
    QCOMPARE(tb.clock().now(), before);
}

void TestEngineBadInput::badinput_snapshotSeesEveryChange() {
    // The checker itself: a snapshot must notice any change a refused call could make, or
    // HG_VERIFY_REFUSED would prove nothing.
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    BrokerSnapshot last = BrokerSnapshot::take(tb.broker());
    // True when the snapshot differs from the previous one; names what it missed or saw.
    const auto changed = [&](const char* what) {
        const BrokerSnapshot now = BrokerSnapshot::take(tb.broker());
        const QString difference = last.differenceFrom(now);
        last = now;
        qDebug("%s: %s", what, difference.isEmpty() ? "no change" : qPrintable(difference));
        return !difference.isEmpty();
    };
    QVERIFY(!changed("nothing"));
    HG_VERIFY_OK(tb->peek(kQueue, 0, 1)); // only the activity time moves
    QVERIFY(!changed("a peek at the same instant"));
    tb.advance(seconds(1));
    QVERIFY(!changed("time passing with nothing due"));
    HG_VERIFY_OK(tb->peek(kQueue, 0, 1));
    QVERIFY(changed("a peek one second later (activity)"));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QVERIFY(changed("a lock"));
    HG_VERIFY_OK(tb->renewLock(LockRef::of(got->first())));
    tb.advance(1);
    HG_VERIFY_OK(tb->renewLock(LockRef::of(got->first())));
    QVERIFY(changed("a renewed lock"));
    HG_VERIFY_OK(tb->abandon(LockRef::of(got->first()), {{QStringLiteral("k"), 1}}));
    QVERIFY(changed("an abandon with a property"));
    Rule rule;
    rule.name = QStringLiteral("r2");
    rule.filterType = FilterType::False;
    HG_VERIFY_OK(tb->addRule(kSub, rule));
    QVERIFY(changed("a rule"));
    HG_VERIFY_OK(tb->createNamespace({QStringLiteral("other"), Tier::Basic}));
    QVERIFY(changed("a namespace"));
}
