#include "hourglass/tls/JwtValidator.h"

#include "JwtSignature.h"

#include <QByteArrayView>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <cmath>
#include <optional>

namespace hourglass::tls {

namespace {
// A token with more audiences than this is refused rather than looked through.
constexpr qsizetype kMaxAudiences = 16;
// Dates beyond this (the year 5138) are not dates an issuer writes: refused, never overflowed.
constexpr double kLatestDate = 1e11;

JwtCheck refused(const QString& why) {
    return JwtCheck{why, 0};
}

// The three parts of a compact JWS, each base64url without padding (RFC 7515 7.1, 2).
bool isBase64UrlText(QByteArrayView part) {
    for (const char c : part) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok)
            return false;
    }
    return !part.isEmpty();
}

std::optional<QByteArray> base64Url(QByteArrayView part) {
    if (!isBase64UrlText(part) || part.size() % 4 == 1) // 4n+1 characters encode no bytes
        return std::nullopt;
    auto decoded = QByteArray::fromBase64Encoding(
        part.toByteArray(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals |
                                QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return std::move(decoded.decoded);
}

std::optional<QJsonObject> jsonObject(QByteArrayView part) {
    const auto bytes = base64Url(part);
    if (!bytes)
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(*bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

// A NumericDate (RFC 7519 2): seconds since the epoch, fractions dropped.
std::optional<qint64> numericDate(const QJsonValue& value) {
    if (!value.isDouble())
        return std::nullopt;
    const double seconds = value.toDouble();
    if (!std::isfinite(seconds) || seconds < 0 || seconds > kLatestDate)
        return std::nullopt;
    return qint64(std::floor(seconds));
}

bool isServiceBusAudience(const QString& audience) {
    return audience == JwtValidator::kServiceBusAudience ||
           audience == JwtValidator::kServiceBusAudience + u'/';
}

// "https://host[:port][/]" or "sb://..." naming a host this namespace answers to.
bool isNamespaceAudience(const QString& audience, const ServedHost& servedHost) {
    if (!servedHost)
        return false;
    const QUrl url(audience, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("https") && scheme != QLatin1String("sb")))
        return false;
    if (!url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return false;
    if (!url.path().isEmpty() && url.path() != QLatin1String("/"))
        return false;
    const QString host = url.host().toLower();
    return !host.isEmpty() && servedHost(host);
}

bool hasAcceptedAudience(const QJsonValue& claim, const ServedHost& servedHost) {
    // One audience as a string, or several as an array of strings (RFC 7519 4.1.3).
    QJsonArray audiences;
    if (claim.isString())
        audiences.append(claim);
    else if (claim.isArray() && claim.toArray().size() <= kMaxAudiences)
        audiences = claim.toArray();
    for (const QJsonValue& value : audiences) {
        if (!value.isString())
            continue;
        const QString audience = value.toString();
        if (isServiceBusAudience(audience) || isNamespaceAudience(audience, servedHost))
            return true;
    }
    return false;
}

// The header (RFC 7515 4.1): the algorithm must be the trusted key's, and no extension the
// token says must be understood (`crit`) is.
QString headerRefusal(const QJsonObject& header, JwtAlgorithm trusted) {
    const QJsonValue alg = header.value(QLatin1String("alg"));
    if (!alg.isString())
        return QStringLiteral("The token's header names no algorithm.");
    const QString name = alg.toString();
    if (name.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("The token is not signed; unsigned tokens are refused.");
    if (name.startsWith(QLatin1String("HS"), Qt::CaseInsensitive))
        return QStringLiteral("The token is signed with a shared secret (HMAC); only the trusted "
                              "issuer's public key is accepted.");
    if (name != jwtAlgorithmName(trusted))
        return QStringLiteral("The token is not signed with %1, the trusted key's algorithm.")
            .arg(jwtAlgorithmName(trusted));
    if (header.contains(QLatin1String("crit")))
        return QStringLiteral("The token's header asks for extensions this namespace does not "
                              "know (crit).");
    return {};
}
} // namespace

JwtValidator::JwtValidator(QString issuer, std::shared_ptr<const Key> key)
    : m_issuer(std::move(issuer))
    , m_key(std::move(key)) {}

Result<JwtValidator> JwtValidator::fromPem(const QString& issuer, const QByteArray& pem) {
    if (issuer.trimmed().isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("The issuer is empty."));
    auto key = readTrustedKey(pem);
    if (!key)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("The trusted key cannot be used: %1.").arg(key.error().description));
    return JwtValidator(issuer, std::move(key.value()));
}

Result<JwtValidator> JwtValidator::fromFile(const QString& issuer, const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The trusted key file '%1' cannot be read: %2.")
                             .arg(path, file.errorString()));
    const QByteArray pem = file.read(kMaxKeyFileBytes + 1);
    if (pem.size() > kMaxKeyFileBytes)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The trusted key file '%1' is larger than %2 KiB.")
                             .arg(path)
                             .arg(kMaxKeyFileBytes / 1024));
    if (issuer.trimmed().isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("The issuer is empty."));
    auto key = readTrustedKey(pem);
    if (!key)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The trusted key file '%1' cannot be used: %2.")
                             .arg(path, key.error().description));
    return JwtValidator(issuer, std::move(key.value()));
}

