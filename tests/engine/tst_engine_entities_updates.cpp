// Entities, part 2 (service-bus-rules.md E5): updates, the locks they lose, and what is fixed when
// an entity is created.
#include "TestEngineEntities.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

void TestEngineEntities::entities_E5_updateReplacesPropertiesAndCountsAsActivity_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("queue") << int(EntityKind::Queue);
    QTest::newRow("topic") << int(EntityKind::Topic);
    QTest::newRow("subscription") << int(EntityKind::Subscription);
}

void TestEngineEntities::entities_E5_updateReplacesPropertiesAndCountsAsActivity() {
    QFETCH(int, kind);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    QString path = QStringLiteral("t");
    if (kind == int(EntityKind::Queue)) {
        path = QStringLiteral("q");
        HG_VERIFY_OK(tb->createQueue(path, {}));
    } else if (kind == int(EntityKind::Subscription)) {
        path = QStringLiteral("t/Subscriptions/s");
        HG_VERIFY_OK(tb->createSubscription(path, {}));
    }
    tb.advance(minutes(3));
    EntityProperties p;
    p.defaultMessageTimeToLive = minutes(30);
    p.autoDeleteOnIdle = hours(1);
    p.status = EntityStatus::Disabled;
    if (kind != int(EntityKind::Topic)) {
        p.lockDuration = seconds(45);
        p.maxDeliveryCount = 4;
    }
    const auto updated = tb->updateEntity(path, p);
    HG_VERIFY_OK(updated);
    QCOMPARE(updated->properties, p);
    const auto read = tb->entity(path);
    HG_VERIFY_OK(read);
    QCOMPARE(describe(read->properties), describe(p));
    QCOMPARE(read->createdAt, kTestStart);
    QCOMPARE(read->updatedAt, kTestStart + minutes(3));
    QCOMPARE(read->lastActivityAt, kTestStart + minutes(3));
    QCOMPARE(read->autoDeleteAt, kTestStart + minutes(3) + hours(1));
}

void TestEngineEntities::entities_E5_updateLosesLocks_data() {
    QTest::addColumn<bool>("subscription");
    QTest::addColumn<bool>("updateTopic");
    QTest::newRow("queue") << false << false;
    QTest::newRow("subscription") << true << false;
    // An update of a topic is an update of each of its subscriptions.
    QTest::newRow("topic of the subscription") << true << true;
}

void TestEngineEntities::entities_E5_updateLosesLocks() {
    QFETCH(bool, subscription);
    QFETCH(bool, updateTopic);
    TestBroker tb;
    QString path = QStringLiteral("q");
    if (subscription) {
        HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
        path = QStringLiteral("t/Subscriptions/s");
        HG_VERIFY_OK(tb->createSubscription(path, {}));
        HG_VERIFY_OK(tb->send(QStringLiteral("t"), TestBroker::message(QStringLiteral("m1"))));
        HG_VERIFY_OK(tb->send(QStringLiteral("t"), TestBroker::message(QStringLiteral("m2"))));
    } else {
        HG_VERIFY_OK(tb->createQueue(path, {}));
        HG_VERIFY_OK(tb->send(path, TestBroker::message(QStringLiteral("m1"))));
        HG_VERIFY_OK(tb->send(path, TestBroker::message(QStringLiteral("m2"))));
    }
    const auto got = tb->receive(path, peekLock(QStringLiteral("r1"), 2));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 2);
    auto before = tb->counts(path);
    HG_VERIFY_OK(before);
    QCOMPARE(before->locked, qint64(2));

    EntityProperties p;
    p.maxDeliveryCount = 7; // any change is an update
    if (updateTopic) {
        EntityProperties topic;
        topic.defaultMessageTimeToLive = days(1);
        HG_VERIFY_OK(tb->updateEntity(QStringLiteral("t"), topic));
    } else {
        HG_VERIFY_OK(tb->updateEntity(path, p));
    }

    const auto after = tb->counts(path);
    HG_VERIFY_OK(after);
    QCOMPARE(after->locked, qint64(0));
    QCOMPARE(after->active, qint64(2));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(got->at(0))), ErrorCode::MessageLockLost);
    HG_VERIFY_ERROR(tb->renewLock(LockRef::of(got->at(1))), ErrorCode::MessageLockLost);

    // Both are receivable again, by anyone, in sequence order.
    const auto again = tb->receive(path, peekLock(QStringLiteral("r2"), 5));
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again), (QStringList{QStringLiteral("m1"), QStringLiteral("m2")}));
    QCOMPARE(again->at(0).sequenceNumber, got->at(0).sequenceNumber);
}

