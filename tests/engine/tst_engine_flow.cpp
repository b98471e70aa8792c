// What went through an entity (Broker::flow, EntityFlow): the counters the throughput chart turns
// into sent / received / completed / expired / dead-lettered per second. Each is counted once,
// where it happens, whatever the path a message took (a send, a schedule, a topic's copy, a
// forward, a transfer). Every test runs on a paused VirtualClock.
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

EntityFlow flowOf(Broker& broker, const QString& path) {
    const auto flow = broker.flow(path);
    if (!flow)
        qFatal("flow(%s): %s", qPrintable(path), qPrintable(flow.error().toString()));
    return *flow;
}

OutgoingMessage expiring(const QString& id, Millis ttl) {
    OutgoingMessage message = TestBroker::message(id);
    message.timeToLive = ttl;
    return message;
}

} // namespace

class TestEngineFlow : public QObject {
    Q_OBJECT
private slots:
    void sendsReceivesAndCompletionsAreCounted();
    void expiryAndDeadLetteringAreCounted();
    void topicCopiesAndForwardsArriveWhereTheyLand();
    void scheduledTopicMessagesAndFailedForwardsArriveOnce();
    void transfersAndResubmitsArrive();
    void unknownEntityIsAnErrorAndCountersLiveInMemory();
};

void TestEngineFlow::sendsReceivesAndCompletionsAreCounted() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("q"), {}));
    QCOMPARE(flowOf(b, QStringLiteral("q")), EntityFlow{});

    QVERIFY(b.sendBatch(QStringLiteral("q"), {TestBroker::message(QStringLiteral("a")),
                                              TestBroker::message(QStringLiteral("b")),
                                              TestBroker::message(QStringLiteral("c"))}));
    // A scheduled message counts when it is sent, and not again when it activates.
    QVERIFY(b.schedule(QStringLiteral("q"), TestBroker::message(QStringLiteral("later")),
                       kTestStart + minutes(1)));
    QCOMPARE(flowOf(b, QStringLiteral("q")).sent, 4);
    t.advance(minutes(2));
    QCOMPARE(flowOf(b, QStringLiteral("q")).sent, 4);

    const auto locked = b.receive(QStringLiteral("q"), peekLock(QStringLiteral("r"), 2));
    QVERIFY(locked && locked->size() == 2);
    QVERIFY(b.complete(LockRef::of(locked->at(0))));
    QVERIFY(b.abandon(LockRef::of(locked->at(1)))); // settled, but not completed
    QVERIFY(b.receive(QStringLiteral("q"), receiveAndDelete(1)));
    // A deferred message received again is handed out again.
    const auto deferring = b.receive(QStringLiteral("q"), peekLock(QStringLiteral("r")));
    QVERIFY(deferring && deferring->size() == 1);
    QVERIFY(b.defer(LockRef::of(deferring->first())));
    const auto deferred = b.receiveDeferred(QStringLiteral("q"), deferring->first().sequenceNumber,
                                            QStringLiteral("r"));
    QVERIFY(deferred);
    QVERIFY(b.complete(LockRef::of(*deferred)));
    // A failed settlement counts nothing.
    QCOMPARE(b.complete(LockRef::of(locked->at(0))).error().code, ErrorCode::MessageLockLost);

    EntityFlow expected;
    expected.sent = 4;
    expected.received = 5; // two locked, one received and deleted, one deferred + its re-receive
    expected.completed = 2;
    QCOMPARE(flowOf(b, QStringLiteral("q")), expected);
    // The dead-letter sub-queue's path names the same entity.
    QCOMPARE(flowOf(b, QStringLiteral("q/$deadletterqueue")), expected);
}

