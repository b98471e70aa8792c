#pragma once
// The administration API of Service Bus (what ServiceBusAdministrationClient speaks: ATOM XML
// over HTTP), without any transport: a request as the HTTP layer read it goes in, the response to
// write goes out. Every request carries a shared access signature, checked with the keys of the
// namespaces (the AMQP endpoint's NamespaceKeyRing: the key that verifies a token names the
// namespace the request is for). Entities are created, read, updated, listed and deleted through
// the Broker's public calls only, so the window and the AMQP endpoint see them at once through the
// broker's change feed.
//
// Threads: handle() may be called from any thread (the Broker is thread-safe and AdminApi keeps
// no state of its own between calls). It may wait on disk (a create is durable when it returns).

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace hourglass {
class Broker;
}

namespace hourglass::amqp {
class NamespaceKeyRing;
}

namespace hourglass::admin {

// HTTP header fields in the order they came; names compare without regard to case.
using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// The value of the first field named `name` (any case); empty when there is none.
QByteArray headerValue(const HeaderList& headers, const QByteArray& name);

struct AdminRequest {
    QByteArray method; // "GET", "PUT", "DELETE"
    QByteArray target; // path and query as sent: "/orders?api-version=2021-05"
    HeaderList headers;
    QByteArray body;
    QString host;       // the Host header ("localhost:5671"), or the name the listener answers to
    bool secure = true; // https (the ids of the replies use the scheme the client used)
};

struct AdminResponse {
    int status = 200;
    HeaderList headers;
    QByteArray body;

    QByteArray header(const QByteArray& name) const { return headerValue(headers, name); }
};

// Bodies larger than this are refused with 413 before a byte of them is parsed. The largest
// description a client sends (a rule with a 1,024-character filter, action and parameters) is a
// few kilobytes.
inline constexpr qsizetype kMaxAdminBodyBytes = 1024 * 1024;

class AdminApi {
public:
    // `keys` must outlive the AdminApi and be refreshed by its owner when namespaces change
    // (NamespaceKeyRing::refresh), as the AMQP endpoint does.
    AdminApi(Broker& broker, const amqp::NamespaceKeyRing& keys);

    AdminResponse handle(const AdminRequest& request) const;

private:
    Broker& m_broker;
    const amqp::NamespaceKeyRing& m_keys;
};

} // namespace hourglass::admin
