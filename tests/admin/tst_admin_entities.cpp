// Queues, topics and subscriptions through the administration API, with requests shaped as the
// JavaScript SDK 7.9.5 sends them: created with few properties (the engine's defaults fill in
// the rest), read with their runtime figures, updated with If-Match, listed page by page,
// deleted; forwarding addresses as absolute URLs; the namespace's own entry.

#include "AdminFixture.h"

#include "hourglass/Broker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
const QString kInfiniteText = QStringLiteral("P10675199DT2H48M5.4775807S");

// Every element the JavaScript client requires of a queue, topic or subscription reply.
const QStringList kQueueElements{"LockDuration",
                                 "MaxSizeInMegabytes",
                                 "MaxDeliveryCount",
                                 "EnablePartitioning",
                                 "RequiresSession",
                                 "EnableBatchedOperations",
                                 "DefaultMessageTimeToLive",
                                 "RequiresDuplicateDetection",
                                 "DuplicateDetectionHistoryTimeWindow",
                                 "DeadLetteringOnMessageExpiration",
                                 "EnableExpress",
                                 "CountDetails",
                                 "CreatedAt",
                                 "UpdatedAt",
                                 "AccessedAt",
                                 "MessageCount",
                                 "SizeInBytes",
                                 "Status",
                                 "AutoDeleteOnIdle"};
const QStringList kTopicElements{"MaxSizeInMegabytes",
                                 "EnablePartitioning",
                                 "SupportOrdering",
                                 "EnableBatchedOperations",
                                 "DefaultMessageTimeToLive",
                                 "RequiresDuplicateDetection",
                                 "DuplicateDetectionHistoryTimeWindow",
                                 "EnableExpress",
                                 "CountDetails",
                                 "CreatedAt",
                                 "UpdatedAt",
                                 "AccessedAt",
                                 "SubscriptionCount"};
const QStringList kSubscriptionElements{"LockDuration",
                                        "MaxDeliveryCount",
                                        "RequiresSession",
                                        "EnableBatchedOperations",
                                        "DefaultMessageTimeToLive",
                                        "AutoDeleteOnIdle",
                                        "DeadLetteringOnMessageExpiration",
                                        "DeadLetteringOnFilterEvaluationExceptions",
                                        "Status",
                                        "EntityAvailabilityStatus",
                                        "MessageCount",
                                        "CountDetails",
                                        "CreatedAt",
                                        "UpdatedAt",
                                        "AccessedAt"};

void verifyElements(const XmlElement* description, const QStringList& names) {
    QVERIFY(description);
    for (const QString& name : names)
        QVERIFY2(description->child(name), qPrintable(QStringLiteral("missing ") + name));
}

// The count the reply's CountDetails gives (d2p1: children; XmlTree keeps local names).
QString countOf(const XmlElement* description, const QString& name) {
    return childText(description ? description->child(QStringLiteral("CountDetails")) : nullptr,
                     name);
}
// An update body made of a reply's own description, as .NET and Python send back what they read
// (runtime figures included).
QByteArray echoed(const QByteArray& reply, const QByteArray& element) {
    const qsizetype from = reply.indexOf("<" + element);
    const QByteArray end = "</" + element + ">";
    const qsizetype to = reply.indexOf(end);
    if (from < 0 || to < 0)
        return {};
    return "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">" +
           reply.mid(from, to + end.size() - from) + "</content></entry>";
}
} // namespace

class TestAdminEntities : public QObject {
    Q_OBJECT

private slots:
    void namespaceInfo() {
        AdminFixture f;
        const AdminResponse response = f.get("/$namespaceinfo");
        QCOMPARE(response.status, 200);
        const auto entry = parsedBody(response);
        QVERIFY(entry);
        QCOMPARE(entry->name, QStringLiteral("entry"));
        QVERIFY(childText(&*entry, "id").startsWith("https://localhost:5671/$namespaceinfo"));
        const XmlElement* info = descriptionOf(*entry);
        QVERIFY(info);
        QCOMPARE(info->name, QStringLiteral("NamespaceInfo"));
        QCOMPARE(childText(info, "Name"), QStringLiteral("test"));
        QCOMPARE(childText(info, "MessagingSKU"), QStringLiteral("Standard"));
        QVERIFY(parseInstant(childText(info, "CreatedTime")));
        QVERIFY(parseInstant(childText(info, "ModifiedTime")));
    }

