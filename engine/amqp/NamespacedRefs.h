#pragma once
// Lock and session references for broker calls, qualified with the namespace the link serves.
// The broker hands out messages and sessions named by their bare entity path ("orders"); a
// settlement or session call made with that bare path would be placed in the broker's first
// namespace, so every reference the endpoint keeps carries "ns:path" (EntityPath.h).

#include "hourglass/Broker.h"
#include "hourglass/EntityPath.h"

namespace hourglass::amqp {

// `path` in `namespaceName`, unless it names its namespace already.
inline QString inNamespace(const QString& namespaceName, const QString& path) {
    const EntityPath parts = EntityPath::of(path);
    return parts.isQualified() ? parts.toString() : qualifiedPath(namespaceName, parts.path());
}

// The entity path without its namespace, as the window's lock rows and the client show it.
inline QString withoutNamespace(const QString& path) {
    return EntityPath::of(path).path();
}

inline LockRef lockIn(const QString& namespaceName, const MessageView& message) {
    LockRef ref = LockRef::of(message);
    ref.entityPath = inNamespace(namespaceName, ref.entityPath);
    return ref;
}

inline SessionRef sessionIn(const QString& namespaceName, const AcceptedSession& session) {
    SessionRef ref = SessionRef::of(session);
    ref.entityPath = inNamespace(namespaceName, ref.entityPath);
    return ref;
}

} // namespace hourglass::amqp
