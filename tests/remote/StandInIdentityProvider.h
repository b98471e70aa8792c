#pragma once
// A stand-in for the Microsoft identity platform's v2.0 endpoints, for the Entra ID sign-in's
// tests: a small HTTP server on the test's thread serving /{tenant}/oauth2/v2.0/authorize (it
// checks the client id, the redirect and the S256 challenge, then redirects the browser back to
// the loopback with a code and the state), /token (the authorization code against its PKCE
// verifier, the device code, the refresh token) and /devicecode. Its access tokens are signed by
// a TestJwtIssuer (iss its kIssuer, aud the Service Bus audience), so a namespace trusting that
// issuer takes them. What it does can be turned: refuse the user, let the device code expire,
// slow the polling down, or answer garbage.
//
// TestBrowser plays the system browser: it GETs the authorize address, follows the redirect to
// the loopback, and keeps the page the loopback answered.

#include "TestJwtIssuer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSet>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

namespace hourglass::testing {

class StandInIdentityProvider : public QObject {
public:
    static inline const QString kTenant = QStringLiteral("contoso-tenant");
    static inline const QString kClientId = QStringLiteral("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");

    enum class Behaviour {
        Approve,      // the user signs in
        Deny,         // the user declines: access_denied
        Expire,       // the device code is never approved and expires: expired_token
        Garbage,      // every answer is HTML that is no OAuth answer
        StrangerKeys, // tokens signed by a key nobody trusts
    };

    explicit StandInIdentityProvider(const TestJwtIssuer& issuer)
        : m_issuer(issuer) {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }

    QString authority() const {
        return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort());
    }

    // What it does from now on.
    Behaviour behaviour = Behaviour::Approve;
    // How often a device code is answered authorization_pending before it is approved, and
    // whether one slow_down comes first.
    int pendingPolls = 2;
    bool slowDownOnce = false;
    // The lifetime of its access tokens (expires_in).
    qint64 tokenLifetime = 3600;
    // The interval and lifetime a device code announces (seconds; the client's own unit).
    int deviceInterval = 1;
    int deviceLifetime = 900;
    // Refresh tokens are refused from now on (invalid_grant), as after a revocation.
    bool revokeRefreshTokens = false;

    // What it saw.
    QList<QUrlQuery> authorizeRequests;
    QList<QUrlQuery> tokenRequests;
    QList<qint64> devicePollTimes; // ms since the first device code was issued
    int refreshGrants = 0;
    QStringList issuedTokens;

private:
    struct Authorization {
        QString challenge;
        QString redirectUri;
    };

    void read(QTcpSocket* socket) {
        QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
        socket->setProperty("buffer", buffer);
        const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return;
        const QByteArray head = buffer.left(headEnd);
        qsizetype length = 0;
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        if (buffer.size() < headEnd + 4 + length)
            return;
        const QList<QByteArray> requestLine = head.left(head.indexOf("\r\n")).split(' ');
        const QByteArray body = buffer.mid(headEnd + 4, length);
        socket->setProperty("buffer", QByteArray());
        socket->write(respond(requestLine.value(0), requestLine.value(1), body));
        socket->disconnectFromHost();
    }

    static QByteArray reply(const QByteArray& status, const QByteArray& body,
                            const QByteArray& extraHeaders = {},
                            const QByteArray& type = "application/json") {
        return "HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\n" + extraHeaders +
               "Connection: close\r\nContent-Length: " + QByteArray::number(body.size()) +
               "\r\n\r\n" + body;
    }
    static QByteArray json(const QByteArray& status, const QJsonObject& object) {
        return reply(status, QJsonDocument(object).toJson(QJsonDocument::Compact));
    }
    static QByteArray oauthError(const QString& error, const QString& description) {
        return json("400 Bad Request", {{QStringLiteral("error"), error},
                                        {QStringLiteral("error_description"), description}});
    }

    QByteArray respond(const QByteArray& method, const QByteArray& target, const QByteArray& body) {
        if (behaviour == Behaviour::Garbage)
            return reply("200 OK", "<html><body>GARBAGE-FROM-THE-PROVIDER</body></html>", {},
                         "text/html");
        const QUrl url(QStringLiteral("http://stand-in") + QString::fromLatin1(target));
        const QString prefix = u'/' + kTenant + QStringLiteral("/oauth2/v2.0/");
        if (!url.path().startsWith(prefix))
            return reply("404 Not Found", "{}");
        const QString endpoint = url.path().mid(prefix.size());
        const QUrlQuery form(QString::fromUtf8(body).replace(u'+', u' '));
        if (method == "GET" && endpoint == QLatin1String("authorize"))
            return authorize(QUrlQuery(url));
        if (method == "POST" && endpoint == QLatin1String("token"))
            return token(form);
        if (method == "POST" && endpoint == QLatin1String("devicecode"))
            return deviceCode(form);
        return reply("404 Not Found", "{}");
    }