    // An empty list is a feed with a title (a bare <feed/> does not parse in the JS client).
    void emptyListIsAFeedWithATitle() {
        AdminFixture f;
        const AdminResponse response = f.get("/$Resources/Topics?$skip=0&$top=100&api-version="
                                             "2021-05");
        QCOMPARE(response.status, 200);
        QVERIFY(response.header("Content-Type").contains("type=feed"));
        const auto feed = parsedBody(response);
        QVERIFY(feed);
        QCOMPARE(feed->name, QStringLiteral("feed"));
        QCOMPARE(childText(&*feed, "title"), QStringLiteral("Topics"));
        QVERIFY(entriesOf(*feed).isEmpty());
        QCOMPARE(linkCount(response.body), 1);
    }

    // The Python SDK (msrest) writes every element with a prefix of its own.
    void pythonShapedBodyIsReadByLocalName() {
        AdminFixture f;
        const QByteArray body =
            "<?xml version='1.0' encoding='utf-8'?>\n"
            "<ns0:entry xmlns:ns0=\"http://www.w3.org/2005/Atom\"><ns0:content "
            "type=\"application/xml\"><ns1:QueueDescription xmlns:ns1=\"http://schemas."
            "microsoft.com/netservices/2010/10/servicebus/connect\"><ns1:MaxDeliveryCount>7"
            "</ns1:MaxDeliveryCount><ns1:RequiresSession>true</ns1:RequiresSession>"
            "</ns1:QueueDescription></ns0:content></ns0:entry>";
        QCOMPARE(f.put("/sessions", body).status, 201);
        const auto entity = f.broker().entity("sessions");
        QVERIFY(entity);
        QCOMPARE(entity->properties.maxDeliveryCount, 7);
        QVERIFY(entity->properties.requiresSession);
    }

    // createQueue("orders", { maxDeliveryCount: 5 }): only that element is sent.
    void queueCreatedWithFewPropertiesHasTheEngineDefaults() {
        AdminFixture f;
        f.broker().changes()->takePending();
        const AdminResponse created = f.put(
            "/orders", atomEntry("QueueDescription", "<MaxDeliveryCount>5</MaxDeliveryCount>"));
        QCOMPARE(created.status, 201);
        QVERIFY(created.header("Content-Type").startsWith("application/atom+xml"));
        // The window's tree learns of it from the change feed, as of any other entity.
        QVERIFY(f.broker().changes()->takePending().created.contains("test:orders"));

        const auto entity = f.broker().entity("orders");
        QVERIFY(entity);
        EntityProperties expected = EntityProperties::defaults(Tier::Standard);
        expected.maxDeliveryCount = 5;
        QCOMPARE(entity->properties, expected);

        const AdminResponse read = f.get("/orders");
        QCOMPARE(read.status, 200);
        const auto entry = parsedBody(read);
        QVERIFY(entry);
        QCOMPARE(childText(&*entry, "id"),
                 QStringLiteral("https://localhost:5671/orders?api-version=2021-05"));
        QCOMPARE(childText(&*entry, "title"), QStringLiteral("orders"));
        const XmlElement* queue = descriptionOf(*entry);
        verifyElements(queue, kQueueElements);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(queue->name, QStringLiteral("QueueDescription"));
        QCOMPARE(childText(queue, "MaxDeliveryCount"), QStringLiteral("5"));
        QCOMPARE(childText(queue, "LockDuration"), QStringLiteral("PT1M"));
        QCOMPARE(childText(queue, "DefaultMessageTimeToLive"), kInfiniteText);
        QCOMPARE(childText(queue, "AutoDeleteOnIdle"), kInfiniteText);
        QCOMPARE(childText(queue, "DuplicateDetectionHistoryTimeWindow"), QStringLiteral("PT10M"));
        QCOMPARE(childText(queue, "MaxSizeInMegabytes"), QStringLiteral("1024"));
        QCOMPARE(childText(queue, "RequiresSession"), QStringLiteral("false"));
        QCOMPARE(childText(queue, "Status"), QStringLiteral("Active"));
        QCOMPARE(childText(queue, "CreatedAt"), formatInstant(kTestStart));
        QVERIFY(!queue->child("ForwardTo")); // none set: none written
        // CountDetails carries one prefix, d2p1, and its children use it.
        QVERIFY(read.body.contains(
            "<CountDetails xmlns:d2p1=\"http://schemas.microsoft.com/netservices/2011/06/"
            "servicebus\"><d2p1:ActiveMessageCount>0</d2p1:ActiveMessageCount>"));
        QCOMPARE(read.body.count("xmlns:d2p1"), 1);
    }

