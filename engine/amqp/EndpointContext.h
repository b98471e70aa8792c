#pragma once
// What every connection of the endpoint shares: the worker threads its broker calls run on (the
// only way to the broker: a worker job is handed it), the namespaces' keys tokens are checked
// against and the hosts their audiences may name. Owned by the endpoint's loop; connections
// hold a reference.

#include "AudienceHosts.h"
#include "WorkerPool.h"
#include "hourglass/amqp/EndpointSnapshot.h"
#include "hourglass/amqp/NamespaceKeys.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace hourglass::amqp {

// Where connections publish what the window shows of them (EndpointSnapshot.h).
struct SnapshotBoard {
    std::mutex mutex;
    std::map<quint64, WireConnection> connections; // guarded by mutex
};

struct EndpointContext {
    WorkerPool& workers;
    SasKey key;
    SnapshotBoard& board;
    std::atomic<quint64> nextId{1};
    std::shared_ptr<NamespaceKeyRing> keys; // every namespace's key (NamespaceKeys.h)
    ServedHosts hosts;                      // the audience hosts a token may name
};

} // namespace hourglass::amqp
