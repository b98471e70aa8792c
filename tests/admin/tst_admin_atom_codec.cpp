// The codec in the client's direction (hourglass/admin/AtomCodec.h), against the server's own
// reader and writer: request bodies the server reads back to the same properties and rules,
// replies the server writes read back to the same entities; a reply shaped as Azure writes it
// (elements this codec does not know, seven-digit fractions, its host in forwarding addresses);
// feeds larger than any request may be; and hostile replies refused with short texts.

#include "AtomReader.h"
#include "AtomWriter.h"
#include "XmlTree.h"

#include "hourglass/admin/AtomCodec.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::admin;

namespace {
const ReplyContext kContext{QStringLiteral("https://localhost:5671"),
                            QStringLiteral("localhost:5671"), QStringLiteral("test"),
                            1767225600000};

// Every settable property away from its default (forwarding set where the kind has it).
EntityProperties unusual(EntityKind kind) {
    EntityProperties p;
    p.defaultMessageTimeToLive = hours(3);
    p.autoDeleteOnIdle = hours(7);
    p.status = EntityStatus::ReceiveDisabled;
    if (kind != EntityKind::Subscription) {
        p.requiresDuplicateDetection = true;
        p.duplicateDetectionHistoryTimeWindow = minutes(3);
        p.maxSizeInMegabytes = 2048;
        p.maxMessageSizeInKilobytes = 1024;
    }
    if (kind != EntityKind::Topic) {
        p.lockDuration = seconds(42);
        p.maxDeliveryCount = 3;
        p.deadLetteringOnMessageExpiration = true;
        p.requiresSession = true;
        p.forwardTo = QStringLiteral("elsewhere");
        p.forwardDeadLetteredMessagesTo = QStringLiteral("graveyard");
    }
    if (kind == EntityKind::Subscription)
        p.deadLetteringOnFilterEvaluationExceptions = false;
    return p;
}

EntityInfo entityOf(EntityKind kind) {
    EntityInfo e;
    e.kind = kind;
    e.namespaceName = QStringLiteral("test");
    e.path = kind == EntityKind::Subscription ? QStringLiteral("t/Subscriptions/s")
             : kind == EntityKind::Topic      ? QStringLiteral("t")
                                              : QStringLiteral("q");
    e.name = e.path.section(u'/', -1);
    e.topicPath = kind == EntityKind::Subscription ? QStringLiteral("t") : QString();
    e.properties = unusual(kind);
    e.counts = EntityCounts{5, 2, 1, 3, 4, 777};
    e.createdAt = 1767225600000;
    e.updatedAt = 1767225601000;
    e.lastActivityAt = 1767225602000;
    return e;
}

Rule correlation() {
    Rule rule;
    rule.name = QStringLiteral("invoices");
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = QStringLiteral("invoice");
    rule.correlation.sessionId = QStringLiteral("s-1");
    rule.correlation.properties.insert(QStringLiteral("region"), QStringLiteral("eu"));
    rule.correlation.properties.insert(QStringLiteral("count"), qint32(5));
    rule.correlation.properties.insert(QStringLiteral("big"), qint64(1) << 40);
    rule.correlation.properties.insert(QStringLiteral("ratio"), 0.25);
    rule.correlation.properties.insert(QStringLiteral("urgent"), true);
    return rule;
}

Rule sqlWithAction() {
    Rule rule;
    rule.name = QStringLiteral("big");
    rule.filterType = FilterType::Sql;
    rule.sqlExpression = QStringLiteral("amount > 100 AND region = 'eu'");
    rule.sqlAction = QStringLiteral("SET tier = 'gold'");
    return rule;
}

QByteArray feedOf(int entries, bool more) {
    QList<EntityInfo> list;
    for (int i = 0; i < entries; ++i) {
        EntityInfo e = entityOf(EntityKind::Queue);
        e.path = e.name = QStringLiteral("q%1").arg(i);
        list.append(e);
    }
    return entityFeed(
        kContext,
        FeedPage{QStringLiteral("$Resources/Queues"), QStringLiteral("Queues"), 0, entries, more},
        list);
}

// A queue entry as Azure writes it: elements this codec does not know, seven-digit fractions,
// the namespace's host in forwarding addresses, other prefixes.
const QByteArray kAzureEntry =
    "<entry xmlns=\"http://www.w3.org/2005/Atom\">"
    "<id>https://contoso.servicebus.windows.net/orders?api-version=2021-05</id>"
    "<title type=\"text\">orders</title><author><name>contoso</name></author>"
    "<content type=\"application/xml\"><QueueDescription "
    "xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\" "
    "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">"
    "<LockDuration>PT30S</LockDuration><MaxSizeInMegabytes>81920</MaxSizeInMegabytes>"
    "<RequiresDuplicateDetection>false</RequiresDuplicateDetection><RequiresSession>false</"
    "RequiresSession>"
    "<DefaultMessageTimeToLive>P14D</DefaultMessageTimeToLive>"
    "<DeadLetteringOnMessageExpiration>false</DeadLetteringOnMessageExpiration>"
    "<DuplicateDetectionHistoryTimeWindow>PT10M</DuplicateDetectionHistoryTimeWindow>"
    "<MaxDeliveryCount>8</MaxDeliveryCount><EnableBatchedOperations>true</EnableBatchedOperations>"
    "<SizeInBytes>1234</SizeInBytes><MessageCount>9</MessageCount><IsAnonymousAccessible>false</"
    "IsAnonymousAccessible>"
    "<AuthorizationRules/><Status>Active</Status>"
    "<ForwardTo>sb://contoso.servicebus.windows.net/shipping</ForwardTo>"
    "<CreatedAt>2024-03-01T10:00:00.1234567Z</CreatedAt><UpdatedAt>2024-03-02T10:00:00.5Z</"
    "UpdatedAt>"
    "<AccessedAt>0001-01-01T00:00:00Z</AccessedAt><SupportOrdering>true</SupportOrdering>"
    "<CountDetails xmlns:d2p1=\"http://schemas.microsoft.com/netservices/2011/06/servicebus\">"
    "<d2p1:ActiveMessageCount>6</d2p1:ActiveMessageCount><d2p1:DeadLetterMessageCount>2</"
    "d2p1:DeadLetterMessageCount>"
    "<d2p1:ScheduledMessageCount>1</d2p1:ScheduledMessageCount><d2p1:TransferMessageCount>0</"
    "d2p1:TransferMessageCount>"
    "<d2p1:TransferDeadLetterMessageCount>0</d2p1:TransferDeadLetterMessageCount></CountDetails>"
    "<AutoDeleteOnIdle>P10675199DT2H48M5.4775807S</AutoDeleteOnIdle><EnablePartitioning>true</"
    "EnablePartitioning>"
    "<EntityAvailabilityStatus>Available</EntityAvailabilityStatus><EnableExpress>false</"
    "EnableExpress>"
    "<SomethingNewer><Deep>1</Deep></SomethingNewer><TopicOnlyThing>x</TopicOnlyThing>"
    "</QueueDescription></content></entry>";
} // namespace

