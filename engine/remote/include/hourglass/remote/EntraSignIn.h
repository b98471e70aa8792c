#pragma once
// Microsoft Entra ID sign-in for a remote namespace, as a public client of the Microsoft identity
// platform's v2.0 endpoints (README.md here, "Microsoft Entra ID"): the user's own app
// registration (its tenant and application id) signs the user in, and the access token it gets
// for the Service Bus scope goes to the namespace as `jwt` on CBS and as `Bearer` on HTTPS.
//
// Two ways in: the authorization code with PKCE through the system browser and a loopback
// redirect on 127.0.0.1, or the device code for machines without a browser. Either keeps the
// refresh token in memory only, and the providers renew the access token through it before it
// expires: one sign-in serves the AMQP and the administration client alike.
//
// Threads: signIn*() block until the user is done, the sign-in times out or cancel() is called,
// so call them from a worker thread, never the GUI's. The providers are called from the
// clients' worker threads, several at once; they share one renewal. The HTTP runs on a thread of
// the sign-in's own, through the system's proxy. Every answer of the identity provider is
// hostile: bounded, its JSON checked, and an error quotes only a short prefix of what it said.

#include "hourglass/Status.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"

#include <QString>
#include <QUrl>

#include <chrono>
#include <functional>
#include <memory>

namespace hourglass::remote {

struct EntraSettings {
    // The identity platform's base address: https, or plain http on a loopback host only (a
    // stand-in provider on this machine).
    QString authority = QStringLiteral("https://login.microsoftonline.com");
    // The directory: its id or domain, or `organizations` (any work or school account).
    QString tenant = QStringLiteral("organizations");
    // The application (client) id of the user's public-client app registration.
    QString clientId;
    // The Service Bus scope, and a refresh token to renew the access token with.
    QString scope = QStringLiteral("https://servicebus.azure.net/.default offline_access");

    // One exchange with the identity provider, at most.
    std::chrono::milliseconds httpTimeout{30'000};
    // How long the browser flow waits for the user to come back to the loopback redirect.
    std::chrono::milliseconds browserTimeout{5 * 60'000};
    // An access token is renewed when less than this is left of it.
    std::chrono::seconds renewBefore{300};
    // What one second of the device code's intervals and lifetime lasts here. Only tests
    // shorten it, so that polling and expiry take milliseconds rather than minutes.
    std::chrono::milliseconds deviceCodeSecond{1000};
};

// What the user is asked to do for the device code flow: open `verificationUri` in any browser,
// on any machine, and type `userCode` there.
struct DeviceCodePrompt {
    QString userCode;
    QUrl verificationUri;
    int expiresInSeconds = 0;
};

class EntraSignIn {
public:
    using OpenBrowser = std::function<void(const QUrl& authorizeUrl)>;
    using ShowDeviceCode = std::function<void(const DeviceCodePrompt& prompt)>;

    explicit EntraSignIn(EntraSettings settings);
    // Cancels a sign-in under way. The providers handed out keep working without it.
    ~EntraSignIn();
    EntraSignIn(const EntraSignIn&) = delete;
    EntraSignIn& operator=(const EntraSignIn&) = delete;

    const EntraSettings& settings() const;

    // The authorization code flow with PKCE (S256): listens on 127.0.0.1 on a port of the
    // system's choosing, hands the authorize address (redirect `http://localhost:<port>/`) to
    // `openBrowser` (on this thread: the window passes it on to QDesktopServices::openUrl), waits
    // for the browser to come back with the code and this sign-in's state, and redeems it.
    // Unauthorized when the user or the provider refuses, or the redirect is not this sign-in's;
    // ServiceTimeout when nobody comes back in time; GeneralError when cancelled;
    // ServiceCommunicationProblem when the provider cannot be reached or understood;
    // InvalidArgument when the settings are not usable.
    Result<void> signInWithBrowser(const OpenBrowser& openBrowser);
    // The device code flow: asks for a code, hands it to `showCode` (on this thread), then polls
    // for the user's answer at the provider's interval (slowing down when told to) until it is
    // given, declined, expired or cancelled. Errors as above.
    Result<void> signInWithDeviceCode(const ShowDeviceCode& showCode);
    // Ends the sign-in under way, if any (from any thread): it returns GeneralError at once.
    void cancel();

    // False before a sign-in, and again once the provider refused to renew its token.
    bool isSignedIn() const;
    // An access token with more than `renewBefore` left: the one held, or a new one through the
    // refresh token. Unauthorized when not signed in or the provider no longer renews.
    Result<AccessToken> accessToken();

    // For AmqpClientOptions::tokenProvider and AdminClientOptions::tokenProvider: tokens of this
    // sign-in (type `jwt`), whatever the audience (the Service Bus scope serves every namespace
    // the user may reach). They share this sign-in's state and outlive it.
    TokenProvider tokenProvider() const;
    BearerTokenProvider bearerTokenProvider() const;

    struct Core;

private:
    std::shared_ptr<Core> m_core;
};

} // namespace hourglass::remote
