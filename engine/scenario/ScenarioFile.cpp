#include "hourglass/scenario/ScenarioFile.h"
#include "EmulatorConfigParsers.h"

#include "ScenarioStepParsers.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <array>

namespace hourglass {

namespace {

using namespace scenario_parsing;

// The step names as written in files, in the order of the StepAction alternatives, so that a
// name's index is its alternative's index.
constexpr std::array<const char*, 17> kStepNames{
    "Send",         "Receive",      "ReceiveDeferred", "Settle",        "CancelScheduled",
    "Create",       "Update",       "Delete",          "AddRule",       "RemoveRule",
    "Peek",         "Restart",      "Expect",          "AcceptSession", "ReleaseSession",
    "SessionState", "AdvanceClock",
};
static_assert(std::variant_size_v<StepAction> == kStepNames.size());

template <typename Step> int typeIndex() {
    return static_cast<int>(StepAction(Step{}).index());
}

QString stepNameList() {
    QStringList names;
    for (const char* name : kStepNames)
        names << QLatin1String(name);
    return names.join(QStringLiteral(", "));
}

// The body of step type `type` (an index into kStepNames), read from `value`.
StepAction parseStepBody(int type, const QJsonValue& value, const QString& path,
                         const StepContext& context, ParseError& error) {
    if (type == typeIndex<RestartStep>()) { // no arguments: {}, true or null
        if (!(value.isNull() || value.isBool() || (value.isObject() && value.toObject().isEmpty())))
            error.set(path, QStringLiteral("Restart takes no arguments; write {}"));
        return RestartStep{};
    }
    if (!value.isObject()) {
        error.set(path, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
        return RestartStep{};
    }
    JsonReader reader(value.toObject(), path, error);
    StepAction action = RestartStep{};
    if (type == typeIndex<SendStep>())
        action = parseSend(reader);
    else if (type == typeIndex<ReceiveStep>())
        action = parseReceive(reader);
    else if (type == typeIndex<ReceiveDeferredStep>())
        action = parseReceiveDeferred(reader);
    else if (type == typeIndex<SettleStep>())
        action = parseSettle(reader);
    else if (type == typeIndex<CancelScheduledStep>())
        action = parseCancelScheduled(reader);
    else if (type == typeIndex<CreateStep>())
        action = parseCreate(reader, context);
    else if (type == typeIndex<UpdateStep>())
        action = parseUpdate(reader, context);
    else if (type == typeIndex<DeleteStep>())
        action = parseDelete(reader);
    else if (type == typeIndex<AddRuleStep>())
        action = parseAddRule(reader);
    else if (type == typeIndex<RemoveRuleStep>())
        action = parseRemoveRule(reader);
    else if (type == typeIndex<PeekStep>())
        action = parsePeek(reader);
    else if (type == typeIndex<AcceptSessionStep>())
        action = parseAcceptSession(reader);
    else if (type == typeIndex<ReleaseSessionStep>())
        action = parseReleaseSession(reader);
    else if (type == typeIndex<SessionStateStep>())
        action = parseSessionState(reader);
    else if (type == typeIndex<AdvanceClockStep>())
        action = parseAdvanceClock(reader);
    else
        action = parseExpect(reader);
    reader.refuseUnread();
    return action;
}

ScenarioStep parseStep(const QJsonObject& json, int index, const QString& path, Tier tier,
                       ParseError& error) {
    ScenarioStep step;
    step.index = index;
    step.jsonPath = path;
    JsonReader reader(json, path, error);
    step.at = reader.duration(QStringLiteral("At"), Need::Required).value_or(0);
    if (const auto code = reader.string(QStringLiteral("ExpectError"))) {
        step.expectError = errorCodeFromName(*code);
        if (!step.expectError)
            reader.fail(QStringLiteral("ExpectError"),
                        QStringLiteral("'%1' is not an error code (one of "
                                       "MessagingEntityNotFound, MessagingEntityAlreadyExists, "
                                       "MessagingEntityDisabled, MessageSizeExceeded, "
                                       "MessageLockLost, MessageNotFound, QuotaExceeded, "
                                       "InvalidArgument, ServiceBusy, GeneralError)")
                            .arg(*code));
    }

    int type = -1;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() == QLatin1String("At") || it.key() == QLatin1String("ExpectError"))
            continue;
        const auto found = std::find_if(kStepNames.begin(), kStepNames.end(), [&](const char* n) {
            return it.key() == QLatin1String(n);
        });
        if (found == kStepNames.end()) {
            reader.fail(
                it.key(),
                QStringLiteral("unknown step or member (steps are %1)").arg(stepNameList()));
            return step;
        }
        if (type >= 0) {
            reader.fail(it.key(), QStringLiteral("a step does one thing; this one already has %1")
                                      .arg(QLatin1String(kStepNames[type])));
            return step;
        }
        type = static_cast<int>(found - kStepNames.begin());
    }
    if (type < 0) {
        error.set(path, QStringLiteral("no step here: give one of %1").arg(stepNameList()));
        return step;
    }
    const QString name = QLatin1String(kStepNames[type]);
    if (type == typeIndex<ExpectStep>() && step.expectError) {
        reader.fail(QStringLiteral("ExpectError"), QStringLiteral("an Expect step cannot fail"));
        return step;
    }
    const StepContext context{tier};
    step.action = parseStepBody(type, json.value(name), memberPath(path, name), context, error);
    return step;
}

Error invalidJson(const QByteArray& document, const QJsonParseError& parseError) {
    // QJsonParseError gives a byte offset; people look for lines.
    const QByteArray before = document.left(parseError.offset);
    const auto line = before.count('\n') + 1;
    const auto column = parseError.offset - (before.lastIndexOf('\n') + 1) + 1;
    return makeError(ErrorCode::InvalidArgument, QStringLiteral("invalid JSON at line %1, column "
                                                                "%2: %3")
                                                     .arg(line)
                                                     .arg(column)
                                                     .arg(parseError.errorString()));
}

} // namespace

