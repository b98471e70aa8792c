#pragma once
// HTTP(S) exchanges for the administration client: one thread of its own runs a
// QNetworkAccessManager; exchange() is called from any other thread and blocks until the
// answer, or until the deadline, never longer. One manager on one thread (rather than one per
// call on the caller's thread) keeps connections alive between calls: a tree refresh makes
// dozens of calls, and each would otherwise pay a new TCP and TLS handshake.
//
// What it decides itself: redirects are never followed (the token would go to another host), a
// reply larger than kMaxAdminReplyBytes is cut, the deadline covers the whole exchange (a server
// that trickles bytes does not extend it), and TLS verifies against the system's authorities
// plus an optional extra CA file. Failures to get an HTTP answer at all are
// ServiceCommunicationProblem; an HTTP status is the caller's to read.

#include "hourglass/Status.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <chrono>
#include <memory>
#include <utility>

namespace hourglass::remote {

// A feed page of a thousand entries is about 2 MiB; nothing the service sends is near this.
inline constexpr qint64 kMaxAdminReplyBytes = 16 * 1024 * 1024;

struct HttpExchange {
    QByteArray method; // GET, PUT, DELETE
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
};

struct HttpAnswer {
    int status = 0;
    QByteArray body;
};

class AdminTransport {
public:
    // `extraCaFile`: PEM certificates trusted besides the system's (empty: none). An unreadable
    // or empty file is reported by every exchange, so that the window says why. `peer` names the
    // server in errors ("The namespace did not answer..."); the Entra ID sign-in uses the same
    // transport for the identity provider, whose answers are far smaller (`maxReplyBytes`).
    AdminTransport(const QString& extraCaFile, std::chrono::milliseconds timeout,
                   QString peer = QStringLiteral("namespace"),
                   qint64 maxReplyBytes = kMaxAdminReplyBytes);
    // Ends the thread; exchanges still waiting are answered ServiceCommunicationProblem.
    ~AdminTransport();
    AdminTransport(const AdminTransport&) = delete;
    AdminTransport& operator=(const AdminTransport&) = delete;

    // Never call it on the transport's own thread (it would wait on itself).
    Result<HttpAnswer> exchange(const HttpExchange& request);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace hourglass::remote
