// The routing preview (service-bus-rules.md R1-R5): for a message and a topic, every
// subscription's fate and each rule's verdict with its reason. The preview and a real send must
// agree, so each test also sends the message and compares.
#include "BrokerSnapshot.h"
#include "TestEngineTopics.h"

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

const SubscriptionPreview* findPreview(const QList<SubscriptionPreview>& previews,
                                       const QString& name) {
    for (const SubscriptionPreview& preview : previews)
        if (preview.name == name)
            return &preview;
    return nullptr;
}

qint64 deadLetterCount(TestBroker& tb, const QString& path) {
    const auto counts = tb->counts(path);
    return counts ? counts->deadLettered : -1;
}

} // namespace

class TestEngineRoutingPreview : public QObject {
    Q_OBJECT
private slots:
    void preview_R1_everySubscriptionInPathOrderAndAgreesWithSend();
    void preview_R1_disabledSubscriptionTakesNothing();
    void preview_R2_correlationMismatchNamesTheMember();
    void preview_R2_correlationTypeMismatchNamesBothTypes();
    void preview_R3_falseSqlFilterShowsTheValuesSeen();
    void preview_R3_unknownNamesTheMissingProperty();
    void preview_R4_actionChangesAndCopies();
    void preview_R5_failureDeadLettersOrDrops();
    void preview_R3_storedMessageUsesItsOwnSystemProperties();
    void preview_storedMessageIsPreviewedAsItWasSent();
    void preview_badInput_notATopic();
    void preview_L13_aMessageWithoutIdGetsOneAsASendWould();
    void preview_E3_aForwardToThatTakesNothingDeadLettersAsASendWould();
    void preview_E3_aDeadLetterForwardThatTakesNothingKeepsItHere();
    void preview_whatTheTopicDoesBeforeTheFanOut();
    void preview_R3_aPropertyUnderTwoSpellingsIsListedOnce();
};

void TestEngineRoutingPreview::preview_R1_everySubscriptionInPathOrderAndAgreesWithSend() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("zeta"), {}));
    HG_VERIFY_OK(tb->createSubscription(sub("alpha"), {}, {sqlRule("red", "color = 'red'")}));
    HG_VERIFY_OK(tb->createSubscription(sub("mid"), {}, {falseRule()}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("color"), QStringLiteral("red"));

    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.size(), 3);
    QCOMPARE(previews->subscriptions.at(0).name, QStringLiteral("alpha"));
    QCOMPARE(previews->subscriptions.at(1).name, QStringLiteral("mid"));
    QCOMPARE(previews->subscriptions.at(2).name, QStringLiteral("zeta"));
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::Copies);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).verdict, RuleVerdict::Matched);
    QCOMPARE(previews->subscriptions.at(1).fate, SubscriptionFate::NoMatch);
    QCOMPARE(previews->subscriptions.at(1).rules.at(0).reason,
             QStringLiteral("A false filter matches no message"));
    QCOMPARE(previews->subscriptions.at(2).rules.at(0).rule.name, QStringLiteral("$Default"));

    // A preview changes nothing; the send then does what it said.
    QCOMPARE(activeCount(tb, sub("alpha")), qint64(0));
    HG_VERIFY_OK(tb->send(kTopic, m));
    for (const SubscriptionPreview& preview : previews->subscriptions)
        QCOMPARE(activeCount(tb, preview.path), qint64(preview.copies));
}

void TestEngineRoutingPreview::preview_R1_disabledSubscriptionTakesNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    EntityProperties disabled;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->createSubscription(sub("off"), disabled));
    const auto previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::Disabled);
    QCOMPARE(previews->subscriptions.at(0).copies, 0);
    // The rule itself still matches: the preview says so, and why nothing arrives.
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).verdict, RuleVerdict::Matched);
}

void TestEngineRoutingPreview::preview_R2_correlationMismatchNamesTheMember() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    filter.subject = QStringLiteral("red");
    filter.properties.insert(QStringLiteral("region"), QStringLiteral("eu"));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}, {correlationRule("c", filter)}));

    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.subject = QStringLiteral("blue");
    auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).verdict, RuleVerdict::NotMatched);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).reason,
             QStringLiteral("Subject is 'blue', the filter wants 'red'"));

    m.subject = QStringLiteral("red");
    previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).reason,
             QStringLiteral("region is missing, the filter wants 'eu'"));
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::NoMatch);
}

void TestEngineRoutingPreview::preview_R2_correlationTypeMismatchNamesBothTypes() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter filter;
    filter.properties.insert(QStringLiteral("quantity"), QVariant(qint32(250)));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}, {correlationRule("c", filter)}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("quantity"), QVariant(qint64(250)));
    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).reason,
             QStringLiteral("quantity is 250 (Int64), the filter wants 250 (Int32)"));
}

