#include "EntraProtocol.h"

#include "hourglass/admin/AtomCodec.h"

#include <QCryptographicHash>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRandomGenerator>
#include <QUrlQuery>

#include <array>

namespace hourglass::remote::entra {

namespace {
constexpr qint64 kMinLifetimeSeconds = 60;
constexpr qint64 kMaxLifetimeSeconds = 24 * 3600;

QByteArray base64Url(const QByteArray& bytes) {
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

bool isLoopback(const QString& host) {
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

// Ids and domains: letters, digits, '-', '.', '_'. Anything else would change the address.
bool isIdText(const QString& text) {
    if (text.isEmpty() || text.size() > 256 || text.startsWith(u'.') || text.contains(u".."))
        return false; // "." and ".." would step out of the tenant's path
    for (const QChar c : text)
        if (!(c.isLetterOrNumber() && c.unicode() < 0x80) && c != u'-' && c != u'.' && c != u'_')
            return false;
    return true;
}

// A string field of at most `maxChars` printable ASCII characters; empty when missing or not.
QString printableField(const QJsonObject& reply, const QString& name, qsizetype maxChars) {
    const QJsonValue value = reply.value(name);
    if (!value.isString())
        return {};
    const QString text = value.toString();
    if (text.size() > maxChars)
        return {};
    for (const QChar c : text)
        if (c.unicode() < 0x21 || c.unicode() > 0x7e)
            return {};
    return text;
}

// A whole number given as a JSON number or as digits in a string (the v1 endpoints write
// "3599"); -1 when neither.
qint64 numberField(const QJsonObject& reply, const QString& name) {
    const QJsonValue value = reply.value(name);
    if (value.isDouble()) {
        const double number = value.toDouble();
        return number >= 0 && number <= 1e9 ? qint64(number) : -1;
    }
    if (value.isString()) {
        bool ok = false;
        const qint64 number = value.toString().left(12).toLongLong(&ok);
        return ok && number >= 0 ? number : -1;
    }
    return -1;
}
} // namespace

Error problem(const QString& description) {
    return makeError(ErrorCode::ServiceCommunicationProblem, description);
}

Error cancelled() {
    return makeError(ErrorCode::GeneralError, QStringLiteral("The sign-in was cancelled."));
}

Result<void> checkSettings(const EntraSettings& settings) {
    const QUrl authority(settings.authority, QUrl::StrictMode);
    const bool secure = authority.scheme() == QLatin1String("https");
    const bool local = authority.scheme() == QLatin1String("http") && isLoopback(authority.host());
    if (!authority.isValid() || authority.host().isEmpty() || (!secure && !local) ||
        authority.hasQuery() || authority.hasFragment())
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The sign-in authority must be an https address."));
    if (!isIdText(settings.tenant))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The tenant must be a directory id or domain."));
    if (!isIdText(settings.clientId))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The application (client) id must be given: the id of "
                                        "your app registration."));
    if (settings.scope.trimmed().isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("The scope is empty."));
    return {};
}

QUrl endpointUrl(const EntraSettings& settings, const QString& endpoint) {
    QString base = settings.authority;
    while (base.endsWith(u'/'))
        base.chop(1);
    return QUrl(base + u'/' + settings.tenant + QStringLiteral("/oauth2/v2.0/") + endpoint);
}

QString makeVerifier() {
    std::array<quint32, 8> words{};
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    return QString::fromLatin1(base64Url(
        QByteArray(reinterpret_cast<const char*>(words.data()), qsizetype(sizeof(words)))));
}

QString challengeOf(const QString& verifier) {
    return QString::fromLatin1(
        base64Url(QCryptographicHash::hash(verifier.toLatin1(), QCryptographicHash::Sha256)));
}

QUrl authorizeUrl(const EntraSettings& settings, const QString& redirectUri, const QString& state,
                  const QString& challenge) {
    QUrl url = endpointUrl(settings, QStringLiteral("authorize"));
    QUrlQuery query;
    const auto add = [&query](const QString& name, const QString& value) {
        query.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(value)));
    };
    add(QStringLiteral("client_id"), settings.clientId);
    add(QStringLiteral("response_type"), QStringLiteral("code"));
    add(QStringLiteral("redirect_uri"), redirectUri);
    add(QStringLiteral("response_mode"), QStringLiteral("query"));
    add(QStringLiteral("scope"), settings.scope);
    add(QStringLiteral("state"), state);
    add(QStringLiteral("code_challenge"), challenge);
    add(QStringLiteral("code_challenge_method"), QStringLiteral("S256"));
    url.setQuery(query.query(QUrl::FullyEncoded), QUrl::StrictMode);
    return url;
}

