// Topics, part 3 (service-bus-rules.md R1, R3, R4, R5): SQL filters and rule actions in the
// fan-out.
#include "TestEngineTopics.h"

#include "BrokerSnapshot.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

Rule sqlRule(const QString& name, const QString& filter, const QString& action = {}) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Sql;
    rule.sqlExpression = filter;
    rule.sqlAction = action;
    return rule;
}

QString deadLetters(const QString& name) {
    return sub(name) + QStringLiteral("/$DeadLetterQueue");
}

OutgoingMessage withProperty(const QString& id, const QString& name, const QVariant& value) {
    OutgoingMessage m = TestBroker::message(id);
    m.applicationProperties.insert(name, value);
    return m;
}

} // namespace

void TestEngineTopics::topics_R3_trueFilterAsSqlOneEqualsOne() {
    // The Azure SDK's rule manager sends a true filter as `1=1`.
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}, {sqlRule("all", QStringLiteral("1=1"))}));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    QCOMPARE(activeCount(tb, sub("s")), qint64(1));
}

void TestEngineTopics::topics_R3_sqlFilterSelects() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("eu"), {}, {sqlRule("eu", QStringLiteral("region = 'eu'"))}));
    HG_VERIFY_OK(tb->createSubscription(
        sub("big"), {}, {sqlRule("big", QStringLiteral("sys.Label LIKE 'order%' AND n > 10"))}));
    OutgoingMessage m = withProperty(QStringLiteral("m1"), QStringLiteral("Region"), "eu");
    m.subject = QStringLiteral("order-created");
    m.applicationProperties.insert(QStringLiteral("n"), 11);
    HG_VERIFY_OK(tb->send(kTopic, m));
    HG_VERIFY_OK(tb->send(kTopic, withProperty(QStringLiteral("m2"), QStringLiteral("region"),
                                               QStringLiteral("us"))));
    QCOMPARE(activeCount(tb, sub("eu")), qint64(1));
    QCOMPARE(activeCount(tb, sub("big")), qint64(1));
}

void TestEngineTopics::topics_R4_copyPerActionRule() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter eu;
    eu.subject = QStringLiteral("eu");
    Rule tagged = correlationRule("tagged", eu);
    tagged.sqlAction = QStringLiteral("SET tag = 'corr'");
    HG_VERIFY_OK(tb->createSubscription(
        sub("s"), {},
        {Rule::trueRule(), sqlRule("plain", QStringLiteral("1=1")),
         sqlRule("doubled", QStringLiteral("n > 0"), QStringLiteral("SET n = n * 2; REMOVE gone")),
         tagged, sqlRule("never", QStringLiteral("n < 0"), QStringLiteral("SET n = 0"))}));
    OutgoingMessage m = withProperty(QStringLiteral("m"), QStringLiteral("n"), 5);
    m.subject = QStringLiteral("eu");
    m.applicationProperties.insert(QStringLiteral("gone"), true);
    HG_VERIFY_OK(tb->send(kTopic, m));

    // Two actionless matches: one copy; two action rules: one copy each; "never": none.
    const auto listed = tb->listMessages(sub("s"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 3);
    const auto& plain = listed->at(0).applicationProperties;
    QVERIFY(!plain.contains(QStringLiteral("RuleName")));
    QCOMPARE(plain.value(QStringLiteral("n")).toInt(), 5);
    QVERIFY(plain.contains(QStringLiteral("gone")));
    QMap<QString, QVariantMap> byRule;
    for (int i = 1; i < 3; ++i)
        byRule.insert(
            listed->at(i).applicationProperties.value(QStringLiteral("RuleName")).toString(),
            listed->at(i).applicationProperties);
    QCOMPARE(byRule.keys(), (QStringList{QStringLiteral("doubled"), QStringLiteral("tagged")}));
    QCOMPARE(byRule[QStringLiteral("doubled")].value(QStringLiteral("n")).toLongLong(), 10);
    QVERIFY(!byRule[QStringLiteral("doubled")].contains(QStringLiteral("gone")));
    QCOMPARE(byRule[QStringLiteral("tagged")].value(QStringLiteral("tag")).toString(),
             QStringLiteral("corr"));
    QCOMPARE(byRule[QStringLiteral("tagged")].value(QStringLiteral("n")).toInt(), 5);
    // Every copy is its own message with its own sequence number.
    const QList<qint64> numbers = sequenceNumbers(*listed);
    QCOMPARE(QSet<qint64>(numbers.cbegin(), numbers.cend()).size(), 3);
}

