// Topics, part 1 (service-bus-rules.md R1, R2): copies to matching subscriptions, filters.
#include "TestEngineTopics.h"

#include "BrokerSnapshot.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

void TestEngineTopics::topics_R1_copiedToEveryMatchingSubscription() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("all"), {}));
    CorrelationFilter eu;
    eu.subject = QStringLiteral("eu");
    HG_VERIFY_OK(tb->createSubscription(sub("eu"), {}, {correlationRule("eu", eu)}));
    HG_VERIFY_OK(tb->createSubscription(sub("none"), {}, {falseRule()}));

    OutgoingMessage m = TestBroker::message(QStringLiteral("m1"), QByteArrayLiteral("one"));
    m.subject = QStringLiteral("eu");
    m.applicationProperties.insert(QStringLiteral("n"), 1);
    HG_VERIFY_OK(tb->send(kTopic, m));
    m.messageId = QStringLiteral("m2");
    m.subject = QStringLiteral("us");
    HG_VERIFY_OK(tb->send(kTopic, m));

    QCOMPARE(activeCount(tb, sub("all")), qint64(2));
    QCOMPARE(activeCount(tb, sub("eu")), qint64(1));
    QCOMPARE(activeCount(tb, sub("none")), qint64(0));
    const auto copy = tb->listMessages(sub("eu"), 0, 10, Broker::Bodies::With);
    HG_VERIFY_OK(copy);
    QCOMPARE(copy->size(), 1);
    QCOMPARE(copy->first().messageId, QStringLiteral("m1"));
    QCOMPARE(copy->first().body, QByteArrayLiteral("one"));
    QCOMPARE(copy->first().entityPath, sub("eu"));
    QCOMPARE(copy->first().applicationProperties.value(QStringLiteral("n")).toInt(), 1);

    // Each copy is settled on its own.
    const auto got = tb->receive(sub("all"), receiveAndDelete(10));
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), (QStringList{QStringLiteral("m1"), QStringLiteral("m2")}));
    QCOMPARE(activeCount(tb, sub("eu")), qint64(1));
}

void TestEngineTopics::topics_R1_noMatchingSubscriptionGetsNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    // A topic without subscriptions accepts and drops.
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("lost"))));
    HG_VERIFY_OK(tb->createSubscription(sub("a"), {}, {falseRule()}));
    CorrelationFilter other;
    other.correlationId = QStringLiteral("other");
    HG_VERIFY_OK(tb->createSubscription(sub("b"), {}, {correlationRule("c", other)}));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    for (const QString& path : {sub("a"), sub("b")}) {
        const auto counts = tb->counts(path);
        HG_VERIFY_OK(counts);
        QCOMPARE(describe(*counts), describe(EntityCounts{}));
    }
}

void TestEngineTopics::topics_R1_severalMatchingRulesGiveOneCopy() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter bySubject;
    bySubject.subject = QStringLiteral("s");
    HG_VERIFY_OK(tb->createSubscription(
        sub("a"), {}, {Rule::trueRule(QStringLiteral("all")), correlationRule("s", bySubject)}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.subject = QStringLiteral("s");
    HG_VERIFY_OK(tb->send(kTopic, m));
    QCOMPARE(activeCount(tb, sub("a")), qint64(1));
}

void TestEngineTopics::topics_R1_topicSequenceNumberKeptInEverySubscription() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("a"), {}));
    CorrelationFilter odd;
    odd.properties.insert(QStringLiteral("odd"), true);
    HG_VERIFY_OK(tb->createSubscription(sub("odd"), {}, {correlationRule("odd", odd)}));
    QList<qint64> sent;
    for (int i = 1; i <= 5; ++i) {
        OutgoingMessage m = TestBroker::message(QStringLiteral("m%1").arg(i));
        m.applicationProperties.insert(QStringLiteral("odd"), i % 2 == 1);
        const auto result = tb->send(kTopic, m);
        HG_VERIFY_OK(result);
        sent << result->sequenceNumber;
    }
    const auto inA = tb->listMessages(sub("a"), 0, 10);
    HG_VERIFY_OK(inA);
    QCOMPARE(sequenceNumbers(*inA), sent);
    const auto inOdd = tb->listMessages(sub("odd"), 0, 10);
    HG_VERIFY_OK(inOdd);
    QCOMPARE(sequenceNumbers(*inOdd), (QList<qint64>{sent[0], sent[2], sent[4]}));
    // Receiving keeps it too.
    const auto got = tb->receive(sub("odd"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->first().sequenceNumber, sent[0]);
}

