// EntityPath (EntityPath.h, E1, E2): one path as a value. Parsing and splitting ("q",
// "q/$deadletterqueue", "ns:q", "t/Subscriptions/s"), the namespace, the entity, the dead-letter
// queue, the qualified name, comparing as Service Bus does (without regard to case), and whether
// a change notification names a path.

#include "hourglass/ChangeFeed.h"
#include "hourglass/EntityPath.h"

#include <QTest>

using namespace hourglass;

class TestEngineEntityPath : public QObject {
    Q_OBJECT

private slots:
    void entityPath_E1_splits_data();
    void entityPath_E1_splits();
    void entityPath_E2_parseChecks_data();
    void entityPath_E2_parseChecks();
    void entityPath_E2_parseRefuses_data();
    void entityPath_E2_parseRefuses();
    void entityPath_E1_deadLetterQueueAndOwner_data();
    void entityPath_E1_deadLetterQueueAndOwner();
    void entityPath_qualifiedName_data();
    void entityPath_qualifiedName();
    void entityPath_sameAs_data();
    void entityPath_sameAs();
    void entityPath_isNamedBy_data();
    void entityPath_isNamedBy();
    void entityPath_changeBatches_data();
    void entityPath_changeBatches();
    void entityPath_emptyPath();
};

// What a path splits into; `text` is what toString() gives back.
void TestEngineEntityPath::entityPath_E1_splits_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<bool>("qualified");
    QTest::addColumn<QString>("entity");
    QTest::addColumn<bool>("deadLetter");
    QTest::addColumn<QString>("topic");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<QString>("text");

    QTest::newRow("queue") << "orders"
                           << "" << false << "orders" << false << ""
                           << ""
                           << "orders";
    QTest::newRow("nested queue") << "shop/orders"
                                  << "" << false << "shop/orders" << false << ""
                                  << ""
                                  << "shop/orders";
    QTest::newRow("qualified queue") << "test:orders"
                                     << "test" << true << "orders" << false << ""
                                     << ""
                                     << "test:orders";
    QTest::newRow("dead-letter queue") << "orders/$deadletterqueue"
                                       << "" << false << "orders" << true << ""
                                       << ""
                                       << "orders/$deadletterqueue";
    QTest::newRow("dead-letter queue as the SDKs write it")
        << "test:orders/$DeadLetterQueue"
        << "test" << true << "orders" << true << ""
        << ""
        << "test:orders/$deadletterqueue";
    QTest::newRow("subscription") << "test:events/Subscriptions/audit"
                                  << "test" << true << "events/Subscriptions/audit" << false
                                  << "test:events"
                                  << "audit"
                                  << "test:events/Subscriptions/audit";
    QTest::newRow("subscription of a nested topic")
        << "shop/events/Subscriptions/audit"
        << "" << false << "shop/events/Subscriptions/audit" << false << "shop/events"
        << "audit"
        << "shop/events/Subscriptions/audit";
    QTest::newRow("subscription's dead-letter queue")
        << "test:events/subscriptions/audit/$deadletterqueue"
        << "test" << true << "events/subscriptions/audit" << true << "test:events"
        << "audit"
        << "test:events/subscriptions/audit/$deadletterqueue";
    QTest::newRow("'Subscriptions' first is no subscription")
        << "Subscriptions/audit"
        << "" << false << "Subscriptions/audit" << false << ""
        << ""
        << "Subscriptions/audit";
    QTest::newRow("the suffix alone is no dead-letter queue")
        << "$deadletterqueue"
        << "" << false << "$deadletterqueue" << false << ""
        << ""
        << "$deadletterqueue";
    QTest::newRow("an empty namespace stays written") << ":orders"
                                                      << "" << true << "orders" << false << ""
                                                      << ""
                                                      << ":orders";
}

