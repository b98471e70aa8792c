#pragma once
// What every connection of the endpoint shares: the broker it turns frames into calls on, the
// worker threads those calls run on, and the key tokens are checked against. Owned by the
// endpoint's loop; connections hold a reference.

#include "EndpointSnapshot.h"
#include "SasToken.h"
#include "WorkerPool.h"

#include <atomic>
#include <map>
#include <mutex>

namespace hourglass {
class Broker;
}

namespace hourglass::amqp {

// Where connections publish what the window shows of them (EndpointSnapshot.h).
struct SnapshotBoard {
    std::mutex mutex;
    std::map<quint64, WireConnection> connections; // guarded by mutex
};

struct EndpointContext {
    Broker& broker;
    WorkerPool& workers;
    SasKey key;
    SnapshotBoard& board;
    std::atomic<quint64> nextId{1};
};

} // namespace hourglass::amqp
