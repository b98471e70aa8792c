// Topics, part 2: auto-forwarding (E3), duplicate detection (L13), a disabled topic (E5) and
// peek on a topic (L12).
#include "TestEngineTopics.h"

#include "BrokerSnapshot.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

void TestEngineTopics::topics_E3_forwardToQueue_data() {
    QTest::addColumn<bool>("fromSubscription");
    QTest::newRow("queue to queue") << false;
    QTest::newRow("subscription to queue") << true;
}

void TestEngineTopics::topics_E3_forwardToQueue() {
    QFETCH(bool, fromSubscription);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("dst"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("dst"), TestBroker::message(QStringLiteral("first"))));
    EntityProperties forwarding;
    forwarding.forwardTo = QStringLiteral("dst");
    QString source = QStringLiteral("src");
    QString sendTo = source;
    if (fromSubscription) {
        HG_VERIFY_OK(tb->createTopic(kTopic, {}));
        source = sub("fwd");
        sendTo = kTopic;
        HG_VERIFY_OK(tb->createSubscription(source, forwarding));
    } else {
        HG_VERIFY_OK(tb->createQueue(source, forwarding));
    }
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"), QByteArrayLiteral("payload"));
    m.subject = QStringLiteral("subject");
    m.applicationProperties.insert(QStringLiteral("k"), QStringLiteral("v"));
    HG_VERIFY_OK(tb->send(sendTo, m));

    const auto counts = tb->counts(source);
    HG_VERIFY_OK(counts);
    QCOMPARE(describe(*counts), describe(EntityCounts{}));
    const auto listed = tb->listMessages(QStringLiteral("dst"), 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), (QStringList{QStringLiteral("first"), QStringLiteral("m")}));
    const MessageView& forwarded = listed->at(1);
    QCOMPARE(forwarded.entityPath, QStringLiteral("dst"));
    QCOMPARE(forwarded.body, QByteArrayLiteral("payload"));
    QCOMPARE(forwarded.subject, QStringLiteral("subject"));
    QCOMPARE(forwarded.applicationProperties.value(QStringLiteral("k")).toString(),
             QStringLiteral("v"));
    QVERIFY(forwarded.sequenceNumber > listed->at(0).sequenceNumber);
    QVERIFY(forwarded.deadLetterSource.isEmpty());
}

void TestEngineTopics::topics_E3_forwardToTopicFansOut() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("a"), {}));
    HG_VERIFY_OK(tb->createSubscription(sub("b"), {}));
    EntityProperties forwarding;
    forwarding.forwardTo = kTopic;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("inbox"), forwarding));
    HG_VERIFY_OK(tb->send(QStringLiteral("inbox"), TestBroker::message(QStringLiteral("m"))));
    QCOMPARE(activeCount(tb, QStringLiteral("inbox")), qint64(0));
    QCOMPARE(activeCount(tb, sub("a")), qint64(1));
    QCOMPARE(activeCount(tb, sub("b")), qint64(1));
}

void TestEngineTopics::topics_E3_R5_forwardDeadLetteredMessages_data() {
    QTest::addColumn<bool>("fromSubscription");
    QTest::addColumn<QString>("cause");
    QTest::addColumn<QString>("reason");
    for (bool fromSubscription : {false, true}) {
        const char* kind = fromSubscription ? "subscription" : "queue";
        QTest::addRow("%s, receiver dead-letters", kind) << fromSubscription << "receiver"
                                                         << "rejected";
        QTest::addRow("%s, max delivery count", kind) << fromSubscription << "maxDelivery"
                                                      << "MaxDeliveryCountExceeded";
        QTest::addRow("%s, expiry", kind) << fromSubscription << "expiry"
                                          << "TTLExpiredException";
    }
    // R5: a subscription's filter that fails dead-letters the message there, and a dead letter
    // is forwarded like any other.
    QTest::addRow("subscription, R5 filter exception") << true << "filter"
                                                       << "FilterException";
}