void TestEngineEntityPath::entityPath_E1_splits() {
    QFETCH(QString, input);
    const EntityPath path = EntityPath::of(input);
    QTEST(path.namespaceName(), "ns");
    QTEST(path.isQualified(), "qualified");
    QTEST(path.entity(), "entity");
    QTEST(path.isDeadLetterQueue(), "deadLetter");
    QFETCH(QString, subscription);
    QCOMPARE(path.isSubscription(), !subscription.isEmpty());
    QTEST(path.topic().toString(), "topic");
    QCOMPARE(path.subscriptionName(), subscription);
    QTEST(path.toString(), "text");
}

// parse() splits as of() does and checks E2 on top; a subscription's segment is spelled as the
// engine spells it.
void TestEngineEntityPath::entityPath_E2_parseChecks_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("entity");
    QTest::addColumn<bool>("deadLetter");
    QTest::addColumn<QString>("text");

    QTest::newRow("queue") << "orders"
                           << ""
                           << "orders" << false << "orders";
    QTest::newRow("qualified dead-letter queue")
        << "test:orders/$DEADLETTERQUEUE"
        << "test"
        << "orders" << true << "test:orders/$deadletterqueue";
    QTest::newRow("subscription") << "test:events/subscriptions/audit"
                                  << "test"
                                  << "events/Subscriptions/audit" << false
                                  << "test:events/Subscriptions/audit";
    QTest::newRow("subscription's dead-letter queue")
        << "events/Subscriptions/audit/$deadletterqueue"
        << ""
        << "events/Subscriptions/audit" << true << "events/Subscriptions/audit/$deadletterqueue";
}

void TestEngineEntityPath::entityPath_E2_parseChecks() {
    QFETCH(QString, input);
    const auto path = EntityPath::parse(input);
    QVERIFY2(path.ok(), qPrintable(path ? QString() : path.error().description));
    QTEST(path->namespaceName(), "ns");
    QTEST(path->entity(), "entity");
    QTEST(path->isDeadLetterQueue(), "deadLetter");
    QTEST(path->toString(), "text");
}

void TestEngineEntityPath::entityPath_E2_parseRefuses_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("named"); // a part of the description

    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("empty namespace") << ":orders"
                                     << "namespace";
    QTest::newRow("bad namespace") << "te st:orders"
                                   << "namespace";
    QTest::newRow("bad character") << "ord ers"
                                   << "' '";
    QTest::newRow("empty segment") << "a//b"
                                   << "empty segment";
    QTest::newRow("reserved segment") << "Subscriptions/audit"
                                      << "Subscriptions";
    QTest::newRow("bad subscription name") << "t/Subscriptions/a/b"
                                           << "Subscriptions";
    QTest::newRow("the suffix alone") << "$deadletterqueue"
                                      << "'$'";
}

void TestEngineEntityPath::entityPath_E2_parseRefuses() {
    QFETCH(QString, input);
    QFETCH(QString, named);
    const auto path = EntityPath::parse(input);
    QVERIFY(!path.ok());
    QCOMPARE(path.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(path.error().description.contains(named), qPrintable(path.error().description));
}

void TestEngineEntityPath::entityPath_E1_deadLetterQueueAndOwner_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("deadLetterQueue");
    QTest::addColumn<QString>("owner");

    QTest::newRow("queue") << "test:orders"
                           << "test:orders/$deadletterqueue"
                           << "test:orders";
    QTest::newRow("its dead-letter queue") << "test:orders/$deadletterqueue"
                                           << "test:orders/$deadletterqueue"
                                           << "test:orders";
    QTest::newRow("unqualified") << "orders"
                                 << "orders/$deadletterqueue"
                                 << "orders";
    QTest::newRow("subscription") << "test:t/Subscriptions/s"
                                  << "test:t/Subscriptions/s/$deadletterqueue"
                                  << "test:t/Subscriptions/s";
}

