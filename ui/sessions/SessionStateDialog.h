#pragma once
// The operator's editor for one session's state (S4): the current state as text, JSON or hex
// (switching formats re-reads what is typed, so nothing is lost between them), or "no state".
// Set state… first checks what was typed (bad JSON or hex is refused inline, nothing is
// written), then asks for a confirmation in the dialog itself, naming the session, the entity
// and the sizes before and after; only Confirm emits `confirmed`. The dialog writes nothing: its
// owner writes the state off the GUI thread and then calls finish() (closes it) or
// showWriteError() (says why inline and stays open). Opened with open(), never exec().
//
// Object names for tests: "sessionStateDialog", "stateFormat", "stateEdit", "stateRemove",
// "stateError", "stateApply", "stateCancel", "stateConfirmText", "stateConfirm", "stateBack".

#include "hourglass/Status.h"
#include "sessions/SessionStateText.h"

#include <QByteArray>
#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QWidget;

namespace hourglass::ui {

class SessionStateDialog : public QDialog {
    Q_OBJECT
public:
    // `current`: the state as read (none when the session has none). `note` says how the
    // write will be made (for example that the explorer briefly takes the session's lock).
    SessionStateDialog(const QString& entityPath, const QString& sessionId,
                       const std::optional<QByteArray>& current, const QString& note,
                       QWidget* parent = nullptr);

    // What Set state… would write now: the bytes, none for "no state", or the refusal.
    Result<std::optional<QByteArray>> typedState() const;
    StateFormat format() const;
    void setFormat(StateFormat format);

    // The owner's write succeeded: the dialog closes (accepted).
    void finish();
    // The owner's write failed: shown inline; the dialog goes back to editing.
    void showWriteError(const Error& error);

signals:
    void confirmed(const std::optional<QByteArray>& state);

private:
    void askConfirmation();
    void backToEditing();
    void onFormatChanged();

    QString m_entityPath;
    QString m_sessionId;
    std::optional<QByteArray> m_current;
    std::optional<QByteArray> m_pending;
    StateFormat m_shownFormat = StateFormat::Text;
    QComboBox* m_format;
    QPlainTextEdit* m_edit;
    QCheckBox* m_remove;
    QLabel* m_error;
    QWidget* m_editButtons;
    QWidget* m_confirmRow;
    QLabel* m_confirmText;
    QPushButton* m_apply;
    QPushButton* m_confirm;
};

} // namespace hourglass::ui
