#pragma once
// Saved forms of the send dialog: every field a user fills in to compose a message, under a name,
// kept as JSON in one file (templates.json under QStandardPaths::AppDataLocation). A template
// stores the schedule as an offset from the moment of sending, never as an instant, because an
// instant in the past is useless the next day.
//
// Application properties keep their types in the file (an int stays an int), and a body that is
// not UTF-8 (loaded from a binary file) is stored as base64, so a template gives back the same
// bytes and the same typed values.
//
// A file that cannot be read or parsed leaves the list empty and says why (loadError()); it is
// never overwritten silently: the first save moves it aside to templates.corrupt.json.

#include "hourglass/Message.h"
#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <optional>

namespace hourglass::ui {

struct MessageTemplate {
    QString name;
    // Every field of the form; scheduledEnqueueTime is not kept (see scheduleOffset).
    OutgoingMessage message;
    std::optional<Millis> scheduleOffset; // set: scheduled this long after sending
    int repeat = 1;

    // Equal when they would be written the same (OutgoingMessage has no comparison of its own).
    bool operator==(const MessageTemplate& other) const { return toJson() == other.toJson(); }

    QJsonObject toJson() const;
    // Refuses a member of the wrong kind or a property value that does not parse as its type,
    // naming it, rather than loading half a template.
    static Result<MessageTemplate> fromJson(const QJsonObject& json);
};

class MessageTemplates {
public:
    // AppDataLocation/templates.json.
    static QString defaultPath();

    // Reads the file at once (a missing file is an empty list, not an error).
    explicit MessageTemplates(const QString& filePath = defaultPath());

    QString filePath() const { return m_path; }
    // Why the file could not be read, or empty when it was (or did not exist).
    QString loadError() const { return m_loadError; }
    // Reads the file again, replacing the list.
    void reload();

    // Names in alphabetical order (case-insensitive).
    QStringList names() const;
    std::optional<MessageTemplate> find(const QString& name) const;
    // Adds the template or replaces the one with the same name, and writes the file.
    Result<void> save(const MessageTemplate& messageTemplate);
    Result<void> remove(const QString& name);

private:
    Result<void> write();

    QString m_path;
    QString m_loadError;
    QList<MessageTemplate> m_templates;
};

} // namespace hourglass::ui
