// Subscription rules (service-bus-rules.md R2-R5, E2, E4): true, false, correlation and SQL
// filters, rule names, actions, and the emulator's JSON rule objects.

#include "hourglass/Rule.h"

#include <QJsonDocument>
#include <QTest>

using namespace hourglass;

namespace {

QJsonObject object(const QByteArray& json) {
    return QJsonDocument::fromJson(json).object();
}

OutgoingMessage fullMessage() {
    OutgoingMessage m;
    m.messageId = QStringLiteral("msgid1");
    m.correlationId = QStringLiteral("id1");
    m.to = QStringLiteral("xyz");
    m.replyTo = QStringLiteral("someQueue");
    m.subject = QStringLiteral("subject1");
    m.sessionId = QStringLiteral("session1");
    m.replyToSessionId = QStringLiteral("sessionId");
    m.contentType = QStringLiteral("application/text");
    m.applicationProperties = {{QStringLiteral("region"), QStringLiteral("eu")},
                               {QStringLiteral("priority"), 5},
                               {QStringLiteral("weight"), 2.5},
                               {QStringLiteral("urgent"), true}};
    return m;
}

Rule correlationRule(const CorrelationFilter& filter) {
    Rule rule;
    rule.name = QStringLiteral("r");
    rule.filterType = FilterType::Correlation;
    rule.correlation = filter;
    return rule;
}

} // namespace

class RuleTest : public QObject {
    Q_OBJECT

private slots:
    void rules_E4_defaultRuleIsTrue() {
        const Rule rule = Rule::trueRule();
        QCOMPARE(rule.name, QStringLiteral("$Default"));
        QCOMPARE(rule.filterType, FilterType::True);
        QVERIFY(rule.validate().ok());
        QVERIFY(rule.matches(OutgoingMessage()));
        QVERIFY(rule.matches(fullMessage()));
    }

    void rules_R2_falseMatchesNothing() {
        Rule rule;
        rule.name = QStringLiteral("none");
        rule.filterType = FilterType::False;
        QVERIFY(rule.validate().ok());
        QVERIFY(!rule.matches(fullMessage()));
        QVERIFY(!rule.matches(OutgoingMessage()));
    }

    // Each system property on its own: equal matches, different does not, unset on the message
    // does not.
    void rules_R2_correlationSystemProperties_data() {
        QTest::addColumn<int>("member");
        const char* names[] = {"CorrelationId",    "MessageId",  "To",
                               "ReplyTo",          "Subject",    "SessionId",
                               "ReplyToSessionId", "ContentType"};
        for (int i = 0; i < 8; ++i)
            QTest::newRow(names[i]) << i;
    }
    void rules_R2_correlationSystemProperties() {
        QFETCH(int, member);
        const OutgoingMessage message = fullMessage();
        const auto filterWith = [member](const QString& value) {
            CorrelationFilter f;
            QString* fields[] = {&f.correlationId,    &f.messageId,  &f.to,
                                 &f.replyTo,          &f.subject,    &f.sessionId,
                                 &f.replyToSessionId, &f.contentType};
            *fields[member] = value;
            return f;
        };
        const QString* messageFields[] = {
            &message.correlationId,    &message.messageId,  &message.to,
            &message.replyTo,          &message.subject,    &message.sessionId,
            &message.replyToSessionId, &message.contentType};
        const QString actual = *messageFields[member];
        QVERIFY(correlationRule(filterWith(actual)).matches(message));
        QVERIFY(!correlationRule(filterWith(actual + "x")).matches(message));
        // Equality is exact, as in Service Bus.
        QVERIFY(!correlationRule(filterWith(actual.toUpper())).matches(message));
        QVERIFY(!correlationRule(filterWith(actual)).matches(OutgoingMessage()));
    }

    void rules_R2_correlationAndsEveryMember() {
        CorrelationFilter filter;
        filter.correlationId = QStringLiteral("id1");
        filter.subject = QStringLiteral("subject1");
        filter.properties = {{QStringLiteral("region"), QStringLiteral("eu")}};
        QVERIFY(correlationRule(filter).matches(fullMessage()));
        OutgoingMessage other = fullMessage();
        other.subject = QStringLiteral("subject2");
        QVERIFY(!correlationRule(filter).matches(other));
        other = fullMessage();
        other.applicationProperties.insert(QStringLiteral("region"), QStringLiteral("us"));
        QVERIFY(!correlationRule(filter).matches(other));
    }

