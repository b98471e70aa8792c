#pragma once
// The namespaces the user saved: the list in QSettings, each secret in the system keychain
// (QtKeychain: the Secret Service on Linux) and nowhere else. Keychain calls are QtKeychain jobs,
// which answer later through signals: nothing here waits on the GUI thread.
//
// Where no keychain answers (no D-Bus session, no Secret Service on it), keychain() says so and
// nothing secret is written: the settings keep the namespace without its key, and the key is
// asked for each time it is opened. QtKeychain's "insecure fallback" (the secret in the settings
// file) is never turned on.

#include "namespaces/SavedNamespace.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QSettings;

namespace QKeychain {
class Job;
}

namespace hourglass::ui {

class SavedNamespaces : public QObject {
    Q_OBJECT
public:
    enum class Keychain { Unknown, Available, Unavailable };

    // `settings`: where the list lives (not owned; it outlives this object); nullptr: the
    // application's QSettings. `service`: the keychain's service name for the entries.
    explicit SavedNamespaces(QSettings* settings = nullptr,
                             const QString& service = QStringLiteral("hourglass"),
                             QObject* parent = nullptr);
    ~SavedNamespaces() override;

    // Sorted by name, without secrets.
    QList<SavedNamespace> list() const;
    std::optional<SavedNamespace> find(const QString& id) const;

    // Unknown until checkKeychain() or a keychain call has answered.
    Keychain keychain() const { return m_keychain; }
    // Asks the keychain for an entry that does not exist: "not found" means it answers.
    // keychainChanged() follows.
    void checkKeychain();

    // Writes `saved` without its secret to the settings now (with a new id when it has none,
    // which is returned), then its secret, if any, to the keychain; saved() follows.
    QString save(const SavedNamespace& saved);
    // Writes the settings of `saved` (an id already saved), whatever secret it holds, and leaves
    // its secret in the keychain as it is: an option changed on a saved namespace.
    void updateSettings(const SavedNamespace& saved);
    // The secret kept for `id`; secretRead() follows (empty with a problem when there is none).
    void readSecret(const QString& id);
    // Takes `id` off the list now and its secret out of the keychain; removed() follows.
    void remove(const QString& id);

    // One line for the window when no keychain answers; empty otherwise.
    static QString unavailableText();

signals:
    void keychainChanged(Keychain keychain);
    // `secretKept`: the keychain holds the secret. `problem`: why not, when there was one.
    void saved(const QString& id, bool secretKept, const QString& problem);
    void secretRead(const QString& id, const NamespaceSecret& secret, const QString& problem);
    void removed(const QString& id, const QString& problem);

private:
    QSettings& settings() const;
    QString entryName(const QString& id) const;
    void prepare(QKeychain::Job* job, const QString& id);
    // Learns from a finished job whether the keychain answers; its problem as one short line.
    QString noteAnswer(const QKeychain::Job* job);
    void setKeychain(Keychain keychain);

    QSettings* m_settings;
    std::unique_ptr<QSettings> m_ownSettings;
    QString m_service;
    Keychain m_keychain = Keychain::Unknown;
};

} // namespace hourglass::ui
