// Entities, part 1 (service-bus-rules.md E1-E4): namespaces, paths, names, properties and their
// defaults, the $Default rule.
#include "TestEngineEntities.h"

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kSubscriptions = QStringLiteral("/Subscriptions/");

QString repeated(QChar c, int count) {
    return QString(count, c);
}
} // namespace

void TestEngineEntities::entities_E1_queueTopicSubscriptionPaths() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("orders"), {}));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("shop/eu/orders"), {}));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("events"), {}));
    const QString sub = QStringLiteral("events") + kSubscriptions + QStringLiteral("audit");
    HG_VERIFY_OK(tb->createSubscription(sub, {}));

    const auto queue = tb->entity(QStringLiteral("orders"));
    HG_VERIFY_OK(queue);
    QCOMPARE(queue->kind, EntityKind::Queue);
    QCOMPARE(queue->path, QStringLiteral("orders"));
    QCOMPARE(queue->name, QStringLiteral("orders"));
    QCOMPARE(queue->namespaceName, QStringLiteral("test"));
    QVERIFY(queue->topicPath.isEmpty());
    QCOMPARE(queue->createdAt, kTestStart);

    const auto nested = tb->entity(QStringLiteral("shop/eu/orders"));
    HG_VERIFY_OK(nested);
    QCOMPARE(nested->path, QStringLiteral("shop/eu/orders"));
    QCOMPARE(nested->name, QStringLiteral("orders"));

    const auto topic = tb->entity(QStringLiteral("events"));
    HG_VERIFY_OK(topic);
    QCOMPARE(topic->kind, EntityKind::Topic);

    const auto subscription = tb->entity(sub);
    HG_VERIFY_OK(subscription);
    QCOMPARE(subscription->kind, EntityKind::Subscription);
    QCOMPARE(subscription->path, sub);
    QCOMPARE(subscription->name, QStringLiteral("audit"));
    QCOMPARE(subscription->topicPath, QStringLiteral("events"));

    // A path may name its namespace.
    const auto qualified = tb->entity(QStringLiteral("test:") + sub);
    HG_VERIFY_OK(qualified);
    QCOMPARE(qualified->path, sub);
    QCOMPARE(qualified->kind, EntityKind::Subscription);
}

void TestEngineEntities::entities_E1_entitiesListsQueuesAndTopicsBeforeSubscriptions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t2"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t2/Subscriptions/s"), {}));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q1"), {}));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t1"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t1/Subscriptions/b"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t1/Subscriptions/a"), {}));

    QStringList paths;
    QList<EntityKind> kinds;
    for (const EntityInfo& e : tb->entities()) {
        paths << e.path;
        kinds << e.kind;
    }
    QCOMPARE(paths.size(), 6);
    // Queues and topics come first, then subscriptions, each in path order.
    for (int i = 0; i < 3; ++i)
        QVERIFY2(kinds[i] != EntityKind::Subscription, qPrintable(paths.join(u',')));
    QStringList firstGroup = paths.mid(0, 3);
    QStringList sortedFirst = firstGroup;
    sortedFirst.sort();
    QCOMPARE(sortedFirst,
             (QStringList{QStringLiteral("q1"), QStringLiteral("t1"), QStringLiteral("t2")}));
    QCOMPARE(paths.mid(3), (QStringList{QStringLiteral("t1/Subscriptions/a"),
                                        QStringLiteral("t1/Subscriptions/b"),
                                        QStringLiteral("t2/Subscriptions/s")}));

    // The same listing by namespace name.
    QCOMPARE(tb->entities(QStringLiteral("test")).size(), 6);
}