void TestEngineFlow::expiryAndDeadLetteringAreCounted() {
    TestBroker t;
    Broker& b = t.broker();
    EntityProperties keeping;
    keeping.deadLetteringOnMessageExpiration = true;
    keeping.maxDeliveryCount = 1;
    QVERIFY(b.createQueue(QStringLiteral("keeps"), keeping));
    QVERIFY(b.createQueue(QStringLiteral("drops"), {}));
    for (const QString& queue : {QStringLiteral("keeps"), QStringLiteral("drops")})
        QVERIFY(b.sendBatch(queue, {expiring(QStringLiteral("x1"), minutes(1)),
                                    expiring(QStringLiteral("x2"), minutes(1))}));
    QVERIFY(b.send(QStringLiteral("keeps"), TestBroker::message(QStringLiteral("poison"))));
    QVERIFY(b.send(QStringLiteral("keeps"), TestBroker::message(QStringLiteral("manual"))));

    t.advance(minutes(2)); // T7: the four short-lived messages expire
    EntityFlow keeps = flowOf(b, QStringLiteral("keeps"));
    QCOMPARE(keeps.expired, 2);
    QCOMPARE(keeps.deadLettered, 2); // expired into the dead-letter queue: both counts
    EntityFlow drops = flowOf(b, QStringLiteral("drops"));
    QCOMPARE(drops.expired, 2);
    QCOMPARE(drops.deadLettered, 0); // dropped

    // L6: abandoned once with MaxDeliveryCount 1. L7: dead-lettered by the receiver.
    const auto poison = b.receive(QStringLiteral("keeps"), peekLock(QStringLiteral("r")));
    QVERIFY(poison && poison->size() == 1);
    QVERIFY(b.abandon(LockRef::of(poison->first())));
    const auto manual = b.receive(QStringLiteral("keeps"), peekLock(QStringLiteral("r")));
    QVERIFY(manual && manual->size() == 1);
    QCOMPARE(manual->first().messageId, QStringLiteral("manual"));
    QVERIFY(b.deadLetter(LockRef::of(manual->first()), {QStringLiteral("Poison"), {}, {}}));
    keeps = flowOf(b, QStringLiteral("keeps"));
    QCOMPARE(keeps.deadLettered, 4);
    QCOMPARE(keeps.expired, 2);
    QCOMPARE(keeps.received, 2);
    const auto counts = b.counts(QStringLiteral("keeps"));
    QVERIFY(counts);
    QCOMPARE(counts->deadLettered, 4);
}

void TestEngineFlow::topicCopiesAndForwardsArriveWhereTheyLand() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createTopic(QStringLiteral("events"), {}));
    QVERIFY(b.createSubscription(QStringLiteral("events/Subscriptions/all"), {}));
    Rule none;
    none.name = QStringLiteral("none");
    none.filterType = FilterType::False;
    QVERIFY(b.createSubscription(QStringLiteral("events/Subscriptions/none"), {}, {none}));
    QVERIFY(b.createQueue(QStringLiteral("sink"), {}));
    EntityProperties forwarding;
    forwarding.forwardTo = QStringLiteral("sink");
    QVERIFY(b.createQueue(QStringLiteral("relay"), forwarding));

    QVERIFY(b.sendBatch(QStringLiteral("events"), {TestBroker::message(QStringLiteral("e1")),
                                                   TestBroker::message(QStringLiteral("e2"))}));
    QCOMPARE(flowOf(b, QStringLiteral("events")).sent, 2);
    QCOMPARE(flowOf(b, QStringLiteral("events/Subscriptions/all")).sent, 2);
    QCOMPARE(flowOf(b, QStringLiteral("events/Subscriptions/none")).sent, 0); // no rule matched

    QVERIFY(b.send(QStringLiteral("relay"), TestBroker::message(QStringLiteral("f"))));
    QCOMPARE(flowOf(b, QStringLiteral("relay")).sent, 1);
    QCOMPARE(flowOf(b, QStringLiteral("sink")).sent, 1);
    const auto sinkCounts = b.counts(QStringLiteral("sink"));
    QVERIFY(sinkCounts);
    QCOMPARE(sinkCounts->active, 1);

    // ForwardDeadLetteredMessagesTo: dead-lettered at the source, arrived at the destination.
    EntityProperties deadForwarding;
    deadForwarding.forwardDeadLetteredMessagesTo = QStringLiteral("sink");
    QVERIFY(b.createQueue(QStringLiteral("work"), deadForwarding));
    QVERIFY(b.send(QStringLiteral("work"), TestBroker::message(QStringLiteral("w"))));
    const auto got = b.receive(QStringLiteral("work"), peekLock(QStringLiteral("r")));
    QVERIFY(got && got->size() == 1);
    QVERIFY(b.deadLetter(LockRef::of(got->first()), {QStringLiteral("Bad"), {}, {}}));
    QCOMPARE(flowOf(b, QStringLiteral("work")).deadLettered, 1);
    QCOMPARE(flowOf(b, QStringLiteral("sink")).sent, 2);
}