void TestEngineTopics::topics_R1_scheduledTopicMessageFansOutWhenActive() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("a"), {}));
    HG_VERIFY_OK(tb->createSubscription(sub("b"), {}));
    const auto kept =
        tb->schedule(kTopic, TestBroker::message(QStringLiteral("kept")), kTestStart + minutes(1));
    const auto cancelled = tb->schedule(kTopic, TestBroker::message(QStringLiteral("cancelled")),
                                        kTestStart + minutes(1));
    HG_VERIFY_OK(kept);
    HG_VERIFY_OK(cancelled);
    HG_VERIFY_OK(tb->cancelScheduled(kTopic, cancelled->sequenceNumber));
    tb.advance(minutes(1));
    const auto inA = tb->listMessages(sub("a"), 0, 10);
    const auto inB = tb->listMessages(sub("b"), 0, 10);
    HG_VERIFY_OK(inA);
    HG_VERIFY_OK(inB);
    QCOMPARE(messageIds(*inA), QStringList{QStringLiteral("kept")});
    QCOMPARE(messageIds(*inB), QStringList{QStringLiteral("kept")});
    QCOMPARE(inA->first().state, MessageState::Active);
    QCOMPARE(inA->first().enqueuedTime, kTestStart + minutes(1));
    // One number for the active message, the same in every subscription, above the scheduling one.
    QCOMPARE(inA->first().sequenceNumber, inB->first().sequenceNumber);
    QVERIFY(inA->first().sequenceNumber > cancelled->sequenceNumber);
}

void TestEngineTopics::topics_R2_correlationFilterField_data() {
    QTest::addColumn<QString>("field");
    for (const char* field : {"CorrelationId", "MessageId", "To", "ReplyTo", "Subject", "SessionId",
                              "ReplyToSessionId", "ContentType"})
        QTest::newRow(field) << field;
}

