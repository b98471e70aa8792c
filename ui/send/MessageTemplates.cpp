#include "send/MessageTemplates.h"

#include "common/BodyFormatter.h"

#include "hourglass/PropertyJson.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace hourglass::ui {

namespace {

constexpr int kFormatVersion = 1;

// Each value with its Service Bus type name beside it (PropertyJson.h's typed form: a JSON
// number is a double, which would lose a long's low digits and turn an int into a double).
// Templates saved before types had those names ("int", "long", "bytes", values as text) still
// read: propertyTypeFromName takes those spellings, and text values are parsed as text.
QJsonObject templateProperty(const QString& name, const QVariant& value) {
    return {{QStringLiteral("name"), name},
            {QStringLiteral("type"), propertyTypeNameOf(value)},
            {QStringLiteral("value"), typedValueToJson(value)}};
}

std::optional<QVariant> templatePropertyValue(const QString& typeName, const QJsonValue& value) {
    const auto type = propertyTypeFromName(typeName);
    if (!type)
        return std::nullopt;
    // The typed form first (it writes an infinite Double as "Infinity", a string); templates
    // saved before it wrote every value but Binary's base64 as text.
    if (auto parsed = typedValueFromJson(*type, value))
        return *parsed;
    if (value.isString())
        return propertyFromText(*type, value.toString());
    return std::nullopt;
}

Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

} // namespace

QJsonObject MessageTemplate::toJson() const {
    QJsonObject json{{QStringLiteral("name"), name}, {QStringLiteral("repeat"), repeat}};
    // The text properties by their camel-case names ("replyToSessionId"), read back alike.
    for (const SystemTextProperty& property : kSystemTextProperties)
        json.insert(camelCaseName(property), message.*property.member);
    if (isValidUtf8(message.body))
        json.insert(QStringLiteral("body"), QString::fromUtf8(message.body));
    else
        json.insert(QStringLiteral("bodyBase64"), QString::fromLatin1(message.body.toBase64()));
    if (message.timeToLive)
        json.insert(QStringLiteral("timeToLive"), formatIsoDuration(*message.timeToLive));
    if (scheduleOffset)
        json.insert(QStringLiteral("scheduleOffset"), formatIsoDuration(*scheduleOffset));
    QJsonArray properties;
    for (auto it = message.applicationProperties.cbegin();
         it != message.applicationProperties.cend(); ++it)
        properties.append(templateProperty(it.key(), it.value()));
    json.insert(QStringLiteral("applicationProperties"), properties);
    return json;
}

Result<MessageTemplate> MessageTemplate::fromJson(const QJsonObject& json) {
    MessageTemplate t;
    t.name = json.value(QStringLiteral("name")).toString();
    if (t.name.isEmpty())
        return invalid(QStringLiteral("A template has no name."));
    OutgoingMessage& m = t.message;
    for (const SystemTextProperty& property : kSystemTextProperties) {
        const QString key = camelCaseName(property);
        const QJsonValue value = json.value(key);
        if (!value.isUndefined() && !value.isString())
            return invalid(QStringLiteral("Template '%1': %2 is not text.").arg(t.name, key));
        m.*property.member = value.toString();
    }
    if (json.contains(QStringLiteral("bodyBase64"))) {
        auto decoded = QByteArray::fromBase64Encoding(
            json.value(QStringLiteral("bodyBase64")).toString().toLatin1(),
            QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return invalid(QStringLiteral("Template '%1': the body is not base64.").arg(t.name));
        m.body = *decoded;
    } else {
        m.body = json.value(QStringLiteral("body")).toString().toUtf8();
    }
    // Durations are ISO-8601 here as at every interface (service-bus-rules.md).
    for (const auto& [key, target] :
         {std::pair{QStringLiteral("timeToLive"), &m.timeToLive},
          std::pair{QStringLiteral("scheduleOffset"), &t.scheduleOffset}}) {
        if (!json.contains(key))
            continue;
        *target = parseIsoDuration(json.value(key).toString());
        if (!*target)
            return invalid(
                QStringLiteral("Template '%1': %2 is not an ISO-8601 duration.").arg(t.name, key));
    }
    t.repeat = json.value(QStringLiteral("repeat")).toInt(1);
    for (const QJsonValue& entry : json.value(QStringLiteral("applicationProperties")).toArray()) {
        const QJsonObject property = entry.toObject();
        const QString name = property.value(QStringLiteral("name")).toString();
        const QString type = property.value(QStringLiteral("type")).toString();
        const auto value = templatePropertyValue(type, property.value(QStringLiteral("value")));
        if (name.isEmpty() || !value)
            return invalid(QStringLiteral("Template '%1': the application property '%2' (%3) has "
                                          "a value that does not parse as its type.")
                               .arg(t.name, name, type));
        m.applicationProperties.insert(name, *value);
    }
    return t;
}

QString MessageTemplates::defaultPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("templates.json"));
}

