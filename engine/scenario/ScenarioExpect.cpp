#include "ScenarioExpect.h"

#include "MessageLookup.h"

namespace hourglass {

namespace {

QJsonValue errorValue(const Error& error) {
    return QStringLiteral("%1: %2").arg(errorCodeName(error.code), error.description);
}

QJsonObject reasonsToJson(const QMap<QString, qint64>& reasons) {
    QJsonObject json;
    for (auto it = reasons.begin(); it != reasons.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

QJsonValue instantAsOffset(Instant instant, Instant start) {
    if (instant == kNever)
        return QStringLiteral("Never");
    return formatOffset(instant - start);
}

QJsonValue expectedOffset(Millis offset) {
    if (offset == kInfinite)
        return QStringLiteral("Never");
    return formatOffset(offset);
}

void checkCounts(const Broker& broker, const ExpectStep& expect, ExpectationRecorder& recorder) {
    const std::pair<const char*, std::optional<qint64>> wanted[] = {
        {"Active", expect.active},
        {"Scheduled", expect.scheduled},
        {"Deferred", expect.deferred},
        {"Locked", expect.locked},
        {"DeadLettered", expect.deadLettered},
    };
    bool any = false;
    for (const auto& entry : wanted)
        any = any || entry.second.has_value();
    if (!any)
        return;
    const auto counts = broker.counts(expect.entity);
    for (const auto& [field, value] : wanted) {
        if (!value)
            continue;
        if (!counts) {
            recorder.fail(QLatin1String(field), *value, errorValue(counts.error()));
            continue;
        }
        qint64 actual = 0;
        const QLatin1String name(field);
        if (name == QLatin1String("Active"))
            actual = counts->active;
        else if (name == QLatin1String("Scheduled"))
            actual = counts->scheduled;
        else if (name == QLatin1String("Deferred"))
            actual = counts->deferred;
        else if (name == QLatin1String("Locked"))
            actual = counts->locked;
        else
            actual = counts->deadLettered;
        recorder.check(name, *value, actual);
    }
}

// The reason a dead-lettered message carries: the system property, or for a message forwarded
// out of a dead-letter queue, the application property it keeps (L7).
QString deadLetterReasonOf(const MessageView& view) {
    if (!view.deadLetterReason.isEmpty())
        return view.deadLetterReason;
    return view.applicationProperties.value(QStringLiteral("DeadLetterReason")).toString();
}

void checkMessage(const Broker& broker, Instant start, const QString& entity, qsizetype index,
                  const ExpectedMessage& expected, ExpectationRecorder& recorder) {
    const QString prefix = QStringLiteral("Messages[%1].").arg(index);
    const QString context = QStringLiteral("message %1").arg(expected.messageId);
    const auto found = findMessage(broker, entity, expected.messageId, expected.where);
    const auto field = [&](const char* name) { return prefix + QLatin1String(name); };
    const auto check = [&](const char* name, const QJsonValue& want, const QJsonValue& actual) {
        if (want == actual)
            recorder.pass();
        else
            recorder.fail(field(name), want, actual, context);
    };

    const MessagePlace place = found ? found->place : MessagePlace::Gone;
    if (expected.where)
        check("Where", messagePlaceName(*expected.where), messagePlaceName(place));
    if (!found) {
        // Nothing else can be compared; each asked-for field fails against "gone".
        const QJsonValue gone = QStringLiteral("(gone)");
        if (expected.state)
            check("State", *expected.state, gone);
        if (expected.deliveryCount)
            check("DeliveryCount", *expected.deliveryCount, gone);
        if (expected.expiresAt)
            check("ExpiresAt", expectedOffset(*expected.expiresAt), gone);
        if (expected.enqueuedAt)
            check("EnqueuedAt", formatOffset(*expected.enqueuedAt), gone);
        if (expected.deadLetterReason)
            check("DeadLetterReason", *expected.deadLetterReason, gone);
        return;
    }
    const MessageView& view = found->view;
    if (expected.state) {
        // A locked message is Active with a lock; "Locked" asks for the lock itself.
        const QString actual = *expected.state == QLatin1String("Locked") && view.locked
                                   ? QStringLiteral("Locked")
                                   : messageStateName(view.state);
        check("State", *expected.state, actual);
    }
    if (expected.deliveryCount)
        check("DeliveryCount", *expected.deliveryCount, static_cast<qint64>(view.deliveryCount));
    if (expected.expiresAt)
        check("ExpiresAt", expectedOffset(*expected.expiresAt),
              instantAsOffset(view.expiresAt, start));
    if (expected.enqueuedAt)
        check("EnqueuedAt", formatOffset(*expected.enqueuedAt),
              instantAsOffset(view.enqueuedTime, start));
    if (expected.deadLetterReason)
        check("DeadLetterReason", *expected.deadLetterReason, deadLetterReasonOf(view));
}

// A text or null, as Sessions expectations write LockedBy and State.
QJsonValue textOrNull(const std::optional<QString>& text) {
    return text ? QJsonValue(*text) : QJsonValue(QJsonValue::Null);
}

void checkSession(const Broker& broker, const QString& entity, const QString& sessionId,
                  const ExpectedSession& expected, ExpectationRecorder& recorder) {
    const QString prefix = QStringLiteral("Sessions.%1.").arg(sessionId);
    const auto info = broker.session(entity, sessionId);
    const auto check = [&](const char* name, const QJsonValue& want, const QJsonValue& actual) {
        recorder.check(prefix + QLatin1String(name), want, actual);
    };
    const auto actual = [&](const QJsonValue& value) {
        return info ? value : errorValue(info.error());
    };
    if (expected.active)
        check("Active", *expected.active, actual(info ? info->active : 0));
    if (expected.lockedBy) {
        const std::optional<QString> holder =
            info && !info->lockedBy.isEmpty() ? std::optional(info->lockedBy) : std::nullopt;
        check("LockedBy", textOrNull(*expected.lockedBy), actual(textOrNull(holder)));
    }
    if (expected.state) {
        const std::optional<QString> state =
            info && info->hasState ? std::optional(QString::fromUtf8(info->state)) : std::nullopt;
        check("State", textOrNull(*expected.state), actual(textOrNull(state)));
    }
}

} // namespace

ExpectationRecorder::ExpectationRecorder(ScenarioReport& report, const ScenarioStep& step,
                                         const QString& context)
    : m_report(report)
    , m_step(step)
    , m_context(context) {}

void ExpectationRecorder::check(const QString& field, const QJsonValue& expected,
                                const QJsonValue& actual) {
    if (expected == actual)
        pass();
    else
        fail(field, expected, actual);
}

void ExpectationRecorder::pass() {
    ++m_report.passed;
}

void ExpectationRecorder::fail(const QString& field, const QJsonValue& expected,
                               const QJsonValue& actual, const QString& context) {
    ExpectationFailure failure;
    failure.step = m_step.index;
    failure.stepPath = m_step.jsonPath;
    failure.at = m_step.at;
    failure.field = field;
    failure.expected = expected;
    failure.actual = actual;
    failure.context = context.isEmpty() ? m_context : m_context + QStringLiteral(", ") + context;
    m_report.failures.append(failure);
}

void checkExpectations(const Broker& broker, Instant start, const ExpectStep& expect,
                       ExpectationRecorder& recorder) {
    if (expect.exists)
        recorder.check(QStringLiteral("Exists"), *expect.exists, broker.entity(expect.entity).ok());
    checkCounts(broker, expect, recorder);
    if (expect.deadLetterReasons) {
        const auto reasons = broker.deadLetterReasons(expect.entity);
        if (reasons)
            recorder.check(QStringLiteral("DeadLetterReasons"),
                           reasonsToJson(*expect.deadLetterReasons), reasonsToJson(*reasons));
        else
            recorder.fail(QStringLiteral("DeadLetterReasons"),
                          reasonsToJson(*expect.deadLetterReasons), errorValue(reasons.error()));
    }
    for (qsizetype i = 0; i < expect.messages.size(); ++i)
        checkMessage(broker, start, expect.entity, i, expect.messages[i], recorder);
    for (auto it = expect.sessions.cbegin(); it != expect.sessions.cend(); ++it)
        checkSession(broker, expect.entity, it.key(), it.value(), recorder);
}

} // namespace hourglass