void TestEngineEntityPath::entityPath_E1_deadLetterQueueAndOwner() {
    QFETCH(QString, input);
    const EntityPath path = EntityPath::of(input);
    QTEST(path.deadLetterQueue().toString(), "deadLetterQueue");
    QVERIFY(path.deadLetterQueue().isDeadLetterQueue());
    QTEST(path.owner().toString(), "owner");
    QVERIFY(!path.owner().isDeadLetterQueue());
    QCOMPARE(path.owner().entity(), path.entity());
}

void TestEngineEntityPath::entityPath_qualifiedName_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("defaultNamespace");
    QTest::addColumn<QString>("qualified");
    QTest::addColumn<QString>("path");

    QTest::newRow("qualified") << "test:orders"
                               << "other"
                               << "test:orders"
                               << "orders";
    QTest::newRow("given a namespace") << "orders/$deadletterqueue"
                                       << "test"
                                       << "test:orders/$deadletterqueue"
                                       << "orders/$deadletterqueue";
    QTest::newRow("no namespace at all") << "orders"
                                         << ""
                                         << "orders"
                                         << "orders";
}

void TestEngineEntityPath::entityPath_qualifiedName() {
    QFETCH(QString, input);
    QFETCH(QString, defaultNamespace);
    const EntityPath path = EntityPath::of(input);
    QTEST(path.qualifiedName(defaultNamespace), "qualified");
    QTEST(path.path(), "path");
    QCOMPARE(EntityPath::of(QStringLiteral("test"), QStringLiteral("orders")).toString(),
             QStringLiteral("test:orders"));
}

void TestEngineEntityPath::entityPath_sameAs_data() {
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");

    QTest::newRow("identical") << "test:orders"
                               << "test:orders" << true;
    QTest::newRow("case of the entity") << "test:orders"
                                        << "test:ORDERS" << true;
    QTest::newRow("case of the namespace") << "Test:orders"
                                           << "test:orders" << true;
    QTest::newRow("case of the suffix") << "test:q/$DeadLetterQueue"
                                        << "test:q/$deadletterqueue" << true;
    QTest::newRow("case of the segment") << "t/subscriptions/s"
                                         << "t/Subscriptions/s" << true;
    QTest::newRow("entity and its dead-letter queue") << "test:q"
                                                      << "test:q/$deadletterqueue" << false;
    QTest::newRow("other namespace") << "test:q"
                                     << "other:q" << false;
    QTest::newRow("qualified and not") << "test:q"
                                       << "q" << false;
    QTest::newRow("other entity") << "test:q"
                                  << "test:q2" << false;
}

void TestEngineEntityPath::entityPath_sameAs() {
    QFETCH(QString, a);
    QFETCH(QString, b);
    QTEST(EntityPath::of(a).sameAs(EntityPath::of(b)), "same");
    QTEST(EntityPath::of(b).sameAs(EntityPath::of(a)), "same");
}

// The change feed names paths qualified; a panel's path may be unqualified (the first
// namespace) and then matches in any namespace.
void TestEngineEntityPath::entityPath_isNamedBy_data() {
    QTest::addColumn<QString>("ours");
    QTest::addColumn<QString>("fromFeed");
    QTest::addColumn<bool>("named");

    QTest::newRow("qualified, same") << "test:q"
                                     << "test:q" << true;
    QTest::newRow("qualified, other case") << "test:Q"
                                           << "TEST:q" << true;
    QTest::newRow("qualified, other namespace") << "test:q"
                                                << "other:q" << false;
    QTest::newRow("unqualified, any namespace") << "q"
                                                << "other:q" << true;
    QTest::newRow("unqualified, other case") << "Q"
                                             << "test:q" << true;
    QTest::newRow("unqualified, other entity") << "q"
                                               << "test:q2" << false;
    QTest::newRow("dead-letter queue") << "test:q/$deadletterqueue"
                                       << "test:q/$deadletterqueue" << true;
    QTest::newRow("unqualified dead-letter queue") << "q/$deadletterqueue"
                                                   << "test:q/$deadletterqueue" << true;
    QTest::newRow("entity is not its dead-letter queue") << "test:q"
                                                         << "test:q/$deadletterqueue" << false;
    QTest::newRow("dead-letter queue is not its entity") << "q/$deadletterqueue"
                                                         << "test:q" << false;
}

