#include "EntityAddress.h"

#include "hourglass/EntityPath.h"

namespace hourglass::amqp {

namespace {
const QString kManagementSuffix = QStringLiteral("/$management");

QString withoutSchemeAndHost(QString text) {
    const qsizetype scheme = text.indexOf(QStringLiteral("://"));
    if (scheme >= 0) {
        const qsizetype slash = text.indexOf(QLatin1Char('/'), scheme + 3);
        text = slash < 0 ? QString() : text.mid(slash + 1);
    }
    while (text.startsWith(QLatin1Char('/')))
        text.remove(0, 1);
    while (text.endsWith(QLatin1Char('/')))
        text.chop(1);
    return text;
}
} // namespace

QString audiencePath(const QString& audience) {
    return withoutSchemeAndHost(audience);
}

EntityAddress parseEntityAddress(const QString& address) {
    EntityAddress parsed;
    parsed.address = address;
    QString path = withoutSchemeAndHost(address);
    if (path.compare(QStringLiteral("$cbs"), Qt::CaseInsensitive) == 0) {
        parsed.kind = EntityAddress::Kind::Cbs;
        return parsed;
    }
    parsed.kind = EntityAddress::Kind::Entity;
    if (path.endsWith(kManagementSuffix, Qt::CaseInsensitive)) {
        path.chop(kManagementSuffix.size());
        parsed.kind = EntityAddress::Kind::Management;
    }
    // The SDKs write "$DeadLetterQueue"; EntityPath gives the engine's spelling back.
    path = EntityPath::of(path).toString();
    if (path.isEmpty())
        parsed.kind = EntityAddress::Kind::Invalid;
    parsed.entityPath = path;
    return parsed;
}

} // namespace hourglass::amqp