MessageTemplates::MessageTemplates(const QString& filePath)
    : m_path(filePath) {
    reload();
}

void MessageTemplates::reload() {
    m_templates.clear();
    m_loadError.clear();
    QFile file(m_path);
    if (!file.exists())
        return;
    if (!file.open(QIODevice::ReadOnly)) {
        m_loadError = QStringLiteral("%1 cannot be read: %2").arg(m_path, file.errorString());
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (document.isNull()) {
        m_loadError = QStringLiteral("%1 is not valid JSON (%2 at offset %3).")
                          .arg(m_path, parseError.errorString())
                          .arg(parseError.offset);
        return;
    }
    const QJsonObject root = document.object();
    if (!root.value(QStringLiteral("templates")).isArray()) {
        m_loadError = QStringLiteral("%1 holds no list of templates.").arg(m_path);
        return;
    }
    QList<MessageTemplate> loaded;
    for (const QJsonValue& entry : root.value(QStringLiteral("templates")).toArray()) {
        auto parsed = MessageTemplate::fromJson(entry.toObject());
        if (!parsed) {
            m_loadError = QStringLiteral("%1: %2").arg(m_path, parsed.error().description);
            return;
        }
        loaded.append(std::move(parsed).value());
    }
    m_templates = std::move(loaded);
}

QStringList MessageTemplates::names() const {
    QStringList names;
    for (const MessageTemplate& t : m_templates)
        names.append(t.name);
    std::sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
        return a.compare(b, Qt::CaseInsensitive) < 0;
    });
    return names;
}

std::optional<MessageTemplate> MessageTemplates::find(const QString& name) const {
    for (const MessageTemplate& t : m_templates)
        if (t.name == name)
            return t;
    return std::nullopt;
}

Result<void> MessageTemplates::save(const MessageTemplate& messageTemplate) {
    if (messageTemplate.name.trimmed().isEmpty())
        return invalid(QStringLiteral("A template needs a name."));
    auto it = std::find_if(m_templates.begin(), m_templates.end(), [&](const MessageTemplate& t) {
        return t.name == messageTemplate.name;
    });
    if (it != m_templates.end())
        *it = messageTemplate;
    else
        m_templates.append(messageTemplate);
    return write();
}

Result<void> MessageTemplates::remove(const QString& name) {
    const auto removed =
        m_templates.removeIf([&](const MessageTemplate& t) { return t.name == name; });
    if (removed == 0)
        return invalid(QStringLiteral("There is no template named '%1'.").arg(name));
    return write();
}

Result<void> MessageTemplates::write() {
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("Cannot create the folder %1.").arg(info.absolutePath()));
    if (!m_loadError.isEmpty()) {
        // Keep what could not be read for the user to look at, rather than overwrite it.
        const QString aside = info.dir().filePath(QStringLiteral("templates.corrupt.json"));
        QFile::remove(aside);
        QFile::rename(m_path, aside);
        m_loadError.clear();
    }
    QJsonArray list;
    for (const MessageTemplate& t : m_templates)
        list.append(t.toJson());
    QSaveFile file(m_path); // written whole or not at all
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("Cannot write %1: %2").arg(m_path, file.errorString()));
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), kFormatVersion},
                                         {QStringLiteral("templates"), list}})
                   .toJson());
    if (!file.commit())
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("Cannot write %1: %2").arg(m_path, file.errorString()));
    return {};
}

} // namespace hourglass::ui
