#include "namespaces/EntraChoice.h"

#include <QSettings>

namespace hourglass::ui {

remote::EntraSettings EntraChoice::settings() const {
    remote::EntraSettings settings;
    if (!tenant.trimmed().isEmpty())
        settings.tenant = tenant.trimmed();
    settings.clientId = clientId.trimmed();
    if (!authority.trimmed().isEmpty())
        settings.authority = authority.trimmed();
    return settings;
}

void writeEntraChoice(QSettings& settings, const EntraChoice& choice) {
    if (!choice.signIn)
        return;
    settings.beginGroup(QStringLiteral("entra"));
    settings.setValue(QStringLiteral("signIn"), true);
    settings.setValue(QStringLiteral("tenant"), choice.tenant);
    settings.setValue(QStringLiteral("clientId"), choice.clientId);
    settings.setValue(QStringLiteral("authority"), choice.authority);
    settings.setValue(QStringLiteral("deviceCode"), choice.deviceCode);
    settings.endGroup();
}

EntraChoice readEntraChoice(QSettings& settings) {
    settings.beginGroup(QStringLiteral("entra"));
    EntraChoice choice;
    choice.signIn = settings.value(QStringLiteral("signIn")).toBool();
    choice.tenant = settings.value(QStringLiteral("tenant")).toString();
    choice.clientId = settings.value(QStringLiteral("clientId")).toString();
    choice.authority = settings.value(QStringLiteral("authority")).toString();
    choice.deviceCode = settings.value(QStringLiteral("deviceCode")).toBool();
    settings.endGroup();
    return choice;
}

} // namespace hourglass::ui
