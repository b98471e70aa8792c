// Rules through the administration API, with bodies shaped as the JavaScript SDK 7.9.5 writes
// them (`p4:type` on Filter and Action, parameters and properties as KeyValueOfstringanyType
// items typed `l28:double`, `l28:string`...): SQL filters with parameters, correlation filters
// with typed properties, true and false filters, SQL and empty actions, a subscription's default
// rule; replaced with If-Match, listed, deleted; the topic's filter quota (403).

#include "AdminFixture.h"
#include "BrokerSnapshot.h"

#include "hourglass/Broker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::admin;
using namespace hourglass::testing;

namespace {
const QString kTypeNs = QStringLiteral("xmlns:p4=\"http://www.w3.org/2001/XMLSchema-instance\"");

// A parameter or property item as the JavaScript client writes it.
QString keyValue(const QString& key, const QString& type, const QString& value) {
    return QStringLiteral("<KeyValueOfstringanyType><Key>%1</Key><Value p4:type=\"l28:%2\" "
                          "xmlns:l28=\"http://www.w3.org/2001/XMLSchema\">%3</Value>"
                          "</KeyValueOfstringanyType>")
        .arg(key, type, value);
}

QString filter(const QString& type, const QString& inner) {
    return QStringLiteral("<Filter p4:type=\"%1\" %2>%3</Filter>").arg(type, kTypeNs, inner);
}

QString emptyAction() {
    return QStringLiteral("<Action p4:type=\"EmptyRuleAction\" %1/>").arg(kTypeNs);
}

QString sqlAction(const QString& expression) {
    return QStringLiteral("<Action p4:type=\"SqlRuleAction\" %1><SqlExpression>%2</SqlExpression>"
                          "</Action>")
        .arg(kTypeNs, expression);
}

QByteArray ruleBody(const QString& name, const QString& filterXml, const QString& actionXml) {
    return atomEntry("RuleDescription",
                     filterXml + actionXml + QStringLiteral("<Name>%1</Name>").arg(name));
}

const QByteArray kRules = "/events/Subscriptions/s/Rules/";

struct TopicFixture : AdminFixture {
    TopicFixture() {
        const auto defaults = EntityProperties::defaults(Tier::Standard);
        if (!broker().createTopic("events", defaults) ||
            !broker().createSubscription("events/Subscriptions/s", defaults, {}) ||
            !broker().removeRule("events/Subscriptions/s", "$Default"))
            qFatal("could not create the topic");
    }
    QList<Rule> rules() { return broker().entity("events/Subscriptions/s")->rules; }
};

OutgoingMessage withProperties(const QVariantMap& properties) {
    OutgoingMessage message = TestBroker::message("m");
    message.applicationProperties = properties;
    return message;
}
} // namespace

class TestAdminRules : public QObject {
    Q_OBJECT

private slots:
    // createRule(t, s, "red", { sqlExpression: "color = @c AND n > @n", sqlParameters:
    // { "@c": "red", "@n": 5 } }, { sqlExpression: "SET seen = 1" })
    void sqlFilterWithParametersAndAction() {
        TopicFixture f;
        const QString parameters =
            QStringLiteral("<Parameters>%1%2</Parameters>")
                .arg(keyValue("@c", "string", "red"), keyValue("@n", "double", "5"));
        const AdminResponse created = f.put(
            kRules + "red",
            ruleBody("red",
                     filter("SqlFilter",
                            "<SqlExpression>color = @c AND n &gt; @n</SqlExpression>" + parameters),
                     sqlAction("SET seen = 1")));
        QCOMPARE(created.status, 201);
        QCOMPARE(f.rules().size(), 1);
        const Rule rule = f.rules().first();
        QCOMPARE(rule.filterType, FilterType::Sql);
        QCOMPARE(rule.sqlExpression, QStringLiteral("color = 'red' AND n > 5.0"));
        QCOMPARE(rule.sqlAction, QStringLiteral("SET seen = 1"));

        const auto entry = parsedBody(created);
        QVERIFY(entry);
        QCOMPARE(childText(&*entry, "id"),
                 QStringLiteral("https://localhost:5671/events/Subscriptions/s/Rules/red"
                                "?api-version=2021-05"));
        const XmlElement* description = descriptionOf(*entry);
        QCOMPARE(description->name, QStringLiteral("RuleDescription"));
        QCOMPARE(childText(description, "Name"), QStringLiteral("red"));
        QCOMPARE(description->child("Filter")->typeName, QStringLiteral("SqlFilter"));
        QCOMPARE(childText(description->child("Filter"), "SqlExpression"), rule.sqlExpression);
        QCOMPARE(description->child("Action")->typeName, QStringLiteral("SqlRuleAction"));

        // The rule routes as written: red over 5 is copied with the action applied.
        QVERIFY(f.broker().send("events", withProperties({{"color", "red"}, {"n", 7}})));
        QVERIFY(f.broker().send("events", withProperties({{"color", "blue"}, {"n", 7}})));
        const auto held = f.broker().listMessages("events/Subscriptions/s", 0, 10);
        QVERIFY(held);
        QCOMPARE(held->size(), 1);
        QCOMPARE(held->first().applicationProperties.value("seen").toLongLong(), 1);
    }