    void queueUpdatedWithIfMatchKeepsWhatItDoesNotName() {
        AdminFixture f;
        QCOMPARE(f.put("/orders",
                       atomEntry("QueueDescription", "<MaxDeliveryCount>5</MaxDeliveryCount>"))
                     .status,
                 201);
        const AdminResponse updated =
            f.put("/orders",
                  atomEntry("QueueDescription", "<LockDuration>PT30S</LockDuration>"
                                                "<Status>SendDisabled</Status>"),
                  true);
        QCOMPARE(updated.status, 200);
        const auto entity = f.broker().entity("orders");
        QVERIFY(entity);
        QCOMPARE(entity->properties.lockDuration, seconds(30));
        QCOMPARE(entity->properties.maxDeliveryCount, 5);
        QCOMPARE(entity->properties.status, EntityStatus::SendDisabled);
        const auto entry = parsedBody(updated);
        QVERIFY(entry);
        QCOMPARE(childText(descriptionOf(*entry), "LockDuration"), QStringLiteral("PT30S"));
        QCOMPARE(childText(descriptionOf(*entry), "Status"), QStringLiteral("SendDisabled"));

        // Created twice: 409; updated when missing: 404.
        const AdminResponse again = f.put("/orders", atomEntry("QueueDescription", ""));
        QCOMPARE(again.status, 409);
        QVERIFY(again.body.contains("<Code>409</Code>"));
        QCOMPARE(f.put("/missing", atomEntry("QueueDescription", ""), true).status, 404);
        QVERIFY(!f.broker().entity("missing"));
    }

    // Whatever a reply writes, an update takes back unchanged.
    void repliesAreAcceptedBackAsUpdates() {
        AdminFixture f;
        QVERIFY(f.broker().createQueue("dest", EntityProperties::defaults(Tier::Standard)));
        QCOMPARE(f.put("/orders", atomEntry("QueueDescription",
                                            "<ForwardTo>sb://localhost:5671/dest</ForwardTo>"))
                     .status,
                 201);
        QCOMPARE(f.put("/events", atomEntry("TopicDescription", "")).status, 201);
        QCOMPARE(f.put("/events/Subscriptions/s", atomEntry("SubscriptionDescription", "")).status,
                 201);
        const QList<QPair<QByteArray, QByteArray>> entities{
            {"/orders", "QueueDescription"},
            {"/events", "TopicDescription"},
            {"/events/Subscriptions/s", "SubscriptionDescription"}};
        for (const auto& [target, element] : entities) {
            const QString path = QString::fromUtf8(target.mid(1));
            const auto before = f.broker().entity(path);
            QVERIFY(before);
            const QByteArray body = echoed(f.get(target).body, element);
            QVERIFY(!body.isEmpty());
            const AdminResponse updated = f.put(target, body, true);
            QVERIFY2(updated.status == 200, updated.body.constData());
            QCOMPARE(f.broker().entity(path)->properties, before->properties);
        }
    }

    void deletedQueueIsNotFoundAfterwards() {
        AdminFixture f;
        QCOMPARE(f.put("/orders", atomEntry("QueueDescription", "")).status, 201);
        const AdminResponse deleted = f.remove("/orders");
        QCOMPARE(deleted.status, 200);
        QVERIFY(!f.broker().entity("orders"));
        const AdminResponse read = f.get("/orders");
        QCOMPARE(read.status, 404);
        QVERIFY(read.body.contains("<Error><Code>404</Code><Detail>"));
        QVERIFY(errorDetail(read).contains("orders"));
        QCOMPARE(f.remove("/orders").status, 404);
    }