void TestEngineRoutingPreview::preview_R3_falseSqlFilterShowsTheValuesSeen() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(
        sub("s"), {}, {sqlRule("big", "color = 'red' AND quantity > 5 AND sys.Label = 'order'")}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.subject = QStringLiteral("order");
    m.applicationProperties.insert(QStringLiteral("Color"), QStringLiteral("red"));
    m.applicationProperties.insert(QStringLiteral("quantity"), QVariant(qint32(3)));
    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    const RuleExplanation& rule = previews->subscriptions.at(0).rules.at(0);
    QCOMPARE(rule.verdict, RuleVerdict::NotMatched);
    QCOMPARE(rule.reason,
             QStringLiteral("color is 'red', quantity is 3 (Int32), sys.Label is 'order'"));
}

void TestEngineRoutingPreview::preview_R3_unknownNamesTheMissingProperty() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("s"), {}, {sqlRule("r", "color = 'red' OR user.size > 2")}));
    const auto previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(previews);
    const RuleExplanation& rule = previews->subscriptions.at(0).rules.at(0);
    QCOMPARE(rule.verdict, RuleVerdict::Unknown);
    QCOMPARE(rule.reason, QStringLiteral("color, size are missing, so the filter is unknown"));
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::NoMatch);
}

void TestEngineRoutingPreview::preview_R4_actionChangesAndCopies() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    CorrelationFilter eu;
    eu.subject = QStringLiteral("eu");
    Rule tagged = correlationRule("tagged", eu);
    tagged.sqlAction = QStringLiteral("SET sys.To = 'desk'");
    HG_VERIFY_OK(tb->createSubscription(
        sub("s"), {},
        {Rule::trueRule(),
         sqlRule("doubled", "n > 0", "SET n = n * 2; REMOVE gone; SET added = 'yes'"), tagged}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.subject = QStringLiteral("eu");
    m.applicationProperties.insert(QStringLiteral("n"), QVariant(qint64(5)));
    m.applicationProperties.insert(QStringLiteral("gone"), true);

    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    const SubscriptionPreview& s = previews->subscriptions.at(0);
    QCOMPARE(s.copies, 3); // one for $Default, one per action rule
    QCOMPARE(s.rules.at(0).changes, QStringList());
    QCOMPARE(s.rules.at(1).changes, QStringList({QStringLiteral("RuleName: set to 'doubled'"),
                                                 QStringLiteral("added: set to 'yes'"),
                                                 QStringLiteral("n: 5 (Int64) → 10 (Int64)"),
                                                 QStringLiteral("gone: removed")}));
    QCOMPARE(s.rules.at(2).changes, QStringList({QStringLiteral("To: not set → 'desk'"),
                                                 QStringLiteral("RuleName: set to 'tagged'")}));
    HG_VERIFY_OK(tb->send(kTopic, m));
    QCOMPARE(activeCount(tb, sub("s")), qint64(3));
}

void TestEngineRoutingPreview::preview_R5_failureDeadLettersOrDrops() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(tb->createSubscription(sub("dlq"), {},
                                        {sqlRule("bad", "n / 0 > 1"), sqlRule("after", "1=1")}));
    EntityProperties dropping;
    dropping.deadLetteringOnFilterEvaluationExceptions = false;
    HG_VERIFY_OK(tb->createSubscription(sub("drop"), dropping, {sqlRule("bad", "n = 'text'")}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("n"), QVariant(qint64(4)));

    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    const SubscriptionPreview* dlq = findPreview(previews->subscriptions, QStringLiteral("dlq"));
    const SubscriptionPreview* drop = findPreview(previews->subscriptions, QStringLiteral("drop"));
    QVERIFY(dlq && drop);
    QCOMPARE(dlq->fate, SubscriptionFate::DeadLettered);
    QCOMPARE(dlq->rules.at(0).verdict, RuleVerdict::Failed);
    QVERIFY(!dlq->failure.isEmpty());
    QCOMPARE(dlq->rules.at(0).reason, dlq->failure);
    QCOMPARE(dlq->rules.at(1).verdict, RuleVerdict::NotEvaluated);
    QCOMPARE(drop->fate, SubscriptionFate::Dropped);
    QCOMPARE(dlq->forwardTo, QString()); // kept in its own dead-letter queue

    HG_VERIFY_OK(tb->send(kTopic, m));
    QCOMPARE(deadLetterCount(tb, sub("dlq")), qint64(1));
    QCOMPARE(activeCount(tb, sub("dlq")), qint64(0));
    QCOMPARE(deadLetterCount(tb, sub("drop")), qint64(0));
    QCOMPARE(activeCount(tb, sub("drop")), qint64(0));
}

void TestEngineRoutingPreview::preview_R3_storedMessageUsesItsOwnSystemProperties() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("s"), {}, {sqlRule("early", "sys.SequenceNumber < 3")}));
    const OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    // A send now would take number 1: matched. The same message stored as number 7: not.
    auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).verdict, RuleVerdict::Matched);
    SqlBrokerFields stored;
    stored.sequenceNumber = 7;
    previews = tb->previewRouting(kTopic, m, stored);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).verdict, RuleVerdict::NotMatched);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).reason,
             QStringLiteral("sys.SequenceNumber is 7 (Int64)"));
}

