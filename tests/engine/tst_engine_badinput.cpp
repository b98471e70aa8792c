// Bad input, part 1: names, paths, namespaces and entity properties (E1-E3).
#include "TestEngineBadInput.h"

#include "BadInputFixture.h"
#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = BadInputFixture::kQueue;
const QString& kTopic = BadInputFixture::kTopic;
const QString& kSub = BadInputFixture::kSub;
} // namespace

void TestEngineBadInput::badinput_E2_badQueueAndTopicNames_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("empty") << "";
    QTest::newRow("261 characters") << QString(261, u'a');
    QTest::newRow("261 characters in segments") << QString(130, u'a') + u'/' + QString(130, u'b');
    QTest::newRow("space") << "my queue";
    QTest::newRow("asterisk") << "a*b";
    QTest::newRow("question mark") << "a?b";
    QTest::newRow("hash") << "a#b";
    QTest::newRow("backslash") << "a\\b";
    QTest::newRow("percent") << "a%b";
    QTest::newRow("plus") << "a+b";
    QTest::newRow("ampersand") << "a&b";
    QTest::newRow("non-ASCII") << QStringLiteral("caf\u00e9");
    QTest::newRow("leading slash") << "/a";
    QTest::newRow("trailing slash") << "a/";
    QTest::newRow("only a slash") << "/";
    QTest::newRow("empty segment") << "a//b";
}

void TestEngineBadInput::badinput_E2_badQueueAndTopicNames() {
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(path, {}), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(path, {}), ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E2_badSubscriptionNames_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << "";
    QTest::newRow("51 characters") << QString(51, u's');
    QTest::newRow("space") << "a b";
    QTest::newRow("asterisk") << "a*b";
    QTest::newRow("slash") << "a/b";
    QTest::newRow("dollar") << "$sub";
}

void TestEngineBadInput::badinput_E2_badSubscriptionNames() {
    QFETCH(QString, name);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->createSubscription(kTopic + QStringLiteral("/Subscriptions/") + name, {}),
                      ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E2_badRuleNames_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << "";
    QTest::newRow("51 characters") << QString(51, u'r');
    QTest::newRow("space") << "a b";
    QTest::newRow("slash") << "a/b";
}

void TestEngineBadInput::badinput_E2_badRuleNames() {
    QFETCH(QString, name);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::True;
    HG_VERIFY_REFUSED(tb.broker(), tb->addRule(kSub, rule), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->createSubscription(QStringLiteral("t/Subscriptions/new"), {}, {rule}),
                      ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E2_malformedPathInEveryOperation_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("path");
    const std::pair<const char*, QString> paths[] = {
        {"empty", QString()},
        {"illegal character", QStringLiteral("q!")},
        {"empty segment", QStringLiteral("a//q")},
        {"trailing slash", QStringLiteral("q/")},
        {"261 characters", QString(261, u'q')},
        {"subscription name of 51", QStringLiteral("t/Subscriptions/") + QString(51, u's')}};
    for (const char* op : BadInputFixture::kLookupOperations) {
        for (const auto& [name, path] : paths)
            QTest::addRow("%s, %s", op, name) << op << path;
    }
    for (const char* op : BadInputFixture::kSubscriptionOperations)
        QTest::addRow("%s, subscription name of 51", op)
            << op << QStringLiteral("t/Subscriptions/") + QString(51, u's');
}

void TestEngineBadInput::badinput_E2_malformedPathInEveryOperation() {
    QFETCH(QString, op);
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(), BadInputFixture::runOperation(tb.broker(), op, path),
                      ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E2_duplicateNames_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("path");
    QTest::newRow("queue, same name") << "queue"
                                      << "q";
    QTest::newRow("queue, other case") << "queue"
                                       << "Q";
    QTest::newRow("topic named like a queue") << "topic"
                                              << "q";
    QTest::newRow("queue named like a topic, other case") << "queue"
                                                          << "T";
    QTest::newRow("topic, same name") << "topic"
                                      << "t";
    QTest::newRow("subscription, same name") << "subscription"
                                             << "t/Subscriptions/s";
    QTest::newRow("subscription, other case") << "subscription"
                                              << "t/Subscriptions/S";
    QTest::newRow("subscription, topic in other case") << "subscription"
                                                       << "T/Subscriptions/s";
    QTest::newRow("rule, same name") << "rule"
                                     << "$Default";
    QTest::newRow("rule, other case") << "rule"
                                      << "$DEFAULT";
}

void TestEngineBadInput::badinput_E2_duplicateNames() {
    QFETCH(QString, kind);
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    EntityProperties other;
    other.maxDeliveryCount = 2; // a different definition does not make it a different entity
    if (kind == QLatin1String("queue")) {
        HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(path, other),
                          ErrorCode::MessagingEntityAlreadyExists);
    } else if (kind == QLatin1String("topic")) {
        HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(path, {}),
                          ErrorCode::MessagingEntityAlreadyExists);
    } else if (kind == QLatin1String("subscription")) {
        HG_VERIFY_REFUSED(tb.broker(), tb->createSubscription(path, other),
                          ErrorCode::MessagingEntityAlreadyExists);
    } else {
        Rule rule;
        rule.name = path;
        rule.filterType = FilterType::False;
        HG_VERIFY_REFUSED(tb.broker(), tb->addRule(kSub, rule),
                          ErrorCode::MessagingEntityAlreadyExists);
        // Two rules of one name in a new subscription.
        rule.name = QStringLiteral("twice");
        Rule again = rule;
        again.name = QStringLiteral("TWICE");
        HG_VERIFY_REFUSED(
            tb.broker(),
            tb->createSubscription(QStringLiteral("t/Subscriptions/new"), {}, {rule, again}),
            ErrorCode::MessagingEntityAlreadyExists);
    }
}