void TestEngineTopics::topics_R2_correlationFilterField() {
    QFETCH(QString, field);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    setField(filter, field, QStringLiteral("match"));
    HG_VERIFY_OK(tb->createSubscription(sub("f"), {}, {correlationRule("f", filter)}));

    OutgoingMessage hit = TestBroker::message(QStringLiteral("hit"));
    setField(hit, field, QStringLiteral("match"));
    OutgoingMessage miss = TestBroker::message(QStringLiteral("miss"));
    setField(miss, field, QStringLiteral("other"));
    OutgoingMessage unset = TestBroker::message(QStringLiteral("unset"));
    for (const OutgoingMessage& m : {hit, miss, unset})
        HG_VERIFY_OK(tb->send(kTopic, m));

    const auto listed = tb->listMessages(sub("f"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    if (field == QLatin1String("MessageId"))
        QCOMPARE(listed->first().messageId, QStringLiteral("match"));
    else
        QCOMPARE(listed->first().messageId, QStringLiteral("hit"));
}

void TestEngineTopics::topics_R2_correlationFilterProperties_data() {
    QTest::addColumn<QVariant>("wanted");
    QTest::addColumn<QVariant>("matching");
    QTest::addColumn<QVariant>("other");
    QTest::newRow("string") << QVariant(QStringLiteral("eu")) << QVariant(QStringLiteral("eu"))
                            << QVariant(QStringLiteral("us"));
    QTest::newRow("int") << QVariant(42) << QVariant(42) << QVariant(43);
    QTest::newRow("bool") << QVariant(true) << QVariant(true) << QVariant(false);
}

void TestEngineTopics::topics_R2_correlationFilterProperties() {
    QFETCH(QVariant, wanted);
    QFETCH(QVariant, matching);
    QFETCH(QVariant, other);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    filter.properties.insert(QStringLiteral("key"), wanted);
    HG_VERIFY_OK(tb->createSubscription(sub("p"), {}, {correlationRule("p", filter)}));
    OutgoingMessage hit = TestBroker::message(QStringLiteral("hit"));
    hit.applicationProperties.insert(QStringLiteral("key"), matching);
    hit.applicationProperties.insert(QStringLiteral("extra"), QStringLiteral("ignored"));
    OutgoingMessage miss = TestBroker::message(QStringLiteral("miss"));
    miss.applicationProperties.insert(QStringLiteral("key"), other);
    OutgoingMessage absent = TestBroker::message(QStringLiteral("absent"));
    absent.applicationProperties.insert(QStringLiteral("other"), matching);
    for (const OutgoingMessage& m : {hit, miss, absent})
        HG_VERIFY_OK(tb->send(kTopic, m));
    const auto listed = tb->listMessages(sub("p"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), QStringList{QStringLiteral("hit")});
}

void TestEngineTopics::topics_R2_correlationFilterIsAnd() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    filter.subject = QStringLiteral("order");
    filter.contentType = QStringLiteral("application/json");
    filter.properties.insert(QStringLiteral("region"), QStringLiteral("north"));
    HG_VERIFY_OK(tb->createSubscription(sub("and"), {}, {correlationRule("and", filter)}));

    OutgoingMessage all = TestBroker::message(QStringLiteral("all"));
    all.subject = QStringLiteral("order");
    all.contentType = QStringLiteral("application/json");
    all.applicationProperties.insert(QStringLiteral("region"), QStringLiteral("north"));
    OutgoingMessage noProperty = all;
    noProperty.messageId = QStringLiteral("noProperty");
    noProperty.applicationProperties.clear();
    OutgoingMessage wrongSubject = all;
    wrongSubject.messageId = QStringLiteral("wrongSubject");
    wrongSubject.subject = QStringLiteral("invoice");
    OutgoingMessage noContentType = all;
    noContentType.messageId = QStringLiteral("noContentType");
    noContentType.contentType.clear();
    for (const OutgoingMessage& m : {all, noProperty, wrongSubject, noContentType})
        HG_VERIFY_OK(tb->send(kTopic, m));
    const auto listed = tb->listMessages(sub("and"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed), QStringList{QStringLiteral("all")});
}

void TestEngineTopics::topics_R2_filtersNeverReadTheBody() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    filter.properties.insert(QStringLiteral("x"), QStringLiteral("1"));
    HG_VERIFY_OK(tb->createSubscription(sub("p"), {}, {correlationRule("p", filter)}));
    HG_VERIFY_OK(tb->send(
        kTopic, TestBroker::message(QStringLiteral("m"), QByteArrayLiteral("{\"x\":\"1\"}"))));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("x=1"), "x=1")));
    QCOMPARE(activeCount(tb, sub("p")), qint64(0));
}

void TestEngineTopics::topics_R2_rulesChangeWhatLaterMessagesMatch() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("before"))));
    HG_VERIFY_OK(tb->removeRule(sub("s"), QStringLiteral("$Default")));
    auto info = tb->entity(sub("s"));
    HG_VERIFY_OK(info);
    QVERIFY(info->rules.isEmpty());
    // No rule at all: nothing matches.
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("ruleless"))));
    CorrelationFilter vip;
    vip.to = QStringLiteral("vip");
    HG_VERIFY_OK(tb->addRule(sub("s"), correlationRule("vip", vip)));
    OutgoingMessage forVip = TestBroker::message(QStringLiteral("vip"));
    forVip.to = QStringLiteral("vip");
    HG_VERIFY_OK(tb->send(kTopic, forVip));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("plain"))));
    info = tb->entity(sub("s"));
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, QList<Rule>{correlationRule("vip", vip)});
    const auto listed = tb->listMessages(sub("s"), 0, 10);
    HG_VERIFY_OK(listed);
    // The message already in the subscription stays; later ones follow the new rules.
    QCOMPARE(messageIds(*listed), (QStringList{QStringLiteral("before"), QStringLiteral("vip")}));
}

QTEST_GUILESS_MAIN(TestEngineTopics)