QString JwtValidator::algorithm() const {
    return jwtAlgorithmName(m_key->algorithm);
}

JwtCheck JwtValidator::check(const QByteArray& token, qint64 nowSeconds,
                             const ServedHost& servedHost) const {
    if (token.size() > kMaxTokenBytes)
        return refused(QStringLiteral("The token is longer than %1 bytes.").arg(kMaxTokenBytes));
    const qsizetype firstDot = token.indexOf('.');
    const qsizetype secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
    if (secondDot < 0 || token.indexOf('.', secondDot + 1) >= 0)
        return refused(QStringLiteral("The token is not a signed JWT: it must have three parts "
                                      "separated by dots."));
    const QByteArrayView whole(token);
    const QByteArrayView headerPart = whole.first(firstDot);
    const QByteArrayView payloadPart = whole.sliced(firstDot + 1, secondDot - firstDot - 1);
    const QByteArrayView signaturePart = whole.sliced(secondDot + 1);

    const auto header = jsonObject(headerPart);
    if (!header)
        return refused(QStringLiteral("The token's header is not a JSON object in base64url."));
    if (const QString why = headerRefusal(*header, m_key->algorithm); !why.isEmpty())
        return refused(why);
    const auto signature = base64Url(signaturePart);
    if (!signature || !verifyJwtSignature(*m_key, whole.first(secondDot), *signature))
        return refused(QStringLiteral("The token's signature does not verify with the trusted "
                                      "key."));

    // Signed by the trusted key: its claims may now be read.
    const auto claims = jsonObject(payloadPart);
    if (!claims)
        return refused(QStringLiteral("The token's claims are not a JSON object in base64url."));
    const QJsonValue issuer = claims->value(QLatin1String("iss"));
    if (!issuer.isString() || issuer.toString() != m_issuer)
        return refused(QStringLiteral("The token's issuer is not the trusted one."));
    if (!hasAcceptedAudience(claims->value(QLatin1String("aud")), servedHost))
        return refused(QStringLiteral("The token's audience is neither %1 nor this namespace.")
                           .arg(kServiceBusAudience));
    const auto expires = numericDate(claims->value(QLatin1String("exp")));
    if (!expires)
        return refused(QStringLiteral("The token has no valid expiry (exp)."));
    if (*expires + kClockSkewSeconds <= nowSeconds)
        return refused(QStringLiteral("The token has expired."));
    if (claims->contains(QLatin1String("nbf"))) {
        const auto notBefore = numericDate(claims->value(QLatin1String("nbf")));
        if (!notBefore)
            return refused(QStringLiteral("The token's start of validity (nbf) is not a date."));
        if (*notBefore - kClockSkewSeconds > nowSeconds)
            return refused(QStringLiteral("The token is not valid yet."));
    }
    return JwtCheck{{}, *expires};
}

} // namespace hourglass::tls
