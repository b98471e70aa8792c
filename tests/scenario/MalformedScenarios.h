#pragma once
// Scenario files that must not pass, shared by the runner test (through the API) and the command
// line test (through the binary's exit code and output). Each names the JSON path (or line) the
// complaint must point at. A well-formed value that the engine refuses (a bad name, a bound, an
// SQL filter) is no reason to refuse the file: its step fails when it runs (exit 1).

#include <QByteArray>
#include <QList>
#include <QString>

namespace hourglass::testing {

struct MalformedScenario {
    const char* name;
    QByteArray json;
    int exitCode;     // 2: the file is invalid; 1: it runs but an expectation fails
    QString mentions; // text the complaint must contain
};

inline QByteArray withSteps(const QByteArray& steps) {
    return R"({ "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "jobs" } ] } ] },
               "Scenario": { "Title": "t", "Steps": [ )" +
           steps + " ] } }";
}

inline QList<MalformedScenario> malformedScenarios() {
    return {
        {"badJson", R"({ "Scenario": { "Steps": [ { "At": "PT0S", )", 2,
         QStringLiteral("invalid JSON at line 1")},
        {"notAnObject", "[1, 2]", 2, QStringLiteral("must be a JSON object")},
        {"missingScenario", R"({ "UserConfig": { "Namespaces": [] } })", 2,
         QStringLiteral("Scenario: missing")},
        {"unknownTopLevel", R"({ "Scenario": { "Steps": [] }, "Extra": 1 })", 2,
         QStringLiteral("Extra: unknown member")},
        {"unknownStep", withSteps(R"({ "At": "PT0S", "Sned": { "To": "jobs" } })"), 2,
         QStringLiteral("Scenario.Steps[0].Sned: unknown step")},
        {"noStep", withSteps(R"({ "At": "PT0S" })"), 2,
         QStringLiteral("Scenario.Steps[0]: no step here")},
        {"twoSteps",
         withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs" }, "Peek": { "From": "jobs" } })"), 2,
         QStringLiteral("a step does one thing")},
        {"missingAt", withSteps(R"({ "Send": { "To": "jobs" } })"), 2,
         QStringLiteral("Scenario.Steps[0].At: missing")},
        {"badAt", withSteps(R"({ "At": "10 minutes", "Send": { "To": "jobs" } })"), 2,
         QStringLiteral("Scenario.Steps[0].At: '10 minutes' is not an ISO-8601 duration")},
        {"badDuration", withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs" } },
                      { "At": "PT1S", "Send": { "To": "jobs" } },
                      { "At": "PT2S", "Send": { "To": "jobs" } },
                      { "At": "PT3S", "Send": { "To": "jobs", "TimeToLive": "PT" } })"),
         2, QStringLiteral("Scenario.Steps[3].Send.TimeToLive: 'PT' is not an ISO-8601 duration")},
        {"durationAsNumber",
         withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs", "TimeToLive": 60 } })"), 2,
         QStringLiteral("Scenario.Steps[0].Send.TimeToLive: expected an ISO-8601 duration")},
        {"missingTo", withSteps(R"({ "At": "PT0S", "Send": { "MessageId": "m" } })"), 2,
         QStringLiteral("Scenario.Steps[0].Send.To: missing")},
        {"unknownSendMember",
         withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs", "TimeToLife": "PT1M" } })"), 2,
         QStringLiteral("Scenario.Steps[0].Send.TimeToLife: unknown member")},
        {"zeroCount", withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs", "Count": 0 } })"), 2,
         QStringLiteral("Scenario.Steps[0].Send.Count")},
        {"propertyNotScalar",
         withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs", "Properties": { "a": [1] } } })"), 2,
         QStringLiteral("Scenario.Steps[0].Send.Properties.a")},
        {"badReceiveMode",
         withSteps(R"({ "At": "PT0S", "Receive": { "From": "jobs", "Mode": "Peek" } })"), 2,
         QStringLiteral("Scenario.Steps[0].Receive.Mode: 'Peek' is not one of")},
        {"thenWithReceiveAndDelete",
         withSteps(
             R"({ "At": "PT0S", "Receive": { "From": "jobs", "Mode": "ReceiveAndDelete", "Then": "Complete" } })"),
         2, QStringLiteral("Scenario.Steps[0].Receive.Then")},
        {"sessionStateWithoutState",
         withSteps(R"({ "At": "PT0S", "SessionState": { "From": "jobs", "Receiver": "r" } })"), 2,
         QStringLiteral("Scenario.Steps[0].SessionState.State: missing")},
        {"sessionExpectationNotAnObject",
         withSteps(R"({ "At": "PT0S", "Expect": { "Entity": "jobs", "Sessions": { "A": 1 } } })"),
         2, QStringLiteral("Scenario.Steps[0].Expect.Sessions.A: expected an object")},
        {"sessionExpectationUnknownField",
         withSteps(
             R"({ "At": "PT0S", "Expect": { "Entity": "jobs", "Sessions": { "A": { "Locked": 1 } } } })"),
         2, QStringLiteral("Scenario.Steps[0].Expect.Sessions.A.Locked: unknown member")},
        {"settleWithoutAction",
         withSteps(R"({ "At": "PT0S", "Settle": { "Receiver": "r", "MessageId": "m" } })"), 2,
         QStringLiteral("Scenario.Steps[0].Settle.Action: missing")},
        {"reasonWithoutDeadLetter",
         withSteps(
             R"({ "At": "PT0S", "Settle": { "MessageId": "m", "Action": "Abandon", "Reason": "x" } })"),
         2, QStringLiteral("Scenario.Steps[0].Settle.Reason")},
        {"deferredNeedsSelector",
         withSteps(R"({ "At": "PT0S", "ReceiveDeferred": { "From": "jobs" } })"), 2,
         QStringLiteral(
             "Scenario.Steps[0].ReceiveDeferred: give either MessageId or SequenceNumber")},
        {"badEntityNameInCreate",
         withSteps(R"({ "At": "PT0S", "Create": { "Queue": { "Name": "bad name" } } })"), 1,
         QStringLiteral("Scenario.Steps[0].Create.Queue: The entity path 'bad name' contains ' '")},
        {"badEntityNameInUserConfig",
         R"({ "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "ok" }, { "Name": "/bad" } ] } ] },
              "Scenario": { "Steps": [] } })",
         2, QStringLiteral("UserConfig.Namespaces[0].Queues[1].Name")},
        {"badSubscriptionName",
         withSteps(
             R"({ "At": "PT0S", "Create": { "Subscription": { "Topic": "t", "Name": "a/b" } } })"),
         1,
         QStringLiteral("InvalidArgument: Scenario.Steps[0].Create.Subscription: The entity path")},
        {"badPropertyBound",
         withSteps(
             R"({ "At": "PT0S", "Create": { "Queue": { "Name": "q", "Properties": { "LockDuration": "PT10M" } } } })"),
         1, QStringLiteral("LockDuration must be between")},
        {"unknownProperty",
         withSteps(
             R"({ "At": "PT0S", "Update": { "Entity": "jobs", "Properties": { "LockDuratoin": "PT1M" } } })"),
         2, QStringLiteral("Scenario.Steps[0].Update.Properties.LockDuratoin: unknown property")},
        {"sqlRule",
         withSteps(
             R"({ "At": "PT0S", "AddRule": { "Entity": "t/Subscriptions/s", "Rule": { "Name": "r", "Properties": { "FilterType": "Sql", "SqlFilter": { "SqlExpression": "a == 1" } } } } })"),
         1,
         QStringLiteral("There was an error parsing the SQL expression. [Token line=1, column=")},
        {"unknownExpectErrorCode",
         withSteps(R"({ "At": "PT0S", "Send": { "To": "missing" }, "ExpectError": "NotFound" })"),
         2, QStringLiteral("Scenario.Steps[0].ExpectError: 'NotFound' is not an error code")},
        {"expectErrorOnExpect",
         withSteps(
             R"({ "At": "PT0S", "Expect": { "Entity": "jobs" }, "ExpectError": "MessageNotFound" })"),
         2, QStringLiteral("Scenario.Steps[0].ExpectError")},
        {"badExpectField",
         withSteps(R"({ "At": "PT0S", "Expect": { "Entity": "jobs", "Actvie": 1 } })"), 2,
         QStringLiteral("Scenario.Steps[0].Expect.Actvie: unknown member")},
        {"badWhere",
         withSteps(
             R"({ "At": "PT0S", "Expect": { "Entity": "jobs", "Messages": [ { "MessageId": "m", "Where": "Queue" } ] } })"),
         2, QStringLiteral("Scenario.Steps[0].Expect.Messages[0].Where")},
        {"expectErrorThatDoesNotHappen",
         withSteps(
             R"({ "At": "PT0S", "Send": { "To": "jobs", "MessageId": "m" }, "ExpectError": "MessagingEntityNotFound" })"),
         1, QStringLiteral("Scenario.Steps[0]")},
        {"expectErrorWithAnotherCode",
         withSteps(
             R"({ "At": "PT0S", "Send": { "To": "nowhere" }, "ExpectError": "QuotaExceeded" })"),
         1, QStringLiteral("MessagingEntityNotFound")},
        {"failingExpectation", withSteps(R"({ "At": "PT0S", "Send": { "To": "jobs", "Count": 2 } },
                      { "At": "PT1M", "Expect": { "Entity": "jobs", "Active": 5 } })"),
         1,
         QStringLiteral("Scenario.Steps[1] (At PT1M, Expect jobs): Active: expected 5, actual 2")},
        {"unexpectedError", withSteps(R"({ "At": "PT0S", "Send": { "To": "nowhere" } })"), 1,
         QStringLiteral("Scenario.Steps[0] (At PT0S, Send nowhere): Error")},
    };
}

} // namespace hourglass::testing
