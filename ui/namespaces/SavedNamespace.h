#pragma once
// One saved connection to a namespace the window does not host: what the settings keep (where it
// is, which key name, the options) and, apart from it, what only the system keychain keeps (the
// key or the signature). The two meet again when the namespace is opened (`withSecret`).

#include "hourglass/remote/ConnectionString.h"
#include "namespaces/EntraChoice.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <optional>

class QSettings;

namespace hourglass::ui {

// The secret parts of a saved namespace's connection strings: never in a settings file.
struct NamespaceSecret {
    QString key;       // SharedAccessKey of the connection string
    QString signature; // or its SharedAccessSignature
    QString adminKey;  // the same for the administration-only string, when there is one
    QString adminSignature;

    bool isEmpty() const;
    // The keychain entry's text: a small JSON object. fromJson() takes what another version or
    // another program may have left there: anything that is not such an object reads as empty.
    QByteArray toJson() const;
    static NamespaceSecret fromJson(const QByteArray& json);
    bool operator==(const NamespaceSecret&) const = default;
};

struct SavedNamespace {
    QString id;   // the settings group and the keychain entry's name; made when first saved
    QString name; // what the window shows
    // The connection string without its key or signature.
    remote::ConnectionString connection;
    // Microsoft's emulator serves administration on another port (5300) than AMQP: a second
    // string, used for administration only, again without its secret.
    std::optional<remote::ConnectionString> admin;
    bool webSockets = false; // AMQP over WebSockets (port 443 unless the string names one)
    bool readOnly = false;   // peek and browse only
    QString caFile;          // an extra certificate authority to trust, PEM
    // The entities to browse when the key cannot list the namespace (no Manage right), in the
    // text remote::parseNamedEntities reads; the string's EntityPath is named besides.
    QString namedEntities;
    EntraChoice entra; // Microsoft Entra ID sign-in, for a string without a key

    // The parts of `secret` put back into the strings: what opening the namespace uses.
    SavedNamespace withSecret(const NamespaceSecret& secret) const;
    // The secret parts of the strings (what withSecret() puts back), and the strings without them.
    NamespaceSecret secret() const;
    SavedNamespace withoutSecret() const;
};

// The settings group of saved namespaces ("namespaces/<id>/...").
// Written without key or signature whatever `saved` holds; read back the same way. A group that
// is not a saved namespace (no host) reads as nothing.
void writeSavedNamespace(QSettings& settings, const SavedNamespace& saved);
std::optional<SavedNamespace> readSavedNamespace(QSettings& settings, const QString& id);
QStringList savedNamespaceIds(QSettings& settings);
void removeSavedNamespace(QSettings& settings, const QString& id);

} // namespace hourglass::ui

Q_DECLARE_METATYPE(hourglass::ui::NamespaceSecret)