void TestEngineTopics::topics_R5_filterExceptionDeadLetters_data() {
    QTest::addColumn<bool>("deadLettering");
    QTest::newRow("on (default)") << true;
    QTest::newRow("off: dropped") << false;
}

void TestEngineTopics::topics_R5_filterExceptionDeadLetters() {
    QFETCH(bool, deadLettering);
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    EntityProperties p;
    p.deadLetteringOnFilterEvaluationExceptions = deadLettering;
    HG_VERIFY_OK(
        tb->createSubscription(sub("div"), p, {sqlRule("div", QStringLiteral("10 / n > 1"))}));
    HG_VERIFY_OK(tb->createSubscription(
        sub("act"), p, {sqlRule("act", QStringLiteral("1=1"), QStringLiteral("SET x = n / 0"))}));
    HG_VERIFY_OK(tb->createSubscription(sub("other"), {}));
    HG_VERIFY_OK(tb->send(kTopic, withProperty(QStringLiteral("m"), QStringLiteral("n"), 0)));

    QCOMPARE(activeCount(tb, sub("other")), qint64(1)); // not affected
    for (const QString& name : {QStringLiteral("div"), QStringLiteral("act")}) {
        QCOMPARE(activeCount(tb, sub(name)), qint64(0));
        const auto dead = tb->listMessages(deadLetters(name), 0, 10);
        HG_VERIFY_OK(dead);
        QCOMPARE(dead->size(), deadLettering ? 1 : 0);
        if (deadLettering) {
            QCOMPARE(dead->first().deadLetterReason, QStringLiteral("FilterException"));
            QVERIFY2(!dead->first().deadLetterErrorDescription.isEmpty(), qPrintable(name));
        }
    }
    // A message the filter can evaluate goes where it should.
    HG_VERIFY_OK(tb->send(kTopic, withProperty(QStringLiteral("ok"), QStringLiteral("n"), 2)));
    QCOMPARE(activeCount(tb, sub("div")), qint64(1));
}

void TestEngineTopics::topics_R5_badExpressionRefusedAtCreation() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    const Rule bad = sqlRule("bad", QStringLiteral("a == 1"));
    const auto created = tb->createSubscription(sub("s"), {}, {bad});
    HG_VERIFY_ERROR(created, ErrorCode::InvalidArgument);
    QVERIFY2(created.error().description.contains(QStringLiteral("line=1, column=")),
             qPrintable(created.error().description));
    HG_VERIFY_ERROR(tb->entity(sub("s")), ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}));
    HG_VERIFY_REFUSED(tb.broker(), tb->addRule(sub("s"), bad), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->addRule(sub("s"), sqlRule("act", QStringLiteral("1=1"),
                                                    QStringLiteral("SET sys.SequenceNumber = 1"))),
                      ErrorCode::InvalidArgument);
    const auto info = tb->entity(sub("s"));
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, QList<Rule>{Rule::trueRule()});
}

