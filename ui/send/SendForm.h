#pragma once
// The fields of the send dialog: a body (typed, or the bytes of a file), the content type, every
// system property a sender sets (OutgoingMessage), the TimeToLive as people type it ("10m",
// "1h30m", "PT10M": parseHumanDuration) with the form it understood beside it, a schedule, typed
// application properties and a repeat count. prepare() turns them into a message, refusing bad
// input (a TTL that does not parse, a property value that is not of its type) with a reason before
// anything reaches the engine.
//
// The schedule is "in N seconds/minutes/hours/days" or "at" a UTC date and time, both on the
// engine's clock (which may be virtual), never the wall clock.
//
// Object names: "sendBody", "sendLoadFile", "sendBodySource", "sendBodyClearFile",
// "sendContentType", "sendMessageId", "sendCorrelationId", "sendSessionId", "sendReplyTo",
// "sendReplyToSessionId", "sendTo", "sendSubject", "sendTimeToLive", "sendTimeToLiveText",
// "sendScheduled", "sendScheduleRelative", "sendScheduleIn", "sendScheduleUnit",
// "sendScheduleAbsolute", "sendScheduledAt", "sendProperties", "sendRepeat".

#include "hourglass/Clock.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"
#include "send/MessageTemplates.h"

#include <QList>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace hourglass::ui {

class PropertyTableEditor;

// What one press of Send does: `repeat` copies of `message`, scheduled when scheduledAt is set.
struct PreparedSend {
    OutgoingMessage message;
    int repeat = 1;
    std::optional<Instant> scheduledAt;
};

class SendForm : public QWidget {
    Q_OBJECT
public:
    // Files larger than this are refused: no Service Bus tier carries a bigger message.
    static constexpr qint64 kMaxFileBytes = 100 * 1024 * 1024;

    explicit SendForm(const Clock& clock, QWidget* parent = nullptr);

    // The message as of `now` on the engine's clock, or why it cannot be sent (InvalidArgument).
    Result<PreparedSend> prepare(Instant now) const;
    // Reads the file's bytes as the body (the editor then shows them read-only). An error says
    // why the file was not taken.
    Result<void> loadBodyFromFile(const QString& path);
    // Back to a typed body.
    void clearFileBody();
    QByteArray body() const;

    // The form under a name; the schedule becomes an offset from `now`.
    Result<MessageTemplate> toTemplate(const QString& name, Instant now) const;
    void applyTemplate(const MessageTemplate& messageTemplate);

signals:
    // A field of the message changed (typed, a property edited, a template or file loaded).
    void edited();

private:
    void buildLayout();
    QLineEdit* addLine(const char* objectName, const QString& placeholder);
    void updateTimeToLiveText();
    void updateScheduleEnabled();
    // Shows now + the relative offset in the absolute field, as a preview of when it will be.
    void previewRelativeSchedule();
    Millis relativeOffset() const;
    Result<std::optional<Millis>> timeToLive() const;
    void showBodyPreview();

    const Clock& m_clock;
    std::optional<QByteArray> m_fileBody; // set while the body comes from a file
    QString m_fileName;

    QPlainTextEdit* m_body;
    QPushButton* m_loadFile;
    QLabel* m_bodySource;
    QPushButton* m_clearFile;
    QComboBox* m_contentType;
    // Message id, correlation id, session id, reply to, reply-to session id, to, subject: each
    // line with the OutgoingMessage member it edits.
    QList<std::pair<QLineEdit*, QString OutgoingMessage::*>> m_textFields;
    QLineEdit* m_timeToLive = nullptr;
    QLabel* m_timeToLiveText;
    QCheckBox* m_scheduled;
    QRadioButton* m_relative;
    QSpinBox* m_scheduleIn;
    QComboBox* m_scheduleUnit;
    QRadioButton* m_absolute;
    QDateTimeEdit* m_scheduledAt;
    PropertyTableEditor* m_properties;
    QSpinBox* m_repeat;
};

} // namespace hourglass::ui
