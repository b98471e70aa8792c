#pragma once
// What the parts of RemoteBroker share (RemoteBroker.cpp, RemoteBrokerEntities.cpp, and the
// data plane's files): the clients, the feed, the poll and the refusals every part gives.

#include "RemoteCountsPoll.h"

#include "hourglass/ChangeFeed.h"
#include "hourglass/Clock.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/RemoteBroker.h"

#include <memory>
#include <mutex>

namespace hourglass::remote {

struct RemoteBroker::State {
    explicit State(RemoteBrokerOptions options);

    RemoteBrokerOptions options;
    AdminClient admin;
    SystemClock clock;
    ChangeFeed feed;

    mutable std::mutex listErrorMutex;
    QString listError; // guarded by listErrorMutex

    // Last: destroyed first, so that no poll runs on what is gone.
    std::unique_ptr<CountsPoll> poll;

    // The namespace's one name: the connection's display name.
    QString namespaceName() const;
    // Every entity with its counts (RemoteBroker::entities' order); keeps the failure.
    Result<QList<EntityInfo>> listEntities();
    // InvalidArgument "This connection is read-only." when it is; nothing otherwise.
    Result<void> refuseWhenReadOnly() const;
    // A change the broker made: marked at once and remembered by the poll.
    void changed(const EntityInfo& entity, bool created);
    void deleted(const QString& path);
};

// InvalidArgument: "<what> is only available on a namespace this window hosts."
Error onlyWhenHosted(const QString& what);

} // namespace hourglass::remote
