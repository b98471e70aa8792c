// The emulator's config.json (scenario-format.md "UserConfig"): importing the sample as it is,
// exporting a namespace back, the round trip, forwarding in any declaration order, and errors
// that carry the JSON path of the entity that caused them.

#include "TestBroker.h"
#include "hourglass/scenario/EmulatorConfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using hourglass::testing::kTestStart;

Q_DECLARE_METATYPE(hourglass::ErrorCode)

namespace {

// A broker with no namespace at all, so that a config decides everything.
struct EmptyBroker {
    QTemporaryDir dir;
    std::unique_ptr<Broker> broker;

    EmptyBroker() {
        BrokerOptions options;
        options.databasePath = dir.filePath(QStringLiteral("config.db"));
        options.clock = std::make_shared<VirtualClock>(kTestStart);
        auto opened = Broker::open(options);
        if (!opened)
            qFatal("open failed: %s", qPrintable(opened.error().toString()));
        broker = std::move(opened).value();
    }
};

QByteArray sampleConfig() {
    QFile file(QStringLiteral(HOURGLASS_RESOURCES_DIR "/emulator-config.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the sample config");
    return file.readAll();
}

QByteArray configWith(const QByteArray& namespaceBody) {
    return R"({ "UserConfig": { "Namespaces": [ { "Name": "ns", )" + namespaceBody +
           R"( } ], "Logging": { "Type": "Console" } } })";
}

// Parses and applies; returns the error, if any.
std::optional<Error> importInto(Broker& broker, const QByteArray& document) {
    const auto config = parseEmulatorConfigDocument(document);
    if (!config)
        return config.error();
    if (auto applied = applyUserConfig(broker, *config); !applied)
        return applied.error();
    return std::nullopt;
}

} // namespace

class EmulatorConfigTest : public QObject {
    Q_OBJECT

private slots:
    void importsTheSampleAsItIs() {
        EmptyBroker b;
        const auto error = importInto(*b.broker, sampleConfig());
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        QCOMPARE(b.broker->namespaces().size(), 1);
        QCOMPARE(b.broker->namespaces().first().name, QStringLiteral("sbemulatorns"));
        QCOMPARE(b.broker->namespaces().first().tier, Tier::Standard);

        const auto queue = b.broker->entity(QStringLiteral("queue.1"));
        QVERIFY(queue.ok());
        QCOMPARE(queue->properties.defaultMessageTimeToLive, hours(1));
        QCOMPARE(queue->properties.maxDeliveryCount, 3);
        QCOMPARE(queue->properties.duplicateDetectionHistoryTimeWindow, seconds(20));
        QVERIFY(queue->properties.forwardTo.isEmpty());

        const auto orders = b.broker->entity(QStringLiteral("orders"));
        QVERIFY(orders.ok());
        QCOMPARE(orders->properties.forwardDeadLetteredMessagesTo, QStringLiteral("orders-review"));
        QCOMPARE(orders->properties.requiresDuplicateDetection, true);
        QCOMPARE(orders->properties.lockDuration, seconds(30));

        const auto topic = b.broker->entity(QStringLiteral("topic.1"));
        QVERIFY(topic.ok());
        QCOMPARE(topic->kind, EntityKind::Topic);

        const auto first = b.broker->entity(QStringLiteral("topic.1/Subscriptions/subscription.1"));
        QVERIFY(first.ok());
        QCOMPARE(first->rules.size(), 1);
        QCOMPARE(first->rules.first().name, QStringLiteral("app-prop-filter-1"));
        QCOMPARE(first->rules.first().correlation.subject, QStringLiteral("subject1"));
        QCOMPARE(first->rules.first().correlation.to, QStringLiteral("xyz"));

        const auto second =
            b.broker->entity(QStringLiteral("topic.1/Subscriptions/subscription.2"));
        QVERIFY(second.ok());
        QCOMPARE(second->rules.first().correlation.properties.value("prop3").toString(),
                 QStringLiteral("value3"));

        // E4: no Rules listed means the $Default true rule; forwarding applied after creation.
        const auto third = b.broker->entity(QStringLiteral("topic.1/Subscriptions/subscription.3"));
        QVERIFY(third.ok());
        QCOMPARE(third->rules, QList<Rule>{Rule::trueRule()});
        QCOMPARE(third->properties.forwardTo, QStringLiteral("queue.1"));
        QCOMPARE(b.broker->entities().size(), 7);
    }

