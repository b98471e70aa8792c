// The scenario runner through its API (scenario-format.md): the bundled scenarios hold, every step
// type does what the table says, expectations and ExpectError are judged, and bad files are refused
// with the JSON path of the first bad field.

#include "MalformedScenarios.h"
#include "TestBroker.h"
#include "hourglass/scenario/ScenarioRunner.h"

#include <QJsonArray>
#include <QTest>

using namespace hourglass;
using hourglass::testing::kTestStart;

namespace {

// Runs a scenario document from kTestStart and returns its report; fails the test when the
// document does not parse or the runner cannot start.
std::optional<ScenarioReport> runDocument(const QByteArray& json, ScenarioRunOptions options = {}) {
    auto scenario = parseScenario(json);
    if (!scenario) {
        qWarning("parse failed: %s", qPrintable(scenario.error().description));
        return std::nullopt;
    }
    options.start = kTestStart;
    auto runner = ScenarioRunner::create(std::move(scenario).value(), options);
    if (!runner) {
        qWarning("create failed: %s", qPrintable(runner.error().toString()));
        return std::nullopt;
    }
    return (*runner)->run();
}

QByteArray scenarioWith(const QByteArray& queues, const QByteArray& topics,
                        const QByteArray& steps) {
    return R"({ "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ )" + queues +
           R"( ], "Topics": [ )" + topics + R"( ] } ] }, "Scenario": { "Steps": [ )" + steps +
           " ] } }";
}

QString failuresText(const ScenarioReport& report) {
    return report.failureLines().join(u'\n');
}

// Every expectation held, and there were `passed` of them.
#define VERIFY_ALL_PASSED(report, count)                                                           \
    do {                                                                                           \
        QVERIFY2((report).has_value(), "the scenario did not run");                                \
        QVERIFY2((report)->failures.isEmpty(), qPrintable(failuresText(*(report))));               \
        QCOMPARE((report)->passed, (count));                                                       \
    } while (false)

} // namespace

class ScenarioRunnerTest : public QObject {
    Q_OBJECT

private slots:
    void bundledScenariosHold_data() {
        QTest::addColumn<QString>("file");
        for (const char* name :
             {"traffic-spike", "poison-message", "reply-queues", "session-orders"})
            QTest::newRow(name) << QStringLiteral(HOURGLASS_SCENARIO_DIR "/%1.json").arg(name);
    }
    void bundledScenariosHold() {
        QFETCH(QString, file);
        auto scenario = loadScenarioFile(file);
        QVERIFY2(scenario.ok(), scenario.ok() ? "" : qPrintable(scenario.error().description));
        QVERIFY(!scenario->title.isEmpty());
        QVERIFY(!scenario->description.isEmpty());
        ScenarioRunOptions options;
        options.start = kTestStart;
        auto runner = ScenarioRunner::create(std::move(scenario).value(), options);
        QVERIFY2(runner.ok(), runner.ok() ? "" : qPrintable(runner.error().toString()));
        const ScenarioReport report = (*runner)->run();
        QVERIFY2(report.failures.isEmpty(), qPrintable(failuresText(report)));
        QVERIFY(report.passed >= 10);
        QVERIFY(!report.entities.isEmpty());
    }

