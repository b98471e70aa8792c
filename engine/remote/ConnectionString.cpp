#include "hourglass/remote/ConnectionString.h"

#include <QHostAddress>
#include <QSet>
#include <QStringList>
#include <QUrl>

namespace hourglass::remote {

namespace {

constexpr int kPlainAmqpPort = 5672;
constexpr int kTlsAmqpPort = 5671;
constexpr int kHttpsPort = 443;
constexpr int kHttpPort = 80;

Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

bool isIpv6(const QString& host) {
    QHostAddress address;
    return address.setAddress(host) && address.protocol() == QAbstractSocket::IPv6Protocol;
}

QString hostForUrl(const QString& host) {
    return isIpv6(host) ? QStringLiteral("[%1]").arg(host) : host;
}

// Reads the Endpoint value into host and port. Only the scheme, the authority and an optional
// "/" are allowed: a path there is a mistake (EntityPath names an entity).
Result<void> readEndpoint(const QString& value, ConnectionString& out) {
    const QUrl url(value, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || scheme.isEmpty())
        return invalid(
            QStringLiteral("The Endpoint is not a URL such as sb://NAME.servicebus.windows.net/."));
    if (scheme != QLatin1String("sb") && scheme != QLatin1String("amqps") &&
        scheme != QLatin1String("amqp"))
        return invalid(QStringLiteral("The Endpoint must start with sb://, amqps:// or amqp://."));
    if (url.host().isEmpty())
        return invalid(QStringLiteral("The Endpoint names no host."));
    if (!url.path().isEmpty() && url.path() != QLatin1String("/"))
        return invalid(QStringLiteral("The Endpoint has a path; name an entity with EntityPath."));
    if (!url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return invalid(QStringLiteral("The Endpoint has parts a namespace address cannot have."));
    out.host = url.host();
    out.port = url.port(0);
    if (out.port < 0 || out.port > 65535)
        return invalid(QStringLiteral("The Endpoint's port is not between 1 and 65535."));
    return {};
}

bool isTrue(const QString& value) {
    return value.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

} // namespace

int ConnectionString::amqpPort() const {
    if (port != 0)
        return port;
    return developmentEmulator ? kPlainAmqpPort : kTlsAmqpPort;
}

int ConnectionString::adminPort() const {
    if (port != 0)
        return port;
    return developmentEmulator ? kPlainAmqpPort : kHttpsPort;
}

QString ConnectionString::adminBaseUrl() const {
    const QString scheme = usesTls() ? QStringLiteral("https") : QStringLiteral("http");
    const int schemePort = usesTls() ? kHttpsPort : kHttpPort;
    const int p = adminPort();
    const QString portText = p == schemePort ? QString() : QStringLiteral(":%1").arg(p);
    return QStringLiteral("%1://%2%3/").arg(scheme, hostForUrl(host), portText);
}

QString ConnectionString::namespaceUri() const {
    return QStringLiteral("sb://%1/").arg(hostForUrl(host));
}

QString ConnectionString::displayName() const {
    return port == 0 ? host : QStringLiteral("%1:%2").arg(hostForUrl(host)).arg(port);
}

Result<ConnectionString> parseConnectionString(const QString& text) {
    ConnectionString out;
    QSet<QString> seen;
    bool haveEndpoint = false;
    bool haveKeyName = false;
    bool haveKey = false;
    const QStringList parts = text.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        if (part.trimmed().isEmpty())
            continue;
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return invalid(QStringLiteral("Each part of a connection string is Name=Value."));
        const QString name = part.left(equals).trimmed().toLower();
        const QString value = part.mid(equals + 1).trimmed();
        if (seen.contains(name))
            return invalid(QStringLiteral("A connection string names %1 twice.").arg(name));
        seen.insert(name);
        if (name == QLatin1String("endpoint")) {
            if (Result<void> read = readEndpoint(value, out); !read)
                return read.error();
            haveEndpoint = true;
        } else if (name == QLatin1String("sharedaccesskeyname")) {
            out.keyName = value;
            haveKeyName = !value.isEmpty();
        } else if (name == QLatin1String("sharedaccesskey")) {
            out.key = value;
            haveKey = !value.isEmpty();
        } else if (name == QLatin1String("sharedaccesssignature")) {
            out.signature = value;
        } else if (name == QLatin1String("entitypath")) {
            out.entityPath = value;
        } else if (name == QLatin1String("usedevelopmentemulator")) {
            out.developmentEmulator = isTrue(value);
        }
        // Other keys (TransportType, Authentication, ...) are the SDKs' options, not ours.
    }
    if (text.trimmed().isEmpty())
        return invalid(QStringLiteral("The connection string is empty."));
    if (!haveEndpoint)
        return invalid(QStringLiteral("The connection string has no Endpoint."));
    if (haveKeyName != haveKey)
        return invalid(QStringLiteral(
            "SharedAccessKeyName and SharedAccessKey come together: the string has only one."));
    if (haveKey && !out.signature.isEmpty())
        return invalid(QStringLiteral(
            "The string has both a key and a SharedAccessSignature: keep one of them."));
    if (haveKey)
        out.credential = ConnectionString::Credential::SharedKey;
    else if (!out.signature.isEmpty())
        out.credential = ConnectionString::Credential::SignatureOnly;
    return out;
}

} // namespace hourglass::remote
