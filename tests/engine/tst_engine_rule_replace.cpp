// Replacing a subscription rule (R2-R5) in one call: the new rule takes the old one's place,
// durably, and a refused replacement (a bad filter, a taken name, a missing rule, a quota) leaves
// the subscription exactly as it was.

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"
#include "hourglass/OperationObserver.h"

#include <QTest>

#include <mutex>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

const QString kTopic = QStringLiteral("t");
const QString kSub = QStringLiteral("t/Subscriptions/s");

Rule sqlRule(const QString& name, const QString& filter, const QString& action = {}) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Sql;
    rule.sqlExpression = filter;
    rule.sqlAction = action;
    return rule;
}

Rule subjectRule(const QString& name, const QString& subject) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = subject;
    return rule;
}

OutgoingMessage withSubject(const QString& id, const QString& subject) {
    OutgoingMessage m = TestBroker::message(id);
    m.subject = subject;
    return m;
}

QStringList listedIds(TestBroker& tb) {
    QStringList ids;
    const auto listed = tb->listMessages(kSub, 0, 100);
    if (listed)
        for (const MessageView& m : *listed)
            ids << m.messageId;
    return ids;
}

// Every operation the broker reports, in order.
struct Recorded : OperationObserver {
    std::mutex mutex;
    QList<BrokerOperation> operations;
    void operationDone(const BrokerOperation& operation) override {
        std::lock_guard lock(mutex);
        operations.append(operation);
    }
};

} // namespace

class TestEngineRuleReplace : public QObject {
    Q_OBJECT
private slots:
    void replace_R2_newRuleTakesTheOldOnesPlace();
    void replace_R2_survivesReopen();
    void replace_R5_refusedChangesNothing();
    void replace_R2_nameMayChangeCase();
    void replace_R5_quotaCountsTheReplacedRuleOut();
};

// The new rule (another name, another filter type, an action) stands where the old one stood;
// later messages follow it, the messages already there stay, and the change is one operation.
void TestEngineRuleReplace::replace_R2_newRuleTakesTheOldOnesPlace() {
    TestBroker tb;
    auto recorded = std::make_shared<Recorded>();
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(
        kSub, {}, {subjectRule("red", QStringLiteral("red")), subjectRule("blue", "blue")}));
    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("before"), QStringLiteral("red"))));
    tb->setOperationObserver(recorded);

    const Rule green = sqlRule(QStringLiteral("green"), QStringLiteral("sys.Label = 'green'"),
                               QStringLiteral("SET tagged = 1"));
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("RED"), green)); // names: any case
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, (QList<Rule>{green, subjectRule("blue", "blue")}));
    {
        std::lock_guard lock(recorded->mutex);
        QCOMPARE(recorded->operations.size(), 1);
        QCOMPARE(recorded->operations[0].kind, BrokerOperation::Kind::ReplaceRule);
        QCOMPARE(recorded->operations[0].ruleName, QStringLiteral("RED"));
        QCOMPARE(recorded->operations[0].rule, green);
    }

    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("red"), QStringLiteral("red"))));
    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("green"), QStringLiteral("green"))));
    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("blue"), QStringLiteral("blue"))));
    QCOMPARE(listedIds(tb), (QStringList{QStringLiteral("before"), QStringLiteral("green"),
                                         QStringLiteral("blue")}));
    const auto listed = tb->listMessages(kSub, 0, 100);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->at(1).applicationProperties.value(QStringLiteral("RuleName")).toString(),
             QStringLiteral("green")); // the new rule's action ran
}

void TestEngineRuleReplace::replace_R2_survivesReopen() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}));
    Rule typed = subjectRule(QStringLiteral("typed"), QStringLiteral("order"));
    typed.correlation.properties.insert(QStringLiteral("quantity"), qint64(5));
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("$Default"), typed));
    tb.reopen();
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, QList<Rule>{typed});
    QCOMPARE(info->rules[0].correlation.properties.value(QStringLiteral("quantity")).metaType(),
             QMetaType::fromType<qint64>()); // the type is part of the filter (R2)
}

// Each refusal is checked before anything changes: the old rule stays, with its filter.
void TestEngineRuleReplace::replace_R5_refusedChangesNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    HG_VERIFY_OK(tb->createSubscription(
        kSub, {}, {subjectRule("red", QStringLiteral("red")), subjectRule("blue", "blue")}));
    const QString red = QStringLiteral("red");

    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, red, sqlRule(red, "color == 'red'")),
                      ErrorCode::InvalidArgument); // does not parse
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, red, sqlRule(red, "1=1", "SET")),
                      ErrorCode::InvalidArgument); // the action does not parse
    Rule empty;
    empty.name = red;
    empty.filterType = FilterType::Correlation;
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, red, empty),
                      ErrorCode::InvalidArgument); // an empty correlation filter
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, red, sqlRule(QString(51, u'n'), "1=1")),
                      ErrorCode::InvalidArgument); // a name too long
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, red, sqlRule("BLUE", "1=1")),
                      ErrorCode::MessagingEntityAlreadyExists); // another rule's name
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(kSub, "green", sqlRule("green", "1=1")),
                      ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->replaceRule(QStringLiteral("q"), red, sqlRule(red, "1=1")),
                      ErrorCode::InvalidArgument); // a queue has no rules
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->replaceRule(QStringLiteral("t/Subscriptions/none"), red, sqlRule(red, "1=1")),
        ErrorCode::MessagingEntityNotFound);

    // The old rule still routes.
    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("r"), QStringLiteral("red"))));
    HG_VERIFY_OK(tb->send(kTopic, withSubject(QStringLiteral("x"), QStringLiteral("other"))));
    QCOMPARE(listedIds(tb), QStringList{QStringLiteral("r")});
}

// The same rule under its own name in another case is not "another rule's name".
void TestEngineRuleReplace::replace_R2_nameMayChangeCase() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}, {subjectRule("red", QStringLiteral("red"))}));
    const Rule renamed = subjectRule(QStringLiteral("Red"), QStringLiteral("crimson"));
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("red"), renamed));
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules, QList<Rule>{renamed});
}

// R5: a topic at its 2,000 SQL filters may still have one of them replaced by another SQL filter
// (the count does not grow), while one more is refused.
void TestEngineRuleReplace::replace_R5_quotaCountsTheReplacedRuleOut() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    QList<Rule> rules;
    for (int i = 0; i < 2000; ++i)
        rules << sqlRule(QStringLiteral("r%1").arg(i), QStringLiteral("n = %1").arg(i));
    HG_VERIFY_OK(tb->createSubscription(kSub, {}, rules));
    HG_VERIFY_ERROR(tb->addRule(kSub, sqlRule("more", "n = -1")), ErrorCode::QuotaExceeded);
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("r7"), sqlRule("seven", "n = 7")));
    // A correlation filter in an SQL filter's place is under its own, far larger, limit.
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("r8"), subjectRule("eight", "8")));
    HG_VERIFY_OK(tb->replaceRule(kSub, QStringLiteral("eight"), sqlRule("eight", "n = 8")));
    const auto info = tb->entity(kSub);
    HG_VERIFY_OK(info);
    QCOMPARE(info->rules.size(), 2000);
    QCOMPARE(info->rules[7].name, QStringLiteral("seven"));
    QCOMPARE(info->rules[8], sqlRule("eight", "n = 8"));
}

QTEST_GUILESS_MAIN(TestEngineRuleReplace)
#include "tst_engine_rule_replace.moc"
