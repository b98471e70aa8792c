#pragma once
// What a settlement needs from the user before it goes to the engine: property changes for
// abandon and defer (L5, L8), a reason and a description (and property changes) for
// dead-letter (L7). Opened with open(), never exec(): the panel reads the values when the dialog
// is accepted. OK refuses inline a property table that does not parse.
// Reading the dialog and typing a reason takes longer than many a lock lasts, so whoever opens
// it may keep its locks alive meanwhile (LockSettler does) and the dialog says so; should a lock
// be lost all the same, the dialog says that in the same place, without alarm.
//
// Object names for tests: "settleDialog", "settleProperties", "deadLetterReason",
// "deadLetterDescription", "settleLockNote", "settleError", "settleOk", "settleCancel".

#include "hourglass/Status.h"

#include <QDialog>
#include <QSet>
#include <QVariantMap>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace hourglass::ui {

class PropertyTableEditor;

class SettleDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Abandon, Defer, DeadLetter };

    SettleDialog(Kind kind, int messageCount, QWidget* parent = nullptr);

    Kind kind() const { return m_kind; }
    // Valid once accepted.
    QVariantMap properties() const { return m_properties; }
    QString reason() const;
    QString description() const;

    // On a namespace the window does not host: a line at the top names it (remoteNamespaceLine).
    void showRemoteNamespace(const QString& line);
    // The locks are renewed while the dialog is open: the note says so.
    void showLocksKeptAlive();
    // A lock of the dialog's was lost (it ran out, or a renewal was refused): the note says what
    // happened and what to do; once every lock is lost, OK is off, as settling could only fail.
    void showLockLost(qint64 sequenceNumber);
    // The locks lost while the dialog was open: OK settles the others only.
    QSet<qint64> lostLocks() const { return m_lost; }
    // A renewal failed for another reason: the lock holds until it runs out.
    void showRenewFailed(const hourglass::Error& error);

private:
    void tryAccept();

    Kind m_kind;
    QVariantMap m_properties;
    PropertyTableEditor* m_editor;
    QLineEdit* m_reason = nullptr;
    QPlainTextEdit* m_description = nullptr;
    QLabel* m_lockNote;
    QLabel* m_error;
    QPushButton* m_ok = nullptr;
    int m_messageCount;
    QSet<qint64> m_lost;
};

} // namespace hourglass::ui
