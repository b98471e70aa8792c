#pragma once
// The values one half of a restart test hands to the other (KilledRestart.h): sequence numbers,
// lock tokens, instants, snapshot lines. When the first half runs in a child process they cross
// a pipe as text, so everything is kept as text: one "key value" line per entry, the value
// percent-encoded so that spaces and newlines survive.

#include <QMap>
#include <QString>
#include <QStringList>
#include <QUuid>

#include <optional>

namespace hourglass::testing {

class Handoff {
public:
    // Keys are single words (no space, no newline) and do not start with '@'.
    void put(const QString& key, const QString& value);
    void put(const QString& key, qint64 value);
    void put(const QString& key, const QUuid& value);
    void put(const QString& key, const QStringList& lines);

    bool contains(const QString& key) const { return m_values.contains(key); }
    // A missing key or a value of the wrong kind reads as empty, 0 or null; the test's own
    // comparisons then fail with the values in view.
    QString text(const QString& key) const { return m_values.value(key); }
    qint64 number(const QString& key) const { return m_values.value(key).toLongLong(); }
    QUuid uuid(const QString& key) const { return QUuid::fromString(m_values.value(key)); }
    QStringList lines(const QString& key) const;

    QByteArray encode() const;
    // nullopt when a line is not "key value".
    static std::optional<Handoff> decode(const QByteArray& text);

private:
    QMap<QString, QString> m_values;
};

} // namespace hourglass::testing