QString messagePlaceName(MessagePlace place) {
    switch (place) {
    case MessagePlace::Entity:
        return QStringLiteral("Entity");
    case MessagePlace::DeadLetter:
        return QStringLiteral("DeadLetter");
    case MessagePlace::Gone:
        return QStringLiteral("Gone");
    }
    return QStringLiteral("Gone");
}

QString stepName(const StepAction& action) {
    return QLatin1String(kStepNames.at(action.index()));
}

Result<Scenario> parseScenario(const QByteArray& document) {
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(document, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalidJson(document, parseError);
    if (!json.isObject())
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("a scenario must be a JSON object with UserConfig and "
                                        "Scenario members"));
    ParseError error;
    Scenario scenario;
    JsonReader root(json.object(), {}, error);
    if (const auto userConfig = root.object(QStringLiteral("UserConfig")))
        scenario.userConfig = parseUserConfig(*userConfig, QStringLiteral("UserConfig"), error);
    const auto body = root.object(QStringLiteral("Scenario"), Need::Required);
    root.refuseUnread();
    if (error.failed())
        return error.toError();

    const Tier tier = scenario.userConfig.namespaces.isEmpty()
                          ? Tier::Standard
                          : scenario.userConfig.namespaces.first().tier;
    JsonReader reader(*body, QStringLiteral("Scenario"), error);
    scenario.title = reader.string(QStringLiteral("Title")).value_or(QString());
    scenario.description = reader.string(QStringLiteral("Description")).value_or(QString());
    const auto steps = reader.array(QStringLiteral("Steps"), Need::Required);
    reader.refuseUnread();
    if (steps) {
        const QString stepsPath = reader.pathOf(QStringLiteral("Steps"));
        for (qsizetype i = 0; i < steps->size() && !error.failed(); ++i) {
            const QString path = indexPath(stepsPath, i);
            const QJsonValue value = steps->at(i);
            if (!value.isObject()) {
                error.set(path,
                          QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
                break;
            }
            scenario.steps.append(
                parseStep(value.toObject(), static_cast<int>(i), path, tier, error));
        }
    }
    if (error.failed())
        return error.toError();
    std::stable_sort(scenario.steps.begin(), scenario.steps.end(),
                     [](const ScenarioStep& a, const ScenarioStep& b) { return a.at < b.at; });
    return scenario;
}

Result<Scenario> loadScenarioFile(const QString& fileName) {
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("cannot read %1: %2").arg(fileName, file.errorString()));
    return parseScenario(file.readAll());
}

} // namespace hourglass