HttpExchange formPost(const QUrl& url, const QList<std::pair<QString, QString>>& fields) {
    QByteArray body;
    for (const auto& [name, value] : fields) {
        if (!body.isEmpty())
            body += '&';
        body += QUrl::toPercentEncoding(name) + '=' + QUrl::toPercentEncoding(value);
    }
    return HttpExchange{
        "POST",
        url,
        {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}},
        body};
}

Result<QJsonObject> jsonOf(const HttpAnswer& answer) {
    if (answer.body.size() > kMaxProviderReplyBytes)
        return problem(QStringLiteral("The sign-in service's answer is too large."));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(answer.body, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return problem(QStringLiteral("The sign-in service answered HTTP %1 with something that "
                                      "is not an OAuth answer.")
                           .arg(answer.status));
    return document.object();
}

QString errorCodeOf(const QJsonObject& reply) {
    const QString code = printableField(reply, QStringLiteral("error"), 64);
    for (const QChar c : code)
        if (!(c.isLetterOrNumber() || c == u'_'))
            return {};
    return code;
}

Error refusalOf(const QJsonObject& reply) {
    const QString code = errorCodeOf(reply);
    if (code == QLatin1String("access_denied"))
        return makeError(ErrorCode::Unauthorized,
                         QStringLiteral("The sign-in was declined (access_denied)."));
    const QJsonValue description = reply.value(QStringLiteral("error_description"));
    QString text = QStringLiteral("Microsoft Entra ID refused the sign-in (%1)")
                       .arg(code.isEmpty() ? QStringLiteral("no error code") : code);
    if (description.isString() && !description.toString().isEmpty())
        text += QStringLiteral(": ") + admin::quotedReply(description.toString());
    return makeError(ErrorCode::Unauthorized, text + u'.');
}

Result<Grant> grantOf(const QJsonObject& reply, qint64 nowSeconds) {
    const QString type = printableField(reply, QStringLiteral("token_type"), 16);
    if (type.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) != 0)
        return problem(QStringLiteral("The sign-in service gave no bearer token."));
    Grant grant;
    grant.accessToken = printableField(reply, QStringLiteral("access_token"), kMaxTokenChars);
    if (grant.accessToken.isEmpty())
        return problem(QStringLiteral("The sign-in service gave no usable access token."));
    if (reply.contains(QStringLiteral("refresh_token"))) {
        grant.refreshToken = printableField(reply, QStringLiteral("refresh_token"), kMaxTokenChars);
        if (grant.refreshToken.isEmpty())
            return problem(QStringLiteral("The sign-in service gave an unusable refresh token."));
    }
    const qint64 lifetime = numberField(reply, QStringLiteral("expires_in"));
    if (lifetime < kMinLifetimeSeconds || lifetime > kMaxLifetimeSeconds)
        return problem(QStringLiteral("The sign-in service's token has no sane lifetime."));
    grant.expiresAt = nowSeconds + lifetime;
    return grant;
}

Result<DeviceCode> deviceCodeOf(const QJsonObject& reply) {
    DeviceCode code;
    code.deviceCode = printableField(reply, QStringLiteral("device_code"), 4096);
    code.prompt.userCode = printableField(reply, QStringLiteral("user_code"), 64);
    const QString uri = printableField(reply, QStringLiteral("verification_uri"), 512);
    code.prompt.verificationUri = QUrl(uri, QUrl::StrictMode);
    const QString scheme = code.prompt.verificationUri.scheme();
    if (code.deviceCode.isEmpty() || code.prompt.userCode.isEmpty() ||
        !code.prompt.verificationUri.isValid() ||
        (scheme != QLatin1String("https") && scheme != QLatin1String("http")))
        return problem(QStringLiteral("The sign-in service's device code answer is incomplete."));
    const qint64 lifetime = numberField(reply, QStringLiteral("expires_in"));
    code.prompt.expiresInSeconds = lifetime > 0 ? int(qMin<qint64>(lifetime, 3600)) : 900;
    const qint64 interval = numberField(reply, QStringLiteral("interval"));
    code.intervalSeconds = interval > 0 ? int(qMin<qint64>(interval, 60)) : 5;
    return code;
}

} // namespace hourglass::remote::entra