void TestEngineEntityPath::entityPath_isNamedBy() {
    QFETCH(QString, ours);
    QFETCH(QString, fromFeed);
    const EntityPath path = EntityPath::of(ours);
    QTEST(path.isNamedBy(fromFeed), "named");
    QTEST(path.isNamedIn({QStringLiteral("test:unrelated"), fromFeed}), "named");
    QVERIFY(!path.isNamedIn({}));
}

// Which sets of a batch each question reads: messages for the path itself, entity changes for
// the entity it belongs to.
void TestEngineEntityPath::entityPath_changeBatches_data() {
    QTest::addColumn<QString>("ours");
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("named");
    QTest::addColumn<bool>("messages");
    QTest::addColumn<bool>("entity");

    const QString q = QStringLiteral("test:q");
    const QString dlq = QStringLiteral("test:q/$deadletterqueue");
    QTest::newRow("added to the queue") << q << "added" << q << true << false;
    QTest::newRow("removed from the queue") << q << "removed" << q << true << false;
    QTest::newRow("added to its dead-letter queue") << q << "added" << dlq << false << false;
    QTest::newRow("dead-letter queue: added") << dlq << "added" << dlq << true << false;
    QTest::newRow("dead-letter queue: removed") << dlq << "removed" << dlq << true << false;
    QTest::newRow("dead-letter queue: added to the entity")
        << dlq << "added" << q << false << false;
    QTest::newRow("dead-letter queue: entity deleted") << dlq << "deleted" << q << true << true;
    QTest::newRow("dead-letter queue: entity created") << dlq << "created" << q << true << true;
    QTest::newRow("dead-letter queue: entity updated") << dlq << "updated" << q << false << true;
    QTest::newRow("dead-letter queue: counts") << dlq << "counts" << q << false << true;
    QTest::newRow("counts") << q << "counts" << q << false << true;
    QTest::newRow("sessions") << q << "sessions" << q << false << false;
    QTest::newRow("another entity deleted") << q << "deleted"
                                            << "test:q2" << false << false;
    QTest::newRow("unqualified: deleted") << "q"
                                          << "deleted" << q << true << true;
}

void TestEngineEntityPath::entityPath_changeBatches() {
    QFETCH(QString, ours);
    QFETCH(QString, set);
    QFETCH(QString, named);
    ChangeBatch batch;
    QSet<QString>* target = set == u"added"     ? &batch.messagesAdded
                            : set == u"removed" ? &batch.messagesRemoved
                            : set == u"deleted" ? &batch.deleted
                            : set == u"created" ? &batch.created
                            : set == u"updated" ? &batch.updated
                            : set == u"counts"  ? &batch.countsChanged
                                                : &batch.sessionsChanged;
    target->insert(named);
    const EntityPath path = EntityPath::of(ours);
    QTEST(path.messagesChangedIn(batch), "messages");
    QTEST(path.entityChangedIn(batch), "entity");
    QVERIFY(!path.messagesChangedIn(ChangeBatch{}));
    QVERIFY(!path.entityChangedIn(ChangeBatch{}));
}

void TestEngineEntityPath::entityPath_emptyPath() {
    const EntityPath empty = EntityPath::of(QString());
    QVERIFY(empty.isEmpty());
    QVERIFY(EntityPath().isEmpty());
    QCOMPARE(empty.toString(), QString());
    QVERIFY(!empty.isSubscription());
    QVERIFY(empty.topic().isEmpty());
    QVERIFY(!EntityPath::of(QStringLiteral("q")).isEmpty());
    QVERIFY(!EntityPath::of(QStringLiteral("q")).deadLetterQueue().isEmpty());
}

QTEST_GUILESS_MAIN(TestEngineEntityPath)
#include "tst_engine_entity_path.moc"
