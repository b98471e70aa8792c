// Temporary entities (service-bus-rules.md A1-A4): auto-delete on idle, what counts as activity for
// each kind of entity, forwarding entities that never go idle, and scheduled messages that keep
// their entity.

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
const QString kTopic = QStringLiteral("t");
const QString kSub = QStringLiteral("t/Subscriptions/s");

EntityProperties idleAfter(Millis autoDeleteOnIdle) {
    EntityProperties p;
    p.autoDeleteOnIdle = autoDeleteOnIdle;
    return p;
}

bool exists(TestBroker& tb, const QString& path) {
    return tb->entity(path).ok();
}

// When the entity's idle time starts after an activity at `at` (A2): at once, or for a schedule
// (a message due two minutes later) when the message becomes active (A4). Checks the
// auto-delete instant the entity shows on the way.
void checkIdleFrom(TestBroker& tb, const QString& path, const QString& activity, Instant at,
                   Instant& idleFrom) {
    idleFrom = at;
    auto info = tb->entity(path);
    HG_VERIFY_OK(info);
    if (activity != QLatin1String("schedule")) {
        QCOMPARE(info->autoDeleteAt, at + minutes(10));
        return;
    }
    QCOMPARE(info->autoDeleteAt, kNever); // A4: not idle while it holds the message
    tb.advance(minutes(2));
    info = tb->entity(path);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, at + minutes(12));
    idleFrom = at + minutes(2);
}
} // namespace

class TestEngineAutoDelete : public QObject {
    Q_OBJECT

private slots:
    void autodelete_A1_idleQueueIsDeletedWithItsMessages();
    void autodelete_A1_idleTopicIsDeletedWithItsSubscriptions();
    void autodelete_A1_idleSubscriptionIsDeleted();
    void autodelete_A1_underFiveMinutesRefused_data();
    void autodelete_A1_underFiveMinutesRefused();
    void autodelete_A2_queueActivitiesResetIdleTimer_data();
    void autodelete_A2_queueActivitiesResetIdleTimer();
    void autodelete_A2_explorerReadsAreNotActivity_data();
    void autodelete_A2_explorerReadsAreNotActivity();
    void autodelete_A2_topicActivitiesResetIdleTimer_data();
    void autodelete_A2_topicActivitiesResetIdleTimer();
    void autodelete_A2_subscriptionActivitiesResetIdleTimer_data();
    void autodelete_A2_subscriptionActivitiesResetIdleTimer();
    void autodelete_A2_topicSendIsNotSubscriptionActivity();
    void autodelete_A3_forwardingEntityNeverIdle_data();
    void autodelete_A3_forwardingEntityNeverIdle();
    void autodelete_A4_scheduledMessagesKeepEntity_data();
    void autodelete_A4_scheduledMessagesKeepEntity();
    void autodelete_A4_cancellingLastScheduledMessageEndsIt();
};

void TestEngineAutoDelete::autodelete_A1_idleQueueIsDeletedWithItsMessages() {
    TestBroker tb;
    const auto created = tb->createQueue(kQueue, idleAfter(minutes(5)));
    HG_VERIFY_OK(created);
    QCOMPARE(created->autoDeleteAt, kTestStart + minutes(5));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("dead"))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("alive"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));
    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(5));

    tb.advance(minutes(5) - 1);
    QVERIFY(exists(tb, kQueue));
    tb.advance(2);
    HG_VERIFY_ERROR(tb->entity(kQueue), ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_ERROR(tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10),
                    ErrorCode::MessagingEntityNotFound);
    QVERIFY(tb->entities().isEmpty());

    // Its messages and dead letters went with it.
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
    const auto dead = tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
}

void TestEngineAutoDelete::autodelete_A1_idleTopicIsDeletedWithItsSubscriptions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, idleAfter(minutes(5))));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}));
    tb.advance(minutes(5) + 1);
    QVERIFY(!exists(tb, kTopic));
    QVERIFY(!exists(tb, kSub));
    QVERIFY(tb->entities().isEmpty());
}

void TestEngineAutoDelete::autodelete_A1_idleSubscriptionIsDeleted() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(kSub, idleAfter(minutes(5))));
    tb.advance(minutes(5) - 1);
    QVERIFY(exists(tb, kSub));
    tb.advance(2);
    QVERIFY(!exists(tb, kSub));
    QVERIFY(exists(tb, kTopic));
}