// The explorer previews a stored message as its sender gave it (MessageView::asSent): every
// system property, the body, the application properties and the wire extras.
void TestEngineRoutingPreview::preview_storedMessageIsPreviewedAsItWasSent() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    OutgoingMessage sent = TestBroker::message(QStringLiteral("m"), "{\"n\": 1}");
    for (const SystemTextProperty& property : kSystemTextProperties) {
        if (property.member != &SystemProperties::messageId)
            sent.*property.member = property.name.toString() + QStringLiteral("-value");
    }
    sent.timeToLive = minutes(5);
    sent.applicationProperties.insert(QStringLiteral("color"), QStringLiteral("red"));
    sent.wireExtras = QByteArray("\x00\x53\x72 opaque", 10);
    const auto result = tb->send(QStringLiteral("q"), sent);
    HG_VERIFY_OK(result);
    const auto stored = tb->message(QStringLiteral("q"), result->sequenceNumber);
    HG_VERIFY_OK(stored);
    QCOMPARE(stored->wireExtras, sent.wireExtras);
    QVERIFY(stored->asSent() == sent);
}

void TestEngineRoutingPreview::preview_badInput_notATopic() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    const OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    HG_VERIFY_REFUSED(tb.broker(), tb->previewRouting(QStringLiteral("q"), m),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->previewRouting(QStringLiteral("missing"), m),
                      ErrorCode::MessagingEntityNotFound);
}

// A send gives a message without a MessageId one before routing it (sendBatch), so a filter on
// sys.MessageId sees a value, not NULL: the preview does the same.
void TestEngineRoutingPreview::preview_L13_aMessageWithoutIdGetsOneAsASendWould() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("ided"), {}, {sqlRule("id", "sys.MessageId IS NOT NULL")}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("none"), {}, {sqlRule("noid", "sys.MessageId IS NULL")}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("x"));
    m.messageId.clear();
    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QVERIFY(previews->messageIdGenerated);
    QCOMPARE(previews->messageId.size(), 32);
    QCOMPARE(findPreview(previews->subscriptions, QStringLiteral("ided"))->fate,
             SubscriptionFate::Copies);
    QCOMPARE(findPreview(previews->subscriptions, QStringLiteral("none"))->fate,
             SubscriptionFate::NoMatch);
    HG_VERIFY_OK(tb->send(kTopic, m));
    for (const SubscriptionPreview& preview : previews->subscriptions)
        QCOMPARE(activeCount(tb, preview.path), qint64(preview.copies));
    // A message with its own id keeps it.
    const auto own = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("mine")));
    HG_VERIFY_OK(own);
    QVERIFY(!own->messageIdGenerated);
    QCOMPARE(own->messageId, QStringLiteral("mine"));
}

// A subscription's copies go on to ForwardTo only when it takes sends; a disabled or missing
// destination leaves them dead-lettered in the subscription (ForwardingFailed), as a send does.
void TestEngineRoutingPreview::preview_E3_aForwardToThatTakesNothingDeadLettersAsASendWould() {
    TestBroker tb;
    const QString destination = QStringLiteral("dst");
    HG_VERIFY_OK(tb->createQueue(destination, {}));
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    EntityProperties forwarding;
    forwarding.forwardTo = destination;
    HG_VERIFY_OK(tb->createSubscription(sub("fwd"), forwarding));

    auto previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("a")));
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::Copies);
    QCOMPARE(previews->subscriptions.at(0).forwardTo, destination);

    EntityProperties disabled;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->updateEntity(destination, disabled));
    previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("b")));
    HG_VERIFY_OK(previews);
    const SubscriptionPreview& s = previews->subscriptions.at(0);
    QCOMPARE(s.fate, SubscriptionFate::ForwardingFailed);
    QCOMPARE(s.copies, 1);
    QCOMPARE(s.failure, QStringLiteral("The forwarding destination 'dst' is Disabled."));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("b"))));
    QCOMPARE(deadLetterCount(tb, sub("fwd")), qint64(1));
    QCOMPARE(activeCount(tb, destination), qint64(0));

    HG_VERIFY_OK(tb->deleteEntity(destination));
    previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("c")));
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::ForwardingFailed);
    QCOMPARE(previews->subscriptions.at(0).failure,
             QStringLiteral("The forwarding destination 'dst' does not exist."));
    HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("c"))));
    QCOMPARE(deadLetterCount(tb, sub("fwd")), qint64(2));
}

