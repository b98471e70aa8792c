#include "AudienceHosts.h"

namespace hourglass::amqp {

namespace {
// A host as written in a URL or on a command line: brackets and a trailing port removed, lower
// case. "[::1]:5672" -> "::1", "LocalHost:5672" -> "localhost", "::1" stays (two colons or
// more: an IPv6 address without brackets has no port).
QString bareHost(QString host) {
    if (host.startsWith(u'[')) {
        const qsizetype close = host.indexOf(u']');
        host = close < 0 ? QString() : host.mid(1, close - 1);
    } else if (host.count(u':') == 1) {
        host = host.left(host.indexOf(u':'));
    }
    return host.toLower();
}

bool isIpv6Loopback(const QString& host) {
    // "::1" and its longer spellings ("0:0:0:0:0:0:0:1", "0::1"): every group zero but a last 1.
    if (!host.contains(u':'))
        return false;
    const QStringList groups = host.split(u':');
    if (groups.size() < 3 || groups.size() > 8)
        return false;
    bool ok = false;
    if (groups.last().toUInt(&ok, 16) != 1 || !ok || groups.last().size() > 4)
        return false;
    int empties = 0;
    for (qsizetype i = 0; i + 1 < groups.size(); ++i) {
        const QString& group = groups.at(i);
        if (group.isEmpty()) {
            ++empties;
            continue;
        }
        if (group.size() > 4 || group.toUInt(&ok, 16) != 0 || !ok)
            return false;
    }
    // "::" stands for the missing groups; without it all eight must be written.
    return empties > 0 || groups.size() == 8;
}
} // namespace

bool isLoopbackAddress(const QString& host) {
    const QStringList octets = host.split(u'.');
    if (octets.size() == 4) {
        for (const QString& octet : octets) {
            bool ok = false;
            const uint value = octet.toUInt(&ok, 10);
            if (!ok || octet.isEmpty() || octet.size() > 3 || value > 255)
                return false;
        }
        return octets.first().toUInt() == 127;
    }
    return isIpv6Loopback(host);
}

std::optional<Audience> parseAudience(const QString& audience) {
    const qsizetype scheme = audience.indexOf(QStringLiteral("://"));
    if (scheme <= 0)
        return std::nullopt;
    const QString rest = audience.mid(scheme + 3);
    const qsizetype slash = rest.indexOf(u'/');
    Audience parsed;
    parsed.host = bareHost(slash < 0 ? rest : rest.left(slash));
    if (parsed.host.isEmpty())
        return std::nullopt;
    QString path = slash < 0 ? QString() : rest.mid(slash + 1);
    while (path.startsWith(u'/'))
        path.remove(0, 1);
    while (path.endsWith(u'/'))
        path.chop(1);
    parsed.path = path;
    return parsed;
}

ServedHosts::ServedHosts(const QString& listenHost, const QStringList& accepted) {
    if (const QString listen = bareHost(listenHost); !listen.isEmpty())
        m_names.append(listen);
    for (const QString& name : accepted) {
        if (const QString bare = bareHost(name.trimmed()); !bare.isEmpty())
            m_names.append(bare);
    }
}

bool ServedHosts::serves(const QString& host) const {
    const QString bare = host.toLower();
    return m_names.contains(bare) || isLoopbackAddress(bare);
}

} // namespace hourglass::amqp
