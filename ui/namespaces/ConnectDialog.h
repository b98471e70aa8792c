#pragma once
// Connect to namespace: a connection string (masked, with a toggle that shows it), read as you
// type with the remote library's parser (its problem inline, never the string itself), and one
// line saying what opening it will do; a second, optional administration-only string for
// Microsoft's emulator (administration on port 5300); the options (AMQP over WebSockets,
// read-only, an extra certificate authority file); Microsoft Entra ID sign-in for a string without
// a key (EntraChoiceBox); a name; Save. Saving keeps the namespace in
// SavedNamespaces: the settings without the key, the key in the system keychain, or nowhere
// (asked for each time) when there is none, which the dialog says in one line.

#include "hourglass/remote/ConnectionString.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hourglass::ui {

class EntraChoiceBox;
class SavedNamespaces;
struct SavedNamespace;

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    // `namespaces` is where Save keeps the connection (not owned; it outlives the dialog).
    explicit ConnectDialog(SavedNamespaces* namespaces, QWidget* parent = nullptr);

    // The id Save gave the namespace; empty before it was saved.
    QString savedId() const { return m_savedId; }
    // What the fields say now, with the secrets; nothing while a string does not parse.
    std::optional<SavedNamespace> current() const;

private:
    void update();
    void updateKeychainNote();
    void chooseCaFile();
    void save();
    void onSaved(const QString& id, bool secretKept, const QString& problem);

    SavedNamespaces* m_namespaces;
    QLineEdit* m_connection;
    QCheckBox* m_showSecret;
    QLabel* m_connectionError;
    QLineEdit* m_admin;
    QLabel* m_adminError;
    QLabel* m_plan;
    QCheckBox* m_webSockets;
    QCheckBox* m_readOnly;
    EntraChoiceBox* m_entra; // for a string without a key
    QLineEdit* m_caFile;
    QLabel* m_caError;
    QLineEdit* m_name;
    QLabel* m_keychainNote;
    QLabel* m_saveProblem;
    QPushButton* m_save;
    std::optional<remote::ConnectionString> m_parsed;
    std::optional<remote::ConnectionString> m_parsedAdmin;
    bool m_adminValid = true;
    bool m_caValid = true;
    bool m_saving = false;
    QString m_savedId;
};

} // namespace hourglass::ui