// A FilterException dead letter goes to ForwardDeadLetteredMessagesTo only when it takes sends;
// otherwise it stays in the subscription's own dead-letter queue.
void TestEngineRoutingPreview::preview_E3_aDeadLetterForwardThatTakesNothingKeepsItHere() {
    TestBroker tb;
    const QString destination = QStringLiteral("dst");
    HG_VERIFY_OK(tb->createQueue(destination, {}));
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    EntityProperties forwarding;
    forwarding.forwardDeadLetteredMessagesTo = destination;
    HG_VERIFY_OK(tb->createSubscription(sub("s"), forwarding, {sqlRule("bad", "n = 'text'")}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("a"));
    m.applicationProperties.insert(QStringLiteral("n"), QVariant(qint64(4)));

    auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).fate, SubscriptionFate::DeadLettered);
    QCOMPARE(previews->subscriptions.at(0).forwardTo, destination);
    QCOMPARE(previews->subscriptions.at(0).deadLetterForwardFailure, QString());

    EntityProperties disabled;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->updateEntity(destination, disabled));
    previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    const SubscriptionPreview& s = previews->subscriptions.at(0);
    QCOMPARE(s.fate, SubscriptionFate::DeadLettered);
    QCOMPARE(s.forwardTo, QString()); // kept here
    QCOMPARE(s.deadLetterForwardFailure,
             QStringLiteral("The forwarding destination 'dst' is Disabled."));
    HG_VERIFY_OK(tb->send(kTopic, m));
    QCOMPARE(deadLetterCount(tb, sub("s")), qint64(1));
    QCOMPARE(deadLetterCount(tb, destination), qint64(0));
    QCOMPARE(activeCount(tb, destination), qint64(0));
}

// What happens before the fan-out: a topic that takes no sends refuses the message, duplicate
// detection drops an id seen within the window (L13), a scheduled message is routed at its time.
void TestEngineRoutingPreview::preview_whatTheTopicDoesBeforeTheFanOut() {
    TestBroker tb;
    EntityProperties detecting;
    detecting.requiresDuplicateDetection = true;
    detecting.duplicateDetectionHistoryTimeWindow = minutes(1);
    HG_VERIFY_OK(tb->createTopic(kTopic, detecting));
    HG_VERIFY_OK(tb->createSubscription(sub("s"), {}));
    const OutgoingMessage m = TestBroker::message(QStringLiteral("once"));

    auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QVERIFY(!previews->duplicate);
    QCOMPARE(previews->sendRefused, QString());
    QVERIFY(!previews->scheduledFor);
    HG_VERIFY_OK(tb->send(kTopic, m));
    previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QVERIFY(previews->duplicate);
    const auto again = tb->send(kTopic, m);
    HG_VERIFY_OK(again);
    QVERIFY(again->duplicate);
    // Outside the window the id is new again.
    tb.advance(minutes(2));
    previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QVERIFY(!previews->duplicate);

    OutgoingMessage later = TestBroker::message(QStringLiteral("later"));
    later.scheduledEnqueueTime = tb.clock().now() + hours(1);
    previews = tb->previewRouting(kTopic, later);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->scheduledFor, later.scheduledEnqueueTime);

    EntityProperties disabled = detecting;
    disabled.status = EntityStatus::Disabled;
    HG_VERIFY_OK(tb->updateEntity(kTopic, disabled));
    previews = tb->previewRouting(kTopic, TestBroker::message(QStringLiteral("new")));
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->sendRefused, QStringLiteral("'t' is Disabled: it accepts no messages."));
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kTopic, TestBroker::message(QStringLiteral("new"))),
                      ErrorCode::MessagingEntityDisabled);
}

// Property names are case-insensitive (R3): one property written two ways is one value seen.
void TestEngineRoutingPreview::preview_R3_aPropertyUnderTwoSpellingsIsListedOnce() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(kTopic, {}));
    HG_VERIFY_OK(
        tb->createSubscription(sub("s"), {}, {sqlRule("r", "Color = 'red' OR color = 'blue'")}));
    OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
    m.applicationProperties.insert(QStringLiteral("color"), QStringLiteral("green"));
    const auto previews = tb->previewRouting(kTopic, m);
    HG_VERIFY_OK(previews);
    QCOMPARE(previews->subscriptions.at(0).rules.at(0).reason, QStringLiteral("Color is 'green'"));
}

QTEST_GUILESS_MAIN(TestEngineRoutingPreview)
#include "tst_engine_routing_preview.moc"
