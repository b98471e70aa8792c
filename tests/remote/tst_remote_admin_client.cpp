// The administration client (engine/remote AdminClient) against the administration API on a real
// broker over plain HTTP (AdminHttpServer, as an emulator-style string reaches it): every call,
// lists past one page, runtime counts, forwarding addresses, the error codes the server gives, a
// wrong key, a signature as given, calls from several workers at once. Every call runs on a
// worker (WorkerCall.h); tst_remote_admin_standins has what a real server never does.

#include "RemoteAdminTestSupport.h"
#include "WorkerCall.h"

#include "TestBroker.h"

#include "hourglass/Broker.h"
#include "hourglass/admin/AdminHttpServer.h"
#include "hourglass/amqp/NamespaceKeys.h"
#include "hourglass/amqpcodec/SasToken.h"
#include "hourglass/remote/AdminClient.h"

#include <QDateTime>
#include <QTest>

#include <memory>
#include <vector>

using namespace hourglass;
using namespace hourglass::remote;
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

Rule correlationRule(const QString& name) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = QStringLiteral("invoice");
    rule.correlation.properties.insert(QStringLiteral("region"), QStringLiteral("eu"));
    rule.correlation.properties.insert(QStringLiteral("priority"), qint64(5));
    return rule;
}

QStringList namesOf(const QList<Rule>& rules) {
    QStringList names;
    for (const Rule& rule : rules)
        names.append(rule.name);
    return names;
}

QStringList pathsOf(const QList<EntityInfo>& entities) {
    QStringList paths;
    for (const EntityInfo& entity : entities)
        paths.append(entity.path);
    return paths;
}

} // namespace

class RemoteAdminClientTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestBroker> m_broker;
    std::shared_ptr<amqp::NamespaceKeyRing> m_keys;
    std::unique_ptr<admin::AdminHttpServer> m_server;
    std::unique_ptr<AdminClient> m_client;
    quint16 m_port = 0;

    Broker& broker() { return m_broker->broker(); }