    void rules_R2_correlationApplicationPropertiesByValue_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QVariant>("wanted");
        QTest::addColumn<bool>("matches");
        QTest::newRow("string") << "region" << QVariant(QStringLiteral("eu")) << true;
        QTest::newRow("string.other") << "region" << QVariant(QStringLiteral("EU")) << false;
        // R2: "Correlation values compare exactly (case and type)": the message's Int32 5 is
        // not an Int64, UInt32 or Double 5.
        QTest::newRow("int") << "priority" << QVariant(5) << true;
        QTest::newRow("int.asDouble") << "priority" << QVariant(5.0) << false;
        QTest::newRow("int.asLongLong") << "priority" << QVariant(qint64(5)) << false;
        QTest::newRow("int.asUnsigned") << "priority" << QVariant(5u) << false;
        QTest::newRow("int.other") << "priority" << QVariant(6) << false;
        QTest::newRow("int.asString") << "priority" << QVariant(QStringLiteral("5")) << false;
        QTest::newRow("double") << "weight" << QVariant(2.5) << true;
        QTest::newRow("double.truncated") << "weight" << QVariant(2) << false;
        QTest::newRow("bool") << "urgent" << QVariant(true) << true;
        QTest::newRow("bool.false") << "urgent" << QVariant(false) << false;
        QTest::newRow("bool.asInt") << "urgent" << QVariant(1) << false;
        QTest::newRow("missing") << "absent" << QVariant(QStringLiteral("x")) << false;
    }
    void rules_R2_correlationApplicationPropertiesByValue() {
        QFETCH(QString, name);
        QFETCH(QVariant, wanted);
        QFETCH(bool, matches);
        CorrelationFilter filter;
        filter.properties.insert(name, wanted);
        QCOMPARE(correlationRule(filter).matches(fullMessage()), matches);
    }

    void rules_R2_emptyCorrelationRefused() {
        const Rule rule = correlationRule(CorrelationFilter());
        QVERIFY(rule.correlation.isEmpty());
        QVERIFY(!rule.matches(fullMessage()));
        const auto valid = rule.validate();
        QVERIFY(!valid.ok());
        QCOMPARE(valid.error().code, ErrorCode::InvalidArgument);
        QVERIFY(valid.error().description.contains(QStringLiteral("correlation filter")));
    }

    void rules_R3_sqlFilterCompiledAtValidation() {
        Rule rule;
        rule.name = QStringLiteral("all");
        rule.filterType = FilterType::Sql;
        rule.sqlExpression = QStringLiteral("1=1"); // the Azure SDK's true filter
        QVERIFY(rule.validate().ok());
        QVERIFY(rule.matches(fullMessage()));
        rule.sqlExpression = QStringLiteral("region = = 'eu'");
        const auto valid = rule.validate();
        QVERIFY(!valid.ok());
        QCOMPARE(valid.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(valid.error().description.contains(QStringLiteral("line=1, column=")),
                 qPrintable(valid.error().description));
    }

    void rules_E2_names_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("default") << "$Default" << true;
        QTest::newRow("punctuation") << "a.b-c_d" << true;
        QTest::newRow("one") << "x" << true;
        QTest::newRow("fifty") << QString(50, u'r') << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("fiftyOne") << QString(51, u'r') << false;
        QTest::newRow("space") << "a b" << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("colon") << "a:b" << false;
    }
    void rules_E2_names() {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const Rule rule = Rule::trueRule(name);
        const auto result = rule.validate();
        QCOMPARE(result.ok(), valid);
        if (!valid) {
            QCOMPARE(result.error().code, ErrorCode::InvalidArgument);
            QVERIFY(result.error().description.contains(QStringLiteral("rule name")));
        }
    }

    // The emulator's config.json rule objects, and ours ("True"/"False").
    void json_emulatorCorrelationRule() {
        const auto rule = Rule::fromJson(object(R"({ "Name": "app-prop-filter-1", "Properties": {
            "FilterType": "Correlation", "CorrelationFilter": {
              "ContentType": "application/text", "CorrelationId": "id1", "Label": "subject1",
              "MessageId": "msgid1", "ReplyTo": "someQueue", "ReplyToSessionId": "sessionId",
              "SessionId": "session1", "To": "xyz", "Properties": { "region": "eu", "priority": 5 } } } })"));
        QVERIFY2(rule.ok(), rule.ok() ? "" : qPrintable(rule.error().description));
        QCOMPARE(rule->name, QStringLiteral("app-prop-filter-1"));
        QCOMPARE(rule->filterType, FilterType::Correlation);
        QCOMPARE(rule->correlation.subject, QStringLiteral("subject1"));
        QCOMPARE(rule->correlation.replyToSessionId, QStringLiteral("sessionId"));
        QCOMPARE(rule->correlation.properties.value("priority").toLongLong(), 5);
        QVERIFY(rule->validate().ok());
        // A plain JSON integer is an Int64, which the message's Int32 priority is not (R2).
        QVERIFY(!rule->matches(fullMessage()));
        OutgoingMessage int64Priority = fullMessage();
        int64Priority.applicationProperties.insert(QStringLiteral("priority"), qint64(5));
        QVERIFY(rule->matches(int64Priority));

        // Round trip: Subject goes back out as the emulator's "Label".
        const QJsonObject json = rule->toJson();
        const QJsonObject filter =
            json.value("Properties").toObject().value("CorrelationFilter").toObject();
        QCOMPARE(filter.value("Label").toString(), QStringLiteral("subject1"));
        QVERIFY(!filter.contains("Subject"));
        const auto back = Rule::fromJson(json);
        QVERIFY(back.ok());
        QCOMPARE(*back, *rule);
    }

    void json_subjectAccepted() {
        const auto rule = Rule::fromJson(object(R"({ "Name": "r", "Properties": {
            "FilterType": "Correlation", "CorrelationFilter": { "Subject": "s" } } })"));
        QVERIFY(rule.ok());
        QCOMPARE(rule->correlation.subject, QStringLiteral("s"));
    }

    void json_roundTrips_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("true") << QByteArray(
            R"({ "Name": "$Default", "Properties": { "FilterType": "True" } })");
        QTest::newRow("false") << QByteArray(
            R"({ "Name": "none", "Properties": { "FilterType": "False" } })");
        QTest::newRow("sql") << QByteArray(
            R"({ "Name": "sql-filter-1", "Properties": { "FilterType": "Sql",
            "SqlFilter": { "SqlExpression": "sys.MessageId = '123456' AND userProp1 = 'value1'" } } })");
        QTest::newRow("sqlAction") << QByteArray(
            R"({ "Name": "a", "Properties": { "FilterType": "Sql",
            "SqlFilter": { "SqlExpression": "1=1" }, "Action": { "SqlExpression": "SET sys.To = 'x'" } } })");
        QTest::newRow("properties")
            << QByteArray(R"({ "Name": "p", "Properties": { "FilterType": "Correlation",
            "CorrelationFilter": { "Properties": { "prop3": "value3", "flag": true, "ratio": 0.25 } } } })");
    }
    void json_roundTrips() {
        QFETCH(QByteArray, json);
        const auto rule = Rule::fromJson(object(json));
        QVERIFY2(rule.ok(), rule.ok() ? "" : qPrintable(rule.error().description));
        QCOMPARE(rule->toJson(), object(json));
        const auto back = Rule::fromJson(rule->toJson());
        QVERIFY(back.ok());
        QCOMPARE(*back, *rule);
    }

    void json_refusals_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("action") << QByteArray(R"({ "Name": "r", "Properties": { "FilterType": "Sql",
            "SqlFilter": { "SqlExpression": "1=1" }, "Action": "SET sys.To = 'x'" } })")
                                << QStringLiteral("Properties.Action: expected an object");
        QTest::newRow("unknownMember") << QByteArray(R"({ "Name": "r", "Filter": {} })")
                                       << QStringLiteral("Filter: unknown member");
        QTest::newRow("noName") << QByteArray(R"({ "Properties": { "FilterType": "True" } })")
                                << QStringLiteral("Name: expected a string");
        QTest::newRow("noProperties")
            << QByteArray(R"({ "Name": "r" })") << QStringLiteral("Properties: expected an object");
        QTest::newRow("noFilterType") << QByteArray(R"({ "Name": "r", "Properties": {} })")
                                      << QStringLiteral("Properties.FilterType");
        QTest::newRow("badFilterType")
            << QByteArray(R"({ "Name": "r", "Properties": { "FilterType": "Regex" } })")
            << QStringLiteral("Properties.FilterType: 'Regex'");
        QTest::newRow("unknownCorrelationMember")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Lable": "x" } } })")
            << QStringLiteral("Properties.CorrelationFilter.Lable: unknown member");
        QTest::newRow("labelAndSubject")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Label": "x", "Subject": "y" } } })")
            << QStringLiteral("Label or Subject");
        QTest::newRow("correlationValueType")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "To": 5 } } })")
            << QStringLiteral("Properties.CorrelationFilter.To: expected a string");
        QTest::newRow("propertyValueType")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Properties": { "a": {} } } } })")
            << QStringLiteral("Properties.CorrelationFilter.Properties.a");
        QTest::newRow("sqlWithoutExpression")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "Sql", "SqlFilter": {} } })")
            << QStringLiteral("Properties.SqlFilter.SqlExpression");
        QTest::newRow("mismatchedFilter")
            << QByteArray(
                   R"({ "Name": "r", "Properties": { "FilterType": "True", "SqlFilter": { "SqlExpression": "1=1" } } })")
            << QStringLiteral("Properties.SqlFilter: not used with FilterType True");
    }
    void json_refusals() {
        QFETCH(QByteArray, json);
        QFETCH(QString, mentions);
        const auto rule = Rule::fromJson(object(json));
        QVERIFY(!rule.ok());
        QCOMPARE(rule.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(rule.error().description.contains(mentions), qPrintable(rule.error().description));
    }
};

QTEST_GUILESS_MAIN(RuleTest)
#include "tst_scenario_rules.moc"
