#include "namespaces/SavedNamespace.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace hourglass::ui {

namespace {

using Credential = remote::ConnectionString::Credential;

const QString kGroup = QStringLiteral("namespaces");

QString credentialName(Credential credential) {
    switch (credential) {
    case Credential::SharedKey:
        return QStringLiteral("key");
    case Credential::SignatureOnly:
        return QStringLiteral("signature");
    case Credential::None:
        break;
    }
    return QStringLiteral("none");
}

Credential credentialFromName(const QString& name) {
    if (name == QLatin1String("key"))
        return Credential::SharedKey;
    if (name == QLatin1String("signature"))
        return Credential::SignatureOnly;
    return Credential::None;
}

// The string's public parts, under `prefix` in the current group.
void writeConnection(QSettings& settings, const QString& prefix,
                     const remote::ConnectionString& connection) {
    settings.setValue(prefix + QStringLiteral("host"), connection.host);
    settings.setValue(prefix + QStringLiteral("port"), connection.port);
    settings.setValue(prefix + QStringLiteral("credential"), credentialName(connection.credential));
    settings.setValue(prefix + QStringLiteral("keyName"), connection.keyName);
    settings.setValue(prefix + QStringLiteral("entityPath"), connection.entityPath);
    settings.setValue(prefix + QStringLiteral("developmentEmulator"),
                      connection.developmentEmulator);
}

std::optional<remote::ConnectionString> readConnection(QSettings& settings, const QString& prefix) {
    remote::ConnectionString connection;
    connection.host = settings.value(prefix + QStringLiteral("host")).toString();
    if (connection.host.isEmpty())
        return std::nullopt;
    const int port = settings.value(prefix + QStringLiteral("port")).toInt();
    connection.port = port >= 1 && port <= 65535 ? port : 0;
    connection.credential =
        credentialFromName(settings.value(prefix + QStringLiteral("credential")).toString());
    connection.keyName = settings.value(prefix + QStringLiteral("keyName")).toString();
    connection.entityPath = settings.value(prefix + QStringLiteral("entityPath")).toString();
    connection.developmentEmulator =
        settings.value(prefix + QStringLiteral("developmentEmulator")).toBool();
    return connection;
}

void removeSecret(remote::ConnectionString& connection) {
    connection.key.clear();
    connection.signature.clear();
}

} // namespace

bool NamespaceSecret::isEmpty() const {
    return key.isEmpty() && signature.isEmpty() && adminKey.isEmpty() && adminSignature.isEmpty();
}

QByteArray NamespaceSecret::toJson() const {
    QJsonObject object;
    object[QStringLiteral("key")] = key;
    object[QStringLiteral("signature")] = signature;
    object[QStringLiteral("adminKey")] = adminKey;
    object[QStringLiteral("adminSignature")] = adminSignature;
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

NamespaceSecret NamespaceSecret::fromJson(const QByteArray& json) {
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    NamespaceSecret secret;
    secret.key = object.value(QStringLiteral("key")).toString();
    secret.signature = object.value(QStringLiteral("signature")).toString();
    secret.adminKey = object.value(QStringLiteral("adminKey")).toString();
    secret.adminSignature = object.value(QStringLiteral("adminSignature")).toString();
    return secret;
}

SavedNamespace SavedNamespace::withSecret(const NamespaceSecret& secret) const {
    SavedNamespace full = *this;
    full.connection.key = secret.key;
    full.connection.signature = secret.signature;
    if (full.admin) {
        full.admin->key = secret.adminKey;
        full.admin->signature = secret.adminSignature;
    }
    return full;
}

NamespaceSecret SavedNamespace::secret() const {
    NamespaceSecret secret;
    secret.key = connection.key;
    secret.signature = connection.signature;
    if (admin) {
        secret.adminKey = admin->key;
        secret.adminSignature = admin->signature;
    }
    return secret;
}

SavedNamespace SavedNamespace::withoutSecret() const {
    SavedNamespace bare = *this;
    removeSecret(bare.connection);
    if (bare.admin)
        removeSecret(*bare.admin);
    return bare;
}

void writeSavedNamespace(QSettings& settings, const SavedNamespace& saved) {
    if (saved.id.isEmpty())
        return; // an empty id would name every saved namespace
    settings.remove(kGroup + QLatin1Char('/') + saved.id); // no option of an older save stays
    settings.beginGroup(kGroup);
    settings.beginGroup(saved.id);
    settings.setValue(QStringLiteral("name"), saved.name);
    writeConnection(settings, QString(), saved.connection);
    if (saved.admin)
        writeConnection(settings, QStringLiteral("admin/"), *saved.admin);
    settings.setValue(QStringLiteral("webSockets"), saved.webSockets);
    settings.setValue(QStringLiteral("readOnly"), saved.readOnly);
    settings.setValue(QStringLiteral("caFile"), saved.caFile);
    if (!saved.namedEntities.isEmpty())
        settings.setValue(QStringLiteral("namedEntities"), saved.namedEntities);
    writeEntraChoice(settings, saved.entra);
    settings.endGroup();
    settings.endGroup();
}

std::optional<SavedNamespace> readSavedNamespace(QSettings& settings, const QString& id) {
    settings.beginGroup(kGroup);
    settings.beginGroup(id);
    std::optional<SavedNamespace> result;
    if (auto connection = readConnection(settings, QString())) {
        SavedNamespace saved;
        saved.id = id;
        saved.connection = *connection;
        saved.name = settings.value(QStringLiteral("name")).toString();
        if (saved.name.isEmpty())
            saved.name = connection->displayName();
        saved.admin = readConnection(settings, QStringLiteral("admin/"));
        saved.webSockets = settings.value(QStringLiteral("webSockets")).toBool();
        saved.readOnly = settings.value(QStringLiteral("readOnly")).toBool();
        saved.caFile = settings.value(QStringLiteral("caFile")).toString();
        saved.namedEntities = settings.value(QStringLiteral("namedEntities")).toString();
        saved.entra = readEntraChoice(settings);
        result = saved;
    }
    settings.endGroup();
    settings.endGroup();
    return result;
}

QStringList savedNamespaceIds(QSettings& settings) {
    settings.beginGroup(kGroup);
    const QStringList ids = settings.childGroups();
    settings.endGroup();
    return ids;
}

void removeSavedNamespace(QSettings& settings, const QString& id) {
    if (!id.isEmpty())
        settings.remove(kGroup + QLatin1Char('/') + id);
}

} // namespace hourglass::ui
