#pragma once
// What a settlement needs from the user before it goes to the engine: property changes for
// abandon and defer (L5, L8), a reason and a description (and property changes) for
// dead-letter (L7). Opened with open(), never exec(): the panel reads the values when the dialog
// is accepted. OK refuses inline a property table that does not parse.
//
// Object names for tests: "settleDialog", "settleProperties", "deadLetterReason",
// "deadLetterDescription", "settleError", "settleOk", "settleCancel".

#include <QDialog>
#include <QVariantMap>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

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

private:
    void tryAccept();

    Kind m_kind;
    QVariantMap m_properties;
    PropertyTableEditor* m_editor;
    QLineEdit* m_reason = nullptr;
    QPlainTextEdit* m_description = nullptr;
    QLabel* m_error;
};

} // namespace hourglass::ui