void TestEngineBadInput::badinput_E1_namespaces() {
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(), tb->createNamespace({QStringLiteral("test"), Tier::Standard}),
                      ErrorCode::MessagingEntityAlreadyExists);
    HG_VERIFY_REFUSED(tb.broker(), tb->createNamespace({QStringLiteral("TEST"), Tier::Premium}),
                      ErrorCode::MessagingEntityAlreadyExists);
    HG_VERIFY_REFUSED(tb.broker(), tb->createNamespace({QString(), Tier::Standard}),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->createNamespace({QStringLiteral("a:b"), Tier::Standard}),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->deleteNamespace(QStringLiteral("nope")),
                      ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(QStringLiteral("nope:q2"), {}),
                      ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(QStringLiteral("nope:t2"), {}),
                      ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->createSubscription(QStringLiteral("nope:t/Subscriptions/s2"), {}),
                      ErrorCode::MessagingEntityNotFound);
    // A subscription needs its topic.
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->createSubscription(QStringLiteral("missing/Subscriptions/s"), {}),
                      ErrorCode::MessagingEntityNotFound);
    QCOMPARE(tb->entities(QStringLiteral("nope")).size(), 0);
}

void TestEngineBadInput::badinput_E1_unknownEntityInEveryOperation_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("path");
    for (const char* op : BadInputFixture::kLookupOperations) {
        QTest::addRow("%s, missing entity", op) << op << "missing";
        QTest::addRow("%s, missing dead-letter queue", op) << op << "missing/$deadletterqueue";
        QTest::addRow("%s, missing subscription", op) << op << "t/Subscriptions/missing";
        QTest::addRow("%s, unknown namespace", op) << op << "nope:q";
    }
    for (const char* op : BadInputFixture::kSubscriptionOperations) {
        QTest::addRow("%s, missing subscription", op) << op << "t/Subscriptions/missing";
        QTest::addRow("%s, missing topic", op) << op << "missing/Subscriptions/s";
        QTest::addRow("%s, unknown namespace", op) << op << "nope:t/Subscriptions/s";
    }
}

void TestEngineBadInput::badinput_E1_unknownEntityInEveryOperation() {
    QFETCH(QString, op);
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    // Dead-letter queues take no receive-side state changes in the runOperation calls that
    // need a main entity, but every call must first find the entity.
    HG_VERIFY_REFUSED(tb.broker(), BadInputFixture::runOperation(tb.broker(), op, path),
                      ErrorCode::MessagingEntityNotFound);
}

