#pragma once
// Asks for a saved namespace's key (or shared access signature) when the keychain cannot give it:
// there is no keychain, or it holds nothing for this namespace. What is typed opens the namespace
// once and is kept nowhere. A second field asks for the administration-only string's secret when
// the namespace has one that needs it.
//
// Test handles: "keyField", "adminKeyField" (QLineEdit), "keyPromptReason" (QLabel).

#include "namespaces/SavedNamespace.h"

#include <QDialog>

class QDialogButtonBox;
class QLineEdit;

namespace hourglass::ui {

class KeyPrompt : public QDialog {
    Q_OBJECT
public:
    // `why`: one line saying why it asks (no keychain, nothing kept).
    KeyPrompt(const SavedNamespace& saved, const QString& why, QWidget* parent = nullptr);

signals:
    // Accepted: the secret to open the namespace with.
    void secretGiven(const hourglass::ui::NamespaceSecret& secret);

private:
    void update();
    void give();

    SavedNamespace m_saved;
    QLineEdit* m_key;
    QLineEdit* m_adminKey = nullptr;
    QDialogButtonBox* m_buttons;
};

} // namespace hourglass::ui
