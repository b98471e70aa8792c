#pragma once
// The host of a token's audience (put-token's `sr`, "sb://localhost:5672/orders") and whether
// this endpoint serves it. A token is a scope: one minted for another namespace's host must not
// open this one, even when the key happens to be the same (the emulator's well-known key is
// public). Served: localhost, the loopback addresses (127.0.0.0/8 and ::1), the host the
// endpoint listens on, and the names the user added for containers (`serve --accept-host`).
// Names are compared without case; scheme and port are ignored.

#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass::amqp {

struct Audience {
    QString host; // lower case, without port or IPv6 brackets
    QString path; // what follows the host, without leading or trailing '/'
};

// "scheme://host[:port]/path": nullopt when the text has no scheme or no host.
std::optional<Audience> parseAudience(const QString& audience);

class ServedHosts {
public:
    ServedHosts() = default;
    // `listenHost`: the address the endpoint listens on; `accepted`: names added by the user.
    ServedHosts(const QString& listenHost, const QStringList& accepted);

    // `host` as parseAudience gives it.
    bool serves(const QString& host) const;

private:
    QStringList m_names{QStringLiteral("localhost")}; // lower case
};

// Whether `host` is a loopback address: 127.0.0.0/8 in dotted decimal, or ::1.
bool isLoopbackAddress(const QString& host);

} // namespace hourglass::amqp