    void exportHasTheEmulatorShape() {
        EmptyBroker b;
        QVERIFY(!importInto(*b.broker, sampleConfig()));
        const auto exported = exportUserConfig(*b.broker, QStringLiteral("sbemulatorns"));
        QVERIFY(exported.ok());
        QCOMPARE(exported->value("Logging").toObject().value("Type").toString(),
                 QStringLiteral("File"));
        const QJsonArray namespaces = exported->value("Namespaces").toArray();
        QCOMPARE(namespaces.size(), 1);
        const QJsonObject ns = namespaces.first().toObject();
        QCOMPARE(ns.value("Name").toString(), QStringLiteral("sbemulatorns"));
        QCOMPARE(ns.value("Tier").toString(), QStringLiteral("Standard"));
        const QJsonArray queues = ns.value("Queues").toArray();
        QCOMPARE(queues.size(), 3);
        QStringList queueNames;
        for (const QJsonValue& q : queues)
            queueNames << q.toObject().value("Name").toString();
        QCOMPARE(queueNames, (QStringList{"orders", "orders-review", "queue.1"}));
        const QJsonObject orders = queues.first().toObject().value("Properties").toObject();
        QCOMPARE(orders.value("ForwardDeadLetteredMessagesTo").toString(),
                 QStringLiteral("orders-review"));
        QCOMPARE(orders.value("DefaultMessageTimeToLive").toString(), QStringLiteral("PT10M"));
        QCOMPARE(orders.value("RequiresSession").toBool(true), false);

        const QJsonArray topics = ns.value("Topics").toArray();
        QCOMPARE(topics.size(), 1);
        const QJsonObject topic = topics.first().toObject();
        QVERIFY(!topic.value("Properties").toObject().contains("LockDuration"));
        const QJsonArray subscriptions = topic.value("Subscriptions").toArray();
        QCOMPARE(subscriptions.size(), 3);
        const QJsonObject sub1 = subscriptions.at(0).toObject();
        QCOMPARE(sub1.value("Name").toString(), QStringLiteral("subscription.1"));
        QCOMPARE(sub1.value("Rules")
                     .toArray()
                     .first()
                     .toObject()
                     .value("Properties")
                     .toObject()
                     .value("CorrelationFilter")
                     .toObject()
                     .value("Label")
                     .toString(),
                 QStringLiteral("subject1"));
        // The $Default-only subscription lists no rules, as the emulator writes it.
        QVERIFY(!subscriptions.at(2).toObject().contains("Rules"));
    }

    void importExportRoundTrip() {
        EmptyBroker first;
        QVERIFY(!importInto(*first.broker, sampleConfig()));
        const auto exported = exportUserConfig(*first.broker, QStringLiteral("sbemulatorns"));
        QVERIFY(exported.ok());
        const QByteArray document =
            QJsonDocument(QJsonObject{{QStringLiteral("UserConfig"), *exported}}).toJson();

        EmptyBroker second;
        const auto error = importInto(*second.broker, document);
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        const auto again = exportUserConfig(*second.broker, QStringLiteral("sbemulatorns"));
        QVERIFY(again.ok());
        QCOMPARE(*again, *exported);

        const auto one = first.broker->entities();
        const auto two = second.broker->entities();
        QCOMPARE(two.size(), one.size());
        for (qsizetype i = 0; i < one.size(); ++i) {
            QCOMPARE(two[i].path, one[i].path);
            QCOMPARE(two[i].kind, one[i].kind);
            QCOMPARE(two[i].properties, one[i].properties);
            QCOMPARE(two[i].rules, one[i].rules);
        }
    }

