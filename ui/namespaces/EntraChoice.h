#pragma once
// Whether a saved namespace signs in with Microsoft Entra ID, and with which app registration:
// the tenant and the application (client) id of the user's own public-client registration, and
// the sign-in authority for national clouds. None of it is a secret: it lives in the settings
// with the namespace. The tokens a sign-in gets are kept in memory for the session only.

#include "hourglass/remote/EntraSignIn.h"

#include <QString>

class QSettings;

namespace hourglass::ui {

struct EntraChoice {
    bool signIn = false;     // only for a string without key or signature
    QString tenant;          // empty: any work or school account (`organizations`)
    QString clientId;        // the app registration's application (client) id
    QString authority;       // empty: Entra ID's global cloud
    bool deviceCode = false; // a code to type in any browser, rather than this machine's

    // The remote library's settings for this choice.
    remote::EntraSettings settings() const;
    bool operator==(const EntraChoice&) const = default;
};

// Under "entra/" in the settings' current group.
void writeEntraChoice(QSettings& settings, const EntraChoice& choice);
EntraChoice readEntraChoice(QSettings& settings);

} // namespace hourglass::ui