void TestEngineTopics::topics_E3_R5_forwardDeadLetteredMessages() {
    QFETCH(bool, fromSubscription);
    QFETCH(QString, cause);
    QFETCH(QString, reason);
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("graveyard"), {}));
    EntityProperties p;
    p.forwardDeadLetteredMessagesTo = QStringLiteral("graveyard");
    p.maxDeliveryCount = 1;
    p.deadLetteringOnMessageExpiration = true;
    QString source = QStringLiteral("work");
    QString sendTo = source;
    if (fromSubscription) {
        HG_VERIFY_OK(tb->createTopic(kTopic, {}));
        source = sub("work");
        sendTo = kTopic;
        QList<Rule> rules;
        if (cause == QLatin1String("filter")) {
            Rule failing;
            failing.name = QStringLiteral("failing");
            failing.filterType = FilterType::Sql;
            failing.sqlExpression = QStringLiteral("n / 0 > 1");
            rules << failing;
        }
        HG_VERIFY_OK(tb->createSubscription(source, p, rules));
    } else {
        HG_VERIFY_OK(tb->createQueue(source, p));
    }
    OutgoingMessage sent = messageWithTtl(QStringLiteral("m"), minutes(1));
    sent.applicationProperties.insert(QStringLiteral("n"), 4);
    HG_VERIFY_OK(tb->send(sendTo, sent));
    if (cause == QLatin1String("filter")) {
        // Dead-lettered by the send itself.
    } else if (cause == QLatin1String("expiry")) {
        tb.advance(minutes(1) + 1);
    } else {
        const auto got = tb->receive(source, peekLock(QStringLiteral("r")));
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        if (cause == QLatin1String("receiver"))
            HG_VERIFY_OK(
                tb->deadLetter(LockRef::of(got->first()), {reason, QStringLiteral("d"), {}}));
        else
            HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
    }

    const auto sourceCounts = tb->counts(source);
    HG_VERIFY_OK(sourceCounts);
    QCOMPARE(describe(*sourceCounts), describe(EntityCounts{}));
    const auto sourceDead = tb->listMessages(source + QStringLiteral("/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(sourceDead);
    QVERIFY(sourceDead->isEmpty());

    const auto forwarded = tb->listMessages(QStringLiteral("graveyard"), 0, 10);
    HG_VERIFY_OK(forwarded);
    QCOMPARE(forwarded->size(), 1);
    const MessageView& m = forwarded->first();
    QCOMPARE(m.messageId, QStringLiteral("m"));
    QCOMPARE(m.subQueue, SubQueue::Main);
    QCOMPARE(m.deadLetterSource, source);
    QCOMPARE(m.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(), reason);
    // It arrived as an ordinary message: receivable from the target.
    const auto received = tb->receive(QStringLiteral("graveyard"), receiveAndDelete());
    HG_VERIFY_OK(received);
    QCOMPARE(received->size(), 1);
    QCOMPARE(received->first().deadLetterSource, source);
}

void TestEngineTopics::topics_L13_duplicateWithinWindowDropped_data() {
    QTest::addColumn<bool>("topic");
    QTest::newRow("queue") << false;
    QTest::newRow("topic") << true;
}

void TestEngineTopics::topics_L13_duplicateWithinWindowDropped() {
    QFETCH(bool, topic);
    TestBroker tb;
    EntityProperties p;
    p.requiresDuplicateDetection = true;
    p.duplicateDetectionHistoryTimeWindow = minutes(1);
    QString sendTo = QStringLiteral("q");
    QString holder = sendTo;
    if (topic) {
        sendTo = kTopic;
        holder = sub("s");
        HG_VERIFY_OK(tb->createTopic(kTopic, p));
        HG_VERIFY_OK(tb->createSubscription(holder, {}));
    } else {
        HG_VERIFY_OK(tb->createQueue(sendTo, p));
    }
    const auto first = tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "first"));
    HG_VERIFY_OK(first);
    QCOMPARE(first->duplicate, false);
    tb.advance(seconds(30));
    const auto again = tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "second"));
    HG_VERIFY_OK(again);
    QCOMPARE(again->duplicate, true);
    const auto other = tb->send(sendTo, TestBroker::message(QStringLiteral("b")));
    HG_VERIFY_OK(other);
    QCOMPARE(other->duplicate, false);
    auto listed = tb->listMessages(holder, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(listed->first().body, QByteArrayLiteral("first"));

    // Outside the window the id is new again.
    tb.advance(minutes(2));
    const auto late = tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "late"));
    HG_VERIFY_OK(late);
    QCOMPARE(late->duplicate, false);
    listed = tb->listMessages(holder, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 3);
}

