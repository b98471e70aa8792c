#pragma once
// The calls of the administration API once a request is routed and authorized: reads
// (AdminReads.cpp) and changes (AdminWrites.cpp), each made through the Broker's public calls
// on paths qualified with the request's namespace.

#include "AdminRoutes.h"
#include "AtomWriter.h"

#include "hourglass/Broker.h"
#include "hourglass/admin/AdminApi.h"

namespace hourglass::admin {

struct CallContext {
    Broker& broker;
    ReplyContext reply;
    NamespaceInfo space;

    // "ns:path", as every Broker call takes it.
    QString qualified(const QString& path) const;
};

AdminResponse handleGet(const CallContext& call, const Route& route);
AdminResponse handlePut(const CallContext& call, const Route& route, const AdminRequest& request);
AdminResponse handleDelete(const CallContext& call, const Route& route);

// 200 or 201 with an Atom entry or feed.
AdminResponse atomResponse(int status, QByteArray body, bool feed = false);
// The number of subscriptions of each topic of the namespace, by lower-case topic path.
QHash<QString, int> subscriptionCounts(const CallContext& call);
// 405 with the methods the route takes.
AdminResponse methodNotAllowed(const Route& route);

} // namespace hourglass::admin
