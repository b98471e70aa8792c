#include "JsonReader.h"

#include <cmath>

namespace hourglass {

void ParseError::set(const QString& path, const QString& why) {
    if (m_failed)
        return;
    m_failed = true;
    m_text = path.isEmpty() ? why : path + QStringLiteral(": ") + why;
}

Error ParseError::toError() const {
    return makeError(ErrorCode::InvalidArgument, m_text);
}

QString memberPath(const QString& path, const QString& key) {
    return path.isEmpty() ? key : path + u'.' + key;
}

QString indexPath(const QString& path, qsizetype index) {
    return QStringLiteral("%1[%2]").arg(path).arg(index);
}

std::optional<Millis> parseDurationText(const QString& text, QString* why) {
    QString reason;
    const auto parsed = parseIsoDuration(text, &reason);
    if (!parsed && why)
        *why = QStringLiteral("'%1' is not an ISO-8601 duration (%2)").arg(text, reason);
    return parsed;
}

JsonReader::JsonReader(const QJsonObject& object, const QString& path, ParseError& error)
    : m_object(object)
    , m_path(path)
    , m_error(error) {}

QJsonValue JsonReader::value(const QString& key, Need need) {
    m_read.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() && need == Need::Required)
        m_error.set(pathOf(key), QStringLiteral("missing"));
    return v;
}

std::optional<QString> JsonReader::string(const QString& key, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isString()) {
        fail(key, QStringLiteral("expected a string, got %1").arg(jsonTypeName(v)));
        return std::nullopt;
    }
    return v.toString();
}

std::optional<qint64> JsonReader::integer(const QString& key, qint64 min, qint64 max, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isDouble()) {
        fail(key, QStringLiteral("expected a whole number, got %1").arg(jsonTypeName(v)));
        return std::nullopt;
    }
    const double number = v.toDouble();
    if (std::floor(number) != number) {
        fail(key, QStringLiteral("%1 is not a whole number").arg(number));
        return std::nullopt;
    }
    if (number < static_cast<double>(min) || number > static_cast<double>(max)) {
        fail(key, QStringLiteral("%1 is out of range %2..%3").arg(number).arg(min).arg(max));
        return std::nullopt;
    }
    return static_cast<qint64>(number);
}

std::optional<bool> JsonReader::boolean(const QString& key, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isBool()) {
        fail(key, QStringLiteral("expected true or false, got %1").arg(jsonTypeName(v)));
        return std::nullopt;
    }
    return v.toBool();
}

std::optional<Millis> JsonReader::duration(const QString& key, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isString()) {
        fail(key, QStringLiteral("expected an ISO-8601 duration string such as PT10M, got %1")
                      .arg(jsonTypeName(v)));
        return std::nullopt;
    }
    QString why;
    const auto parsed = parseDurationText(v.toString(), &why);
    if (!parsed)
        fail(key, why);
    return parsed;
}

std::optional<QJsonObject> JsonReader::object(const QString& key, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isObject()) {
        fail(key, QStringLiteral("expected an object, got %1").arg(jsonTypeName(v)));
        return std::nullopt;
    }
    return v.toObject();
}

std::optional<QJsonArray> JsonReader::array(const QString& key, Need need) {
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isArray()) {
        fail(key, QStringLiteral("expected an array, got %1").arg(jsonTypeName(v)));
        return std::nullopt;
    }
    return v.toArray();
}

std::optional<int> JsonReader::choice(const QString& key, const QStringList& choices, Need need) {
    const auto text = string(key, need);
    if (!text)
        return std::nullopt;
    const auto index = choices.indexOf(*text);
    if (index < 0) {
        fail(
            key,
            QStringLiteral("'%1' is not one of %2").arg(*text, choices.join(QStringLiteral(", "))));
        return std::nullopt;
    }
    return static_cast<int>(index);
}

void JsonReader::refuseUnread() {
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!m_read.contains(it.key())) {
            m_error.set(pathOf(it.key()), QStringLiteral("unknown member"));
            return;
        }
    }
}

void JsonReader::fail(const QString& key, const QString& why) {
    m_error.set(pathOf(key), why);
}

} // namespace hourglass
