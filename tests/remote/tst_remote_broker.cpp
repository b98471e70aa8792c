// RemoteBroker's administration side against an in-process `hourglass` namespace
// (ServedNamespace.h: a real broker behind the AMQP endpoint and its administration API), driven
// only through the Broker interface, each call on a worker as the window makes it: entities and
// their runtime counts, the change feed's poll after another client's changes and an own change
// marked at once, create, update, delete and rules, the routing preview against the embedded
// broker's own, the read-only refusals (the served broker unchanged), the calls only a hosted
// namespace answers, and the same over TLS.

#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/remote/RemoteBroker.h"

#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

Rule sqlRule(const QString& name, const QString& filter) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Sql;
    rule.sqlExpression = filter;
    return rule;
}

Rule subjectRule(const QString& name, const QString& subject) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = subject;
    return rule;
}

QStringList pathsOf(const QList<EntityInfo>& entities) {
    QStringList paths;
    for (const EntityInfo& entity : entities)
        paths.append(entity.path);
    return paths;
}

// A call's outcome without its payload, for lists of calls of different kinds.
template <typename T> Result<void> outcomeOf(const Result<T>& result) {
    if (result)
        return {};
    return result.error();
}

QStringList ruleNames(const QList<Rule>& rules) {
    QStringList names;
    for (const Rule& rule : rules)
        names.append(rule.name);
    return names;
}

// Every batch the feed delivered on this thread.
struct FeedLog {
    QList<ChangeBatch> batches;
    // The batches that marked `path` of the served namespace, named as the window names it
    // ("localhost:jobs": the namespace is named after the host).
    int batchesWith(QSet<QString> ChangeBatch::*member, const QString& path) const {
        int count = 0;
        for (const ChangeBatch& batch : batches)
            count += (batch.*member).contains(QStringLiteral("localhost:") + path) ? 1 : 0;
        return count;
    }
};

std::unique_ptr<RemoteBroker> remoteFor(const ServedNamespace& served, bool readOnly = false,
                                        std::chrono::milliseconds poll = std::chrono::hours(1)) {
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(served.connection());
    options.admin.extraCaFile = served.caFile();
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.readOnly = readOnly;
    options.pollInterval = poll;
    return std::make_unique<RemoteBroker>(options);
}

} // namespace

class RemoteBrokerTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ServedNamespace> m_served;

    Broker& served() { return m_served->broker(); }

    void follow(RemoteBroker& remote, FeedLog& log) {
        connect(remote.changes(), &ChangeFeed::changed, this,
                [&log](const ChangeBatch& batch) { log.batches.append(batch); });
    }

    // A queue with two active messages, one scheduled and one dead-lettered; a topic with one
    // subscription.
    void populate() {
        QVERIFY(served().createQueue(QStringLiteral("jobs"), {}).ok());
        QVERIFY(served().createTopic(QStringLiteral("events"), {}).ok());
        QVERIFY(served().createSubscription(QStringLiteral("events/Subscriptions/audit"), {}).ok());
        for (const char* id : {"a", "b", "c"})
            QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message(id)).ok());
        QVERIFY(served()
                    .schedule(QStringLiteral("jobs"), TestBroker::message(QStringLiteral("later")),
                              served().clock().now() + 3'600'000)
                    .ok());
        ReceiveOptions options;
        options.receiver = QStringLiteral("r");
        const auto taken = served().receive(QStringLiteral("jobs"), options);
        QVERIFY(taken && taken->size() == 1);
        QVERIFY(served().deadLetter(LockRef::of(taken->first())).ok());
    }