void TestEngineEntities::entities_E1_deadLetterSubQueuePath() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m1"))));
    const auto got = tb->receive(QStringLiteral("q"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));

    const auto main = tb->listMessages(QStringLiteral("q"), 0, 10);
    HG_VERIFY_OK(main);
    QVERIFY(main->isEmpty());
    const auto dead = tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 1);
    QCOMPARE(dead->first().messageId, QStringLiteral("m1"));
    QCOMPARE(dead->first().subQueue, SubQueue::DeadLetter);
    QCOMPARE(dead->first().entityPath, QStringLiteral("q"));

    // Topics' subscriptions have dead-letter queues too.
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), {}));
    const auto subDead =
        tb->listMessages(QStringLiteral("t/Subscriptions/s/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(subDead);
    QVERIFY(subDead->isEmpty());
}

void TestEngineEntities::entities_E1_namespacesHoldSeparateEntities() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createNamespace({QStringLiteral("second"), Tier::Premium}));
    const QList<NamespaceInfo> spaces = tb->namespaces();
    QCOMPARE(spaces.size(), 2);
    QStringList names;
    for (const NamespaceInfo& ns : spaces)
        names << ns.name;
    QVERIFY(names.contains(QStringLiteral("test")));
    QVERIFY(names.contains(QStringLiteral("second")));

    // Names are unique inside a namespace, not across namespaces.
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("jobs"), {}));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("second:jobs"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("second:jobs"), TestBroker::message(QStringLiteral("x"))));

    const auto firstCounts = tb->counts(QStringLiteral("jobs"));
    HG_VERIFY_OK(firstCounts);
    QCOMPARE(firstCounts->active, qint64(0));
    const auto secondCounts = tb->counts(QStringLiteral("second:jobs"));
    HG_VERIFY_OK(secondCounts);
    QCOMPARE(secondCounts->active, qint64(1));

    const QList<EntityInfo> inSecond = tb->entities(QStringLiteral("second"));
    QCOMPARE(inSecond.size(), 1);
    QCOMPARE(inSecond.first().namespaceName, QStringLiteral("second"));
    QCOMPARE(inSecond.first().path, QStringLiteral("jobs"));
    QCOMPARE(tb->entities().size(), 2);

    HG_VERIFY_OK(tb->deleteNamespace(QStringLiteral("second")));
    HG_VERIFY_ERROR(tb->entity(QStringLiteral("second:jobs")), ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_OK(tb->entity(QStringLiteral("jobs")));
    QCOMPARE(tb->namespaces().size(), 1);
}

void TestEngineEntities::entities_E1_deleteTopicDeletesItsSubscriptions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/a"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/b"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), TestBroker::message(QStringLiteral("m"))));
    HG_VERIFY_OK(tb->deleteEntity(QStringLiteral("t")));
    HG_VERIFY_ERROR(tb->entity(QStringLiteral("t/Subscriptions/a")),
                    ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_ERROR(tb->entity(QStringLiteral("t/Subscriptions/b")),
                    ErrorCode::MessagingEntityNotFound);
    QVERIFY(tb->entities().isEmpty());

    // A new topic of the same name starts empty, without the old subscriptions.
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    QCOMPARE(tb->entities().size(), 1);
}

void TestEngineEntities::entities_E1_deleteQueueDeletesItsMessages() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m1"))));
    HG_VERIFY_OK(tb->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m2"))));
    const auto got = tb->receive(QStringLiteral("q"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));

    HG_VERIFY_OK(tb->deleteEntity(QStringLiteral("q")));
    HG_VERIFY_ERROR(tb->counts(QStringLiteral("q")), ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_ERROR(tb->listMessages(QStringLiteral("q"), 0, 10),
                    ErrorCode::MessagingEntityNotFound);

    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    const auto counts = tb->counts(QStringLiteral("q"));
    HG_VERIFY_OK(counts);
    QCOMPARE(*counts, EntityCounts{});
    const auto dead = tb->listMessages(QStringLiteral("q/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QVERIFY(dead->isEmpty());
}

void TestEngineEntities::entities_E2_validQueueAndTopicNames_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("lastSegment");
    QTest::newRow("one letter") << "a"
                                << "a";
    QTest::newRow("one digit") << "7"
                               << "7";
    QTest::newRow("punctuation") << "a.b-c_d"
                                 << "a.b-c_d";
    QTest::newRow("mixed case") << "OrdersEU"
                                << "OrdersEU";
    QTest::newRow("segments") << "shop/eu/orders.v2"
                              << "orders.v2";
    QTest::newRow("260 characters") << repeated(u'q', 260) << repeated(u'q', 260);
    const QString segmented = repeated(u'x', 129) + u'/' + repeated(u'y', 130);
    QTest::newRow("260 characters in segments") << segmented << repeated(u'y', 130);
}

void TestEngineEntities::entities_E2_validQueueAndTopicNames() {
    QFETCH(QString, path);
    QFETCH(QString, lastSegment);
    QCOMPARE(path.size() <= 260, true);
    {
        TestBroker tb;
        const auto created = tb->createQueue(path, {});
        HG_VERIFY_OK(created);
        QCOMPARE(created->path, path);
        QCOMPARE(created->name, lastSegment);
        HG_VERIFY_OK(tb->send(path, TestBroker::message(QStringLiteral("m"))));
        const auto counts = tb->counts(path);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->active, qint64(1));
    }
    {
        TestBroker tb;
        const auto created = tb->createTopic(path, {});
        HG_VERIFY_OK(created);
        QCOMPARE(created->path, path);
        QCOMPARE(created->kind, EntityKind::Topic);
    }
}

void TestEngineEntities::entities_E2_subscriptionAndRuleNamesUpTo50() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    const QString name50 = repeated(u's', 50);
    const QString path = QStringLiteral("t/Subscriptions/") + name50;
    const auto created = tb->createSubscription(path, {});
    HG_VERIFY_OK(created);
    QCOMPARE(created->name, name50);
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/a.b-c_1"), {}));

    Rule rule;
    rule.name = repeated(u'r', 50);
    rule.filterType = FilterType::False;
    HG_VERIFY_OK(tb->addRule(path, rule));
    const auto info = tb->entity(path);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules.size(), 2);
    QVERIFY(info->rules.contains(rule));
}

