// Microsoft Entra ID sign-in (EntraSignIn) against a stand-in identity provider
// (StandInIdentityProvider.h), each sign-in on a worker as the window makes it, the test's
// browser following the redirect back to the loopback: the authorization code with PKCE, the
// device code with its pending and slow_down answers, renewal through the refresh token from
// several threads at once; and what must fail clearly, without a hang and without echoing the
// provider: a wrong verifier, a state that is not the sign-in's, a declined sign-in, a browser
// that never comes back, a cancel, an expired device code, a provider that answers garbage or is
// not there, settings that cannot work.

#include "StandInIdentityProvider.h"
#include "TestJwtIssuer.h"
#include "WorkerCall.h"

#include "hourglass/remote/EntraSignIn.h"
#include "hourglass/tls/JwtValidator.h"

#include <QTest>
#include <QTimer>

#include <future>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

EntraSettings settingsFor(const StandInIdentityProvider& provider) {
    EntraSettings settings;
    settings.authority = provider.authority();
    settings.tenant = StandInIdentityProvider::kTenant;
    settings.clientId = StandInIdentityProvider::kClientId;
    settings.httpTimeout = std::chrono::milliseconds(5000);
    settings.browserTimeout = std::chrono::milliseconds(10'000);
    settings.deviceCodeSecond = std::chrono::milliseconds(20);
    return settings;
}

// What failed, for QVERIFY2 (which reads its message even when the call succeeded).
template <typename T> QString why(const Result<T>& result) {
    return result ? QString() : result.error().toString();
}

QString field(const QUrlQuery& query, const QString& name) {
    return query.queryItemValue(name, QUrl::FullyDecoded);
}

QUrl withQueryItem(QUrl url, const QString& name, const QString& value) {
    QUrlQuery query(url);
    query.removeAllQueryItems(name);
    query.addQueryItem(name, value);
    url.setQuery(query);
    return url;
}

} // namespace

class RemoteEntraSignInTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_issuer = std::make_unique<TestJwtIssuer>();
        m_provider = std::make_unique<StandInIdentityProvider>(*m_issuer);
    }
    void cleanup() {
        m_provider.reset();
        m_issuer.reset();
    }

    void theBrowserFlowSignsInWithPkce() {
        EntraSignIn signIn(settingsFor(*m_provider));
        TestBrowser browser;
        browser.probeFirst = QStringLiteral("/favicon.ico");
        QVERIFY(!signIn.isSignedIn());
        const auto result = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY2(result.ok(), qPrintable(why(result)));
        QVERIFY(signIn.isSignedIn());

        // The authorize request: the app, a loopback redirect, an S256 challenge, a state.
        QCOMPARE(m_provider->authorizeRequests.size(), 1);
        const QUrlQuery authorize = m_provider->authorizeRequests.first();
        QCOMPARE(field(authorize, QStringLiteral("code_challenge_method")), QStringLiteral("S256"));
        QCOMPARE(field(authorize, QStringLiteral("scope")),
                 QStringLiteral("https://servicebus.azure.net/.default offline_access"));
        const QUrl redirect(field(authorize, QStringLiteral("redirect_uri")));
        QCOMPARE(redirect.host(), QStringLiteral("localhost"));
        QVERIFY(redirect.port() > 0);
        QCOMPARE(field(authorize, QStringLiteral("state")).size(), 43);
        QCOMPARE(field(authorize, QStringLiteral("code_challenge")).size(), 43);
        // The redeemed code carried the verifier of that challenge (the provider checked it).
        const QUrlQuery redeemed = m_provider->tokenRequests.last();
        QCOMPARE(field(redeemed, QStringLiteral("grant_type")),
                 QStringLiteral("authorization_code"));
        QCOMPARE(field(redeemed, QStringLiteral("code_verifier")).size(), 43);
        QVERIFY(field(redeemed, QStringLiteral("code_verifier")) !=
                field(authorize, QStringLiteral("state")));

        // The browser was told to close the tab; another path got 404 without ending anything.
        QTRY_COMPARE(browser.loopbackStatus, 200);
        QVERIFY(browser.loopbackPage.contains("close this tab"));
        QCOMPARE(browser.probeStatus, 404);

        // The token is the provider's, and a namespace trusting it takes it.
        const auto token = signIn.accessToken();
        QVERIFY(token.ok());
        QCOMPARE(token->type, QStringLiteral("jwt"));
        QCOMPARE(token->token, m_provider->issuedTokens.last());
        const auto validator =
            tls::JwtValidator::fromPem(TestJwtIssuer::kIssuer, m_issuer->publicKeyPem());
        QVERIFY(validator.ok());
        QVERIFY(
            validator->check(token->token.toLatin1(), QDateTime::currentSecsSinceEpoch()).valid());
        // No renewal while the token has long to live.
        QVERIFY(signIn.accessToken().ok());
        QCOMPARE(m_provider->refreshGrants, 0);
    }

    void aVerifierThatDoesNotMatchTheChallengeIsRefused() {
        EntraSignIn signIn(settingsFor(*m_provider));
        TestBrowser browser;
        // Someone between the window and the provider swaps the challenge for one of theirs.
        browser.rewriteAuthorize = [](QUrl url) {
            return withQueryItem(url, QStringLiteral("code_challenge"),
                                 QStringLiteral("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
        };
        const auto result = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::Unauthorized);
        QVERIFY2(result.error().description.contains(QStringLiteral("invalid_grant")),
                 qPrintable(result.error().description));
        // Only a short prefix of the provider's description.
        QVERIFY(result.error().description.contains(QStringLiteral("AADSTS501481")));
        QVERIFY(!result.error().description.contains(QStringLiteral("authorization request")));
        QVERIFY(!signIn.isSignedIn());
        QCOMPARE(signIn.accessToken().error().code, ErrorCode::Unauthorized);
    }

    void aRedirectWithAnotherStateIsRefused() {
        EntraSignIn signIn(settingsFor(*m_provider));
        TestBrowser browser;
        browser.rewriteRedirect = [](QUrl url) {
            return withQueryItem(url, QStringLiteral("state"), QStringLiteral("forged"));
        };
        const auto result = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::Unauthorized);
        QVERIFY2(result.error().description.contains(QStringLiteral("state")),
                 qPrintable(result.error().description));
        // The code was never redeemed.
        QVERIFY(m_provider->tokenRequests.isEmpty());
        QTRY_COMPARE(browser.loopbackStatus, 400);
        QVERIFY(browser.loopbackPage.contains("Sign-in failed"));
    }

    void aDeclinedSignInSaysSo() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Deny;
        EntraSignIn signIn(settingsFor(*m_provider));
        TestBrowser browser;
        const auto result = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::Unauthorized);
        QVERIFY2(result.error().description.contains(QStringLiteral("declined")),
                 qPrintable(result.error().description));
        QVERIFY(m_provider->tokenRequests.isEmpty());
    }

    void aBrowserThatNeverComesBackTimesOut() {
        EntraSettings settings = settingsFor(*m_provider);
        settings.browserTimeout = std::chrono::milliseconds(300);
        EntraSignIn signIn(settings);
        QList<QUrl> opened;
        QElapsedTimer timer;
        timer.start();
        const auto result = onWorker(
            [&] { return signIn.signInWithBrowser([&](const QUrl& url) { opened.append(url); }); });
        QCOMPARE(opened.size(), 1);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::ServiceTimeout);
        QVERIFY(timer.elapsed() < 5000);
    }

    void cancelEndsAWaitingSignIn() {
        EntraSignIn signIn(settingsFor(*m_provider));
        QElapsedTimer timer;
        timer.start();
        // Once the browser is open, the user gives up (the window's Cancel, on its thread).
        const auto result = onWorker([&] {
            return signIn.signInWithBrowser([&](const QUrl&) {
                QMetaObject::invokeMethod(
                    this, [&signIn] { signIn.cancel(); }, Qt::QueuedConnection);
            });
        });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::GeneralError);
        QVERIFY(result.error().description.contains(QStringLiteral("cancelled")));
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(m_provider->tokenRequests.isEmpty());
    }

    void theDeviceCodeFlowPollsUntilTheUserSignsIn() {
        m_provider->pendingPolls = 2;
        m_provider->slowDownOnce = true;
        EntraSignIn signIn(settingsFor(*m_provider));
        std::optional<DeviceCodePrompt> shown;
        const auto result = onWorker([&] {
            return signIn.signInWithDeviceCode(
                [&](const DeviceCodePrompt& prompt) { shown = prompt; });
        });
        QVERIFY2(result.ok(), qPrintable(why(result)));
        QVERIFY(signIn.isSignedIn());
        QVERIFY(shown);
        QVERIFY(shown->userCode.startsWith(QStringLiteral("HGLS-")));
        QCOMPARE(shown->verificationUri, QUrl(QStringLiteral("https://microsoft.com/devicelogin")));
        QCOMPARE(shown->expiresInSeconds, 900);
        // slow_down, two authorization_pending, then the token: four polls, and after slow_down
        // the interval grew by five of the provider's seconds (20 ms each here).
        const QList<qint64> polls = m_provider->devicePollTimes;
        QCOMPARE(polls.size(), 4);
        QVERIFY2(polls[1] - polls[0] >= 6 * 20 - 5,
                 qPrintable(QString::number(polls[1] - polls[0])));
        QCOMPARE(signIn.accessToken()->token, m_provider->issuedTokens.last());
    }

    void aDeclinedDeviceCodeSaysSo() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Deny;
        EntraSignIn signIn(settingsFor(*m_provider));
        const auto result = onWorker([&] { return signIn.signInWithDeviceCode({}); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::Unauthorized);
        QVERIFY(result.error().description.contains(QStringLiteral("declined")));
    }

    void anExpiredDeviceCodeSaysSo() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Expire;
        EntraSignIn signIn(settingsFor(*m_provider));
        const auto result = onWorker([&] { return signIn.signInWithDeviceCode({}); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::ServiceTimeout);
        QVERIFY(result.error().description.contains(QStringLiteral("expired")));
        QCOMPARE(m_provider->devicePollTimes.size(), 2);
    }

    void aDeviceCodeOutlivedHereEndsWithoutAskingAgain() {
        // The provider keeps saying pending; the code's own lifetime ends the polling.
        m_provider->pendingPolls = 1'000'000;
        m_provider->deviceLifetime = 10; // 200 ms here
        EntraSignIn signIn(settingsFor(*m_provider));
        const auto result = onWorker([&] { return signIn.signInWithDeviceCode({}); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::ServiceTimeout);
        QVERIFY(m_provider->devicePollTimes.size() <= 10);
    }

    void aProviderThatAnswersGarbageIsAClearError() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Garbage;
        EntraSignIn signIn(settingsFor(*m_provider));
        const auto device = onWorker([&] { return signIn.signInWithDeviceCode({}); });
        QVERIFY(!device.ok());
        QCOMPARE(device.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(!device.error().description.contains(QStringLiteral("GARBAGE")));

        // The browser comes back with a code; the token endpoint's garbage fails the redeem.
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Approve;
        TestBrowser browser;
        browser.rewriteRedirect = [this](QUrl url) {
            m_provider->behaviour = StandInIdentityProvider::Behaviour::Garbage;
            return url;
        };
        const auto browsed = onWorker([&] { return signIn.signInWithBrowser(browser.opener()); });
        QVERIFY(!browsed.ok());
        QCOMPARE(browsed.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(!browsed.error().description.contains(QStringLiteral("GARBAGE")));
        QVERIFY(!signIn.isSignedIn());
    }

    void aProviderThatIsNotThereIsAClearError() {
        EntraSettings settings = settingsFor(*m_provider);
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        settings.authority = QStringLiteral("http://127.0.0.1:%1").arg(closed.serverPort());
        closed.close();
        EntraSignIn signIn(settings);
        const auto result = onWorker([&] { return signIn.signInWithDeviceCode({}); });
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY(result.error().description.contains(QStringLiteral("sign-in service")));
    }

    void settingsThatCannotWorkAreRefusedBeforeAnything() {
        const auto refused = [this](const std::function<void(EntraSettings&)>& change) {
            EntraSettings settings = settingsFor(*m_provider);
            change(settings);
            EntraSignIn signIn(settings);
            bool opened = false;
            const auto result = signIn.signInWithBrowser([&opened](const QUrl&) { opened = true; });
            return !result.ok() && result.error().code == ErrorCode::InvalidArgument && !opened;
        };
        QVERIFY(refused([](EntraSettings& s) { s.clientId.clear(); }));
        QVERIFY(refused([](EntraSettings& s) { s.tenant = QStringLiteral("a/b?c"); }));
        QVERIFY(refused([](EntraSettings& s) { s.tenant = QStringLiteral(".."); }));
        QVERIFY(
            refused([](EntraSettings& s) { s.authority = QStringLiteral("http://example.com"); }));
        QVERIFY(refused([](EntraSettings& s) { s.authority = QStringLiteral("ftp://localhost"); }));
        QVERIFY(m_provider->authorizeRequests.isEmpty());
    }

    void tokensAreRenewedThroughTheRefreshTokenOnceForManyThreads() {
        m_provider->tokenLifetime = 120; // less than the five minutes renewBefore leaves
        EntraSignIn signIn(settingsFor(*m_provider));
        QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
        const QString first = m_provider->issuedTokens.last();

        // Both planes' providers, from worker threads at once: each call finds the token near
        // its end and renews it, one renewal at a time, each with the newest refresh token.
        const TokenProvider amqp = signIn.tokenProvider();
        const BearerTokenProvider bearer = signIn.bearerTokenProvider();
        const auto results = onWorker([&] {
            std::vector<std::future<QString>> calls;
            for (int i = 0; i < 4; ++i) {
                calls.push_back(std::async(std::launch::async, [&amqp] {
                    const auto token = amqp(QStringLiteral("sb://localhost/"));
                    return token ? token->type + u' ' + token->token : token.error().toString();
                }));
                calls.push_back(std::async(std::launch::async, [&bearer] {
                    const auto token = bearer();
                    return token ? QStringLiteral("jwt ") + *token : token.error().toString();
                }));
            }
            QStringList answers;
            for (auto& call : calls)
                answers.append(call.get());
            return answers;
        });
        QCOMPARE(m_provider->refreshGrants, 8);
        for (const QString& answer : results) {
            QVERIFY2(answer.startsWith(QStringLiteral("jwt ")), qPrintable(answer));
            QVERIFY(m_provider->issuedTokens.contains(answer.mid(4)));
            QVERIFY(answer.mid(4) != first);
        }
        // Each renewal presented the refresh token the one before it was given.
        QStringList presented;
        for (const QUrlQuery& request : m_provider->tokenRequests)
            if (field(request, QStringLiteral("grant_type")) == QLatin1String("refresh_token"))
                presented.append(field(request, QStringLiteral("refresh_token")));
        QCOMPARE(QSet<QString>(presented.begin(), presented.end()).size(), 8);
    }

    void aRevokedRefreshTokenEndsTheSignIn() {
        m_provider->tokenLifetime = 60; // at its end at once: no longer handed out unrenewed
        EntraSignIn signIn(settingsFor(*m_provider));
        QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
        QVERIFY(signIn.isSignedIn());
        m_provider->revokeRefreshTokens = true;
        const auto token = onWorker([&] { return signIn.accessToken(); });
        QVERIFY(!token.ok());
        QCOMPARE(token.error().code, ErrorCode::Unauthorized);
        QVERIFY2(token.error().description.contains(QStringLiteral("renewed")),
                 qPrintable(token.error().description));
        // The window signs in again rather than reusing it.
        QVERIFY(!signIn.isSignedIn());
        m_provider->revokeRefreshTokens = false;
        QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
        QVERIFY(signIn.isSignedIn());
    }

    void theProvidersOutliveTheSignIn() {
        m_provider->tokenLifetime = 120; // the provider's call renews it
        TokenProvider provider;
        {
            EntraSignIn signIn(settingsFor(*m_provider));
            QVERIFY(onWorker([&] { return signIn.signInWithDeviceCode({}); }).ok());
            provider = signIn.tokenProvider();
        }
        const auto token = onWorker([&] { return provider(QStringLiteral("sb://localhost/")); });
        QVERIFY(token.ok());
        QCOMPARE(m_provider->refreshGrants, 1);
        QCOMPARE(token->token, m_provider->issuedTokens.last());
        QVERIFY(qAbs(token->expiresAt - QDateTime::currentSecsSinceEpoch() - 120) <= 5);
    }

private:
    std::unique_ptr<TestJwtIssuer> m_issuer;
    std::unique_ptr<StandInIdentityProvider> m_provider;
};

QTEST_GUILESS_MAIN(RemoteEntraSignInTest)
#include "tst_remote_entra_signin.moc"
