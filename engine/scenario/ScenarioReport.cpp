#include "hourglass/scenario/ScenarioReport.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace hourglass {

namespace {

QString show(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::String:
        return u'"' + value.toString() + u'"';
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("null");
}

QJsonObject reasonsToJson(const QMap<QString, qint64>& reasons) {
    QJsonObject json;
    for (auto it = reasons.begin(); it != reasons.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace

QString checksSummary(int passed, int failed) {
    const QString checks = passed == 1 ? QStringLiteral("1 check passed")
                                       : QStringLiteral("%1 checks passed").arg(passed);
    return QStringLiteral("%1, %2 failed").arg(checks).arg(failed);
}

QString formatOffset(Millis offset) {
    if (offset < 0)
        return u'-' + formatIsoDuration(-offset);
    return formatIsoDuration(offset);
}

QString ExpectationFailure::line() const {
    return QStringLiteral("%1 (At %2, %3): %4: expected %5, actual %6")
        .arg(stepPath, formatOffset(at), context, field, show(expected), show(actual));
}

QJsonObject ScenarioReport::toJson() const {
    QJsonArray entityArray;
    for (const EntityReport& entity : entities) {
        entityArray.append(QJsonObject{
            {QStringLiteral("Path"), entity.path},
            {QStringLiteral("Active"), entity.counts.active},
            {QStringLiteral("Scheduled"), entity.counts.scheduled},
            {QStringLiteral("Deferred"), entity.counts.deferred},
            {QStringLiteral("Locked"), entity.counts.locked},
            {QStringLiteral("DeadLettered"), entity.counts.deadLettered},
            {QStringLiteral("DeadLetterReasons"), reasonsToJson(entity.deadLetterReasons)},
        });
    }
    QJsonArray failureArray;
    for (const ExpectationFailure& failure : failures) {
        failureArray.append(QJsonObject{
            {QStringLiteral("Step"), failure.step},
            {QStringLiteral("Field"), failure.field},
            {QStringLiteral("Expected"), failure.expected},
            {QStringLiteral("Actual"), failure.actual},
        });
    }
    return QJsonObject{
        {QStringLiteral("Clock"), formatOffset(clock)},
        {QStringLiteral("Entities"), entityArray},
        {QStringLiteral("Expectations"),
         QJsonObject{{QStringLiteral("Passed"), passed},
                     {QStringLiteral("Failed"), static_cast<int>(failures.size())},
                     {QStringLiteral("Failures"), failureArray}}},
    };
}

QStringList ScenarioReport::failureLines() const {
    QStringList lines;
    for (const ExpectationFailure& failure : failures)
        lines << failure.line();
    return lines;
}

} // namespace hourglass
