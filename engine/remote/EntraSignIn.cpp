#include "hourglass/remote/EntraSignIn.h"

#include "AdminTransport.h"
#include "EntraProtocol.h"
#include "LoopbackRedirect.h"
#include "SignInWait.h"

#include <QDateTime>
#include <QJsonObject>

#include <mutex>

namespace hourglass::remote {

using entra::problem;

namespace {
// What the token endpoint takes for a device code (RFC 8628).
const QString kDeviceCodeGrant = QStringLiteral("urn:ietf:params:oauth:grant-type:device_code");
// How much longer to wait after the provider says slow_down (RFC 8628, 3.5).
constexpr int kSlowDownSeconds = 5;
// A token with less than this left is not handed out, even when renewing it failed.
constexpr qint64 kLastUsableSeconds = 60;

qint64 nowSeconds() {
    return QDateTime::currentSecsSinceEpoch();
}

// The provider's answer to a POST: its JSON object and HTTP status.
struct Answer {
    int status = 0;
    QJsonObject json;
    bool ok() const { return status == 200; }
};
} // namespace

struct EntraSignIn::Core {
    EntraSettings settings;
    AdminTransport http;

    std::mutex waitMutex;
    std::shared_ptr<SignInWait> currentWait; // guarded by waitMutex

    mutable std::mutex tokenMutex;
    entra::Grant grant; // guarded by tokenMutex; empty access token: not signed in

    std::mutex renewMutex; // one renewal at a time; the others wait for its token

    explicit Core(EntraSettings given)
        : settings(std::move(given))
        , http(QString(), settings.httpTimeout, QStringLiteral("sign-in service"),
               entra::kMaxProviderReplyBytes) {}

    // A new wait for a sign-in starting now; cancel() ends it.
    std::shared_ptr<SignInWait> beginWait() {
        std::lock_guard lock(waitMutex);
        if (currentWait)
            currentWait->cancel(); // one sign-in at a time: a newer one replaces it
        currentWait = std::make_shared<SignInWait>();
        return currentWait;
    }

    void cancel() {
        std::lock_guard lock(waitMutex);
        if (currentWait)
            currentWait->cancel();
    }

    Result<Answer> post(const QString& endpoint, const QList<std::pair<QString, QString>>& fields) {
        const auto answer =
            http.exchange(entra::formPost(entra::endpointUrl(settings, endpoint), fields));
        if (!answer)
            return answer.error();
        if (answer->status != 200 && answer->status != 400 && answer->status != 401)
            return problem(
                QStringLiteral("The sign-in service answered HTTP %1.").arg(answer->status));
        const auto json = entra::jsonOf(*answer);
        if (!json)
            return json.error();
        return Answer{answer->status, *json};
    }

    // Redeems a grant at the token endpoint and keeps what it gives.
    Result<void> redeem(const QList<std::pair<QString, QString>>& fields) {
        const auto answer = post(QStringLiteral("token"), fields);
        if (!answer)
            return answer.error();
        if (!answer->ok())
            return entra::refusalOf(answer->json);
        return keep(answer->json);
    }

    Result<void> keep(const QJsonObject& reply) {
        auto given = entra::grantOf(reply, nowSeconds());
        if (!given)
            return given.error();
        std::lock_guard lock(tokenMutex);
        if (given->refreshToken.isEmpty())
            given->refreshToken = grant.refreshToken; // a renewal may keep the old one
        grant = std::move(*given);
        return {};
    }