    // The traffic spike's story in numbers: 12 expired jobs went to the DLQ, then to e-mail.
    void trafficSpike_T7_reportShowsTheFinalState() {
        auto scenario =
            loadScenarioFile(QStringLiteral(HOURGLASS_SCENARIO_DIR "/traffic-spike.json"));
        QVERIFY(scenario.ok());
        ScenarioRunOptions options;
        options.start = kTestStart;
        auto runner = ScenarioRunner::create(std::move(scenario).value(), options);
        QVERIFY(runner.ok());
        const QJsonObject json = (*runner)->run().toJson();
        QCOMPARE(json.value("Clock").toString(), QStringLiteral("PT19M"));
        const QJsonArray entities = json.value("Entities").toArray();
        QCOMPARE(entities.size(), 2);
        QCOMPARE(entities.at(0).toObject().value("Path").toString(), QStringLiteral("email"));
        QCOMPARE(entities.at(1).toObject().value("Path").toString(), QStringLiteral("jobs"));
        for (const QJsonValue& entity : entities) {
            const QJsonObject e = entity.toObject();
            QCOMPARE(e.keys(), (QStringList{"Active", "DeadLetterReasons", "DeadLettered",
                                            "Deferred", "Locked", "Path", "Scheduled"}));
            QCOMPARE(e.value("Active").toInt(), 0);
        }
        const QJsonObject expectations = json.value("Expectations").toObject();
        QCOMPARE(expectations.value("Failed").toInt(), 0);
        QVERIFY(expectations.value("Passed").toInt() > 30);
        QCOMPARE(expectations.value("Failures").toArray().size(), 0);
    }

    // scenario-format.md's "Shape" example as it is, with its Sql rule (R3): it runs.
    void scenariosMd_R3_exampleWithSqlRuleRuns() {
        // A plain literal: moc misreads the apostrophe inside a raw string.
        const auto report = runDocument(
            "{\n"
            "  \"UserConfig\": {\n"
            "    \"Namespaces\": [\n"
            "      {\n"
            "        \"Name\": \"demo\",\n"
            "        \"Tier\": \"Standard\",\n"
            "        \"Queues\": [\n"
            "          { \"Name\": \"jobs\",\n"
            "            \"Properties\": { \"DefaultMessageTimeToLive\": \"PT10M\", "
            "\"LockDuration\": \"PT30S\",\n"
            "                            \"MaxDeliveryCount\": 3, "
            "\"DeadLetteringOnMessageExpiration\": true } }\n"
            "        ],\n"
            "        \"Topics\": [\n"
            "          { \"Name\": \"events\",\n"
            "            \"Properties\": { \"DefaultMessageTimeToLive\": \"PT1H\" },\n"
            "            \"Subscriptions\": [\n"
            "              { \"Name\": \"audit\",\n"
            "                \"Properties\": { \"DefaultMessageTimeToLive\": \"PT5M\" },\n"
            "                \"Rules\": [ { \"Name\": \"only-eu\",\n"
            "                             \"Properties\": { \"FilterType\": \"Sql\",\n"
            "                                             \"SqlFilter\": { \"SqlExpression\": "
            "\"region = 'eu'\" } } } ] }\n"
            "            ] }\n"
            "        ]\n"
            "      }\n"
            "    ]\n"
            "  },\n"
            "  \"Scenario\": {\n"
            "    \"Title\": \"Traffic spike\",\n"
            "    \"Description\": \"Shown in the app's scenario panel.\",\n"
            "    \"Steps\": [ { \"At\": \"PT0S\", \"Send\": { \"To\": \"jobs\", \"Count\": 3, "
            "\"MessageId\": \"job-{n}\" } } ]\n"
            "  }\n"
            "}\n");
        VERIFY_ALL_PASSED(report, 0);
    }

    void clockStartsAtWholeSecond() {
        auto scenario = parseScenario(R"({ "Scenario": { "Steps": [] } })");
        QVERIFY(scenario.ok());
        auto runner = ScenarioRunner::create(std::move(scenario).value());
        QVERIFY(runner.ok());
        QCOMPARE((*runner)->start() % 1000, 0);
        QVERIFY(qAbs((*runner)->start() - VirtualClock::realNow()) < 60000);
        QCOMPARE((*runner)->clock()->now(), (*runner)->start());
    }