void TestEngineEntities::entities_E3_queueDefaults() {
    TestBroker tb;
    const auto created = tb->createQueue(QStringLiteral("q"), EntityProperties{});
    HG_VERIFY_OK(created);
    const EntityProperties& p = created->properties;
    QCOMPARE(p.defaultMessageTimeToLive, kInfinite);
    QCOMPARE(p.lockDuration, minutes(1));
    QCOMPARE(p.maxDeliveryCount, 10);
    QCOMPARE(p.deadLetteringOnMessageExpiration, false);
    QCOMPARE(p.autoDeleteOnIdle, kInfinite);
    QVERIFY(p.forwardTo.isEmpty());
    QVERIFY(p.forwardDeadLetteredMessagesTo.isEmpty());
    QCOMPARE(p.requiresDuplicateDetection, false);
    QCOMPARE(p.duplicateDetectionHistoryTimeWindow, minutes(10));
    QCOMPARE(p.maxSizeInMegabytes, 1024);
    QCOMPARE(p.maxMessageSizeInKilobytes, 256);
    QCOMPARE(p.status, EntityStatus::Active);
    QCOMPARE(p, EntityProperties::defaults(Tier::Standard));
    QCOMPARE(EntityProperties::defaults(Tier::Premium).defaultMessageTimeToLive, kInfinite);
    // A new queue never auto-deletes with the default infinite AutoDeleteOnIdle.
    QCOMPARE(created->autoDeleteAt, kNever);
    QCOMPARE(created->counts, EntityCounts{});
}

void TestEngineEntities::entities_E3_basicTierDefaultTtlIs14Days() {
    QCOMPARE(EntityProperties::defaults(Tier::Basic).defaultMessageTimeToLive, days(14));
    TestBroker tb(Tier::Basic);
    const auto created =
        tb->createQueue(QStringLiteral("q"), EntityProperties::defaults(Tier::Basic));
    HG_VERIFY_OK(created);
    QCOMPARE(created->properties.defaultMessageTimeToLive, days(14));

    HG_VERIFY_OK(tb->send(QStringLiteral("q"), messageWithTtl(QStringLiteral("m"), {})));
    const auto listed = tb->listMessages(QStringLiteral("q"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    QCOMPARE(listed->first().expiresAt, kTestStart + days(14));
}

void TestEngineEntities::entities_E3_basicTierCapsMessageTtl() {
    TestBroker tb(Tier::Basic);
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), EntityProperties::defaults(Tier::Basic)));
    HG_VERIFY_OK(tb->send(QStringLiteral("q"), messageWithTtl(QStringLiteral("long"), days(30))));
    HG_VERIFY_OK(tb->send(QStringLiteral("q"), messageWithTtl(QStringLiteral("short"), hours(1))));
    const auto listed = tb->listMessages(QStringLiteral("q"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 2);
    QCOMPARE(listed->at(0).effectiveTimeToLive, days(14));
    QCOMPARE(listed->at(0).expiresAt, kTestStart + days(14));
    QCOMPARE(listed->at(1).effectiveTimeToLive, hours(1));
    QCOMPARE(listed->at(1).expiresAt, kTestStart + hours(1));
}

void TestEngineEntities::entities_E3_propertiesAreStoredAsGiven_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("queue") << int(EntityKind::Queue);
    QTest::newRow("topic") << int(EntityKind::Topic);
    QTest::newRow("subscription") << int(EntityKind::Subscription);
}