// A topic's scheduled message counts on the topic when it is sent and in its subscriptions when
// it activates. A subscription whose ForwardTo fails dead-letters its copy (ForwardingFailed):
// counted there as arrived and dead-lettered; the send still names the topic's own number.
void TestEngineFlow::scheduledTopicMessagesAndFailedForwardsArriveOnce() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createTopic(QStringLiteral("events"), {}));
    QVERIFY(b.createSubscription(QStringLiteral("events/Subscriptions/all"), {}));
    QVERIFY(b.createQueue(QStringLiteral("gone"), {}));
    EntityProperties forwarding;
    forwarding.forwardTo = QStringLiteral("gone");
    QVERIFY(b.createSubscription(QStringLiteral("events/Subscriptions/relay"), forwarding));
    QVERIFY(b.deleteEntity(QStringLiteral("gone"))); // every forward fails from now on

    QVERIFY(b.schedule(QStringLiteral("events"), TestBroker::message(QStringLiteral("later")),
                       kTestStart + minutes(1)));
    QCOMPARE(flowOf(b, QStringLiteral("events")).sent, 1);
    QCOMPARE(flowOf(b, QStringLiteral("events/Subscriptions/all")).sent, 0);
    t.advance(minutes(2));
    QCOMPARE(flowOf(b, QStringLiteral("events")).sent, 1);
    QCOMPARE(flowOf(b, QStringLiteral("events/Subscriptions/all")).sent, 1);
    EntityFlow relay = flowOf(b, QStringLiteral("events/Subscriptions/relay"));
    QCOMPARE(relay.sent, 1);
    QCOMPARE(relay.deadLettered, 1);

    const auto sent = b.send(QStringLiteral("events"), TestBroker::message(QStringLiteral("now")));
    QVERIFY(sent);
    const auto copies = b.listMessages(QStringLiteral("events/Subscriptions/all"), 0, 10);
    QVERIFY(copies && copies->size() == 2);
    QCOMPARE(sent->sequenceNumber, copies->last().sequenceNumber); // not the dead letter's
    relay = flowOf(b, QStringLiteral("events/Subscriptions/relay"));
    QCOMPARE(relay.deadLettered, 2);
    const auto dead =
        b.listMessages(QStringLiteral("events/Subscriptions/relay/$deadletterqueue"), 0, 10);
    QVERIFY(dead && dead->size() == 2);
    QVERIFY(dead->last().sequenceNumber != sent->sequenceNumber);
}

void TestEngineFlow::transfersAndResubmitsArrive() {
    TestBroker t;
    Broker& b = t.broker();
    QVERIFY(b.createQueue(QStringLiteral("q"), {}));
    QVERIFY(b.createQueue(QStringLiteral("archive"), {}));
    QVERIFY(b.sendBatch(QStringLiteral("q"), {TestBroker::message(QStringLiteral("a")),
                                              TestBroker::message(QStringLiteral("b"))}));
    QVERIFY(b.transferMessages(QStringLiteral("q"), {1}, QStringLiteral("archive"),
                               Broker::Transfer::Copy));
    QVERIFY(b.transferMessages(QStringLiteral("q"), {2}, QStringLiteral("archive"),
                               Broker::Transfer::Move));
    QCOMPARE(flowOf(b, QStringLiteral("archive")).sent, 2);
    QCOMPARE(flowOf(b, QStringLiteral("q")).sent, 2); // taking out is not receiving
    QCOMPARE(flowOf(b, QStringLiteral("q")).received, 0);

    const auto got = b.receive(QStringLiteral("q"), peekLock(QStringLiteral("r")));
    QVERIFY(got && got->size() == 1);
    QVERIFY(b.deadLetter(LockRef::of(got->first()), {QStringLiteral("Bad"), {}, {}}));
    QVERIFY(b.resubmit(QStringLiteral("q/$deadletterqueue"), {got->first().sequenceNumber}));
    const EntityFlow q = flowOf(b, QStringLiteral("q"));
    QCOMPARE(q.sent, 3); // sent again by the resubmit
    QCOMPARE(q.deadLettered, 1);
}

void TestEngineFlow::unknownEntityIsAnErrorAndCountersLiveInMemory() {
    TestBroker t;
    QCOMPARE(t->flow(QStringLiteral("missing")).error().code, ErrorCode::MessagingEntityNotFound);
    QCOMPARE(t->flow(QStringLiteral("bad name!")).error().code, ErrorCode::InvalidArgument);
    QVERIFY(t->createQueue(QStringLiteral("q"), {}));
    QVERIFY(t->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("a"))));
    QCOMPARE(flowOf(t.broker(), QStringLiteral("q")).sent, 1);
    // Counted since the broker opened: the message is still there, the count starts over.
    t.reopen();
    QCOMPARE(flowOf(t.broker(), QStringLiteral("q")), EntityFlow{});
    QCOMPARE(t->counts(QStringLiteral("q"))->active, 1);
    // An entity created again starts from zero.
    QVERIFY(t->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("b"))));
    QVERIFY(t->deleteEntity(QStringLiteral("q")));
    QVERIFY(t->createQueue(QStringLiteral("q"), {}));
    QCOMPARE(flowOf(t.broker(), QStringLiteral("q")), EntityFlow{});
}

QTEST_GUILESS_MAIN(TestEngineFlow)
#include "tst_engine_flow.moc"