    void parameterMissingOrUntypedIsRefused() {
        TopicFixture f;
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse missing =
            f.put(kRules + "r",
                  ruleBody("r",
                           filter("SqlFilter", "<SqlExpression>a = @x</SqlExpression>"
                                               "<Parameters>" +
                                                   keyValue("@y", "string", "1") + "</Parameters>"),
                           emptyAction()));
        QCOMPARE(missing.status, 400);
        QVERIFY(errorDetail(missing).contains("@x"));
        const AdminResponse badValue =
            f.put(kRules + "r",
                  ruleBody("r",
                           filter("SqlFilter", "<SqlExpression>a = @x</SqlExpression>"
                                               "<Parameters>" +
                                                   keyValue("@x", "int", "abc") + "</Parameters>"),
                           emptyAction()));
        QCOMPARE(badValue.status, 400);
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    // The JavaScript client types every number l28:double; .NET and Python write d6p1:int. The
    // reply writes each as its type with the four-character prefix the client cuts off.
    void correlationFilterWithTypedProperties() {
        TopicFixture f;
        const QString properties =
            QStringLiteral("<Properties>%1%2%3</Properties>")
                .arg(keyValue("quantity", "double", "5"), keyValue("region", "string", "eu"),
                     keyValue("urgent", "boolean", "true"));
        const QString inner = QStringLiteral("<CorrelationId>c1</CorrelationId><Label>invoice"
                                             "</Label>") +
                              properties;
        QCOMPARE(f.put(kRules + "invoices",
                       ruleBody("invoices", filter("CorrelationFilter", inner), emptyAction()))
                     .status,
                 201);
        const Rule rule = f.rules().first();
        QCOMPARE(rule.filterType, FilterType::Correlation);
        QCOMPARE(rule.correlation.correlationId, QStringLiteral("c1"));
        QCOMPARE(rule.correlation.subject, QStringLiteral("invoice"));
        QCOMPARE(rule.correlation.properties.value("quantity").typeId(), QMetaType::Double);
        QCOMPARE(rule.correlation.properties.value("region"), QVariant(QStringLiteral("eu")));
        QCOMPARE(rule.correlation.properties.value("urgent"), QVariant(true));

        // An int as .NET writes it (its own prefix declared on the value).
        const QString dotNet = QStringLiteral(
            "<Filter i:type=\"CorrelationFilter\"><Properties><KeyValueOfstringanyType><Key>level"
            "</Key><Value xmlns:d3p1=\"http://www.w3.org/2001/XMLSchema\" i:type=\"d3p1:int\">3"
            "</Value></KeyValueOfstringanyType></Properties></Filter>"
            "<Action i:type=\"EmptyRuleAction\"/><Name>levels</Name>");
        QCOMPARE(f.put(kRules + "levels", atomEntry("RuleDescription", dotNet)).status, 201);
        QCOMPARE(f.rules().at(1).correlation.properties.value("level"), QVariant(3));

        const AdminResponse read = f.get(kRules + "invoices");
        QCOMPARE(read.status, 200);
        QVERIFY(read.body.contains("<Key>quantity</Key><Value i:type=\"d6p1:double\" "
                                   "xmlns:d6p1=\"http://www.w3.org/2001/XMLSchema\">5</Value>"));
        QVERIFY(read.body.contains("i:type=\"d6p1:string\""));
        QVERIFY(read.body.contains("i:type=\"d6p1:boolean\""));
        QVERIFY(!read.body.contains("l28"));
        const auto descriptionEntry = parsedBody(read);
        QVERIFY(descriptionEntry);
        const XmlElement* description = descriptionOf(*descriptionEntry);
        QCOMPARE(childText(description->child("Filter"), "Label"), QStringLiteral("invoice"));
        QVERIFY(f.get(kRules + "levels").body.contains("<Value i:type=\"d6p1:int\""));

        // It matches by type and value: a Double 5 matches, an Int32 5 does not.
        QVERIFY(f.broker().send("events", [] {
            OutgoingMessage m =
                withProperties({{"quantity", 5.0}, {"region", "eu"}, {"urgent", true}});
            m.correlationId = "c1";
            m.subject = "invoice";
            return m;
        }()));
        QCOMPARE(f.broker().counts("events/Subscriptions/s")->active, 1);
    }

    // A rule as a reply writes it is taken back unchanged by a replace.
    void ruleRepliesAreAcceptedBack() {
        TopicFixture f;
        const QString properties =
            QStringLiteral("<Properties>%1%2</Properties>")
                .arg(keyValue("quantity", "double", "5"), keyValue("region", "string", "eu"));
        QCOMPARE(
            f.put(kRules + "c",
                  ruleBody("c", filter("CorrelationFilter", "<Label>invoice</Label>" + properties),
                           sqlAction("SET seen = 1")))
                .status,
            201);
        const Rule before = f.rules().first();
        const QByteArray reply = f.get(kRules + "c").body;
        const qsizetype from = reply.indexOf("<RuleDescription");
        const qsizetype to = reply.indexOf("</RuleDescription>") + qsizetype(18);
        const QByteArray body =
            "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">" +
            reply.mid(from, to - from) + "</content></entry>";
        const AdminResponse replaced = f.put(kRules + "c", body, true);
        QVERIFY2(replaced.status == 200, replaced.body.constData());
        QCOMPARE(f.rules().first(), before);
        QCOMPARE(f.rules().first().correlation.properties, before.correlation.properties);
    }

    void trueFalseAndDefaultFilters() {
        TopicFixture f;
        QCOMPARE(f.put(kRules + "all",
                       ruleBody("all", filter("TrueFilter", "<SqlExpression>1=1</SqlExpression>"),
                                emptyAction()))
                     .status,
                 201);
        QCOMPARE(f.put(kRules + "none",
                       ruleBody("none", filter("FalseFilter", "<SqlExpression>1=0</SqlExpression>"),
                                emptyAction()))
                     .status,
                 201);
        // createRule without a filter: the client writes SqlFilter 1=1.
        QCOMPARE(f.put(kRules + "plain",
                       ruleBody("plain", filter("SqlFilter", "<SqlExpression>1=1</SqlExpression>"),
                                emptyAction()))
                     .status,
                 201);
        const QList<Rule> rules = f.rules();
        QCOMPARE(rules.size(), 3);
        QCOMPARE(rules.at(0).filterType, FilterType::True);
        QCOMPARE(rules.at(1).filterType, FilterType::False);
        QCOMPARE(rules.at(2).filterType, FilterType::Sql);
        QVERIFY(!rules.at(0).hasAction());
        const auto noneEntry = parsedBody(f.get(kRules + "none"));
        QVERIFY(noneEntry);
        const XmlElement* none = descriptionOf(*noneEntry);
        QCOMPARE(none->child("Filter")->typeName, QStringLiteral("FalseFilter"));
        QCOMPARE(childText(none->child("Filter"), "SqlExpression"), QStringLiteral("1=0"));
        QCOMPARE(none->child("Action")->typeName, QStringLiteral("EmptyRuleAction"));
    }

    void rulesReplacedListedAndDeleted() {
        TopicFixture f;
        for (const char* name : {"r1", "r2", "r3"})
            QCOMPARE(
                f.put(kRules + name,
                      ruleBody(name, filter("SqlFilter", "<SqlExpression>a = 1</SqlExpression>"),
                               emptyAction()))
                    .status,
                201);
        const AdminResponse page = f.get(kRules + "?$skip=0&$top=2&api-version=2021-05");
        QCOMPARE(page.status, 200);
        QCOMPARE(entriesOf(*parsedBody(page)).size(), 2);
        QVERIFY(linkOf(page.body, "next").contains("$skip=2"));

        const AdminResponse replaced =
            f.put(kRules + "r1",
                  ruleBody("r1", filter("SqlFilter", "<SqlExpression>a = 2</SqlExpression>"),
                           emptyAction()),
                  true);
        QCOMPARE(replaced.status, 200);
        QCOMPARE(f.rules().first().sqlExpression, QStringLiteral("a = 2"));

        const AdminResponse again =
            f.put(kRules + "r2",
                  ruleBody("r2", filter("SqlFilter", "<SqlExpression>a = 1</SqlExpression>"),
                           emptyAction()));
        QCOMPARE(again.status, 409);

        QCOMPARE(f.remove(kRules + "r1").status, 200);
        QCOMPARE(f.get(kRules + "r1").status, 404);
        QCOMPARE(f.rules().size(), 2);
        QCOMPARE(f.put("/events/Subscriptions/missing/Rules/r",
                       ruleBody("r", filter("SqlFilter", "<SqlExpression>a = 1</SqlExpression>"),
                                emptyAction()))
                     .status,
                 404);
    }

    // createSubscription(t, "eu", { defaultRuleOptions: { name: "only-eu", filter: ... } })
    void subscriptionWithDefaultRuleDescription() {
        TopicFixture f;
        const QString inner =
            QStringLiteral("<DefaultRuleDescription>%1%2<Name>only-eu</Name>"
                           "</DefaultRuleDescription>")
                .arg(filter("SqlFilter", "<SqlExpression>region = 'eu'</SqlExpression>"),
                     emptyAction());
        QCOMPARE(
            f.put("/events/Subscriptions/eu", atomEntry("SubscriptionDescription", inner)).status,
            201);
        const auto rules = f.broker().entity("events/Subscriptions/eu")->rules;
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().name, QStringLiteral("only-eu"));
        QCOMPARE(rules.first().sqlExpression, QStringLiteral("region = 'eu'"));
    }