    static QString field(const QUrlQuery& query, const QString& name) {
        return query.queryItemValue(name, QUrl::FullyDecoded);
    }

    QByteArray authorize(const QUrlQuery& query) {
        authorizeRequests.append(query);
        const QString redirect = field(query, QStringLiteral("redirect_uri"));
        if (field(query, QStringLiteral("client_id")) != kClientId ||
            field(query, QStringLiteral("response_type")) != QLatin1String("code") ||
            field(query, QStringLiteral("code_challenge_method")) != QLatin1String("S256") ||
            field(query, QStringLiteral("code_challenge")).isEmpty() ||
            !redirect.startsWith(QLatin1String("http://localhost:")))
            return reply("400 Bad Request", "not a request this app may make", {}, "text/plain");
        QUrlQuery back;
        if (behaviour == Behaviour::Deny) {
            back.addQueryItem(QStringLiteral("error"), QStringLiteral("access_denied"));
            back.addQueryItem(QStringLiteral("error_description"),
                              QStringLiteral("AADSTS65004: User declined to consent."));
        } else {
            const QString code = QStringLiteral("code-%1").arg(++m_serial);
            m_codes.insert(code, {field(query, QStringLiteral("code_challenge")), redirect});
            back.addQueryItem(QStringLiteral("code"), code);
        }
        back.addQueryItem(QStringLiteral("state"), field(query, QStringLiteral("state")));
        QUrl location(redirect);
        location.setQuery(back);
        return reply("302 Found", {}, "Location: " + location.toEncoded() + "\r\n");
    }

    QByteArray deviceCode(const QUrlQuery& form) {
        if (field(form, QStringLiteral("client_id")) != kClientId)
            return oauthError(QStringLiteral("unauthorized_client"), QStringLiteral("unknown"));
        const QString code = QStringLiteral("device-%1").arg(++m_serial);
        m_devices.insert(code, 0);
        m_deviceClock.start();
        return json("200 OK",
                    {{QStringLiteral("device_code"), code},
                     {QStringLiteral("user_code"), QStringLiteral("HGLS-%1").arg(m_serial)},
                     {QStringLiteral("verification_uri"),
                      QStringLiteral("https://microsoft.com/devicelogin")},
                     {QStringLiteral("expires_in"), deviceLifetime},
                     {QStringLiteral("interval"), deviceInterval},
                     {QStringLiteral("message"), QStringLiteral("Open the page, type the code.")}});
    }

