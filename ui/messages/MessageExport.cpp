#include "messages/MessageExport.h"

#include "common/BodyFormatter.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QUuid>

#include <limits>

namespace hourglass::ui {

namespace {

// Property types by the names Service Bus clients use, so that the files read naturally.
struct PropertyType {
    QMetaType::Type type;
    const char* name;
};
constexpr PropertyType kPropertyTypes[] = {
    {QMetaType::QString, "String"},     {QMetaType::Bool, "Boolean"},
    {QMetaType::Int, "Int32"},          {QMetaType::UInt, "UInt32"},
    {QMetaType::LongLong, "Int64"},     {QMetaType::ULongLong, "UInt64"},
    {QMetaType::Double, "Double"},      {QMetaType::Float, "Single"},
    {QMetaType::QDateTime, "DateTime"}, {QMetaType::QUuid, "Guid"},
    {QMetaType::QByteArray, "Binary"},  {QMetaType::Nullptr, "Null"},
};

QString typeName(const QVariant& value) {
    for (const PropertyType& t : kPropertyTypes)
        if (value.typeId() == t.type)
            return QLatin1String(t.name);
    return value.isValid() ? QString::fromLatin1(value.typeName()) : QStringLiteral("Null");
}

// 64-bit integers go as decimal strings: a JSON number is a double and would round them.
QJsonValue propertyValue(const QVariant& value) {
    switch (value.typeId()) {
    case QMetaType::Bool:
        return value.toBool();
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Double:
    case QMetaType::Float:
        return value.toDouble();
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        return value.toString();
    case QMetaType::QDateTime:
        return value.toDateTime().toUTC().toString(Qt::ISODateWithMs);
    case QMetaType::QUuid:
        return value.toUuid().toString(QUuid::WithoutBraces);
    case QMetaType::QByteArray:
        return QString::fromLatin1(value.toByteArray().toBase64());
    case QMetaType::Nullptr:
        return QJsonValue::Null;
    default:
        return value.isValid() ? QJsonValue(value.toString()) : QJsonValue(QJsonValue::Null);
    }
}

Error badProperty(const QString& name, const QString& why) {
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("Application property \"%1\": %2").arg(name, why));
}

// One property read back; `type` is one of kPropertyTypes' names.
Result<QVariant> readProperty(const QString& name, const QString& type, const QJsonValue& v) {
    bool ok = true;
    QVariant out;
    if (type == QLatin1String("String") && v.isString()) {
        out = v.toString();
    } else if (type == QLatin1String("Boolean") && v.isBool()) {
        out = v.toBool();
    } else if (type == QLatin1String("Int32") && v.isDouble()) {
        const double d = v.toDouble();
        ok = d == double(int(d));
        out = int(d);
    } else if (type == QLatin1String("UInt32") && v.isDouble()) {
        const double d = v.toDouble();
        ok = d >= 0 && d <= double(std::numeric_limits<uint>::max()) && d == double(uint(d));
        out = uint(d);
    } else if (type == QLatin1String("Int64") && v.isString()) {
        out = v.toString().toLongLong(&ok);
    } else if (type == QLatin1String("UInt64") && v.isString()) {
        out = v.toString().toULongLong(&ok);
    } else if (type == QLatin1String("Double") && v.isDouble()) {
        out = v.toDouble();
    } else if (type == QLatin1String("Single") && v.isDouble()) {
        out = float(v.toDouble());
    } else if (type == QLatin1String("DateTime") && v.isString()) {
        const QDateTime time = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
        ok = time.isValid();
        out = time.toUTC();
    } else if (type == QLatin1String("Guid") && v.isString()) {
        const QUuid id(v.toString());
        ok = !id.isNull() || v.toString() == QUuid().toString(QUuid::WithoutBraces);
        out = id;
    } else if (type == QLatin1String("Binary") && v.isString()) {
        auto decoded = QByteArray::fromBase64Encoding(v.toString().toLatin1(),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        ok = bool(decoded);
        out = *decoded;
    } else if (type == QLatin1String("Null") && v.isNull()) {
        out = QVariant::fromValue(nullptr);
    } else {
        return badProperty(name, QStringLiteral("a value of type %1 expected").arg(type));
    }
    if (!ok)
        return badProperty(name, QStringLiteral("not a valid %1").arg(type));
    return out;
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
        out.insert(it.key(), QJsonObject{{QStringLiteral("type"), typeName(it.value())},
                                         {QStringLiteral("value"), propertyValue(it.value())}});
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
    o.insert(QStringLiteral("messageId"), m.messageId);
    o.insert(QStringLiteral("correlationId"), m.correlationId);
    o.insert(QStringLiteral("sessionId"), m.sessionId);
    o.insert(QStringLiteral("replyTo"), m.replyTo);
    o.insert(QStringLiteral("replyToSessionId"), m.replyToSessionId);
    o.insert(QStringLiteral("to"), m.to);
    o.insert(QStringLiteral("subject"), m.subject);
    o.insert(QStringLiteral("contentType"), m.contentType);
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