void TestEngineTopics::topics_R5_limits() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->createSubscription(sub("s"), {},
                               {sqlRule(QString(51, QLatin1Char('r')), QStringLiteral("1=1"))}),
        ErrorCode::InvalidArgument);
    HG_VERIFY_OK(tb->createSubscription(
        sub("s"), {}, {sqlRule(QString(50, QLatin1Char('r')), QStringLiteral("1=1"))}));
    // 2,000 SQL filters per topic, over all its subscriptions.
    QList<Rule> many;
    for (int i = 0; i < 1999; ++i)
        many.append(sqlRule(QStringLiteral("r%1").arg(i), QStringLiteral("n = %1").arg(i)));
    HG_VERIFY_OK(tb->createSubscription(sub("many"), {}, many));
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->addRule(sub("s"), sqlRule(QStringLiteral("one-more"), QStringLiteral("1=1"))),
        ErrorCode::QuotaExceeded);
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->createSubscription(sub("t"), {}, {sqlRule(QStringLiteral("x"), QStringLiteral("1=1"))}),
        ErrorCode::QuotaExceeded);
    // Other filters are not counted against it.
    CorrelationFilter c;
    c.to = QStringLiteral("x");
    HG_VERIFY_OK(tb->addRule(sub("s"), correlationRule("corr", c)));
}

void TestEngineTopics::topics_R4_rulesSurviveReopen() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    EntityProperties p;
    p.deadLetteringOnFilterEvaluationExceptions = false;
    const Rule rule = sqlRule("r", QStringLiteral("n > 1"), QStringLiteral("SET n = n + 1"));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), p, {rule}));
    tb.reopen();
    const auto info = tb->entity(sub("s"));
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, QList<Rule>{rule});
    QVERIFY(!info->properties.deadLetteringOnFilterEvaluationExceptions);
    HG_VERIFY_OK(tb->send(kTopic, withProperty(QStringLiteral("m"), QStringLiteral("n"), 2)));
    HG_VERIFY_OK(tb->send(
        kTopic, withProperty(QStringLiteral("bad"), QStringLiteral("n"), QStringLiteral("text"))));
    const auto listed = tb->listMessages(sub("s"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    QCOMPARE(listed->first().applicationProperties.value(QStringLiteral("n")).toLongLong(), 3);
    QCOMPARE(listed->first().applicationProperties.value(QStringLiteral("RuleName")).toString(),
             QStringLiteral("r"));
    const auto dead = tb->listMessages(deadLetters("s"), 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(dead->size(), 0); // off: dropped
}

void TestEngineTopics::topics_R3_storeRoutingExample() {
    // The documented routing example: StoreId Store1-Store10 split over subscriptions.
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("AllOrders"), {}, {sqlRule("all", QStringLiteral("1=1"))}));
    HG_VERIFY_OK(tb->createSubscription(
        sub("SomeStores"), {},
        {sqlRule("some", QStringLiteral("StoreId IN ('Store1', 'Store2', 'Store3')"))}));
    HG_VERIFY_OK(tb->createSubscription(sub("Store4"), {},
                                        {sqlRule("four", QStringLiteral("StoreId = 'Store4'"))}));
    HG_VERIFY_OK(tb->createSubscription(
        sub("Others"), {},
        {sqlRule("others",
                 QStringLiteral("StoreId NOT IN ('Store1', 'Store2', 'Store3', 'Store4')"))}));
    for (int i = 1; i <= 10; ++i)
        HG_VERIFY_OK(tb->send(kTopic, withProperty(QStringLiteral("order%1").arg(i),
                                                   QStringLiteral("StoreId"),
                                                   QStringLiteral("Store%1").arg(i))));
    QCOMPARE(activeCount(tb, sub("AllOrders")), qint64(10));
    QCOMPARE(activeCount(tb, sub("SomeStores")), qint64(3));
    QCOMPARE(activeCount(tb, sub("Store4")), qint64(1));
    QCOMPARE(activeCount(tb, sub("Others")), qint64(6));
    const auto four = tb->listMessages(sub("Store4"), 0, 10);
    HG_VERIFY_OK(four);
    QCOMPARE(messageIds(*four), QStringList{QStringLiteral("order4")});
}
