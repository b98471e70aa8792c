#pragma once
// The OAuth 2.0 pieces of the Entra ID sign-in (EntraSignIn.h): the settings checked, the
// identity platform's v2.0 addresses, PKCE (RFC 7636, S256), form bodies, and the provider's
// JSON answers read as hostile input. No I/O here: EntraSignIn.cpp does the exchanges.

#include "AdminTransport.h"

#include "hourglass/Status.h"
#include "hourglass/remote/EntraSignIn.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrl>

#include <utility>

namespace hourglass::remote::entra {

// No answer of the identity provider comes near this (a token reply is 3 to 6 KiB).
inline constexpr qint64 kMaxProviderReplyBytes = 64 * 1024;
// Longer access or refresh tokens are refused (Entra ID's are a few KiB).
inline constexpr qsizetype kMaxTokenChars = 16 * 1024;

// InvalidArgument when the authority is neither https nor http on a loopback host, or the
// tenant or client id is empty or has characters no id or domain has.
Result<void> checkSettings(const EntraSettings& settings);

// {authority}/{tenant}/oauth2/v2.0/{endpoint}
QUrl endpointUrl(const EntraSettings& settings, const QString& endpoint);

// PKCE: a verifier of 32 bytes from the system's CSPRNG (43 base64url characters), and its
// S256 challenge. The state of a sign-in is made the same way.
QString makeVerifier();
QString challengeOf(const QString& verifier);

// The authorize address the browser opens.
QUrl authorizeUrl(const EntraSettings& settings, const QString& redirectUri, const QString& state,
                  const QString& challenge);

// A POST of an application/x-www-form-urlencoded body to `url`, answered in JSON.
HttpExchange formPost(const QUrl& url, const QList<std::pair<QString, QString>>& fields);

// The provider's answer as a JSON object: ServiceCommunicationProblem when it is not one (or
// is too large), quoting none of it.
Result<QJsonObject> jsonOf(const HttpAnswer& answer);

// The `error` of an OAuth error answer, when it is a short token of the protocol's characters
// (authorization_pending, invalid_grant, ...); empty otherwise.
QString errorCodeOf(const QJsonObject& reply);

// The provider's refusal as the window says it: access_denied as the user's decline, the rest
// as Unauthorized naming the error and a short prefix of its description.
Error refusalOf(const QJsonObject& reply);

// A token answer's grant.
struct Grant {
    QString accessToken;
    QString refreshToken; // empty when the provider gave none (then no renewal)
    qint64 expiresAt = 0; // seconds since the epoch
};
// Reads a successful token answer at `nowSeconds`: a Bearer access token of sane size and
// characters, expires_in between a minute and a day. ServiceCommunicationProblem otherwise.
Result<Grant> grantOf(const QJsonObject& reply, qint64 nowSeconds);

// A device code answer.
struct DeviceCode {
    QString deviceCode;
    DeviceCodePrompt prompt;
    int intervalSeconds = 5;
};
Result<DeviceCode> deviceCodeOf(const QJsonObject& reply);

// The sign-in's errors that are not the provider's words.
Error cancelled();
Error problem(const QString& description);

} // namespace hourglass::remote::entra