void TestEngineBadInput::badinput_E1_wrongKindOfPath_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("path");
    QTest::newRow("send to a subscription") << "send" << kSub;
    QTest::newRow("sendBatch to a subscription") << "sendBatch" << kSub;
    QTest::newRow("schedule to a subscription") << "schedule" << kSub;
    QTest::newRow("send to a dead-letter queue") << "send"
                                                 << "q/$deadletterqueue";
    QTest::newRow("schedule to a dead-letter queue") << "schedule"
                                                     << "q/$deadletterqueue";
    QTest::newRow("receive from a topic") << "receive" << kTopic;
    QTest::newRow("receiveDeferred from a topic") << "receiveDeferred" << kTopic;
    QTest::newRow("addRule to a queue") << "addRule" << kQueue;
    QTest::newRow("addRule to a topic") << "addRule" << kTopic;
    QTest::newRow("removeRule from a queue") << "removeRule" << kQueue;
    QTest::newRow("update a dead-letter queue") << "updateEntity"
                                                << "q/$deadletterqueue";
    QTest::newRow("delete a dead-letter queue") << "deleteEntity"
                                                << "q/$deadletterqueue";
    QTest::newRow("create a dead-letter queue") << "createQueue"
                                                << "q2/$deadletterqueue";
    QTest::newRow("create a queue at a subscription path") << "createQueue"
                                                           << "t/Subscriptions/x";
    QTest::newRow("create a subscription at a queue path") << "createSubscription"
                                                           << "x";
    QTest::newRow("topic dead-letter queue") << "listMessages"
                                             << "t/$deadletterqueue";
}

void TestEngineBadInput::badinput_E1_wrongKindOfPath() {
    QFETCH(QString, op);
    QFETCH(QString, path);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    HG_VERIFY_REFUSED(tb.broker(), BadInputFixture::runOperation(tb.broker(), op, path),
                      ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E3_bounds_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("property");
    QTest::addColumn<qint64>("value");
    QTest::addColumn<bool>("valid");
    struct Bound {
        const char* property;
        qint64 value;
        bool valid;
        bool topicsToo;
    };
    const Bound bounds[] = {
        {"DefaultMessageTimeToLive", -1, false, true},
        {"DefaultMessageTimeToLive", 0, false, true},
        {"DefaultMessageTimeToLive", 1, true, true},
        {"DefaultMessageTimeToLive", kInfinite, true, true},
        {"LockDuration", seconds(5) - 1, false, false},
        {"LockDuration", seconds(5), true, false},
        {"LockDuration", minutes(5), true, false},
        {"LockDuration", minutes(5) + 1, false, false},
        {"MaxDeliveryCount", -1, false, false},
        {"MaxDeliveryCount", 0, false, false},
        {"MaxDeliveryCount", 1, true, false},
        {"AutoDeleteOnIdle", 0, false, true},
        {"AutoDeleteOnIdle", minutes(5) - 1, false, true},
        {"AutoDeleteOnIdle", minutes(5), true, true},
        {"AutoDeleteOnIdle", kInfinite, true, true},
        {"DuplicateDetectionHistoryTimeWindow", seconds(20) - 1, false, true},
        {"DuplicateDetectionHistoryTimeWindow", seconds(20), true, true},
        {"DuplicateDetectionHistoryTimeWindow", days(7), true, true},
        {"DuplicateDetectionHistoryTimeWindow", days(7) + 1, false, true},
        {"RequiresSession", 1, true, true},
    };
    for (const char* target : {"create queue", "update queue", "create subscription",
                               "update subscription", "create topic", "update topic"}) {
        const bool topic = QByteArray(target).endsWith("topic");
        const bool subscription = QByteArray(target).endsWith("subscription");
        for (const Bound& b : bounds) {
            if (topic && !b.topicsToo)
                continue;
            // Duplicate detection is a queue and topic property (E3).
            if (subscription && QByteArray(b.property).startsWith("Duplicate"))
                continue;
            // E5, S1: sessions are chosen when a queue or subscription is created; a topic has
            // none, and an update cannot change them.
            const bool valid = QByteArray(b.property) == "RequiresSession"
                                   ? !topic && QByteArray(target).startsWith("create")
                                   : b.valid;
            QTest::addRow("%s, %s = %lld", target, b.property, static_cast<long long>(b.value))
                << target << b.property << b.value << valid;
        }
    }
}

void TestEngineBadInput::badinput_E3_bounds() {
    QFETCH(QString, target);
    QFETCH(QString, property);
    QFETCH(qint64, value);
    QFETCH(bool, valid);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    EntityProperties p;
    BadInputFixture::applyBound(p, property, value);
    QString path;
    Result<EntityInfo> (Broker::*create)(const QString&, const EntityProperties&) = nullptr;
    if (target.endsWith(QLatin1String("queue"))) {
        path = target.startsWith(QLatin1String("create")) ? QStringLiteral("q2") : kQueue;
        create = &Broker::createQueue;
    } else if (target.endsWith(QLatin1String("topic"))) {
        path = target.startsWith(QLatin1String("create")) ? QStringLiteral("t2") : kTopic;
        create = &Broker::createTopic;
    } else {
        path = target.startsWith(QLatin1String("create")) ? QStringLiteral("t/Subscriptions/s2")
                                                          : kSub;
    }
    const bool update = target.startsWith(QLatin1String("update"));
    // Detection itself is fixed at creation (E5); the window is judged whether it is on or not.
    if (update)
        p.requiresDuplicateDetection = false;
    const auto call = [&]() -> Result<EntityInfo> {
        if (update)
            return tb->updateEntity(path, p);
        if (create)
            return (tb.broker().*create)(path, p);
        return tb->createSubscription(path, p);
    };
    if (!valid) {
        HG_VERIFY_REFUSED(tb.broker(), call(), ErrorCode::InvalidArgument);
        return;
    }
    const auto done = call();
    HG_VERIFY_OK(done);
    const auto read = tb->entity(path);
    HG_VERIFY_OK(read);
    QCOMPARE(describe(read->properties), describe(p));
}

void TestEngineBadInput::badinput_E3_basicTierTtlCap() {
    TestBroker tb(Tier::Basic);
    EntityProperties p = EntityProperties::defaults(Tier::Basic);
    p.defaultMessageTimeToLive = days(14) + 1;
    HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(kQueue, p), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(kTopic, p), ErrorCode::InvalidArgument);
    p.defaultMessageTimeToLive = kInfinite;
    HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(kQueue, p), ErrorCode::InvalidArgument);
    p.defaultMessageTimeToLive = days(14);
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    p.defaultMessageTimeToLive = days(15);
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(kQueue, p), ErrorCode::InvalidArgument);
}