void TestEngineAutoDelete::autodelete_A1_underFiveMinutesRefused_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("update");
    QTest::addColumn<qint64>("value");
    const std::pair<const char*, EntityKind> kinds[] = {{"queue", EntityKind::Queue},
                                                        {"topic", EntityKind::Topic},
                                                        {"subscription", EntityKind::Subscription}};
    for (const auto& [name, kind] : kinds) {
        for (bool update : {false, true}) {
            for (const qint64 value : {qint64(1), minutes(1), minutes(5) - 1}) {
                QTest::addRow("%s %s %lld ms", update ? "update" : "create", name,
                              static_cast<long long>(value))
                    << int(kind) << update << value;
            }
        }
    }
}

void TestEngineAutoDelete::autodelete_A1_underFiveMinutesRefused() {
    QFETCH(int, kind);
    QFETCH(bool, update);
    QFETCH(qint64, value);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    QString path = kTopic;
    if (kind == int(EntityKind::Queue))
        path = kQueue;
    else if (kind == int(EntityKind::Subscription))
        path = kSub;
    if (update) {
        if (kind == int(EntityKind::Queue))
            HG_VERIFY_OK(tb->createQueue(path, {}));
        else if (kind == int(EntityKind::Subscription))
            HG_VERIFY_OK(tb->createSubscription(path, {}));
        HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(path, idleAfter(value)),
                          ErrorCode::InvalidArgument);
        return;
    }
    if (kind == int(EntityKind::Queue))
        HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(path, idleAfter(value)),
                          ErrorCode::InvalidArgument);
    else if (kind == int(EntityKind::Subscription))
        HG_VERIFY_REFUSED(tb.broker(), tb->createSubscription(path, idleAfter(value)),
                          ErrorCode::InvalidArgument);
    else
        HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(QStringLiteral("t2"), idleAfter(value)),
                          ErrorCode::InvalidArgument);
}

void TestEngineAutoDelete::autodelete_A2_queueActivitiesResetIdleTimer_data() {
    QTest::addColumn<QString>("activity");
    for (const char* activity : {"send", "receive", "update", "schedule", "peek"})
        QTest::newRow(activity) << activity;
}

void TestEngineAutoDelete::autodelete_A2_queueActivitiesResetIdleTimer() {
    QFETCH(QString, activity);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, idleAfter(minutes(10))));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    tb.advance(minutes(6));
    const Instant at = tb.clock().now();
    if (activity == QLatin1String("send")) {
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m2"))));
    } else if (activity == QLatin1String("receive")) {
        const auto got = tb->receive(kQueue, receiveAndDelete());
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
    } else if (activity == QLatin1String("update")) {
        EntityProperties p = idleAfter(minutes(10));
        p.maxDeliveryCount = 3;
        HG_VERIFY_OK(tb->updateEntity(kQueue, p));
    } else if (activity == QLatin1String("schedule")) {
        HG_VERIFY_OK(
            tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")), at + minutes(2)));
    } else if (activity == QLatin1String("peek")) {
        HG_VERIFY_OK(tb->peek(kQueue, 0, 1));
    }
    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, at);
    Instant idleFrom;
    checkIdleFrom(tb, kQueue, activity, at, idleFrom);
    if (QTest::currentTestFailed())
        return;

    tb.advance(idleFrom + minutes(10) - 1 - tb.clock().now());
    QVERIFY2(exists(tb, kQueue), "deleted although the activity reset its idle timer");
    tb.advance(2);
    QVERIFY(!exists(tb, kQueue));
}

void TestEngineAutoDelete::autodelete_A2_explorerReadsAreNotActivity_data() {
    QTest::addColumn<QString>("read");
    for (const char* read : {"listMessages", "listMessages dead letters", "message", "counts",
                             "entity", "entities", "deadLetterReasons"})
        QTest::newRow(read) << read;
}

void TestEngineAutoDelete::autodelete_A2_explorerReadsAreNotActivity() {
    QFETCH(QString, read);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, idleAfter(minutes(10))));
    const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(sent);
    tb.advance(minutes(6));
    if (read == QLatin1String("listMessages"))
        HG_VERIFY_OK(tb->listMessages(kQueue, 0, 10, Broker::Bodies::With));
    else if (read == QLatin1String("listMessages dead letters"))
        HG_VERIFY_OK(tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10));
    else if (read == QLatin1String("message"))
        HG_VERIFY_OK(tb->message(kQueue, sent->sequenceNumber));
    else if (read == QLatin1String("counts"))
        HG_VERIFY_OK(tb->counts(kQueue));
    else if (read == QLatin1String("entity"))
        HG_VERIFY_OK(tb->entity(kQueue));
    else if (read == QLatin1String("entities"))
        QCOMPARE(tb->entities().size(), 1);
    else if (read == QLatin1String("deadLetterReasons"))
        HG_VERIFY_OK(tb->deadLetterReasons(kQueue));

    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, kTestStart);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(10));
    tb.advance(minutes(4) + 1);
    QVERIFY2(!exists(tb, kQueue), "an explorer read kept the queue alive");
}