void TestEngineEntities::entities_E3_propertiesAreStoredAsGiven() {
    QFETCH(int, kind);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("target"), {}));
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));

    EntityProperties p;
    p.defaultMessageTimeToLive = hours(3);
    p.autoDeleteOnIdle = hours(2);
    p.requiresDuplicateDetection = true;
    p.duplicateDetectionHistoryTimeWindow = seconds(20);
    p.maxSizeInMegabytes = 2048;
    p.maxMessageSizeInKilobytes = 100;
    p.status = EntityStatus::SendDisabled;
    Result<EntityInfo> created = makeError(ErrorCode::GeneralError, QStringLiteral("unset"));
    QString path;
    if (kind == int(EntityKind::Topic)) {
        path = QStringLiteral("t2");
        created = tb->createTopic(path, p);
    } else {
        p.lockDuration = seconds(5);
        p.maxDeliveryCount = 1;
        p.deadLetteringOnMessageExpiration = true;
        p.forwardDeadLetteredMessagesTo = QStringLiteral("target");
        p.status = EntityStatus::ReceiveDisabled;
        // Duplicate detection is a queue and topic property (E3); a subscription has none.
        if (kind == int(EntityKind::Subscription)) {
            p.requiresDuplicateDetection = false;
            p.duplicateDetectionHistoryTimeWindow = minutes(10);
            p.maxSizeInMegabytes = 1024;
            p.maxMessageSizeInKilobytes = 256;
            path = QStringLiteral("t/Subscriptions/s");
            created = tb->createSubscription(path, p);
        } else {
            path = QStringLiteral("q");
            created = tb->createQueue(path, p);
        }
    }
    HG_VERIFY_OK(created);
    QCOMPARE(describe(created->properties), describe(p));
    const auto read = tb->entity(path);
    HG_VERIFY_OK(read);
    QCOMPARE(describe(read->properties), describe(p));
    QCOMPARE(read->properties, p);
    // Auto-delete is counted from the creation (an update and the first activity, A2).
    QCOMPARE(read->autoDeleteAt, kTestStart + hours(2));
}

void TestEngineEntities::entities_E4_newSubscriptionHasDefaultTrueRule() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    const auto created = tb->createSubscription(QStringLiteral("t/Subscriptions/s"), {});
    HG_VERIFY_OK(created);
    QCOMPARE(created->rules.size(), 1);
    QCOMPARE(created->rules.first().name, QStringLiteral("$Default"));
    QCOMPARE(created->rules.first().filterType, FilterType::True);
    QCOMPARE(created->rules.first(), Rule::trueRule());

    // The true rule lets every message in.
    OutgoingMessage m = TestBroker::message(QStringLiteral("any"));
    m.subject = QStringLiteral("whatever");
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), m));
    const auto counts = tb->counts(QStringLiteral("t/Subscriptions/s"));
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(1));
}

void TestEngineEntities::entities_E4_explicitRulesReplaceDefault() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    Rule only;
    only.name = QStringLiteral("only-eu");
    only.filterType = FilterType::Correlation;
    only.correlation.subject = QStringLiteral("eu");
    const auto created = tb->createSubscription(QStringLiteral("t/Subscriptions/s"), {}, {only});
    HG_VERIFY_OK(created);
    QCOMPARE(created->rules, QList<Rule>{only});
}

// The counts of a dead-letter queue's path are the queue's own, as its receivers see it
// (scenario-format.md, Expect): Active is what it holds and can hand out, Locked what is locked
// there.
void TestEngineEntities::entities_E1_deadLetterQueueCountsItsOwnMessages() {
    TestBroker tb;
    const QString queue = QStringLiteral("jobs");
    const QString deadLetters = QStringLiteral("jobs/$deadletterqueue");
    HG_VERIFY_OK(tb->createQueue(queue, {}));
    for (const char* id : {"a", "b", "c", "d"})
        HG_VERIFY_OK(tb->send(queue, TestBroker::message(QLatin1String(id))));
    const auto got = tb->receive(queue, peekLock(QStringLiteral("r"), 3));
    HG_VERIFY_OK(got);
    for (const MessageView& message : *got)
        HG_VERIFY_OK(tb->deadLetter(LockRef::of(message)));
    const auto held = tb->receive(deadLetters, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(held);
    QCOMPARE(held->size(), 1);

    const auto dead = tb->counts(deadLetters);
    HG_VERIFY_OK(dead);
    EntityCounts expected;
    expected.active = 2;
    expected.locked = 1;
    expected.sizeInBytes = dead->sizeInBytes;
    QCOMPARE(describe(*dead), describe(expected));
    QVERIFY(dead->sizeInBytes > 0);
    // The entity's own counts are unchanged by this: one active, three dead-lettered.
    const auto entity = tb->counts(queue);
    HG_VERIFY_OK(entity);
    QCOMPARE(entity->active, qint64(1));
    QCOMPARE(entity->deadLettered, qint64(3));
}

QTEST_GUILESS_MAIN(TestEngineEntities)
