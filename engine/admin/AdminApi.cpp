#include "hourglass/admin/AdminApi.h"

#include "AdminAuth.h"
#include "AdminErrors.h"
#include "AdminHandlers.h"

#include "hourglass/Broker.h"
#include "hourglass/EntityPath.h"

#include <QDateTime>

namespace hourglass::admin {

namespace {
constexpr qsizetype kMaxHost = 255;

// A Host header ends up in every id of the reply: only a name or an address, and a port.
bool plausibleHost(const QString& host) {
    if (host.isEmpty() || host.size() > kMaxHost)
        return false;
    for (const QChar c : host) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') ||
                        (c >= u'0' && c <= u'9') || c == u'.' || c == u'-' || c == u':' ||
                        c == u'[' || c == u']' || c == u'_';
        if (!ok)
            return false;
    }
    return true;
}
} // namespace

QByteArray headerValue(const HeaderList& headers, const QByteArray& name) {
    for (const auto& [key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

QString CallContext::qualified(const QString& path) const {
    return qualifiedPath(space.name, path);
}

AdminApi::AdminApi(Broker& broker, const amqp::NamespaceKeyRing& keys)
    : m_broker(broker)
    , m_keys(keys) {}

AdminResponse AdminApi::handle(const AdminRequest& request) const {
    if (request.body.size() > kMaxAdminBodyBytes)
        return errorResponse(
            413, QStringLiteral("The body is larger than %1 bytes.").arg(kMaxAdminBodyBytes));
    if (!plausibleHost(request.host))
        return errorResponse(400, QStringLiteral("The Host header is not a host name."));
    const RouteResult routed = parseRoute(request.target);
    if (!routed.route)
        return errorResponse(400, routed.error);
    const Route& route = *routed.route;
    const Authorization authorization =
        authorize(headerValue(request.headers, "Authorization"), request.host, route.segments,
                  m_keys, QDateTime::currentSecsSinceEpoch());
    if (!authorization.namespaceName)
        return errorResponse(401, authorization.refusal);

    std::optional<NamespaceInfo> space;
    for (const NamespaceInfo& info : m_broker.namespaces())
        if (info.name.compare(*authorization.namespaceName, Qt::CaseInsensitive) == 0)
            space = info;
    if (!space)
        return errorResponse(404, QStringLiteral("The namespace of this key no longer exists."));
    const QString scheme = request.secure ? QStringLiteral("https://") : QStringLiteral("http://");
    const CallContext call{
        m_broker,
        ReplyContext{scheme + request.host, request.host, space->name, m_broker.clock().now()},
        *space};

    if (request.method == "GET")
        return handleGet(call, route);
    if (request.method == "PUT")
        return handlePut(call, route, request);
    if (request.method == "DELETE")
        return handleDelete(call, route);
    return methodNotAllowed(route);
}

AdminResponse atomResponse(int status, QByteArray body, bool feed) {
    AdminResponse response;
    response.status = status;
    const QByteArray type = feed ? "application/atom+xml;type=feed;charset=utf-8"
                                 : "application/atom+xml;type=entry;charset=utf-8";
    response.headers.append(qMakePair(QByteArray("Content-Type"), type));
    response.body = std::move(body);
    return response;
}

AdminResponse methodNotAllowed(const Route& route) {
    const QByteArray allowed = route.isList() || route.kind == RouteKind::NamespaceInfo
                                   ? QByteArray("GET")
                                   : QByteArray("GET, PUT, DELETE");
    AdminResponse response = errorResponse(
        405, QStringLiteral("This path takes %1 only.").arg(QString::fromLatin1(allowed)));
    response.headers.append(qMakePair(QByteArray("Allow"), allowed));
    return response;
}

QHash<QString, int> subscriptionCounts(const CallContext& call) {
    QHash<QString, int> counts;
    for (const EntityInfo& entity : call.broker.entities(call.space.name))
        if (entity.kind == EntityKind::Subscription)
            ++counts[entity.topicPath.toLower()];
    return counts;
}

} // namespace hourglass::admin