void TestEngineAutoDelete::autodelete_A2_topicActivitiesResetIdleTimer_data() {
    QTest::addColumn<QString>("activity");
    for (const char* activity :
         {"send", "update", "schedule", "subscription receive", "subscription peek",
          "subscription update", "subscription new rule", "new subscription"})
        QTest::newRow(activity) << activity;
}

void TestEngineAutoDelete::autodelete_A2_topicActivitiesResetIdleTimer() {
    QFETCH(QString, activity);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, idleAfter(minutes(10))));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    tb.advance(minutes(6));
    const Instant at = tb.clock().now();
    if (activity == QLatin1String("send")) {
        HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m2"))));
    } else if (activity == QLatin1String("update")) {
        EntityProperties p = idleAfter(minutes(10));
        p.defaultMessageTimeToLive = hours(1);
        HG_VERIFY_OK(tb->updateEntity(kTopic, p));
    } else if (activity == QLatin1String("schedule")) {
        HG_VERIFY_OK(
            tb->schedule(kTopic, TestBroker::message(QStringLiteral("s")), at + minutes(2)));
    } else if (activity == QLatin1String("subscription receive")) {
        const auto got = tb->receive(kSub, receiveAndDelete());
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
    } else if (activity == QLatin1String("subscription peek")) {
        HG_VERIFY_OK(tb->peek(kSub, 0, 1));
    } else if (activity == QLatin1String("subscription update")) {
        EntityProperties p;
        p.maxDeliveryCount = 2;
        HG_VERIFY_OK(tb->updateEntity(kSub, p));
    } else if (activity == QLatin1String("subscription new rule")) {
        Rule rule;
        rule.name = QStringLiteral("none");
        rule.filterType = FilterType::False;
        HG_VERIFY_OK(tb->addRule(kSub, rule));
    } else if (activity == QLatin1String("new subscription")) {
        HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s2"), {}));
    }
    const auto info = tb->entity(kTopic);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, at);
    Instant idleFrom;
    checkIdleFrom(tb, kTopic, activity, at, idleFrom);
    if (QTest::currentTestFailed())
        return;
    tb.advance(idleFrom + minutes(10) - 1 - tb.clock().now());
    QVERIFY2(exists(tb, kTopic), "deleted although the activity reset its idle timer");
    tb.advance(2);
    QVERIFY(!exists(tb, kTopic));
    QVERIFY(!exists(tb, kSub));
}

void TestEngineAutoDelete::autodelete_A2_subscriptionActivitiesResetIdleTimer_data() {
    QTest::addColumn<QString>("activity");
    for (const char* activity : {"receive", "update", "new rule", "peek"})
        QTest::newRow(activity) << activity;
}

void TestEngineAutoDelete::autodelete_A2_subscriptionActivitiesResetIdleTimer() {
    QFETCH(QString, activity);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(kSub, idleAfter(minutes(10))));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    tb.advance(minutes(6));
    const Instant at = tb.clock().now();
    if (activity == QLatin1String("receive")) {
        const auto got = tb->receive(kSub, receiveAndDelete());
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
    } else if (activity == QLatin1String("update")) {
        EntityProperties p = idleAfter(minutes(10));
        p.maxDeliveryCount = 2;
        HG_VERIFY_OK(tb->updateEntity(kSub, p));
    } else if (activity == QLatin1String("new rule")) {
        Rule rule;
        rule.name = QStringLiteral("none");
        rule.filterType = FilterType::False;
        HG_VERIFY_OK(tb->addRule(kSub, rule));
    } else if (activity == QLatin1String("peek")) {
        HG_VERIFY_OK(tb->peek(kSub, 0, 1));
    }
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, at);
    QCOMPARE(info->autoDeleteAt, at + minutes(10));
    tb.advance(minutes(10) - 1);
    QVERIFY2(exists(tb, kSub), "deleted although the activity reset its idle timer");
    tb.advance(2);
    QVERIFY(!exists(tb, kSub));
    QVERIFY(exists(tb, kTopic));
}