    QByteArray token(const QUrlQuery& form) {
        tokenRequests.append(form);
        if (field(form, QStringLiteral("client_id")) != kClientId)
            return oauthError(QStringLiteral("unauthorized_client"), QStringLiteral("unknown"));
        const QString grant = field(form, QStringLiteral("grant_type"));
        if (grant == QLatin1String("authorization_code")) {
            const auto found = m_codes.constFind(field(form, QStringLiteral("code")));
            if (found == m_codes.constEnd())
                return oauthError(QStringLiteral("invalid_grant"), QStringLiteral("no code"));
            const Authorization authorization = *found;
            m_codes.remove(found.key()); // a code is redeemed once
            const QByteArray verifier = field(form, QStringLiteral("code_verifier")).toLatin1();
            const QString challenge = QString::fromLatin1(
                QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
                    .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
            if (challenge != authorization.challenge)
                return oauthError(QStringLiteral("invalid_grant"),
                                  QStringLiteral("AADSTS501481: The Code_Verifier does not match "
                                                 "the code_challenge supplied in the "
                                                 "authorization request."));
            if (field(form, QStringLiteral("redirect_uri")) != authorization.redirectUri)
                return oauthError(QStringLiteral("invalid_grant"), QStringLiteral("redirect"));
            return tokens();
        }
        if (grant == QLatin1String("urn:ietf:params:oauth:grant-type:device_code"))
            return devicePoll(field(form, QStringLiteral("device_code")));
        if (grant == QLatin1String("refresh_token")) {
            if (revokeRefreshTokens ||
                !m_refreshTokens.contains(field(form, QStringLiteral("refresh_token"))))
                return oauthError(QStringLiteral("invalid_grant"), QStringLiteral("revoked"));
            ++refreshGrants;
            return tokens();
        }
        return oauthError(QStringLiteral("unsupported_grant_type"), grant);
    }

    QByteArray devicePoll(const QString& code) {
        if (!m_devices.contains(code))
            return oauthError(QStringLiteral("invalid_grant"), QStringLiteral("no such code"));
        devicePollTimes.append(m_deviceClock.elapsed());
        const int polls = m_devices.value(code) + 1;
        m_devices.insert(code, polls);
        if (behaviour == Behaviour::Deny)
            return oauthError(QStringLiteral("access_denied"), QStringLiteral("declined"));
        if (behaviour == Behaviour::Expire)
            return oauthError(polls < 2 ? QStringLiteral("authorization_pending")
                                        : QStringLiteral("expired_token"),
                              QStringLiteral("AADSTS70020: The provided value has expired."));
        if (slowDownOnce && polls == 1)
            return oauthError(QStringLiteral("slow_down"), QStringLiteral("slow down"));
        if (polls <= pendingPolls + (slowDownOnce ? 1 : 0))
            return oauthError(QStringLiteral("authorization_pending"),
                              QStringLiteral("AADSTS70016: pending"));
        m_devices.remove(code);
        return tokens();
    }

    QByteArray tokens() {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const TestJwtIssuer& signer = behaviour == Behaviour::StrangerKeys ? m_stranger : m_issuer;
        QJsonObject claims = signer.claims(now, tokenLifetime);
        // Each token its own, as Entra ID's `uti` makes them, even two in one second.
        claims.insert(QStringLiteral("uti"), QStringLiteral("token-%1").arg(++m_serial));
        const QByteArray access = signer.sign(claims);
        const QString refresh = QStringLiteral("refresh-%1").arg(++m_serial);
        m_refreshTokens.insert(refresh);
        issuedTokens.append(QString::fromLatin1(access));
        return json("200 OK", {{QStringLiteral("token_type"), QStringLiteral("Bearer")},
                               {QStringLiteral("scope"),
                                QStringLiteral("https://servicebus.azure.net/user_impersonation")},
                               {QStringLiteral("expires_in"), tokenLifetime},
                               {QStringLiteral("access_token"), QString::fromLatin1(access)},
                               {QStringLiteral("refresh_token"), refresh}});
    }

    const TestJwtIssuer& m_issuer;
    TestJwtIssuer m_stranger;
    QTcpServer m_server;
    int m_serial = 0;
    QHash<QString, Authorization> m_codes;
    QHash<QString, int> m_devices;
    QSet<QString> m_refreshTokens;
    QElapsedTimer m_deviceClock;
};

// The system browser as the test plays it, on the test's thread: GETs the authorize address
// (after `rewriteAuthorize`, to tamper with it), reads the provider's redirect, GETs the
// loopback (after `rewriteRedirect`), and keeps the loopback's status and page.
class TestBrowser : public QObject {
public:
    std::function<QUrl(QUrl)> rewriteAuthorize = [](QUrl url) { return url; };
    std::function<QUrl(QUrl)> rewriteRedirect = [](QUrl url) { return url; };
    // First asks the loopback for this path, as a browser asks for /favicon.ico.
    QString probeFirst;

    int probeStatus = 0; // the loopback's answer to probeFirst
    int loopbackStatus = 0;
    QByteArray loopbackPage;
    QList<QUrl> opened;

    // What the sign-in calls, on its worker: the visit goes to this object's thread.
    std::function<void(const QUrl&)> opener() {
        return [this](const QUrl& url) {
            QMetaObject::invokeMethod(
                this, [this, url] { visit(url); }, Qt::QueuedConnection);
        };
    }

private:
    void visit(const QUrl& authorize) {
        opened.append(authorize);
        QNetworkRequest request(rewriteAuthorize(authorize));
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::ManualRedirectPolicy);
        QNetworkReply* reply = m_manager.get(request);
        connect(reply, &QNetworkReply::finished, this, [this, reply] {
            reply->deleteLater();
            const QUrl location = QUrl(QString::fromLatin1(reply->rawHeader("Location")));
            if (!location.isValid() || location.isEmpty())
                return;
            if (!probeFirst.isEmpty()) {
                QUrl probe = location;
                probe.setPath(probeFirst);
                probe.setQuery(QString());
                QNetworkReply* probed = m_manager.get(QNetworkRequest(probe));
                connect(probed, &QNetworkReply::finished, this, [this, probed, location] {
                    probed->deleteLater();
                    probeStatus =
                        probed->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                    comeBack(location);
                });
                return;
            }
            comeBack(location);
        });
    }

    void comeBack(const QUrl& location) {
        QNetworkReply* back = m_manager.get(QNetworkRequest(rewriteRedirect(location)));
        connect(back, &QNetworkReply::finished, this, [this, back] {
            back->deleteLater();
            loopbackStatus = back->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            loopbackPage = back->readAll();
        });
    }

    QNetworkAccessManager m_manager;
};

} // namespace hourglass::testing