void TestEngineEntities::entities_E5_fixedAtCreation_data() {
    QTest::addColumn<bool>("topic");
    QTest::addColumn<bool>("detectionAtCreation");
    QTest::newRow("queue: turn detection off") << false << true;
    QTest::newRow("queue: turn detection on") << false << false;
    QTest::newRow("topic: turn detection off") << true << true;
    QTest::newRow("topic: turn detection on") << true << false;
}

// RequiresDuplicateDetection is chosen when the entity is created; an update that changes it is
// refused and changes nothing (other properties in the same update included).
void TestEngineEntities::entities_E5_fixedAtCreation() {
    QFETCH(bool, topic);
    QFETCH(bool, detectionAtCreation);
    TestBroker tb;
    const QString path = topic ? QStringLiteral("t") : QStringLiteral("q");
    EntityProperties created;
    created.requiresDuplicateDetection = detectionAtCreation;
    if (topic)
        HG_VERIFY_OK(tb->createTopic(path, created));
    else
        HG_VERIFY_OK(tb->createQueue(path, created));
    EntityProperties changed = created;
    changed.requiresDuplicateDetection = !detectionAtCreation;
    changed.defaultMessageTimeToLive = hours(1);
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(path, changed), ErrorCode::InvalidArgument);
    // The same update without the change goes through.
    changed.requiresDuplicateDetection = detectionAtCreation;
    HG_VERIFY_OK(tb->updateEntity(path, changed));
}

void TestEngineEntities::entities_E5_subscriptionHasNoDuplicateDetection() {
    TestBroker tb;
    EntityProperties detecting;
    detecting.requiresDuplicateDetection = true;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), detecting)); // the topic detects them
    const QString sub = QStringLiteral("t/Subscriptions/s");
    HG_VERIFY_REFUSED(tb.broker(), tb->createSubscription(sub, detecting),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_OK(tb->createSubscription(sub, {}));
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(sub, detecting), ErrorCode::InvalidArgument);
}

void TestEngineEntities::entities_E5_basicNamespaceHasNoTopics() {
    TestBroker tb(Tier::Basic);
    const EntityProperties basic = EntityProperties::defaults(Tier::Basic);
    HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(QStringLiteral("t"), basic),
                      ErrorCode::InvalidArgument);
    const auto refused = tb->createTopic(QStringLiteral("t"), basic);
    QVERIFY(refused.error().description.contains(QStringLiteral("Basic")));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), basic)); // queues are fine
    // A Standard namespace beside it still has topics.
    HG_VERIFY_OK(tb->createNamespace({QStringLiteral("std"), Tier::Standard}));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("std:t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("std:t/Subscriptions/s"), {}));
}

// E3: every broken bound is named, in the order validate() checks them (its error is the first),
// so that a form can mark every bad field at once; a valid entity has none.
void TestEngineEntities::entities_E3_everyBrokenBoundListed() {
    EntityProperties p;
    p.lockDuration = seconds(1);
    p.maxDeliveryCount = 0;
    p.maxSizeInMegabytes = 0;
    p.autoDeleteOnIdle = seconds(1);
    const QList<Error> found = p.problems(EntityKind::Queue, Tier::Standard);
    QStringList named;
    for (const Error& e : found) {
        QCOMPARE(e.code, ErrorCode::InvalidArgument);
        named << e.description.section(QLatin1Char(' '), 0, 0);
    }
    QCOMPARE(named,
             (QStringList{QStringLiteral("AutoDeleteOnIdle"), QStringLiteral("MaxSizeInMegabytes"),
                          QStringLiteral("LockDuration"), QStringLiteral("MaxDeliveryCount")}));
    QCOMPARE(p.validate(EntityKind::Queue, Tier::Standard).error().description,
             found.first().description);
    // A topic has no lock or delivery count: only what applies to it.
    QCOMPARE(p.problems(EntityKind::Topic, Tier::Standard).size(), 2);
    QVERIFY(EntityProperties().problems(EntityKind::Queue, Tier::Standard).isEmpty());
    QVERIFY(EntityProperties().problems(EntityKind::Subscription, Tier::Standard).isEmpty());
}