    void runtimeFiguresAreTheBrokersCounts() {
        AdminFixture f;
        QVERIFY(f.broker().createQueue("jobs", EntityProperties::defaults(Tier::Standard)));
        for (int i = 0; i < 3; ++i)
            QVERIFY(f.broker().send("jobs", TestBroker::message(QString::number(i))));
        QVERIFY(f.broker().schedule("jobs", TestBroker::message("later"), kTestStart + hours(1)));
        ReceiveOptions options;
        options.receiver = "r";
        const auto received = f.broker().receive("jobs", options);
        QVERIFY(received && received->size() == 1);
        QVERIFY(f.broker().deadLetter(LockRef::of(received->first())));
        QVERIFY(f.broker().receive("jobs", options)); // one more, locked: still active

        const auto counts = f.broker().counts("jobs");
        QVERIFY(counts);
        const auto entry = parsedBody(f.get("/jobs"));
        QVERIFY(entry);
        const XmlElement* queue = descriptionOf(*entry);
        QCOMPARE(countOf(queue, "ActiveMessageCount"), QStringLiteral("2"));
        QCOMPARE(countOf(queue, "DeadLetterMessageCount"), QStringLiteral("1"));
        QCOMPARE(countOf(queue, "ScheduledMessageCount"), QStringLiteral("1"));
        QCOMPARE(countOf(queue, "TransferMessageCount"), QStringLiteral("0"));
        QCOMPARE(countOf(queue, "TransferDeadLetterMessageCount"), QStringLiteral("0"));
        QCOMPARE(childText(queue, "MessageCount"), QStringLiteral("4"));
        QCOMPARE(childText(queue, "SizeInBytes"), QString::number(counts->sizeInBytes));
        QVERIFY(counts->sizeInBytes > 0);
    }

    void topicWithSubscriptionAndItsDefaultRule() {
        AdminFixture f;
        const AdminResponse topic = f.put(
            "/events", atomEntry("TopicDescription",
                                 "<DefaultMessageTimeToLive>PT1H</DefaultMessageTimeToLive>"));
        QCOMPARE(topic.status, 201);
        verifyElements(descriptionOf(*parsedBody(topic)), kTopicElements);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(f.broker().entity("events")->properties.defaultMessageTimeToLive, hours(1));

        const AdminResponse subscription =
            f.put("/events/Subscriptions/audit",
                  atomEntry("SubscriptionDescription", "<LockDuration>PT45S</LockDuration>"));
        QCOMPARE(subscription.status, 201);
        const auto entry = parsedBody(subscription);
        QVERIFY(entry);
        QCOMPARE(childText(&*entry, "id"),
                 QStringLiteral("https://localhost:5671/events/Subscriptions/audit"
                                "?api-version=2021-05"));
        QCOMPARE(childText(&*entry, "title"), QStringLiteral("audit"));
        verifyElements(descriptionOf(*entry), kSubscriptionElements);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(childText(descriptionOf(*entry), "LockDuration"), QStringLiteral("PT45S"));
        QCOMPARE(childText(descriptionOf(*entry), "DeadLetteringOnFilterEvaluationExceptions"),
                 QStringLiteral("true"));

        QCOMPARE(childText(descriptionOf(*parsedBody(f.get("/events"))), "SubscriptionCount"),
                 QStringLiteral("1"));
        // listSubscriptions asks with a trailing slash.
        const AdminResponse list =
            f.get("/events/Subscriptions/?$skip=0&$top=100&api-version=2021-05");
        QCOMPARE(list.status, 200);
        QCOMPARE(entriesOf(*parsedBody(list)).size(), 1);
        // The subscription starts with the $Default true rule.
        const auto rules = parsedBody(f.get("/events/Subscriptions/audit/Rules/"));
        QVERIFY(rules);
        QCOMPARE(entriesOf(*rules).size(), 1);
        const XmlElement* rule = descriptionOf(entriesOf(*rules).first());
        QCOMPARE(childText(rule, "Name"), QStringLiteral("$Default"));
        QCOMPARE(rule->child("Filter")->typeName, QStringLiteral("TrueFilter"));

        // A subscription's path names only a subscription, a topic's only a topic.
        QCOMPARE(f.get("/events/Subscriptions/missing").status, 404);
        // A rule's name may have '$'.
        QCOMPARE(f.remove("/events/Subscriptions/audit/Rules/$Default").status, 200);
        QVERIFY(f.broker().entity("events/Subscriptions/audit")->rules.isEmpty());
        QCOMPARE(f.remove("/events/Subscriptions/audit").status, 200);
        QVERIFY(!f.broker().entity("events/Subscriptions/audit"));
        QCOMPARE(f.get("/events/Subscriptions/audit").status, 404);
    }