private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        m_keys = std::make_shared<amqp::NamespaceKeyRing>(amqp::wellKnownEmulatorKey());
        m_server = std::make_unique<admin::AdminHttpServer>(broker(), m_keys);
        const auto port = m_server->start();
        QVERIFY(bool(port));
        m_port = *port;
        m_client = std::make_unique<AdminClient>(optionsFor(emulatorString(m_port)));
    }
    void cleanup() {
        m_client.reset();
        m_server.reset();
        m_broker.reset();
    }

    void namespaceProperties() {
        const auto info = onWorker([&] { return m_client->namespaceInfo(); });
        QVERIFY2(bool(info), info ? "" : qPrintable(info.error().toString()));
        QCOMPARE(info->name, QStringLiteral("test"));
        QCOMPARE(info->tier, Tier::Standard);
    }

    void queueCreatedReadUpdatedDeleted() {
        QVERIFY(broker().createQueue(QStringLiteral("audit"), {}).ok());
        EntityProperties properties;
        properties.maxDeliveryCount = 7;
        properties.lockDuration = seconds(45);
        properties.defaultMessageTimeToLive = hours(2);
        properties.requiresDuplicateDetection = true;
        properties.forwardDeadLetteredMessagesTo = QStringLiteral("audit");
        const auto created =
            onWorker([&] { return m_client->createQueue(QStringLiteral("orders"), properties); });
        QVERIFY2(bool(created), created ? "" : qPrintable(created.error().toString()));
        QCOMPARE(created->kind, EntityKind::Queue);
        QCOMPARE(created->path, QStringLiteral("orders"));
        QCOMPARE(created->namespaceName, QStringLiteral("test"));
        // What the broker holds is what was asked; the forwarding address went as a full URL
        // and comes back to the window as the entity's path.
        const auto held = broker().entity(QStringLiteral("orders"));
        QVERIFY(bool(held));
        QCOMPARE(held->properties, properties);
        QCOMPARE(created->properties, properties);

        properties.maxDeliveryCount = 3;
        properties.status = EntityStatus::SendDisabled;
        properties.forwardDeadLetteredMessagesTo.clear();
        properties.forwardTo = QStringLiteral("audit");
        const auto updated =
            onWorker([&] { return m_client->updateEntity(QStringLiteral("orders"), properties); });
        QVERIFY2(bool(updated), updated ? "" : qPrintable(updated.error().toString()));
        QCOMPARE(updated->properties, properties);
        QCOMPARE(broker().entity(QStringLiteral("orders"))->properties, properties);
        const auto read = onWorker([&] { return m_client->entity(QStringLiteral("orders")); });
        QVERIFY(bool(read));
        QCOMPARE(read->properties.forwardTo, QStringLiteral("audit"));

        QVERIFY(onWorker([&] { return m_client->deleteEntity(QStringLiteral("orders")); }).ok());
        QCOMPARE(broker().entity(QStringLiteral("orders")).error().code,
                 ErrorCode::MessagingEntityNotFound);
    }

    void runtimeCountsAreRead() {
        QVERIFY(broker().createQueue(QStringLiteral("work"), {}).ok());
        for (int i = 0; i < 5; ++i)
            QVERIFY(broker()
                        .send(QStringLiteral("work"), TestBroker::message(QString::number(i)))
                        .ok());
        QVERIFY(broker()
                    .schedule(QStringLiteral("work"), TestBroker::message(QStringLiteral("later")),
                              m_broker->clock().now() + hours(1))
                    .ok());
        ReceiveOptions options;
        options.maxCount = 2;
        options.receiver = QStringLiteral("r");
        const auto taken = broker().receive(QStringLiteral("work"), options);
        QVERIFY(bool(taken));
        QCOMPARE(taken->size(), 2);
        QVERIFY(broker().deadLetter(LockRef::of(taken->first())).ok());
        const EntityCounts held = *broker().counts(QStringLiteral("work"));

        const auto read = onWorker([&] { return m_client->entity(QStringLiteral("work")); });
        QVERIFY(bool(read));
        // The service counts a locked message as active.
        QCOMPARE(read->counts.active, held.active + held.locked + held.deferred);
        QCOMPARE(read->counts.active, qint64(4));
        QCOMPARE(read->counts.scheduled, qint64(1));
        QCOMPARE(read->counts.deadLettered, qint64(1));
        QCOMPARE(read->counts.sizeInBytes, held.sizeInBytes);
        QVERIFY(read->counts.sizeInBytes > 0);
        const auto listed = onWorker([&] { return m_client->queues(); });
        QVERIFY(bool(listed));
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first().counts, read->counts);
    }

    void topicsSubscriptionsAndRules() {
        const auto topic = onWorker(
            [&] { return m_client->createTopic(QStringLiteral("events"), EntityProperties{}); });
        QVERIFY2(bool(topic), topic ? "" : qPrintable(topic.error().toString()));
        QCOMPARE(topic->kind, EntityKind::Topic);

        // No rules: the service's $Default.
        const auto plain = onWorker([&] {
            return m_client->createSubscription(QStringLiteral("events/Subscriptions/all"), {});
        });
        QVERIFY2(bool(plain), plain ? "" : qPrintable(plain.error().toString()));
        QCOMPARE(plain->kind, EntityKind::Subscription);
        QCOMPARE(plain->topicPath, QStringLiteral("events"));
        QCOMPARE(plain->name, QStringLiteral("all"));
        QCOMPARE(namesOf(plain->rules), QStringList{QStringLiteral("$Default")});

        // Rules given: the first instead of $Default, the others after it.
        const QList<Rule> rules{sqlRule(QStringLiteral("big"), QStringLiteral("amount > 100"),
                                        QStringLiteral("SET tier = 'gold'")),
                                correlationRule(QStringLiteral("invoices"))};
        EntityProperties properties;
        properties.maxDeliveryCount = 4;
        const auto filtered = onWorker([&] {
            return m_client->createSubscription(QStringLiteral("events/Subscriptions/filtered"),
                                                properties, rules);
        });
        QVERIFY2(bool(filtered), filtered ? "" : qPrintable(filtered.error().toString()));
        QCOMPARE(filtered->rules, rules);
        QCOMPARE(broker().entity(QStringLiteral("events/Subscriptions/filtered"))->rules, rules);
        QCOMPARE(filtered->properties.maxDeliveryCount, 4);

        const auto subscriptions =
            onWorker([&] { return m_client->subscriptions(QStringLiteral("events")); });
        QVERIFY(bool(subscriptions));
        QCOMPARE(pathsOf(*subscriptions),
                 (QStringList{QStringLiteral("events/Subscriptions/all"),
                              QStringLiteral("events/Subscriptions/filtered")}));
        const auto topics = onWorker([&] { return m_client->topics(); });
        QVERIFY(bool(topics));
        QCOMPARE(pathsOf(*topics), QStringList{QStringLiteral("events")});

        const QString path = QStringLiteral("events/Subscriptions/filtered");
        // Add, replace in place, replace under another name, remove.
        QVERIFY(onWorker([&] {
                    return m_client->addRule(path, Rule::trueRule(QStringLiteral("x")));
                }).ok());
        const Rule changed = sqlRule(QStringLiteral("big"), QStringLiteral("amount > 500"));
        QVERIFY(onWorker([&] {
                    return m_client->replaceRule(path, QStringLiteral("big"), changed);
                }).ok());
        const Rule renamed = sqlRule(QStringLiteral("huge"), QStringLiteral("amount > 9000"));
        QVERIFY(onWorker([&] {
                    return m_client->replaceRule(path, QStringLiteral("x"), renamed);
                }).ok());
        QVERIFY(
            onWorker([&] { return m_client->removeRule(path, QStringLiteral("invoices")); }).ok());
        const auto now = onWorker([&] { return m_client->rules(path); });
        QVERIFY(bool(now));
        QCOMPARE(*now, (QList<Rule>{changed, renamed}));
        QCOMPARE(broker().entity(path)->rules, *now);
        const auto read = onWorker([&] { return m_client->entity(path); });
        QVERIFY(bool(read));
        QCOMPARE(read->rules, *now);

        // A subscription's update keeps its rules and changes its properties.
        properties.maxDeliveryCount = 9;
        const auto updated = onWorker([&] { return m_client->updateEntity(path, properties); });
        QVERIFY2(bool(updated), updated ? "" : qPrintable(updated.error().toString()));
        QCOMPARE(broker().entity(path)->properties.maxDeliveryCount, 9);
        QCOMPARE(broker().entity(path)->rules, *now);
    }

    void listsFollowEveryPage() {
        QStringList expected;
        for (int i = 0; i < 230; ++i) {
            const QString path = QStringLiteral("q%1").arg(i, 3, 10, QLatin1Char('0'));
            QVERIFY(broker().createQueue(path, {}).ok());
            expected.append(path);
        }
        const auto queues = onWorker([&] { return m_client->queues(); });
        QVERIFY2(bool(queues), queues ? "" : qPrintable(queues.error().toString()));
        QCOMPARE(pathsOf(*queues), expected);

        // Subscriptions and rules page the same way (small pages, so that they take several).
        QVERIFY(broker().createTopic(QStringLiteral("t"), {}).ok());
        QStringList subscriptions;
        for (int i = 0; i < 12; ++i) {
            subscriptions.append(
                QStringLiteral("t/Subscriptions/s%1").arg(i, 2, 10, QLatin1Char('0')));
            QVERIFY(broker().createSubscription(subscriptions.last(), {}).ok());
        }
        QList<Rule> rules{Rule::trueRule()};
        for (int i = 0; i < 11; ++i) {
            rules.append(sqlRule(QStringLiteral("r%1").arg(i, 2, 10, QLatin1Char('0')),
                                 QStringLiteral("n = %1").arg(i)));
            QVERIFY(broker().addRule(subscriptions.first(), rules.last()).ok());
        }
        AdminClientOptions small = m_client->options();
        small.pageSize = 5;
        AdminClient paged(small);
        const auto listed = onWorker([&] { return paged.subscriptions(QStringLiteral("t")); });
        QVERIFY(bool(listed));
        QCOMPARE(pathsOf(*listed), subscriptions);
        const auto read = onWorker([&] { return paged.rules(subscriptions.first()); });
        QVERIFY(bool(read));
        QCOMPARE(*read, rules);
    }

    void errorCodes() {
        QVERIFY(broker().createQueue(QStringLiteral("here"), {}).ok());
        const auto missing = onWorker([&] { return m_client->entity(QStringLiteral("nowhere")); });
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::MessagingEntityNotFound);
        const auto gone =
            onWorker([&] { return m_client->deleteEntity(QStringLiteral("nowhere")); });
        QCOMPARE(gone.error().code, ErrorCode::MessagingEntityNotFound);

        const auto twice =
            onWorker([&] { return m_client->createQueue(QStringLiteral("here"), {}); });
        QVERIFY(!twice);
        QCOMPARE(twice.error().code, ErrorCode::MessagingEntityAlreadyExists);

        EntityProperties bad;
        bad.maxDeliveryCount = 0;
        const auto refused =
            onWorker([&] { return m_client->createQueue(QStringLiteral("bad"), bad); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
        QVERIFY(refused.error().description.contains(QStringLiteral("MaxDeliveryCount")));
        QVERIFY(!broker().entity(QStringLiteral("bad")));

        const auto rule = onWorker([&] {
            return m_client->addRule(QStringLiteral("here/Subscriptions/none"),
                                     Rule::trueRule(QStringLiteral("r")));
        });
        QVERIFY(!rule);

        // A wrong key: the service says 401.
        AdminClient wrong(optionsFor(emulatorString(m_port, QStringLiteral("not-the-key"))));
        const auto denied = onWorker([&] { return wrong.queues(); });
        QVERIFY(!denied);
        QCOMPARE(denied.error().code, ErrorCode::Unauthorized);
        const auto notMade =
            onWorker([&] { return wrong.createQueue(QStringLiteral("sneaky"), {}); });
        QCOMPARE(notMade.error().code, ErrorCode::Unauthorized);
        QVERIFY(!broker().entity(QStringLiteral("sneaky")));

        // No credential at all is refused before anything is sent.
        AdminClientOptions none = optionsFor(
            QStringLiteral("Endpoint=sb://localhost:%1;UseDevelopmentEmulator=true").arg(m_port));
        AdminClient anonymous(none);
        QCOMPARE(onWorker([&] { return anonymous.queues(); }).error().code,
                 ErrorCode::Unauthorized);
    }

    void signatureAsGiven() {
        const QString token = amqp::makeSasToken(QStringLiteral("http://localhost:%1/").arg(m_port),
                                                 amqp::wellKnownEmulatorKey(),
                                                 QDateTime::currentSecsSinceEpoch() + 600);
        AdminClient client(
            optionsFor(QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessSignature=%2;"
                                      "UseDevelopmentEmulator=true")
                           .arg(m_port)
                           .arg(token)));
        const auto info = onWorker([&] { return client.namespaceInfo(); });
        QVERIFY2(bool(info), info ? "" : qPrintable(info.error().toString()));
        // An expired one is refused.
        const QString old = amqp::makeSasToken(QStringLiteral("http://localhost:%1/").arg(m_port),
                                               amqp::wellKnownEmulatorKey(),
                                               QDateTime::currentSecsSinceEpoch() - 600);
        AdminClient expired(
            optionsFor(QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessSignature=%2;"
                                      "UseDevelopmentEmulator=true")
                           .arg(m_port)
                           .arg(old)));
        QCOMPARE(onWorker([&] { return expired.namespaceInfo(); }).error().code,
                 ErrorCode::Unauthorized);
    }

    void manyWorkersAtOnce() {
        QVERIFY(broker().createQueue(QStringLiteral("shared"), {}).ok());
        std::vector<std::future<Result<EntityInfo>>> calls;
        for (int i = 0; i < 8; ++i)
            calls.push_back(std::async(std::launch::async,
                                       [&] { return m_client->entity(QStringLiteral("shared")); }));
        for (auto& call : calls) {
            QVERIFY(call.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
            QVERIFY(call.get().ok());
        }
    }
};

QTEST_GUILESS_MAIN(RemoteAdminClientTest)
#include "tst_remote_admin_client.moc"
