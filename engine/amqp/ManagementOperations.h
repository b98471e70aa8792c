#pragma once
// The operations of `<entity>/$management` (AMQP.md's management table), as broker calls. Runs
// on a worker thread: it may wait on disk. Knows nothing of Proton: the request comes decoded
// (ManagementMessages.h) and the response goes back as values, with the locks it took or ended
// so the connection can keep its lock table (which link holds what, released when the
// connection breaks: L14).

#include "Broker.h"
#include "ManagementMessages.h"

#include <QHash>
#include <QList>
#include <QUuid>

namespace hourglass::amqp {

struct ManagementContext {
    QString entityPath;   // the link's entity, "/$deadletterqueue" included
    QString receiverName; // who holds the locks receive-by-sequence-number takes
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

ManagementOutcome runManagementOperation(Broker& broker, const ManagementRequest& request,
                                         const ManagementContext& context);

} // namespace hourglass::amqp