    // The JavaScript client 7.10 encodes the names: `%24top`, `%24skip`.
    void pagingNamesAreReadDecoded() {
        AdminFixture f;
        for (const char* name : {"q1", "q2", "q3", "q4", "q5"})
            QVERIFY(f.broker().createQueue(name, EntityProperties::defaults(Tier::Standard)));
        const AdminResponse response =
            f.get("/$Resources/Queues?api-version=2021-05&%24skip=2&%24top=2");
        QCOMPARE(response.status, 200);
        const auto feed = parsedBody(response);
        QVERIFY(feed);
        QStringList seen;
        for (const XmlElement& entry : entriesOf(*feed))
            seen.append(childText(&entry, "title"));
        QCOMPARE(seen, (QStringList{"q3", "q4"}));
        QVERIFY(linkOf(response.body, "next").contains(QStringLiteral("$skip=4")));
    }

    // listQueues pages with $skip and $top and follows the feed's `next` link.
    void listsPageWithSelfAndNextLinks() {
        AdminFixture f;
        for (const char* name : {"q1", "q2", "q3", "q4", "q5"})
            QVERIFY(f.broker().createQueue(name, EntityProperties::defaults(Tier::Standard)));
        QVERIFY(f.broker().createTopic("t1", EntityProperties::defaults(Tier::Standard)));

        QStringList seen;
        QByteArray target = "/$Resources/Queues?$skip=0&$top=2&api-version=2021-05";
        for (int page = 0; page < 3; ++page) {
            const AdminResponse response = f.get(target);
            QCOMPARE(response.status, 200);
            const auto feed = parsedBody(response);
            QVERIFY(feed);
            QCOMPARE(feed->name, QStringLiteral("feed"));
            QVERIFY(!childText(&*feed, "title").isEmpty());
            for (const XmlElement& entry : entriesOf(*feed))
                seen.append(childText(&entry, "title"));
            QVERIFY(linkOf(response.body, "self").startsWith("https://localhost:5671/"));
            const QString next = linkOf(response.body, "next");
            if (page < 2) {
                QCOMPARE(linkCount(response.body), 2);
                QVERIFY2(next.contains(QStringLiteral("$skip=%1").arg((page + 1) * 2)),
                         qPrintable(next));
                target = next.mid(QStringLiteral("https://localhost:5671").size()).toUtf8();
            } else {
                QCOMPARE(linkCount(response.body), 1); // the last page has no next
            }
        }
        QCOMPARE(seen, (QStringList{"q1", "q2", "q3", "q4", "q5"}));
        const auto topics = parsedBody(f.get("/$Resources/Topics"));
        QVERIFY(topics);
        QCOMPARE(entriesOf(*topics).size(), 1);
        QCOMPARE(childText(&entriesOf(*topics).first(), "title"), QStringLiteral("t1"));
    }

    // The SDK sends forwarding targets as absolute sb:// URLs and expects them back as such.
    void forwardingAddressesAreFullUrlsBothWays() {
        AdminFixture f;
        QCOMPARE(f.put("/dest", atomEntry("QueueDescription", "")).status, 201);
        const AdminResponse created =
            f.put("/src", atomEntry("QueueDescription",
                                    "<ForwardTo>sb://localhost:5671/dest</ForwardTo>"
                                    "<ForwardDeadLetteredMessagesTo>sb://localhost:5671/dest"
                                    "</ForwardDeadLetteredMessagesTo>"));
        QCOMPARE(created.status, 201);
        const auto src = f.broker().entity("src");
        QVERIFY(src);
        QCOMPARE(src->properties.forwardTo, QStringLiteral("dest"));
        QCOMPARE(src->properties.forwardDeadLetteredMessagesTo, QStringLiteral("dest"));
        const auto queueEntry = parsedBody(f.get("/src"));
        QVERIFY(queueEntry);
        const XmlElement* queue = descriptionOf(*queueEntry);
        QCOMPARE(childText(queue, "ForwardTo"), QStringLiteral("sb://localhost:5671/dest"));
        QCOMPARE(childText(queue, "ForwardDeadLetteredMessagesTo"),
                 QStringLiteral("sb://localhost:5671/dest"));
        QVERIFY(f.broker().send("src", TestBroker::message("m")));
        QCOMPARE(f.broker().counts("dest")->active, 1);
    }
};

QTEST_GUILESS_MAIN(TestAdminEntities)
#include "tst_admin_entities.moc"
