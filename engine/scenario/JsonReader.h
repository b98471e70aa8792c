#pragma once
// Reads JSON objects member by member for the scenario and emulator-config parsers, keeping the
// JSON path so that the first bad field can be named, e.g.
// "Scenario.Steps[3].Send.TimeToLive: 'PT' is not an ISO-8601 duration". Unknown members are
// refused (refuseUnread) so that a typo never passes silently.

#include "hourglass/JsonText.h"
#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass {

// The first error of a parse. Later errors are dropped: the user fixes one thing at a time, and
// an error that follows from an earlier one would only mislead.
class ParseError {
public:
    void set(const QString& path, const QString& why);
    bool failed() const { return m_failed; }
    // "path: why" (or just "why" at the document root).
    QString text() const { return m_text; }
    Error toError() const;

private:
    bool m_failed = false;
    QString m_text;
};

enum class Need { Optional, Required };

// "path.key", or "key" at the root.
QString memberPath(const QString& path, const QString& key);
// "path[index]".
QString indexPath(const QString& path, qsizetype index);
// "a string", "a number"... for error messages.

class JsonReader {
public:
    JsonReader(const QJsonObject& object, const QString& path, ParseError& error);

    const QString& path() const { return m_path; }
    QString pathOf(const QString& key) const { return memberPath(m_path, key); }
    bool has(const QString& key) const { return m_object.contains(key); }
    ParseError& error() { return m_error; }

    // Each read marks the member as known. A missing required member, or a member of the wrong
    // type, records an error and returns nullopt.
    QJsonValue value(const QString& key, Need need = Need::Optional);
    std::optional<QString> string(const QString& key, Need need = Need::Optional);
    std::optional<qint64> integer(const QString& key, qint64 min, qint64 max,
                                  Need need = Need::Optional);
    std::optional<bool> boolean(const QString& key, Need need = Need::Optional);
    std::optional<Millis> duration(const QString& key, Need need = Need::Optional);
    std::optional<QJsonObject> object(const QString& key, Need need = Need::Optional);
    std::optional<QJsonArray> array(const QString& key, Need need = Need::Optional);
    // One of `choices` (exact spelling); returns its index.
    std::optional<int> choice(const QString& key, const QStringList& choices,
                              Need need = Need::Optional);

    // Marks a member as known without reading it (e.g. a free-form "Logging" object).
    void ignore(const QString& key) { m_read.insert(key); }
    // Records an error for every member that no read asked for.
    void refuseUnread();
    void fail(const QString& key, const QString& why);

private:
    QJsonObject m_object;
    QString m_path;
    ParseError& m_error;
    QSet<QString> m_read;
};

// Converts an ISO duration text and explains failures the way every parser reports them.
std::optional<Millis> parseDurationText(const QString& text, QString* why);

} // namespace hourglass
