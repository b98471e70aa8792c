#include "window/LastSelection.h"

#include <QFileInfo>
#include <QSettings>
#include <QStringList>
#include <QVariantList>

namespace hourglass::ui {

namespace {
const QString kKey = QStringLiteral("window/lastSelections");
// As many databases as anyone switches between; older ones are forgotten.
constexpr int kMaxDatabases = 16;

// The same file however it was named (relative, through a link).
QString fileKey(const QString& databasePath) {
    const QFileInfo info(databasePath);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

// Newest first: [database, selection] pairs.
QVariantList stored() {
    return QSettings().value(kKey).toList();
}
} // namespace

QString lastSelection(const QString& databasePath) {
    const QString key = fileKey(databasePath);
    for (const QVariant& entry : stored()) {
        const QStringList pair = entry.toStringList();
        if (pair.size() == 2 && pair.first() == key)
            return pair.last();
    }
    return {};
}

void rememberSelection(const QString& databasePath, const QString& qualifiedPath) {
    const QString key = fileKey(databasePath);
    QVariantList entries{QStringList{key, qualifiedPath}};
    for (const QVariant& entry : stored()) {
        const QStringList pair = entry.toStringList();
        if (pair.size() == 2 && pair.first() != key && entries.size() < kMaxDatabases)
            entries.append(pair);
    }
    QSettings().setValue(kKey, entries);
}

} // namespace hourglass::ui
