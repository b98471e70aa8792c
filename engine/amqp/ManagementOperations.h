#pragma once
// The operations of `<entity>/$management` (amqp-endpoint.md's management table), as broker calls.
// Runs on a worker thread: it may wait on disk. Knows nothing of Proton: the request comes decoded
// (ManagementMessages.h) and the response goes back as values, with the locks it took or ended
// so the connection can keep its lock table (which link holds what, released when the
// connection breaks: L14).

#include "hourglass/Broker.h"
#include "hourglass/amqpcodec/ManagementMessages.h"

#include <QHash>
#include <QList>
#include <QUuid>

namespace hourglass::amqp {

struct ManagementContext {
    QString entityPath; // the link's entity, "/$deadletterqueue" included, as the client reads it
    QString namespaceName; // the namespace the link's claim placed it in
    QString brokerPath;    // "ns:entityPath": every broker call's path (NamespacedRefs.h)
    QString receiverName;  // who holds the locks receive-by-sequence-number takes
    // The locks of this connection that the request names: settling needs the receiver that
    // took them (L9). A token not here is tried as the request's own receiver's.
    QHash<QUuid, LockRef> knownLocks;
};

struct TakenLock {
    LockRef ref;
    qint64 sequenceNumber = 0;
    Instant lockedUntil = 0;
};

struct ManagementOutcome {
    ManagementResponse response;
    QList<TakenLock> locksTaken;
    QList<QUuid> locksEnded;
    QList<QPair<QUuid, Instant>> locksRenewed;
};

// The answers every management operation builds (entity, rule and session operations alike).
namespace management {
ManagementOutcome ok(QVariant body = {});
ManagementOutcome noContent(const QString& what); // 204: nothing to answer with
// `error` as its status and condition; `entityPath` names the entity in the description.
ManagementOutcome failed(const Error& error, const QString& entityPath = {});
ManagementOutcome badRequest(const QString& description); // 400, argument-error
// Integers arrive as int, uint or long depending on the SDK; a string is not one.
std::optional<qint64> integer(const QVariant& value);
std::optional<QList<qint64>> integers(const QVariant& value);
} // namespace management

ManagementOutcome runManagementOperation(Broker& broker, const ManagementRequest& request,
                                         const ManagementContext& context);

// receive-by-sequence-number's answer, for an entity or one of its sessions: each number taken
// by `take` (under a lock, completed at once in receive-and-delete mode), in order. On the first
// failure the answer is that failure (described with `failurePath`), and the locks already taken
// stay in locksTaken so that the connection tracks them. The locks are named in `context`'s
// namespace.
ManagementOutcome deferredMessagesOutcome(Broker& broker, const QList<qint64>& numbers,
                                          bool receiveAndDelete, const ManagementContext& context,
                                          const std::function<Result<MessageView>(qint64)>& take);

} // namespace hourglass::amqp