void TestEngineAutoDelete::autodelete_A2_topicSendIsNotSubscriptionActivity() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(kSub, idleAfter(minutes(10))));
    tb.advance(minutes(6));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    const auto counts = tb->counts(kSub);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(10));
    tb.advance(minutes(4) + 1);
    QVERIFY2(!exists(tb, kSub), "a message arriving from the topic kept the subscription alive");
}

void TestEngineAutoDelete::autodelete_A3_forwardingEntityNeverIdle_data() {
    QTest::addColumn<bool>("subscription");
    QTest::newRow("queue") << false;
    QTest::newRow("subscription") << true;
}

void TestEngineAutoDelete::autodelete_A3_forwardingEntityNeverIdle() {
    QFETCH(bool, subscription);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("target"), {}));
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    const QString path = subscription ? kSub : kQueue;
    EntityProperties p = idleAfter(minutes(5));
    p.forwardTo = QStringLiteral("target");
    const auto created = subscription ? tb->createSubscription(path, p) : tb->createQueue(path, p);
    HG_VERIFY_OK(created);
    QCOMPARE(created->autoDeleteAt, kNever);

    tb.advance(days(1));
    const auto info = tb->entity(path);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, kNever);

    // Without ForwardTo it idles again, counting from the update.
    HG_VERIFY_OK(tb->updateEntity(path, idleAfter(minutes(5))));
    const auto updated = tb->entity(path);
    HG_VERIFY_OK(updated);
    QCOMPARE(updated->autoDeleteAt, kTestStart + days(1) + minutes(5));
    tb.advance(minutes(5) + 1);
    QVERIFY(!exists(tb, path));
    QVERIFY(exists(tb, QStringLiteral("target")));
}

void TestEngineAutoDelete::autodelete_A4_scheduledMessagesKeepEntity_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("queue") << kQueue;
    QTest::newRow("topic") << kTopic;
}

// An entity holding a message scheduled an hour ahead is not idle while it waits: auto-delete
// never destroys a message someone scheduled for the future. Its idle time starts when the
// message becomes active.
void TestEngineAutoDelete::autodelete_A4_scheduledMessagesKeepEntity() {
    QFETCH(QString, path);
    TestBroker tb;
    if (path == kTopic)
        HG_VERIFY_OK(tb->createTopic(kTopic, idleAfter(minutes(5))));
    else
        HG_VERIFY_OK(tb->createQueue(kQueue, idleAfter(minutes(5))));
    HG_VERIFY_OK(
        tb->schedule(path, TestBroker::message(QStringLiteral("later")), kTestStart + hours(1)));
    auto info = tb->entity(path);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, kNever);

    tb.advance(minutes(5) + 1);
    QVERIFY2(exists(tb, path), "deleted after five idle minutes with a message scheduled");
    tb.advance(hours(1) - minutes(5) - 1); // the message becomes active now
    info = tb->entity(path);
    HG_VERIFY_OK(info);
    QCOMPARE(info->lastActivityAt, kTestStart + hours(1));
    QCOMPARE(info->autoDeleteAt, kTestStart + hours(1) + minutes(5));
    tb.advance(minutes(5) - 1);
    QVERIFY(exists(tb, path));
    tb.advance(1);
    QVERIFY(!exists(tb, path));
}

void TestEngineAutoDelete::autodelete_A4_cancellingLastScheduledMessageEndsIt() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, idleAfter(minutes(5))));
    const auto first =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("a")), kTestStart + hours(1));
    HG_VERIFY_OK(first);
    const auto second =
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("b")), kTestStart + hours(2));
    HG_VERIFY_OK(second);
    tb.advance(minutes(10));
    HG_VERIFY_OK(tb->cancelScheduled(kQueue, first->sequenceNumber));
    tb.advance(minutes(10));
    QVERIFY2(exists(tb, kQueue), "one scheduled message is still held");
    HG_VERIFY_OK(tb->cancelScheduled(kQueue, second->sequenceNumber)); // activity at 20 minutes
    const auto info = tb->entity(kQueue);
    HG_VERIFY_OK(info);
    QCOMPARE(info->autoDeleteAt, kTestStart + minutes(25));
    tb.advance(minutes(5) - 1);
    QVERIFY(exists(tb, kQueue));
    tb.advance(1);
    QVERIFY(!exists(tb, kQueue));
}

QTEST_GUILESS_MAIN(TestEngineAutoDelete)
#include "tst_engine_autodelete.moc"