class AdminAtomCodecTest : public QObject {
    Q_OBJECT

private slots:
    void entityRequestsReadByTheServer_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("queue") << int(EntityKind::Queue);
        QTest::newRow("topic") << int(EntityKind::Topic);
        QTest::newRow("subscription") << int(EntityKind::Subscription);
    }
    void entityRequestsReadByTheServer() {
        QFETCH(int, kind);
        EntityInfo entity = entityOf(EntityKind(kind));
        if (entity.kind == EntityKind::Subscription)
            entity.rules = {correlation(), sqlWithAction()};
        const QByteArray body = entityRequest(QStringLiteral("contoso.example"), entity, false);
        // Only what can be set: no runtime figures, no service constants.
        for (const char* absent : {"CountDetails", "CreatedAt", "SizeInBytes", "MessageCount",
                                   "EnablePartitioning", "EntityAvailabilityStatus"})
            QVERIFY2(!body.contains(absent), absent);
        if (entity.kind != EntityKind::Topic)
            QVERIFY(body.contains("<ForwardTo>sb://contoso.example/elsewhere</ForwardTo>"));
        const auto description = readDescription(body);
        QVERIFY2(bool(description), description ? "" : qPrintable(description.error().toString()));
        const auto read = readProperties(description->element, entity.kind,
                                         EntityProperties::defaults(Tier::Premium));
        QVERIFY2(bool(read), read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(*read, entity.properties);
        if (entity.kind == EntityKind::Subscription) {
            // The first rule goes with the subscription.
            const auto rule = readDefaultRule(description->element);
            QVERIFY(bool(rule) && rule->has_value());
            QCOMPARE(**rule, correlation());
        }
    }

    void anUpdateClearsForwarding() {
        EntityInfo entity = entityOf(EntityKind::Queue);
        EntityProperties before = entity.properties;
        entity.properties.forwardTo.clear();
        entity.properties.forwardDeadLetteredMessagesTo.clear();
        const QByteArray create = entityRequest(QStringLiteral("h"), entity, false);
        const QByteArray update = entityRequest(QStringLiteral("h"), entity, true);
        QVERIFY(!create.contains("ForwardTo"));
        const auto description = readDescription(update);
        QVERIFY(bool(description));
        const auto read = readProperties(description->element, EntityKind::Queue, before);
        QVERIFY(bool(read));
        QCOMPARE(*read, entity.properties);
        // Premium's message size is named only away from the other tiers' value.
        entity.properties.maxMessageSizeInKilobytes = 256;
        QVERIFY(!entityRequest(QStringLiteral("h"), entity, false).contains("MaxMessageSize"));
    }

    void ruleRequestsReadByTheServer() {
        for (const Rule& rule : {correlation(), sqlWithAction(), Rule::trueRule()}) {
            const auto description = readDescription(ruleRequest(rule));
            QVERIFY(bool(description));
            QCOMPARE(description->kind, DescriptionKind::Rule);
            const auto read = readRule(description->element, rule.name);
            QVERIFY2(bool(read), read ? "" : qPrintable(read.error().toString()));
            QCOMPARE(*read, rule);
        }
    }

    void repliesReadBack_data() { entityRequestsReadByTheServer_data(); }
    void repliesReadBack() {
        QFETCH(int, kind);
        const EntityInfo entity = entityOf(EntityKind(kind));
        const auto read = readEntityReply(entityEntry(kContext, entity));
        QVERIFY2(bool(read), read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->kind, entity.kind);
        QCOMPARE(read->path, entity.path);
        QCOMPARE(read->name, entity.name);
        QCOMPARE(read->topicPath, entity.topicPath);
        QCOMPARE(read->namespaceName, entity.namespaceName);
        QCOMPARE(read->properties, entity.properties);
        // The service counts locked and deferred messages as active.
        QCOMPARE(read->counts.active, qint64(5 + 3 + 1));
        QCOMPARE(read->counts.scheduled, qint64(2));
        QCOMPARE(read->counts.deadLettered, qint64(4));
        // A subscription's entry has no size (the service writes none).
        QCOMPARE(read->counts.sizeInBytes,
                 entity.kind == EntityKind::Subscription ? qint64(0) : qint64(777));
        QCOMPARE(read->createdAt, entity.createdAt);
        QCOMPARE(read->updatedAt, entity.updatedAt);
        QCOMPARE(read->lastActivityAt, entity.lastActivityAt);
    }

    void rulesAndNamespaceReadBack() {
        const EntityInfo subscription = entityOf(EntityKind::Subscription);
        const auto rule = readRuleReply(ruleEntry(kContext, subscription, correlation()));
        QVERIFY2(bool(rule), rule ? "" : qPrintable(rule.error().toString()));
        QCOMPARE(*rule, correlation());
        const QList<Rule> rules{sqlWithAction(), Rule::trueRule()};
        const auto page = readRuleFeed(
            ruleFeed(kContext, FeedPage{QStringLiteral("t/Subscriptions/s/Rules"), {}, 0, 2, true},
                     subscription, rules));
        QVERIFY(bool(page));
        QCOMPARE(page->rules, rules);
        QCOMPARE(page->nextSkip, std::optional<int>(2));
        const auto info = readNamespaceReply(
            namespaceEntry(kContext, NamespaceInfo{QStringLiteral("test"), Tier::Premium}, 0, 0));
        QVERIFY(bool(info));
        QCOMPARE(info->name, QStringLiteral("test"));
        QCOMPARE(info->tier, Tier::Premium);
    }

    void azureShapedReply() {
        const auto read = readEntityReply(kAzureEntry);
        QVERIFY2(bool(read), read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->path, QStringLiteral("orders"));
        QCOMPARE(read->namespaceName, QStringLiteral("contoso"));
        QCOMPARE(read->properties.maxDeliveryCount, 8);
        QCOMPARE(read->properties.lockDuration, seconds(30));
        QCOMPARE(read->properties.forwardTo, QStringLiteral("shipping"));
        QCOMPARE(read->properties.autoDeleteOnIdle, kInfinite);
        QCOMPARE(read->counts.active, qint64(6));
        QCOMPARE(read->counts.sizeInBytes, qint64(1234));
        QCOMPARE(read->createdAt, parseInstant(QStringLiteral("2024-03-01T10:00:00.123Z")).value());
    }

    void feedsLargerThanAnyRequest() {
        const QByteArray big = feedOf(150, true);
        QVERIFY(!parseXml(big).root);          // a request this size is refused...
        const auto page = readEntityFeed(big); // ...a reply is read
        QVERIFY2(bool(page), page ? "" : qPrintable(page.error().toString()));
        QCOMPARE(page->entities.size(), 150);
        QCOMPARE(page->entities.last().path, QStringLiteral("q149"));
        QCOMPARE(page->nextSkip, std::optional<int>(150));
        QCOMPARE(readEntityFeed(feedOf(3, false))->nextSkip, std::optional<int>());
    }

    void hostileReplies_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("code");
        const int problem = int(ErrorCode::ServiceCommunicationProblem);
        QByteArray entry = entityEntry(kContext, entityOf(EntityKind::Queue));
        QTest::newRow("empty") << QByteArray() << problem;
        QTest::newRow("not XML") << QByteArray("{\"json\": true}") << problem;
        QTest::newRow("DTD") << QByteArray("<!DOCTYPE e [<!ENTITY x 'y'>]><entry>&x;</entry>")
                             << problem;
        QTest::newRow("no id")
            << QByteArray(entry).replace("<id>", "<ids>").replace("</id>", "</ids>") << problem;
        QTest::newRow("a path too long")
            << QByteArray(entry).replace("https://localhost:5671/q?",
                                         "https://localhost:5671/" + QByteArray(500, 'a') + "?")
            << problem;
        QTest::newRow("a negative count")
            << QByteArray(entry).replace("<SizeInBytes>777<", "<SizeInBytes>-1<") << problem;
        QTest::newRow("a bad duration")
            << QByteArray(entry).replace("<LockDuration>PT42S<", "<LockDuration>soon<") << problem;
        QTest::newRow("an empty feed")
            << QByteArray("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>x</title></feed>")
            << int(ErrorCode::MessagingEntityNotFound);
        QTest::newRow("deeper than 32")
            << QByteArray("<entry>").repeated(40) + QByteArray("</entry>").repeated(40) << problem;
    }
    void hostileReplies() {
        QFETCH(QByteArray, body);
        QFETCH(int, code);
        const auto read = readEntityReply(body);
        QVERIFY(!read);
        QCOMPARE(int(read.error().code), code);
        QVERIFY(read.error().description.size() < 200);
    }

    void feedsThatMisleadAreRefused() {
        QByteArray feed = feedOf(2, true);
        feed.replace("$skip=2", "$skip=many");
        QCOMPARE(readEntityFeed(feed).error().code, ErrorCode::ServiceCommunicationProblem);
        QCOMPARE(readEntityFeed(entityEntry(kContext, entityOf(EntityKind::Queue))).error().code,
                 ErrorCode::ServiceCommunicationProblem);
    }

    void errorDetailsAreClipped() {
        const QString detail = QStringLiteral("secret\t") + QString(5000, u'x');
        const auto read = readErrorDetail(writeError(400, detail));
        QVERIFY(read.has_value());
        QVERIFY(read->size() <= kMaxQuotedReply + 3);
        QVERIFY(read->startsWith(QStringLiteral("secret?")));
        QVERIFY(!readErrorDetail("<entry/>").has_value());
    }
};

QTEST_GUILESS_MAIN(AdminAtomCodecTest)
#include "tst_admin_atom_codec.moc"
