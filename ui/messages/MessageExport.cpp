#include "messages/MessageExport.h"

#include "common/BodyFormatter.h"

#include "hourglass/PropertyJson.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace hourglass::ui {

namespace {

Error badProperty(const QString& name, const QString& why) {
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("Application property \"%1\": %2").arg(name, why));
}

// One property read back: its Service Bus type name and its typed value (PropertyJson.h).
Result<QVariant> readProperty(const QString& name, const QString& typeName, const QJsonValue& v) {
    const auto type = propertyTypeFromName(typeName);
    if (!type)
        return badProperty(name, QStringLiteral("'%1' is not a property type").arg(typeName));
    auto value = typedValueFromJson(*type, v);
    if (!value)
        return badProperty(name, value.error().description);
    return value;
}

QJsonValue instantOrNull(Instant instant) {
    return instant == 0 || instant == kNever ? QJsonValue(QJsonValue::Null)
                                             : QJsonValue(formatInstant(instant));
}

QJsonValue durationOrNull(std::optional<Millis> duration) {
    return duration ? QJsonValue(formatIsoDuration(*duration)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QString messageExportFormat() {
    return QStringLiteral("hourglass.message/1");
}

QJsonObject applicationPropertiesToJson(const QVariantMap& properties) {
    QJsonObject out;
    for (auto it = properties.begin(); it != properties.end(); ++it)
        out.insert(it.key(), QJsonObject{{QStringLiteral("type"), propertyTypeNameOf(it.value())},
                                         {QStringLiteral("value"), typedValueToJson(it.value())}});
    return out;
}

Result<QVariantMap> applicationPropertiesFromJson(const QJsonObject& object) {
    QVariantMap out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonObject entry = it.value().toObject();
        auto value = readProperty(it.key(), entry.value(QStringLiteral("type")).toString(),
                                  entry.value(QStringLiteral("value")));
        if (!value)
            return value.error();
        out.insert(it.key(), *value);
    }
    return out;
}

QJsonObject messageToJson(const MessageView& m) {
    QJsonObject o;
    o.insert(QStringLiteral("format"), messageExportFormat());
    o.insert(QStringLiteral("entityPath"), m.entityPath);
    o.insert(QStringLiteral("subQueue"), m.subQueue == SubQueue::DeadLetter
                                             ? QStringLiteral("DeadLetter")
                                             : QStringLiteral("Main"));
    o.insert(QStringLiteral("sequenceNumber"), m.sequenceNumber);
    o.insert(QStringLiteral("state"), messageStateName(m.state));
    for (const SystemTextProperty& property : kSystemTextProperties)
        o.insert(camelCaseName(property), m.*property.member);
    o.insert(QStringLiteral("timeToLive"), durationOrNull(m.timeToLive));
    o.insert(QStringLiteral("effectiveTimeToLive"), formatIsoDuration(m.effectiveTimeToLive));
    o.insert(QStringLiteral("scheduledEnqueueTimeUtc"), instantOrNull(m.scheduledEnqueueTime));
    o.insert(QStringLiteral("enqueuedTimeUtc"), instantOrNull(m.enqueuedTime));
    o.insert(QStringLiteral("expiresAtUtc"), instantOrNull(m.expiresAt));
    o.insert(QStringLiteral("expiryDerived"), m.expiryDerived);
    o.insert(QStringLiteral("expired"), m.expired);
    o.insert(QStringLiteral("deliveryCount"), qint64(m.deliveryCount));
    o.insert(QStringLiteral("locked"), m.locked);
    o.insert(QStringLiteral("lockHolder"), m.lockHolder);
    o.insert(QStringLiteral("lockedUntilUtc"), instantOrNull(m.lockedUntil));
    o.insert(QStringLiteral("deadLetterReason"), m.deadLetterReason);
    o.insert(QStringLiteral("deadLetterErrorDescription"), m.deadLetterErrorDescription);
    o.insert(QStringLiteral("deadLetterSource"), m.deadLetterSource);
    o.insert(QStringLiteral("sizeInBytes"), m.sizeInBytes);
    o.insert(QStringLiteral("applicationProperties"),
             applicationPropertiesToJson(m.applicationProperties));
    if (!m.hasBody) {
        o.insert(QStringLiteral("bodyEncoding"), QStringLiteral("none"));
        o.insert(QStringLiteral("body"), QJsonValue::Null);
    } else if (isValidUtf8(m.body)) {
        o.insert(QStringLiteral("bodyEncoding"), QStringLiteral("utf-8"));
        o.insert(QStringLiteral("body"), QString::fromUtf8(m.body));
    } else {
        o.insert(QStringLiteral("bodyEncoding"), QStringLiteral("base64"));
        o.insert(QStringLiteral("body"), QString::fromLatin1(m.body.toBase64()));
    }
    return o;
}

QString exportFileName(const MessageView& message) {
    QString entity = message.entityPath;
    for (QChar& c : entity) {
        const bool safe = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                          (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                          (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
                          c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.');
        if (!safe)
            c = QLatin1Char('_');
    }
    // A leading dot would hide the file; an empty path still needs a name.
    if (entity.isEmpty() || entity.startsWith(QLatin1Char('.')))
        entity.prepend(QLatin1String("message"));
    return QStringLiteral("%1-%2.json").arg(entity).arg(message.sequenceNumber);
}

Result<QStringList> exportMessages(const QList<MessageView>& messages, const QString& directory) {
    const QFileInfo dir(directory);
    if (directory.isEmpty() || !dir.isDir())
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("Cannot export to \"%1\": no such directory").arg(directory));
    if (!dir.isWritable())
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Cannot export to \"%1\": the directory is not writable")
                             .arg(directory));
    QStringList written;
    for (const MessageView& message : messages) {
        const QString path = QDir(directory).filePath(exportFileName(message));
        QSaveFile file(path);
        const QByteArray json =
            QJsonDocument(messageToJson(message)).toJson(QJsonDocument::Indented);
        // QSaveFile writes to a temporary file and renames it on commit: never a partial file.
        if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
            return makeError(
                ErrorCode::GeneralError,
                QStringLiteral("Cannot write \"%1\": %2").arg(path, file.errorString()));
        written.append(path);
    }
    return written;
}

Result<void> exportStored(Broker& broker, const QString& path, const QList<qint64>& sequenceNumbers,
                          const QString& directory) {
    QList<MessageView> messages;
    for (qint64 sequenceNumber : sequenceNumbers) {
        auto message = broker.message(path, sequenceNumber, Broker::Bodies::With);
        if (message)
            messages.append(std::move(message).value());
        else if (message.error().code != ErrorCode::MessageNotFound)
            return message.error();
    }
    if (auto written = exportMessages(messages, directory); !written)
        return written.error();
    return {};
}

} // namespace hourglass::ui
