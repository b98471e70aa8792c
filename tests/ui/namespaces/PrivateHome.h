#pragma once
// What the namespaces tests share: the private home secret-service.sh makes for them (they skip
// without it rather than touch the user's keyring), its settings file, and a look through every
// file under it for a secret.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QUuid>

#include <memory>

namespace namespaces_test {

// The private home, or empty when the test was not started by secret-service.sh.
inline QString privateHome() {
    return qEnvironmentVariable("HOURGLASS_PRIVATE_HOME");
}

inline std::unique_ptr<QSettings>
privateSettings(const QString& name = QStringLiteral("hourglass")) {
    return std::make_unique<QSettings>(QDir(privateHome()).filePath(name + QStringLiteral(".ini")),
                                       QSettings::IniFormat);
}

// A secret no file holds by chance: a base64-looking key made for this run.
inline QString freshKey() {
    return QUuid::createUuid().toByteArray(QUuid::Id128).toBase64();
}

// The files under `folder` whose bytes contain `secret` (sockets and the like skipped).
inline QStringList filesHolding(const QString& folder, const QString& secret) {
    QStringList holding;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(secret.toUtf8()))
            holding.append(file.fileName());
    }
    return holding;
}

inline QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace namespaces_test