    // Every property survives, including ours that the emulator lacks, and the tier (a Basic
    // namespace has queues only, E5; the topic lives in a Premium one).
    void roundTripKeepsOurExtras() {
        EmptyBroker first;
        const auto error = importInto(*first.broker, R"({ "UserConfig": { "Namespaces": [ {
            "Name": "basic-ns", "Tier": "Basic",
            "Queues": [ { "Name": "tmp", "Properties": { "AutoDeleteOnIdle": "PT5M", "Status": "SendDisabled",
                          "MaxSizeInMegabytes": 2048, "MaxMessageSizeInKilobytes": 1024 } } ] }, {
            "Name": "premium-ns", "Tier": "Premium",
            "Topics": [ { "Name": "t", "Properties": { "AutoDeleteOnIdle": "PT1H", "Status": "Disabled" },
                          "Subscriptions": [ { "Name": "s", "Rules": [
                              { "Name": "none", "Properties": { "FilterType": "False" } },
                              { "Name": "flag", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Properties": { "n": 5 } } } } ] } ] } ] } ] } })");
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        const auto tmp = first.broker->entity("tmp");
        QVERIFY(tmp.ok());
        QCOMPARE(tmp->properties.defaultMessageTimeToLive, days(14)); // Basic default
        QCOMPARE(tmp->properties.status, EntityStatus::SendDisabled);

        EmptyBroker second;
        for (const QString& ns : {QStringLiteral("basic-ns"), QStringLiteral("premium-ns")}) {
            const auto exported = exportUserConfig(*first.broker, ns);
            QVERIFY(exported.ok());
            QVERIFY(!importInto(*second.broker,
                                QJsonDocument(QJsonObject{{"UserConfig", *exported}}).toJson()));
            const auto again = exportUserConfig(*second.broker, ns);
            QVERIFY(again.ok());
            QCOMPARE(*again, *exported);
        }
        QCOMPARE(second.broker->namespaces().at(0).tier, Tier::Basic);
        QCOMPARE(second.broker->namespaces().at(1).tier, Tier::Premium);
        const auto s = second.broker->entity("premium-ns:t/Subscriptions/s");
        QVERIFY(s.ok());
        QCOMPARE(s->rules.size(), 2);
        QCOMPARE(s->rules.at(0).filterType, FilterType::False);
    }

    // A subscription whose every rule was removed matches nothing; exported as a $Default False
    // rule it keeps matching nothing after an import.
    void subscriptionWithoutRulesExportsAsFalse() {
        testing::TestBroker b;
        QVERIFY(b->createTopic("t", {}).ok());
        QVERIFY(b->createSubscription("t/Subscriptions/s", {}).ok());
        QVERIFY(b->removeRule("t/Subscriptions/s", "$Default").ok());
        const auto exported = exportUserConfig(b.broker(), QStringLiteral("test"));
        QVERIFY(exported.ok());
        const QJsonArray rules = exported->value("Namespaces")
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value("Topics")
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value("Subscriptions")
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value("Rules")
                                     .toArray();
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().toObject().value("Properties").toObject().value("FilterType"),
                 QJsonValue(QStringLiteral("False")));
    }

    // Forwarding targets may be declared after the entity that forwards to them.
    void forwardingInAnyOrder() {
        EmptyBroker b;
        const auto error = importInto(*b.broker, configWith(R"(
            "Queues": [ { "Name": "a", "Properties": { "ForwardTo": "b", "ForwardDeadLetteredMessagesTo": "c" } },
                        { "Name": "b", "Properties": { "ForwardTo": "events" } },
                        { "Name": "c" } ],
            "Topics": [ { "Name": "events", "Subscriptions": [ { "Name": "s", "Properties": { "ForwardTo": "c" } } ] } ])"));
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        QCOMPARE(b.broker->entity("a")->properties.forwardTo, QStringLiteral("b"));
        QCOMPARE(b.broker->entity("a")->properties.forwardDeadLetteredMessagesTo,
                 QStringLiteral("c"));
        QCOMPARE(b.broker->entity("b")->properties.forwardTo, QStringLiteral("events"));
        QCOMPARE(b.broker->entity("events/Subscriptions/s")->properties.forwardTo,
                 QStringLiteral("c"));
        // a -> b -> events -> s -> c
        QVERIFY(b.broker->send("a", testing::TestBroker::message("m")).ok());
        QCOMPARE(b.broker->counts("c")->active, 1);
    }

    void severalNamespaces() {
        EmptyBroker b;
        const auto error = importInto(*b.broker, R"({ "UserConfig": { "Namespaces": [
            { "Name": "one", "Queues": [ { "Name": "q" } ] },
            { "Name": "two", "Tier": "Premium", "Queues": [ { "Name": "q" }, { "Name": "r", "Properties": { "ForwardTo": "q" } } ] } ] } })");
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        QCOMPARE(b.broker->entities("one").size(), 1);
        QCOMPARE(b.broker->entities("two").size(), 2);
        QVERIFY(b.broker->entity("two:r").ok());
        const auto exported = exportUserConfig(*b.broker, QStringLiteral("two"));
        QVERIFY(exported.ok());
        QCOMPARE(exported->value("Namespaces").toArray().first().toObject().value("Tier"),
                 QJsonValue(QStringLiteral("Premium")));
        QVERIFY(!exportUserConfig(*b.broker, QStringLiteral("three")).ok());
    }

    void errorsCarryTheJsonPath_data() {
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<ErrorCode>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("badJson") << QByteArray("{ \"UserConfig\": \n { \"Namespaces\": [ }")
                                 << ErrorCode::InvalidArgument << QStringLiteral("line 2");
        QTest::newRow("noUserConfig")
            << QByteArray(R"({ "Namespaces": [] })") << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig: missing");
        QTest::newRow("namespaceMember")
            << configWith(R"("Queus": [])") << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Queus: unknown member");
        QTest::newRow("tier") << configWith(R"("Tier": "Gold")") << ErrorCode::InvalidArgument
                              << QStringLiteral("UserConfig.Namespaces[0].Tier: 'Gold'");
        QTest::newRow("duration")
            << configWith(
                   R"("Queues": [ { "Name": "q", "Properties": { "LockDuration": "PT" } } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Queues[0].Properties.LockDuration: 'PT' is "
                              "not an ISO-8601 duration");
        QTest::newRow("bound")
            << configWith(
                   R"("Queues": [ { "Name": "q" }, { "Name": "r", "Properties": { "LockDuration": "PT1S" } } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Queues[1].Properties: LockDuration must be "
                              "between PT5S and PT5M");
        QTest::newRow("sessionsOnTopic")
            << configWith(
                   R"("Topics": [ { "Name": "t", "Properties": { "RequiresSession": true } } ])")
            << ErrorCode::InvalidArgument << QStringLiteral("a topic has no sessions");
        QTest::newRow("queueName")
            << configWith("\"Queues\": [ { \"Name\": \"a//b\" } ]") << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Queues[0].Name: ");
        QTest::newRow("subscriptionName")
            << configWith(
                   R"("Topics": [ { "Name": "t", "Subscriptions": [ { "Name": "a b" } ] } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Name: ");
        QTest::newRow("sqlRule")
            << configWith(R"("Topics": [ { "Name": "t", "Subscriptions": [ { "Name": "s", "Rules": [
                   { "Name": "sql-filter-1", "Properties": { "FilterType": "Sql", "SqlFilter": { "SqlExpression": "a == 1" } } } ] } ] } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Rules[0]: rule "
                              "'sql-filter-1': There was an error parsing the SQL expression. "
                              "[Token line=1, column=");
        QTest::newRow("ruleAction")
            << configWith(R"("Topics": [ { "Name": "t", "Subscriptions": [ { "Name": "s", "Rules": [
                   { "Name": "r", "Properties": { "FilterType": "True", "Action": { "SqlExpression": "SET sys.SequenceNumber = 1" } } } ] } ] } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Rules[0]: rule "
                              "'r': ");
        QTest::newRow("duplicateRule")
            << configWith(R"("Topics": [ { "Name": "t", "Subscriptions": [ { "Name": "s", "Rules": [
                   { "Name": "r", "Properties": { "FilterType": "True" } },
                   { "Name": "R", "Properties": { "FilterType": "False" } } ] } ] } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Rules[1].Name");
        QTest::newRow("topicForward")
            << configWith(
                   R"("Queues": [ { "Name": "q" } ], "Topics": [ { "Name": "t", "Properties": { "ForwardTo": "q" } } ])")
            << ErrorCode::InvalidArgument
            << QStringLiteral("UserConfig.Namespaces[0].Topics[0].Properties: ForwardTo");
        QTest::newRow("missingForwardTarget")
            << configWith(
                   R"("Queues": [ { "Name": "q" }, { "Name": "r", "Properties": { "ForwardTo": "nowhere" } } ])")
            << ErrorCode::MessagingEntityNotFound
            << QStringLiteral("UserConfig.Namespaces[0].Queues[1]: ");
        QTest::newRow("forwardToItself")
            << configWith(R"("Queues": [ { "Name": "q", "Properties": { "ForwardTo": "q" } } ])")
            << ErrorCode::InvalidArgument << QStringLiteral("UserConfig.Namespaces[0].Queues[0]: ");
        QTest::newRow("duplicateQueue")
            << configWith(R"("Queues": [ { "Name": "q" }, { "Name": "Q" } ])")
            << ErrorCode::MessagingEntityAlreadyExists
            << QStringLiteral("UserConfig.Namespaces[0].Queues[1]: ");
        QTest::newRow("badNamespaceName")
            << QByteArray(R"({ "UserConfig": { "Namespaces": [ { "Name": "no spaces" } ] } })")
            << ErrorCode::InvalidArgument << QStringLiteral("UserConfig.Namespaces[0].Name: ");
    }
    void errorsCarryTheJsonPath() {
        QFETCH(QByteArray, document);
        QFETCH(ErrorCode, code);
        QFETCH(QString, mentions);
        EmptyBroker b;
        const auto error = importInto(*b.broker, document);
        QVERIFY(error.has_value());
        QCOMPARE(errorCodeName(error->code), errorCodeName(code));
        QVERIFY2(error->description.contains(mentions), qPrintable(error->description));
    }
};

QTEST_GUILESS_MAIN(EmulatorConfigTest)
#include "tst_scenario_config.moc"