void TestEngineTopics::topics_L13_duplicateInsideOneBatch() {
    TestBroker tb;
    EntityProperties p;
    p.requiresDuplicateDetection = true;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), p));
    const auto sent =
        tb->sendBatch(QStringLiteral("q"), {TestBroker::message(QStringLiteral("x")),
                                            TestBroker::message(QStringLiteral("x")),
                                            TestBroker::message(QStringLiteral("y"))});
    HG_VERIFY_OK(sent);
    QCOMPARE(sent->size(), 3);
    QCOMPARE(sent->at(0).duplicate, false);
    QCOMPARE(sent->at(1).duplicate, true);
    QCOMPARE(sent->at(2).duplicate, false);
    QCOMPARE(activeCount(tb, QStringLiteral("q")), qint64(2));
}

void TestEngineTopics::topics_L13_withoutDetectionDuplicatesAreKept() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    for (int i = 0; i < 3; ++i) {
        const auto sent =
            tb->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("same")));
        HG_VERIFY_OK(sent);
        QCOMPARE(sent->duplicate, false);
    }
    QCOMPARE(activeCount(tb, QStringLiteral("q")), qint64(3));
}

void TestEngineTopics::topics_L13_forwardedMessagesAreDetectedAtTheirDestination_data() {
    QTest::addColumn<QString>("sendTo");
    QTest::newRow("through a forwarding queue") << QStringLiteral("relay");
    QTest::newRow("through a forwarding subscription") << kTopic;
}

// Duplicate detection applies to a forwarded message at its destination: the relay keeps no
// history, the destination drops what it saw within its window.
void TestEngineTopics::topics_L13_forwardedMessagesAreDetectedAtTheirDestination() {
    QFETCH(QString, sendTo);
    TestBroker tb;
    EntityProperties detecting;
    detecting.requiresDuplicateDetection = true;
    detecting.duplicateDetectionHistoryTimeWindow = minutes(1);
    const QString destination = QStringLiteral("dst");
    HG_VERIFY_OK(tb->createQueue(destination, detecting));
    EntityProperties forwarding;
    forwarding.forwardTo = destination;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("relay"), forwarding));
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("fwd"), forwarding));

    HG_VERIFY_OK(tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "first")));
    HG_VERIFY_OK(tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "again")));
    HG_VERIFY_OK(tb->send(sendTo, TestBroker::message(QStringLiteral("b"))));
    auto listed = tb->listMessages(destination, 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(listed->first().body, QByteArrayLiteral("first"));
    // A send straight to the destination is checked against the same history.
    const auto direct = tb->send(destination, TestBroker::message(QStringLiteral("a")));
    HG_VERIFY_OK(direct);
    QCOMPARE(direct->duplicate, true);
    // Outside the window the id is new again.
    tb.advance(minutes(2));
    HG_VERIFY_OK(tb->send(sendTo, TestBroker::message(QStringLiteral("a"), "late")));
    QCOMPARE(activeCount(tb, destination), qint64(3));
}

// E5: a disabled topic's subscriptions hand out nothing; they keep their messages.
void TestEngineTopics::topics_E5_disabledTopicsSubscriptionsHandOutNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    EntityProperties disabled;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->updateEntity(kTopic, disabled));
    HG_VERIFY_REFUSED(tb.broker(), tb->receive(sub("s"), peekLock(QStringLiteral("r"))),
                      ErrorCode::MessagingEntityDisabled);
    HG_VERIFY_REFUSED(tb.broker(), tb->receive(sub("s"), receiveAndDelete()),
                      ErrorCode::MessagingEntityDisabled);
    QCOMPARE(activeCount(tb, sub("s")), qint64(1));
    HG_VERIFY_OK(tb->updateEntity(kTopic, {}));
    const auto got = tb->receive(sub("s"), receiveAndDelete());
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), QStringList{QStringLiteral("m")});
}

// L12: peek works on queues, subscriptions and dead-letter queues, not on topics.
void TestEngineTopics::topics_L12_topicCannotBePeeked() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}));
    HG_VERIFY_OK(
        tb->schedule(kTopic, TestBroker::message(QStringLiteral("later")), kTestStart + hours(1)));
    HG_VERIFY_REFUSED(tb.broker(), tb->peek(kTopic, 0, 10), ErrorCode::InvalidArgument);
    const auto subscription = tb->peek(sub("s"), 0, 10);
    HG_VERIFY_OK(subscription);
    // The explorer still lists what a topic holds (its scheduled messages).
    const auto listed = tb->listMessages(kTopic, 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
}