    void badSqlIsRefusedWithTheEnginesDescription() {
        TopicFixture f;
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse refused =
            f.put(kRules + "bad",
                  ruleBody("bad", filter("SqlFilter", "<SqlExpression>a = = 1</SqlExpression>"),
                           emptyAction()));
        QCOMPARE(refused.status, 400);
        QVERIFY2(errorDetail(refused).contains("There was an error parsing the SQL expression"),
                 qPrintable(errorDetail(refused)));
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }

    // A topic holds at most 2,000 SQL filters: the next one is refused as over quota (403).
    void sqlFilterQuotaIsForbidden() {
        TopicFixture f;
        QList<Rule> rules;
        for (int i = 0; i < 2000; ++i) {
            Rule rule;
            rule.name = QStringLiteral("r%1").arg(i);
            rule.filterType = FilterType::Sql;
            rule.sqlExpression = QStringLiteral("a = %1").arg(i);
            rules.append(rule);
        }
        QVERIFY(f.broker().createSubscription("events/Subscriptions/full",
                                              EntityProperties::defaults(Tier::Standard), rules));
        const auto before = BrokerSnapshot::take(f.broker());
        const AdminResponse refused =
            f.put(kRules + "one-more",
                  ruleBody("one-more", filter("SqlFilter", "<SqlExpression>a = 1</SqlExpression>"),
                           emptyAction()));
        QCOMPARE(refused.status, 403);
        QVERIFY(refused.body.contains("<Code>403</Code>"));
        QCOMPARE(BrokerSnapshot::take(f.broker()).differenceFrom(before), QString());
    }
};

QTEST_GUILESS_MAIN(TestAdminRules)
#include "tst_admin_rules.moc"
