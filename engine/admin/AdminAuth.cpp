#include "AdminAuth.h"

#include "AdminErrors.h"

#include "hourglass/amqp/NamespaceKeys.h"

#include <QUrl>

#include <algorithm>

namespace hourglass::admin {

namespace {
// Entra ID's tokens run to 3 KiB; a shared access signature is far shorter.
constexpr qsizetype kMaxTokenBytes = 8192 + 16;
// "Bearer <jwt>" (RFC 6750 2.1), the scheme compared without case.
constexpr QByteArrayView kBearer = "Bearer ";

struct Scope {
    QString host;
    QStringList segments;
};

// "scheme://host[:port]/path[?query]": nullopt without a scheme or a host.
std::optional<Scope> scopeOf(const QString& audience) {
    const qsizetype scheme = audience.indexOf(QLatin1String("://"));
    if (scheme <= 0)
        return std::nullopt;
    QString rest = audience.mid(scheme + 3);
    // Every request checks its token: a scan, not a regular expression compiled each time.
    const auto end =
        std::find_if(rest.cbegin(), rest.cend(), [](QChar c) { return c == u'?' || c == u'#'; });
    rest.truncate(end - rest.cbegin());
    const qsizetype slash = rest.indexOf(u'/');
    Scope scope;
    scope.host = hostWithoutPort(slash < 0 ? rest : rest.left(slash));
    if (scope.host.isEmpty())
        return std::nullopt;
    const QString path = slash < 0 ? QString() : rest.mid(slash + 1);
    for (const QString& segment : path.split(u'/', Qt::SkipEmptyParts))
        scope.segments.append(segment);
    return scope;
}

bool covers(const QStringList& scope, const QStringList& request) {
    if (scope.size() > request.size())
        return false;
    for (qsizetype i = 0; i < scope.size(); ++i)
        if (scope.at(i).compare(request.at(i), Qt::CaseInsensitive) != 0)
            return false;
    return true;
}

Authorization refused(const QString& why) {
    return {std::nullopt, why};
}
} // namespace

QString hostWithoutPort(const QString& host) {
    QString name = host.trimmed().toLower();
    if (name.startsWith(u'[')) {
        const qsizetype close = name.indexOf(u']');
        return close < 0 ? QString() : name.mid(1, close - 1);
    }
    const qsizetype colon = name.indexOf(u':');
    if (colon >= 0 && name.indexOf(u':', colon + 1) < 0)
        name.truncate(colon);
    return name;
}

Authorization authorize(const QByteArray& authorizationHeader, const QString& host,
                        const QStringList& segments, const amqp::NamespaceKeyRing& keys,
                        qint64 nowSeconds) {
    if (authorizationHeader.isEmpty())
        return refused(QStringLiteral("The request carries no Authorization header."));
    if (authorizationHeader.size() > kMaxTokenBytes)
        return refused(QStringLiteral("The Authorization header is longer than %1 bytes.")
                           .arg(kMaxTokenBytes));
    const QByteArray header = authorizationHeader.trimmed();
    if (header.size() > kBearer.size() &&
        header.first(kBearer.size()).compare(kBearer, Qt::CaseInsensitive) == 0) {
        // A bearer token of the trusted issuer is for the whole default namespace; its audience
        // may name this host as the namespace's own URL.
        const QString requestHost = hostWithoutPort(host);
        const amqp::TokenVerdict verdict = keys.verifyJwt(
            header.sliced(kBearer.size()).trimmed(), nowSeconds,
            [&requestHost](const QString& audienceHost) { return audienceHost == requestHost; });
        if (!verdict.check.valid() || !verdict.name)
            return refused(verdict.check.description);
        return {verdict.name, {}};
    }
    const amqp::TokenVerdict verdict =
        keys.verify(QString::fromUtf8(authorizationHeader).trimmed(), nowSeconds);
    if (!verdict.check.valid() || !verdict.name)
        return refused(verdict.check.description);
    const std::optional<Scope> scope = scopeOf(verdict.check.audience);
    if (!scope)
        return refused(QStringLiteral("The token's audience '%1' is not a URL.")
                           .arg(quoted(verdict.check.audience)));
    if (scope->host != hostWithoutPort(host))
        return refused(QStringLiteral("The token is for the host '%1', not this one.")
                           .arg(quoted(scope->host)));
    if (!covers(scope->segments, segments))
        return refused(QStringLiteral("The token's audience does not cover this path."));
    return {verdict.name, {}};
}

} // namespace hourglass::admin