private slots:
    void init() { m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain); }
    void cleanup() { m_served.reset(); }

    void entitiesWithTheirCounts() {
        populate();
        auto remote = remoteFor(*m_served);
        const auto entities = onWorker([&] { return remote->entities({}); });
        QCOMPARE(pathsOf(entities), (QStringList{QStringLiteral("events"), QStringLiteral("jobs"),
                                                 QStringLiteral("events/Subscriptions/audit")}));
        const EntityInfo& jobs = entities.at(1);
        QCOMPARE(jobs.kind, EntityKind::Queue);
        QCOMPARE(jobs.namespaceName, remote->namespaces().first().name);
        QCOMPARE(jobs.counts.active, qint64(2));
        QCOMPARE(jobs.counts.scheduled, qint64(1));
        QCOMPARE(jobs.counts.deadLettered, qint64(1));
        // Not reported by the service.
        QCOMPARE(jobs.counts.locked, qint64(0));
        QCOMPARE(jobs.counts.deferred, qint64(0));
        QCOMPARE(entities.at(2).kind, EntityKind::Subscription);
        QCOMPARE(entities.at(2).topicPath, QStringLiteral("events"));

        const auto audit =
            onWorker([&] { return remote->entity(QStringLiteral("events/Subscriptions/audit")); });
        QVERIFY(bool(audit));
        QCOMPARE(ruleNames(audit->rules), QStringList{QStringLiteral("$Default")});
        const auto counts = onWorker([&] { return remote->counts(QStringLiteral("jobs")); });
        QCOMPARE(counts->active, qint64(2));
        const auto deadLetters =
            onWorker([&] { return remote->counts(QStringLiteral("jobs/$deadletterqueue")); });
        QCOMPARE(deadLetters->active, qint64(1));
        QCOMPARE(onWorker([&] { return remote->entity(QStringLiteral("none")); }).error().code,
                 ErrorCode::MessagingEntityNotFound);
        QVERIFY(onWorker([&] { return remote->entities(QStringLiteral("elsewhere")); }).isEmpty());
        QVERIFY(remote->lastListError().isEmpty());
    }

    void checkReceiverAsReceiveFindsIt() {
        populate();
        QVERIFY(served().createQueue(QStringLiteral("sessions"), [] {
            EntityProperties properties;
            properties.requiresSession = true;
            return properties;
        }()));
        auto remote = remoteFor(*m_served);
        QVERIFY(onWorker([&] { return remote->checkReceiver(QStringLiteral("jobs")); }).ok());
        QCOMPARE(
            onWorker([&] { return remote->checkReceiver(QStringLiteral("events")); }).error().code,
            ErrorCode::InvalidArgument);
        QCOMPARE(onWorker([&] { return remote->checkReceiver(QStringLiteral("sessions")); })
                     .error()
                     .code,
                 ErrorCode::InvalidArgument);
        QVERIFY(onWorker([&] {
                    return remote->checkReceiver(QStringLiteral("sessions/$deadletterqueue"));
                }).ok());
        QCOMPARE(
            onWorker([&] { return remote->checkReceiver(QStringLiteral("gone")); }).error().code,
            ErrorCode::MessagingEntityNotFound);
    }

    void pollFindsAnotherClientsChanges() {
        QVERIFY(served().createQueue(QStringLiteral("jobs"), {}).ok());
        QVERIFY(served().createQueue(QStringLiteral("old"), {}).ok());
        auto remote = remoteFor(*m_served, false, std::chrono::milliseconds(50));
        QCOMPARE(remote->pollInterval(), std::chrono::milliseconds(50));
        FeedLog log;
        follow(*remote, log);
        QTRY_VERIFY(remote->lastPollAt() > 0); // the first poll learns what is there
        QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message(QStringLiteral("m"))));
        QVERIFY(served().createQueue(QStringLiteral("fresh"), {}).ok());
        QVERIFY(served().deleteEntity(QStringLiteral("old")).ok());
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::countsChanged, QStringLiteral("jobs")) > 0);
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::messagesAdded, QStringLiteral("jobs")) > 0);
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::created, QStringLiteral("fresh")) > 0);
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::deleted, QStringLiteral("old")) > 0);
        QCOMPARE(log.batchesWith(&ChangeBatch::created, QStringLiteral("jobs")), 0);

        // Received elsewhere: the count goes down.
        ReceiveOptions options;
        options.mode = ReceiveMode::ReceiveAndDelete;
        QCOMPARE(served().receive(QStringLiteral("jobs"), options)->size(), 1);
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::messagesRemoved, QStringLiteral("jobs")) > 0);
    }

    void ownChangesAreMarkedAtOnceAndOnlyOnce() {
        // The first poll is at once; every later one an hour away until the interval changes.
        auto remote = remoteFor(*m_served);
        FeedLog log;
        follow(*remote, log);
        QTRY_VERIFY(remote->lastPollAt() > 0);
        QVERIFY(onWorker([&] { return remote->createQueue(QStringLiteral("mine"), {}); }).ok());
        QTRY_COMPARE(log.batchesWith(&ChangeBatch::created, QStringLiteral("mine")), 1);

        // The polls that follow know it already.
        remote->setPollInterval(std::chrono::milliseconds(20));
        const Instant before = remote->lastPollAt();
        QTRY_VERIFY(remote->lastPollAt() > before + 100);
        QCOMPARE(log.batchesWith(&ChangeBatch::created, QStringLiteral("mine")), 1);
        QCOMPARE(log.batchesWith(&ChangeBatch::deleted, QStringLiteral("mine")), 0);

        QVERIFY(onWorker([&] { return remote->deleteEntity(QStringLiteral("mine")); }).ok());
        QTRY_COMPARE(log.batchesWith(&ChangeBatch::deleted, QStringLiteral("mine")), 1);
        const Instant later = remote->lastPollAt();
        QTRY_VERIFY(remote->lastPollAt() > later + 100);
        QCOMPARE(log.batchesWith(&ChangeBatch::deleted, QStringLiteral("mine")), 1);
        QCOMPARE(log.batchesWith(&ChangeBatch::created, QStringLiteral("mine")), 1);
    }

    void createUpdateDeleteAndRules() {
        auto remote = remoteFor(*m_served);
        FeedLog log;
        follow(*remote, log);
        EntityProperties properties;
        properties.maxDeliveryCount = 4;
        QVERIFY(onWorker([&] { return remote->createQueue(QStringLiteral("q"), properties); }));
        QCOMPARE(served().entity(QStringLiteral("q"))->properties.maxDeliveryCount, 4);
        properties.maxDeliveryCount = 7;
        const auto updated =
            onWorker([&] { return remote->updateEntity(QStringLiteral("q"), properties); });
        QVERIFY(bool(updated));
        QCOMPARE(served().entity(QStringLiteral("q"))->properties.maxDeliveryCount, 7);
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::updated, QStringLiteral("q")) > 0);

        const QString sub = QStringLiteral("t/Subscriptions/s");
        QVERIFY(onWorker([&] { return remote->createTopic(QStringLiteral("t"), {}); }));
        QVERIFY(onWorker([&] {
            return remote->createSubscription(sub, {}, {sqlRule("red", "color = 'red'")});
        }));
        QCOMPARE(ruleNames(served().entity(sub)->rules), QStringList{QStringLiteral("red")});
        QVERIFY(onWorker([&] { return remote->addRule(sub, subjectRule("inv", "invoice")); }));
        QVERIFY(onWorker([&] {
                    return remote->replaceRule(sub, QStringLiteral("red"),
                                               sqlRule("blue", "color = 'blue'"));
                }).ok());
        // The API has no rename: the new rule is added (last), then the old one removed.
        QCOMPARE(ruleNames(served().entity(sub)->rules),
                 (QStringList{QStringLiteral("inv"), QStringLiteral("blue")}));
        QVERIFY(onWorker([&] { return remote->removeRule(sub, QStringLiteral("inv")); }).ok());
        QCOMPARE(ruleNames(served().entity(sub)->rules), QStringList{QStringLiteral("blue")});
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::updated, sub) > 0);
        QCOMPARE(
            onWorker([&] { return remote->addRule(sub, sqlRule("blue", "1=1")); }).error().code,
            ErrorCode::MessagingEntityAlreadyExists);

        QVERIFY(onWorker([&] { return remote->deleteEntity(QStringLiteral("t")); }).ok());
        QVERIFY(!served().entity(QStringLiteral("t")));
        QVERIFY(!served().entity(sub));
        QTRY_VERIFY(log.batchesWith(&ChangeBatch::deleted, QStringLiteral("t")) > 0);
        QCOMPARE(
            onWorker([&] { return remote->createQueue(QStringLiteral("q"), {}); }).error().code,
            ErrorCode::MessagingEntityAlreadyExists);
    }

    void routingPreviewAgreesWithTheEmbeddedBroker() {
        QVERIFY(served().createTopic(QStringLiteral("orders"), {}).ok());
        QVERIFY(served()
                    .createSubscription(QStringLiteral("orders/Subscriptions/red"), {},
                                        {sqlRule("red", "color = 'red' AND quantity > 2")})
                    .ok());
        QVERIFY(served()
                    .createSubscription(QStringLiteral("orders/Subscriptions/invoices"), {},
                                        {subjectRule("inv", "invoice")})
                    .ok());
        QVERIFY(served().createSubscription(QStringLiteral("orders/Subscriptions/all"), {}).ok());
        auto remote = remoteFor(*m_served);

        OutgoingMessage message = TestBroker::message(QStringLiteral("m1"));
        message.subject = QStringLiteral("invoice");
        message.applicationProperties.insert(QStringLiteral("color"), QStringLiteral("red"));
        const auto preview =
            onWorker([&] { return remote->previewRouting(QStringLiteral("orders"), message, {}); });
        QVERIFY2(bool(preview), preview ? "" : qPrintable(preview.error().toString()));
        const auto local = served().previewRouting(QStringLiteral("orders"), message, {});
        QVERIFY(bool(local));
        QCOMPARE(preview->subscriptions.size(), 3);
        QCOMPARE(preview->messageId, QStringLiteral("m1"));
        for (int i = 0; i < 3; ++i) {
            const SubscriptionPreview& got = preview->subscriptions.at(i);
            const SubscriptionPreview& want = local->subscriptions.at(i);
            QCOMPARE(got.path, want.path);
            QCOMPARE(got.fate, want.fate);
            QCOMPARE(got.copies, want.copies);
            QCOMPARE(got.rules.size(), want.rules.size());
            for (int r = 0; r < got.rules.size(); ++r) {
                QCOMPARE(got.rules.at(r).verdict, want.rules.at(r).verdict);
                QCOMPARE(got.rules.at(r).reason, want.rules.at(r).reason);
            }
        }
        // quantity is missing: unknown; the correlation filter matches; $Default takes all.
        QCOMPARE(preview->subscriptions.at(2).path, QStringLiteral("orders/Subscriptions/red"));
        QCOMPARE(preview->subscriptions.at(2).rules.first().verdict, RuleVerdict::Unknown);
        QCOMPARE(preview->subscriptions.at(1).fate, SubscriptionFate::Copies);
        QCOMPARE(preview->subscriptions.at(0).fate, SubscriptionFate::Copies);

        message.subject = QStringLiteral("receipt");
        message.messageId.clear();
        const auto second =
            onWorker([&] { return remote->previewRouting(QStringLiteral("orders"), message, {}); });
        QVERIFY(second->messageIdGenerated);
        QCOMPARE(second->subscriptions.at(1).fate, SubscriptionFate::NoMatch);
        QCOMPARE(second->subscriptions.at(1).rules.first().reason,
                 QStringLiteral("Subject is 'receipt', the filter wants 'invoice'"));

        QVERIFY(served().createQueue(QStringLiteral("plain"), {}).ok());
        QCOMPARE(
            onWorker([&] { return remote->previewRouting(QStringLiteral("plain"), message, {}); })
                .error()
                .code,
            ErrorCode::InvalidArgument);
    }

    void readOnlyRefusesEveryChangeBeforeTheWire() {
        populate();
        const auto before = served().entities({});
        const auto jobsBefore = served().entity(QStringLiteral("jobs"));
        auto remote = remoteFor(*m_served, true);
        QVERIFY(remote->isReadOnly());
        const QString sub = QStringLiteral("events/Subscriptions/audit");
        const QList<std::function<Result<void>()>> changes = {
            [&] { return outcomeOf(remote->createQueue(QStringLiteral("x"), {})); },
            [&] { return outcomeOf(remote->createTopic(QStringLiteral("y"), {})); },
            [&] {
                return outcomeOf(
                    remote->createSubscription(QStringLiteral("events/Subscriptions/z"), {}, {}));
            },
            [&] {
                EntityProperties properties;
                properties.maxDeliveryCount = 1;
                return outcomeOf(remote->updateEntity(QStringLiteral("jobs"), properties));
            },
            [&] { return remote->deleteEntity(QStringLiteral("jobs")); },
            [&] { return remote->addRule(sub, sqlRule("more", "1=1")); },
            [&] { return remote->removeRule(sub, QStringLiteral("$Default")); },
            [&] {
                return remote->replaceRule(sub, QStringLiteral("$Default"), sqlRule("o", "1=1"));
            },
        };
        for (const auto& change : changes) {
            const auto refused = onWorker(change);
            QVERIFY(!refused);
            QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
            QCOMPARE(refused.error().description, QStringLiteral("This connection is read-only."));
        }
        const auto after = served().entities({});
        QCOMPARE(pathsOf(after), pathsOf(before));
        QCOMPARE(served().entity(QStringLiteral("jobs"))->properties, jobsBefore->properties);
        QCOMPARE(ruleNames(served().entity(sub)->rules), QStringList{QStringLiteral("$Default")});
        // Reads still work.
        QCOMPARE(onWorker([&] { return remote->entities({}); }).size(), before.size());
    }

    void whatOnlyAHostedNamespaceDoes() {
        auto remote = remoteFor(*m_served);
        const BrokerCapabilities capabilities = remote->capabilities();
        QVERIFY(!capabilities.hostsDatabase);
        const QList<Error> refusals = {
            remote->createNamespace({QStringLiteral("other"), Tier::Standard}).error(),
            remote->deleteNamespace(QStringLiteral("other")).error(),
            remote->setSetting(QStringLiteral("k"), QStringLiteral("v")).error(),
            remote->advanceClock(1000).error(),
            remote->flow(QStringLiteral("jobs")).error(),
            remote->sequenceIndex(QStringLiteral("jobs"), 10).error(),
            // deleteMessages, transferMessages and resubmit are done message by message now
            // (tst_remote_broker_operator).
        };
        for (const Error& error : refusals) {
            QCOMPARE(error.code, ErrorCode::InvalidArgument);
            QVERIFY2(error.description.endsWith(
                         QStringLiteral(" is only available on a namespace this window hosts.")),
                     qPrintable(error.description));
        }
        QCOMPARE(remote->namespaces().size(), 1);
        QCOMPARE(remote->namespaces().first().name, QStringLiteral("localhost"));
        QVERIFY(remote->setting(QStringLiteral("amqp.sharedAccessKey")).isEmpty());
        QVERIFY(remote->databasePath().isEmpty());
        QVERIFY(!remote->hasOperationObserver());
        QCOMPARE(remote->runDue(), 0);
        QCOMPARE(remote->nextDueAt(), kNever);
        const Instant now = VirtualClock::realNow();
        QVERIFY(qAbs(remote->clock().now() - now) < 60'000); // the system's, not the server's
    }

    void anUnreachableNamespaceListsNothingAndSaysWhy() {
        auto options = RemoteBrokerOptions::forConnection(m_served->connection());
        options.admin.baseUrl = QStringLiteral("http://localhost:1/");
        options.admin.timeout = std::chrono::milliseconds(2000);
        RemoteBroker remote(options);
        QVERIFY(onWorker([&] { return remote.entities({}); }).isEmpty());
        QVERIFY(!remote.lastListError().isEmpty());
        QCOMPARE(onWorker([&] { return remote.createQueue(QStringLiteral("q"), {}); }).error().code,
                 ErrorCode::ServiceCommunicationProblem);
    }

    void overTls() {
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Tls);
        auto remote = remoteFor(*m_served);
        QVERIFY(onWorker([&] { return remote->createTopic(QStringLiteral("t"), {}); }));
        QVERIFY(onWorker([&] {
            return remote->createSubscription(QStringLiteral("t/Subscriptions/s"), {},
                                              {subjectRule("inv", "invoice")});
        }));
        QVERIFY(served().send(QStringLiteral("t"), TestBroker::message(QStringLiteral("m"))));
        const auto entities = onWorker([&] { return remote->entities({}); });
        QCOMPARE(pathsOf(entities),
                 (QStringList{QStringLiteral("t"), QStringLiteral("t/Subscriptions/s")}));
        OutgoingMessage message = TestBroker::message(QStringLiteral("x"));
        message.subject = QStringLiteral("invoice");
        const auto preview =
            onWorker([&] { return remote->previewRouting(QStringLiteral("t"), message, {}); });
        QVERIFY(bool(preview));
        QCOMPARE(preview->subscriptions.first().fate, SubscriptionFate::Copies);
    }
};

QTEST_GUILESS_MAIN(RemoteBrokerTest)
#include "tst_remote_broker.moc"