    Result<void> browserSignIn(const OpenBrowser& openBrowser) {
        if (auto checked = entra::checkSettings(settings); !checked)
            return checked.error();
        const auto wait = beginWait();
        const QString verifier = entra::makeVerifier();
        const QString state = entra::makeVerifier();
        LoopbackRedirect redirect(state, wait);
        if (auto listening = redirect.listen(); !listening)
            return listening.error();
        if (openBrowser)
            openBrowser(entra::authorizeUrl(settings, redirect.redirectUri(), state,
                                            entra::challengeOf(verifier)));
        std::optional<Result<QString>> code;
        switch (wait->waitForAnswer(settings.browserTimeout, code)) {
        case SignInWait::Outcome::Cancelled:
            return entra::cancelled();
        case SignInWait::Outcome::TimedOut:
            return makeError(ErrorCode::ServiceTimeout,
                             QStringLiteral("The browser did not come back from the sign-in "
                                            "within %1 s.")
                                 .arg(settings.browserTimeout.count() / 1000));
        case SignInWait::Outcome::Answered:
            break;
        }
        if (!*code)
            return code->error();
        return redeem({{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                       {QStringLiteral("client_id"), settings.clientId},
                       {QStringLiteral("code"), code->value()},
                       {QStringLiteral("redirect_uri"), redirect.redirectUri()},
                       {QStringLiteral("code_verifier"), verifier},
                       {QStringLiteral("scope"), settings.scope}});
    }

    Result<void> deviceCodeSignIn(const ShowDeviceCode& showCode) {
        if (auto checked = entra::checkSettings(settings); !checked)
            return checked.error();
        const auto wait = beginWait();
        const auto asked =
            post(QStringLiteral("devicecode"), {{QStringLiteral("client_id"), settings.clientId},
                                                {QStringLiteral("scope"), settings.scope}});
        if (!asked)
            return asked.error();
        if (!asked->ok())
            return entra::refusalOf(asked->json);
        const auto code = entra::deviceCodeOf(asked->json);
        if (!code)
            return code.error();
        if (showCode)
            showCode(code->prompt);
        const auto second = settings.deviceCodeSecond;
        const auto expiresAt =
            std::chrono::steady_clock::now() + code->prompt.expiresInSeconds * second;
        int interval = code->intervalSeconds;
        const Error expired = makeError(
            ErrorCode::ServiceTimeout,
            QStringLiteral("The device code expired before the sign-in was completed. Sign in "
                           "again for a new code."));
        for (;;) {
            if (!wait->sleep(interval * second))
                return entra::cancelled();
            if (std::chrono::steady_clock::now() > expiresAt)
                return expired;
            const auto answer =
                post(QStringLiteral("token"), {{QStringLiteral("grant_type"), kDeviceCodeGrant},
                                               {QStringLiteral("client_id"), settings.clientId},
                                               {QStringLiteral("device_code"), code->deviceCode}});
            if (wait->isCancelled())
                return entra::cancelled();
            if (!answer)
                return answer.error();
            if (answer->ok())
                return keep(answer->json);
            const QString error = entra::errorCodeOf(answer->json);
            if (error == QLatin1String("authorization_pending"))
                continue;
            if (error == QLatin1String("slow_down")) {
                interval = qMin(interval + kSlowDownSeconds, 60);
                continue;
            }
            if (error == QLatin1String("expired_token"))
                return expired;
            return entra::refusalOf(answer->json);
        }
    }

    void signOut() {
        std::lock_guard lock(tokenMutex);
        grant = {};
    }

    Result<AccessToken> accessToken() {
        std::lock_guard renewing(renewMutex);
        entra::Grant held;
        {
            std::lock_guard lock(tokenMutex);
            held = grant;
        }
        const qint64 now = nowSeconds();
        if (held.accessToken.isEmpty())
            return makeError(ErrorCode::Unauthorized,
                             QStringLiteral("Not signed in to Microsoft Entra ID."));
        const AccessToken current{QStringLiteral("jwt"), held.accessToken, held.expiresAt};
        if (held.expiresAt - now > settings.renewBefore.count())
            return current;
        const bool usable = held.expiresAt - now > kLastUsableSeconds;
        if (held.refreshToken.isEmpty()) {
            if (usable)
                return current;
            signOut();
            return makeError(ErrorCode::Unauthorized,
                             QStringLiteral("The Microsoft Entra ID sign-in has expired. Sign in "
                                            "again."));
        }
        const auto renewed =
            redeem({{QStringLiteral("grant_type"), QStringLiteral("refresh_token")},
                    {QStringLiteral("client_id"), settings.clientId},
                    {QStringLiteral("refresh_token"), held.refreshToken},
                    {QStringLiteral("scope"), settings.scope}});
        if (!renewed) {
            if (usable)
                return current; // the next call tries again
            // Refused (the refresh token expired or was revoked): a new sign-in is needed, and
            // isSignedIn() says so. A provider that could not be reached may answer later.
            if (renewed.error().code == ErrorCode::Unauthorized)
                signOut();
            Error error = renewed.error();
            error.description =
                QStringLiteral("The Microsoft Entra ID sign-in could not be renewed: ") +
                error.description;
            return error;
        }
        std::lock_guard lock(tokenMutex);
        return AccessToken{QStringLiteral("jwt"), grant.accessToken, grant.expiresAt};
    }
};

EntraSignIn::EntraSignIn(EntraSettings settings)
    : m_core(std::make_shared<Core>(std::move(settings))) {}

EntraSignIn::~EntraSignIn() {
    m_core->cancel();
}

const EntraSettings& EntraSignIn::settings() const {
    return m_core->settings;
}

Result<void> EntraSignIn::signInWithBrowser(const OpenBrowser& openBrowser) {
    return m_core->browserSignIn(openBrowser);
}

Result<void> EntraSignIn::signInWithDeviceCode(const ShowDeviceCode& showCode) {
    return m_core->deviceCodeSignIn(showCode);
}

void EntraSignIn::cancel() {
    m_core->cancel();
}

bool EntraSignIn::isSignedIn() const {
    std::lock_guard lock(m_core->tokenMutex);
    return !m_core->grant.accessToken.isEmpty();
}

Result<AccessToken> EntraSignIn::accessToken() {
    return m_core->accessToken();
}

TokenProvider EntraSignIn::tokenProvider() const {
    std::shared_ptr<Core> core = m_core;
    return [core](const QString&) { return core->accessToken(); };
}

BearerTokenProvider EntraSignIn::bearerTokenProvider() const {
    std::shared_ptr<Core> core = m_core;
    return [core]() -> Result<QString> {
        auto token = core->accessToken();
        if (!token)
            return token.error();
        return token->token;
    };
}

} // namespace hourglass::remote