    void stepsRunInAtOrderKeepingFileOrder() {
        auto scenario = parseScenario(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT2M", "Send": { "To": "jobs", "MessageId": "c" } },
            { "At": "PT1M", "Send": { "To": "jobs", "MessageId": "a" } },
            { "At": "PT1M", "Send": { "To": "jobs", "MessageId": "b" } },
            { "At": "PT0S", "Expect": { "Entity": "jobs", "Active": 0 } })"));
        QVERIFY(scenario.ok());
        QList<int> order;
        for (const ScenarioStep& step : scenario->steps)
            order << step.index;
        QCOMPARE(order, (QList<int>{3, 1, 2, 0}));
        QCOMPARE(scenario->steps.at(1).jsonPath, QStringLiteral("Scenario.Steps[1]"));
    }

    void malformedFilesAreRefusedWithTheirPath_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mentions");
        for (const auto& bad : hourglass::testing::malformedScenarios())
            QTest::newRow(bad.name) << bad.json << bad.exitCode << bad.mentions;
    }
    void malformedFilesAreRefusedWithTheirPath() {
        QFETCH(QByteArray, json);
        QFETCH(int, exitCode);
        QFETCH(QString, mentions);
        auto scenario = parseScenario(json);
        if (exitCode == 2) {
            QVERIFY(!scenario.ok());
            QCOMPARE(scenario.error().code, ErrorCode::InvalidArgument);
            QVERIFY2(scenario.error().description.contains(mentions),
                     qPrintable(scenario.error().description));
            return;
        }
        QVERIFY2(scenario.ok(), scenario.ok() ? "" : qPrintable(scenario.error().description));
        const auto report = runDocument(json);
        QVERIFY(report.has_value());
        QCOMPARE(report->failures.size(), 1);
        QVERIFY2(report->failures.first().line().contains(mentions),
                 qPrintable(report->failures.first().line()));
    }

    void unreadableFileIsRefused() {
        const auto scenario = loadScenarioFile(QStringLiteral("/nonexistent/scenario.json"));
        QVERIFY(!scenario.ok());
        QVERIFY(scenario.error().description.contains(QStringLiteral("cannot read")));
    }

    void expectErrorThatDoesNotHappenIsAFailure() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs" }, "ExpectError": "MessagingEntityNotFound" })"));
        QVERIFY(report.has_value());
        QCOMPARE(report->passed, 0);
        QCOMPARE(report->failures.size(), 1);
        const ExpectationFailure& failure = report->failures.first();
        QCOMPARE(failure.step, 0);
        QCOMPARE(failure.field, QStringLiteral("ExpectError"));
        QCOMPARE(failure.expected.toString(), QStringLiteral("MessagingEntityNotFound"));
        QCOMPARE(failure.actual.toString(), QStringLiteral("success"));
    }

    void expectErrorThatHappensPassesAndChangesNothing() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "MessageId": "a" } },
            { "At": "PT0S", "Create": { "Queue": { "Name": "jobs" } }, "ExpectError": "MessagingEntityAlreadyExists" },
            { "At": "PT0S", "Update": { "Entity": "jobs", "Properties": { "LockDuration": "PT1S" } }, "ExpectError": "InvalidArgument" },
            { "At": "PT0S", "Delete": { "Entity": "nothing" }, "ExpectError": "MessagingEntityNotFound" },
            { "At": "PT1S", "Expect": { "Entity": "jobs", "Active": 1 } })"));
        VERIFY_ALL_PASSED(report, 4);
    }

    // scenario-format.md: a well-formed value the engine refuses is handed to the engine, so
    // ExpectError can test the refusal; without ExpectError the step fails with the code.
    void stepValuesAreJudgedByTheEngine() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "TimeToLive": "PT0S" }, "ExpectError": "InvalidArgument" },
            { "At": "PT0S", "Create": { "Queue": { "Name": "q", "Properties": { "LockDuration": "PT10M" } } }, "ExpectError": "InvalidArgument" },
            { "At": "PT0S", "Create": { "Queue": { "Name": "bad name" } }, "ExpectError": "InvalidArgument" },
            { "At": "PT0S", "Update": { "Entity": "jobs", "Properties": { "AutoDeleteOnIdle": "PT1M" } }, "ExpectError": "InvalidArgument" },
            { "At": "PT1S", "Expect": { "Entity": "jobs", "Exists": true, "Active": 0 } },
            { "At": "PT1S", "Expect": { "Entity": "q", "Exists": false } })"));
        VERIFY_ALL_PASSED(report, 7);
        const auto refused = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "TimeToLive": "PT0S" } })"));
        QVERIFY(refused.has_value());
        QCOMPARE(refused->failures.size(), 1);
        QVERIFY2(refused->failures.first().line().contains(QStringLiteral("InvalidArgument")),
                 qPrintable(refused->failures.first().line()));
    }

    // scenario-format.md: the counts of a dead-letter queue's path are the queue's own.
    void expect_E1_deadLetterQueuePathCountsItsOwnMessages() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 4, "MessageId": "m-{n}" } },
            { "At": "PT0S", "Receive": { "From": "jobs", "Count": 3, "Receiver": "r", "Then": "DeadLetter" } },
            { "At": "PT1S", "Receive": { "From": "jobs/$deadletterqueue", "Receiver": "r", "Then": "Hold" } },
            { "At": "PT2S", "Expect": { "Entity": "jobs/$deadletterqueue", "Active": 2, "Locked": 1, "DeadLettered": 0 } },
            { "At": "PT2S", "Expect": { "Entity": "jobs", "Active": 1, "Locked": 0, "DeadLettered": 3 } })"));
        VERIFY_ALL_PASSED(report, 6);
    }

    void failedExpectationsNameFieldExpectedAndActual() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 2, "MessageId": "m-{n}" } },
            { "At": "PT1M", "Expect": { "Entity": "jobs", "Exists": true, "Active": 3, "Scheduled": 0,
                "DeadLetterReasons": { "TTLExpiredException": 1 },
                "Messages": [ { "MessageId": "m-1", "Where": "DeadLetter", "DeliveryCount": 0 },
                              { "MessageId": "m-9", "Where": "Gone", "State": "Active" } ] } })"));
        QVERIFY(report.has_value());
        QCOMPARE(report->passed, 4); // Exists, Scheduled, DeliveryCount, m-9 Where
        QStringList fields;
        for (const ExpectationFailure& failure : report->failures)
            fields << failure.field;
        QCOMPARE(fields, (QStringList{"Active", "DeadLetterReasons", "Messages[0].Where",
                                      "Messages[1].State"}));
        QCOMPARE(report->failures.at(0).expected.toInteger(), 3);
        QCOMPARE(report->failures.at(0).actual.toInteger(), 2);
        QCOMPARE(report->failures.at(0).step, 1);
        QCOMPARE(report->failures.at(2).expected.toString(), QStringLiteral("DeadLetter"));
        QCOMPARE(report->failures.at(2).actual.toString(), QStringLiteral("Entity"));
        const QJsonObject json = report->toJson();
        const QJsonObject expectations = json.value("Expectations").toObject();
        QCOMPARE(expectations.value("Failed").toInt(), 4);
        const QJsonObject first = expectations.value("Failures").toArray().at(0).toObject();
        QCOMPARE(first.keys(), (QStringList{"Actual", "Expected", "Field", "Step"}));
        QCOMPARE(first.value("Step").toInt(), 1);
    }

    // T2: a scheduled message is enqueued at its scheduled time and expires TTL after that.
    void send_T2_scheduledEnqueueTimeAndCancel() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "MessageId": "s-{n}", "Count": 2, "TimeToLive": "PT10M", "ScheduledEnqueueTime": "PT5M" } },
            { "At": "PT1M", "Expect": { "Entity": "jobs", "Active": 0, "Scheduled": 2,
                "Messages": [ { "MessageId": "s-1", "State": "Scheduled", "EnqueuedAt": "PT5M", "ExpiresAt": "PT15M" } ] } },
            { "At": "PT2M", "CancelScheduled": { "Entity": "jobs", "MessageId": "s-2" } },
            { "At": "PT2M", "CancelScheduled": { "Entity": "jobs", "MessageId": "s-2" }, "ExpectError": "MessageNotFound" },
            { "At": "PT6M", "Expect": { "Entity": "jobs", "Active": 1, "Scheduled": 0,
                "Messages": [ { "MessageId": "s-1", "Where": "Entity", "State": "Active", "EnqueuedAt": "PT5M", "ExpiresAt": "PT15M" },
                              { "MessageId": "s-2", "Where": "Gone" } ] } },
            { "At": "PT15M", "Expect": { "Entity": "jobs", "Active": 0, "DeadLettered": 0,
                "Messages": [ { "MessageId": "s-1", "Where": "Gone" } ] } })"));
        VERIFY_ALL_PASSED(report, 16);
    }

    // {n} becomes 1..Count in every string, properties included.
    void send_substitutesNInEveryString() {
        auto scenario = parseScenario(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 3, "MessageId": "id-{n}", "Body": "body {n}",
              "Subject": "subject {n}", "CorrelationId": "c{n}", "ContentType": "text/{n}", "ReplyTo": "r{n}",
              "ToAddress": "to{n}", "SessionId": "s{n}", "ReplyToSessionId": "rs{n}",
              "Properties": { "Index": "{n}", "Key{n}": true, "Number": 5, "Ratio": 0.5 } } })"));
        QVERIFY(scenario.ok());
        ScenarioRunOptions options;
        options.start = kTestStart;
        auto runner = ScenarioRunner::create(std::move(scenario).value(), options);
        QVERIFY(runner.ok());
        const ScenarioReport report = (*runner)->run();
        QVERIFY2(report.failures.isEmpty(), qPrintable(failuresText(report)));
        const auto messages = (*runner)->broker().listMessages("jobs", 0, 10, Broker::Bodies::With);
        QVERIFY(messages.ok());
        QCOMPARE(messages->size(), 3);
        for (int n = 1; n <= 3; ++n) {
            const MessageView& m = messages->at(n - 1);
            const QString s = QString::number(n);
            QCOMPARE(m.messageId, "id-" + s);
            QCOMPARE(m.body, ("body " + s).toUtf8());
            QCOMPARE(m.subject, "subject " + s);
            QCOMPARE(m.correlationId, "c" + s);
            QCOMPARE(m.contentType, "text/" + s);
            QCOMPARE(m.replyTo, "r" + s);
            QCOMPARE(m.to, "to" + s);
            QCOMPARE(m.sessionId, "s" + s);
            QCOMPARE(m.replyToSessionId, "rs" + s);
            QCOMPARE(m.applicationProperties.value("Index").toString(), s);
            QCOMPARE(m.applicationProperties.value("Key" + s).toBool(), true);
            QCOMPARE(m.applicationProperties.value("Number").toLongLong(), 5);
            QCOMPARE(m.applicationProperties.value("Ratio").toDouble(), 0.5);
        }
    }

    // L8: defer, then receive by message id or sequence number; L7: dead-letter with a reason.
    void receive_L7_L8_deferAndDeadLetter() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 3, "MessageId": "m-{n}" } },
            { "At": "PT1M", "Receive": { "From": "jobs", "Count": 2, "Receiver": "w", "Then": "Defer" } },
            { "At": "PT1M", "Receive": { "From": "jobs", "Receiver": "w", "Then": "DeadLetter", "Reason": "Invalid", "Description": "no customer" } },
            { "At": "PT2M", "Expect": { "Entity": "jobs", "Active": 0, "Deferred": 2, "DeadLettered": 1,
                "DeadLetterReasons": { "Invalid": 1 },
                "Messages": [ { "MessageId": "m-1", "State": "Deferred", "DeliveryCount": 1 },
                              { "MessageId": "m-3", "Where": "DeadLetter", "DeadLetterReason": "Invalid" } ] } },
            { "At": "PT2M", "ReceiveDeferred": { "From": "jobs", "MessageId": "m-1", "Receiver": "w" } },
            { "At": "PT2M", "Expect": { "Entity": "jobs", "Deferred": 1, "Locked": 1 } },
            { "At": "PT2M", "Settle": { "Receiver": "w", "MessageId": "m-1", "Action": "Complete" } },
            { "At": "PT2M", "ReceiveDeferred": { "From": "jobs", "SequenceNumber": 2, "Receiver": "w", "Then": "Complete" } },
            { "At": "PT2M", "ReceiveDeferred": { "From": "jobs", "MessageId": "m-2" }, "ExpectError": "MessageNotFound" },
            { "At": "PT3M", "Receive": { "From": "jobs/$deadletterqueue", "Receiver": "ops", "Then": "Hold" } },
            { "At": "PT3M", "Settle": { "Receiver": "ops", "MessageId": "m-3", "Action": "DeadLetter", "Reason": "again" }, "ExpectError": "InvalidArgument" },
            { "At": "PT3M", "Settle": { "Receiver": "ops", "MessageId": "m-3", "Action": "Complete" } },
            { "At": "PT3M", "Expect": { "Entity": "jobs", "Active": 0, "Deferred": 0, "Locked": 0, "DeadLettered": 0 } })"));
        VERIFY_ALL_PASSED(report, 16);
    }

    // L9: a lock is the receiver's own; a restart (D2) loses every lock and the message is
    // receivable again; L10: renew extends the lock.
    void settle_L9_L10_D2_locksBelongToReceiverAndDieOnRestart() {
        const auto report = runDocument(
            scenarioWith(R"({ "Name": "jobs", "Properties": { "LockDuration": "PT30S" } })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 2, "MessageId": "m-{n}" } },
            { "At": "PT0S", "Receive": { "From": "jobs", "Receiver": "a", "Then": "Hold" } },
            { "At": "PT0S", "Settle": { "Receiver": "b", "MessageId": "m-1", "Action": "Complete" }, "ExpectError": "MessageLockLost" },
            { "At": "PT0S", "Settle": { "Receiver": "b", "MessageId": "m-2", "Action": "Complete" }, "ExpectError": "MessageLockLost" },
            { "At": "PT20S", "Settle": { "Receiver": "a", "MessageId": "m-1", "Action": "RenewLock" } },
            { "At": "PT40S", "Expect": { "Entity": "jobs", "Locked": 1, "Messages": [ { "MessageId": "m-1", "State": "Locked" } ] } },
            { "At": "PT45S", "Restart": {} },
            { "At": "PT45S", "Expect": { "Entity": "jobs", "Active": 2, "Locked": 0 } },
            { "At": "PT45S", "Settle": { "Receiver": "a", "MessageId": "m-1", "Action": "Complete" }, "ExpectError": "MessageLockLost" },
            { "At": "PT46S", "Receive": { "From": "jobs", "Count": 2, "Receiver": "a", "Then": "Complete" } },
            { "At": "PT47S", "Expect": { "Entity": "jobs", "Active": 0, "Locked": 0 } })"));
        VERIFY_ALL_PASSED(report, 9);
    }

    // S1-S6 as scenario steps: AcceptSession (named or next available), Receive and
    // ReceiveDeferred through the session, SessionState, ReleaseSession, and the Sessions
    // expectation; a session lock runs out, a restart loses one, the state stays.
    void sessions_S1_S6_sessionStepsAndExpectations() {
        const auto report = runDocument(scenarioWith(
            R"({ "Name": "orders", "Properties": { "RequiresSession": true, "LockDuration": "PT30S" } })",
            "", R"(
            { "At": "PT0S", "Send": { "To": "orders", "Count": 3, "MessageId": "a-{n}", "SessionId": "A" } },
            { "At": "PT0S", "Send": { "To": "orders", "MessageId": "b-1", "SessionId": "B" } },
            { "At": "PT0S", "Send": { "To": "orders", "MessageId": "x" }, "ExpectError": "InvalidArgument" },
            { "At": "PT0S", "Receive": { "From": "orders", "Receiver": "r" }, "ExpectError": "InvalidArgument" },
            { "At": "PT1S", "AcceptSession": { "From": "orders", "Receiver": "r" } },
            { "At": "PT1S", "AcceptSession": { "From": "orders", "SessionId": "A", "Receiver": "s" }, "ExpectError": "SessionCannotBeLocked" },
            { "At": "PT2S", "Receive": { "From": "orders", "Count": 2, "Receiver": "r", "Then": "Complete" } },
            { "At": "PT2S", "Receive": { "From": "orders", "Receiver": "r", "Then": "Defer" } },
            { "At": "PT3S", "SessionState": { "From": "orders", "Receiver": "r", "State": "step-3" } },
            { "At": "PT3S", "Expect": { "Entity": "orders", "Sessions": {
                "A": { "Active": 0, "LockedBy": "r", "State": "step-3" },
                "B": { "Active": 1, "LockedBy": null, "State": null } } } },
            { "At": "PT4S", "ReceiveDeferred": { "From": "orders", "MessageId": "a-3", "Receiver": "r", "Then": "Complete" } },
            { "At": "PT4S", "ReleaseSession": { "From": "orders", "Receiver": "r" } },
            { "At": "PT5S", "Expect": { "Entity": "orders", "Sessions": { "A": { "Active": 0, "LockedBy": null, "State": "step-3" } } } },
            { "At": "PT5S", "AcceptSession": { "From": "orders", "Receiver": "s" } },
            { "At": "PT40S", "Expect": { "Entity": "orders", "Sessions": { "B": { "LockedBy": null } } } },
            { "At": "PT40S", "SessionState": { "From": "orders", "Receiver": "s", "State": null }, "ExpectError": "SessionLockLost" },
            { "At": "PT41S", "AcceptSession": { "From": "orders", "SessionId": "A", "Receiver": "t" } },
            { "At": "PT41S", "Restart": {} },
            { "At": "PT41S", "Expect": { "Entity": "orders", "Sessions": { "A": { "Active": 0, "LockedBy": null, "State": "step-3" } } } },
            { "At": "PT41S", "SessionState": { "From": "orders", "Receiver": "t", "State": "x" }, "ExpectError": "SessionLockLost" })"));
        VERIFY_ALL_PASSED(report, 18);
    }

    void receiveAndDeleteAndPeek() {
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 3 } },
            { "At": "PT1S", "Peek": { "From": "jobs", "Count": 3 } },
            { "At": "PT1S", "Peek": { "From": "jobs", "FromSequenceNumber": 2 } },
            { "At": "PT2S", "Receive": { "From": "jobs", "Count": 2, "Mode": "ReceiveAndDelete" } },
            { "At": "PT3S", "Expect": { "Entity": "jobs", "Active": 1, "Locked": 0 } },
            { "At": "PT3S", "Peek": { "From": "nothing" }, "ExpectError": "MessagingEntityNotFound" })"));
        VERIFY_ALL_PASSED(report, 3);
    }

    // R1, R2, E4: topics, subscriptions, rules, updates and deletes as steps.
    void entities_R1_createUpdateDeleteAndRules() {
        const auto report = runDocument(
            scenarioWith("", R"({ "Name": "events", "Subscriptions": [ { "Name": "all" } ] })", R"(
            { "At": "PT0S", "Create": { "Subscription": { "Topic": "events", "Name": "eu",
                "Rules": [ { "Name": "eu-only", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Properties": { "region": "eu" } } } } ] } } },
            { "At": "PT0S", "Create": { "Topic": { "Name": "audit", "Subscriptions": [ { "Name": "keep", "Properties": { "MaxDeliveryCount": 2 } } ] } } },
            { "At": "PT0S", "Create": { "Queue": { "Name": "archive", "Properties": { "DefaultMessageTimeToLive": "PT1H" } } } },
            { "At": "PT0S", "Create": { "Subscription": { "Topic": "events", "Name": "forwarded", "Properties": { "ForwardTo": "archive" } } } },
            { "At": "PT1S", "Send": { "To": "events", "MessageId": "e-1", "Properties": { "region": "eu" } } },
            { "At": "PT1S", "Send": { "To": "events", "MessageId": "e-2", "Properties": { "region": "us" } } },
            { "At": "PT2S", "Expect": { "Entity": "events/Subscriptions/all", "Active": 2 } },
            { "At": "PT2S", "Expect": { "Entity": "events/Subscriptions/eu", "Active": 1, "Messages": [ { "MessageId": "e-2", "Where": "Gone" } ] } },
            { "At": "PT2S", "Expect": { "Entity": "archive", "Active": 2 } },
            { "At": "PT3S", "RemoveRule": { "Entity": "events/Subscriptions/eu", "Name": "eu-only" } },
            { "At": "PT3S", "AddRule": { "Entity": "events/Subscriptions/eu", "Rule": { "Name": "us", "Properties": { "FilterType": "Correlation", "CorrelationFilter": { "Properties": { "region": "us" } } } } } },
            { "At": "PT3S", "AddRule": { "Entity": "events/Subscriptions/eu", "Rule": { "Name": "us", "Properties": { "FilterType": "True" } } }, "ExpectError": "MessagingEntityAlreadyExists" },
            { "At": "PT4S", "Send": { "To": "events", "MessageId": "e-3", "Properties": { "region": "us" } } },
            { "At": "PT5S", "Expect": { "Entity": "events/Subscriptions/eu", "Active": 2 } },
            { "At": "PT6S", "Update": { "Entity": "events/Subscriptions/all", "Properties": { "Status": "ReceiveDisabled" } } },
            { "At": "PT6S", "Receive": { "From": "events/Subscriptions/all" }, "ExpectError": "MessagingEntityDisabled" },
            { "At": "PT7S", "Delete": { "Entity": "events/Subscriptions/all" } },
            { "At": "PT8S", "Expect": { "Entity": "events/Subscriptions/all", "Exists": false } },
            { "At": "PT8S", "Expect": { "Entity": "audit/Subscriptions/keep", "Exists": true, "Active": 0 } })"));
        VERIFY_ALL_PASSED(report, 10);
    }

    void cannotStartWhenTheConfigFails() {
        // The forward target does not exist: the config cannot be applied; the error has a path.
        auto scenario = parseScenario(scenarioWith(
            R"({ "Name": "jobs", "Properties": { "ForwardTo": "missing" } })", "", ""));
        QVERIFY(scenario.ok());
        auto runner = ScenarioRunner::create(std::move(scenario).value());
        QVERIFY(!runner.ok());
        QCOMPARE(runner.error().code, ErrorCode::MessagingEntityNotFound);
        QVERIFY2(runner.error().description.startsWith("UserConfig.Namespaces[0].Queues[0]: "),
                 qPrintable(runner.error().description));
    }

    void givenDatabaseKeepsTheState() {
        QTemporaryDir dir;
        ScenarioRunOptions options;
        options.databasePath = dir.filePath("kept.db");
        options.durability = Durability::ProcessCrashSafe;
        const auto report = runDocument(scenarioWith(R"({ "Name": "jobs" })", "", R"(
            { "At": "PT0S", "Send": { "To": "jobs", "Count": 4 } })"),
                                        options);
        VERIFY_ALL_PASSED(report, 0);
        BrokerOptions brokerOptions;
        brokerOptions.databasePath = options.databasePath;
        brokerOptions.clock = std::make_shared<VirtualClock>(kTestStart);
        auto broker = Broker::open(brokerOptions);
        QVERIFY(broker.ok());
        const auto counts = (*broker)->counts("jobs");
        QVERIFY(counts.ok());
        QCOMPARE(counts->active, 4);
    }
};

QTEST_GUILESS_MAIN(ScenarioRunnerTest)
#include "tst_scenario_runner.moc"