void TestEngineBadInput::badinput_E3_forwarding_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("property");
    QTest::addColumn<QString>("destination");
    QTest::addColumn<int>("expected");
    const int notFound = int(ErrorCode::MessagingEntityNotFound);
    const int invalid = int(ErrorCode::InvalidArgument);
    for (const char* target :
         {"create queue", "update queue", "create subscription", "update subscription"}) {
        const bool queue = QByteArray(target).endsWith("queue");
        const bool create = QByteArray(target).startsWith("create");
        // The entity itself, by the path it has (or will have).
        const QString self = queue ? (create ? QStringLiteral("q2") : kQueue)
                                   : (create ? QStringLiteral("t/Subscriptions/s2") : kSub);
        for (const char* property : {"ForwardTo", "ForwardDeadLetteredMessagesTo"}) {
            QTest::addRow("%s, %s itself", target, property)
                << target << property << self << invalid;
            if (queue)
                QTest::addRow("%s, %s itself in other case", target, property)
                    << target << property << self.toUpper() << invalid;
            QTest::addRow("%s, %s missing", target, property)
                << target << property << "missing" << notFound;
            QTest::addRow("%s, %s a subscription", target, property)
                << target << property << kSub << invalid;
            QTest::addRow("%s, %s a dead-letter queue", target, property)
                << target << property << "q/$deadletterqueue" << invalid;
            QTest::addRow("%s, %s malformed", target, property)
                << target << property << "no such!" << invalid;
        }
    }
    QTest::newRow("create topic, ForwardTo") << "create topic"
                                             << "ForwardTo"
                                             << "q" << invalid;
}

void TestEngineBadInput::badinput_E3_forwarding() {
    QFETCH(QString, target);
    QFETCH(QString, property);
    QFETCH(QString, destination);
    QFETCH(int, expected);
    TestBroker tb;
    BadInputFixture::populate(tb);
    if (QTest::currentTestFailed())
        return;
    EntityProperties p;
    if (property == QLatin1String("ForwardTo"))
        p.forwardTo = destination;
    else
        p.forwardDeadLetteredMessagesTo = destination;
    const ErrorCode code = ErrorCode(expected);
    if (target == QLatin1String("create queue"))
        HG_VERIFY_REFUSED(tb.broker(), tb->createQueue(QStringLiteral("q2"), p), code);
    else if (target == QLatin1String("update queue"))
        HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(kQueue, p), code);
    else if (target == QLatin1String("create subscription"))
        HG_VERIFY_REFUSED(tb.broker(),
                          tb->createSubscription(QStringLiteral("t/Subscriptions/s2"), p), code);
    else if (target == QLatin1String("update subscription"))
        HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(kSub, p), code);
    else
        HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(QStringLiteral("t2"), p), code);
}

QTEST_GUILESS_MAIN(TestEngineBadInput)
