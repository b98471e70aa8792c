#pragma once
// What the parts of RemoteBroker share (RemoteBroker.cpp, RemoteBrokerEntities.cpp, and the
// data plane's files): the clients, the feed, the poll and the refusals every part gives.

#include "RemoteCountsPoll.h"

#include "hourglass/ChangeFeed.h"
#include "hourglass/Clock.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/RemoteBroker.h"

#include <QSet>

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace hourglass::remote {

struct RemoteBroker::State {
    explicit State(RemoteBrokerOptions options);

    RemoteBrokerOptions options;
    AdminClient admin;
    SystemClock clock;
    ChangeFeed feed;
    std::unique_ptr<AmqpClient> amqp;

    // The sessions this broker accepted and has not released (holdsSession, releaseSessionsOf).
    mutable std::mutex sessionsMutex;
    QList<AcceptedSession> heldSessions; // guarded by sessionsMutex
    // The AMQP connection they were accepted on (AmqpClient::connectionEpoch): once it broke,
    // they went with it. Guarded by sessionsMutex.
    quint64 sessionsEpoch = 0;
    // Forgets the held sessions of a connection that broke. Under sessionsMutex.
    void dropSessionsOfBrokenConnection();

    // acceptSessionAsync's waits: each on a thread of its own, called back only while pending.
    struct WaitThread {
        std::thread thread;
        std::shared_ptr<std::atomic_bool> finished;
    };
    std::mutex waitsMutex;
    quint64 lastWaitId = 0;            // guarded by waitsMutex
    QSet<quint64> pendingWaits;        // guarded by waitsMutex
    std::list<WaitThread> waitThreads; // guarded by waitsMutex

    mutable std::mutex listErrorMutex;
    QString listError; // guarded by listErrorMutex
    // The last listing that worked: what entities() answers while the namespace cannot be
    // reached, so that the window's tree (and what is selected in it) stays. Guarded by
    // listErrorMutex.
    std::optional<QList<EntityInfo>> lastListed;

    // Last: destroyed first, so that no poll runs on what is gone.
    std::unique_ptr<CountsPoll> poll;

    // The namespace's one name (namespaceNameOf), and a path of it as the window names it: what
    // the feed marks ("contoso:orders").
    QString namespaceName() const;
    QString qualified(const QString& path) const;
    // Every entity with its counts (RemoteBroker::entities' order); keeps the failure. When
    // the API refuses the key and entities are named: the named ones, once AMQP took the key.
    Result<QList<EntityInfo>> listEntities();
    std::atomic_bool namedOnly{false};
    // The entity at `path` (unqualified, without a dead-letter suffix) from the API, or, when
    // the API refuses the key, as named (counts unknown); the API's answer otherwise.
    Result<EntityInfo> describe(const QString& path);
    // InvalidArgument "This connection is read-only." when it is; nothing otherwise.
    Result<void> refuseWhenReadOnly() const;
    // A change the broker made: marked at once and remembered by the poll.
    void changed(const EntityInfo& entity, bool created);
    void deleted(const QString& path);
    // An own send to `path` / an own receive or settlement from it: the feed hears at once.
    void sent(const QString& path);
    void taken(const QString& path);

    // Operator steps (RemoteBrokerOperator.cpp). The chosen messages of `path` as a peek reads
    // them, in the order given (unique numbers); MessageNotFound naming how many are missing.
    Result<QList<MessageView>> peekChosen(const QString& path, const QList<qint64>& numbers);
    // Sends (or, for a scheduled message, schedules) transferCopy of `message` to `target`.
    Result<SendResult> sendCopy(const MessageView& message, const QString& target);
    // Settles each chosen message of `source` on its own: its copy sent to `target` (none:
    // deleted), then the original completed. The copies' results, in the order sent.
    Result<QList<SendResult>> settleChosen(const QString& source, const QList<qint64>& numbers,
                                           const std::optional<QString>& target);
    // Set once the namespace answered that it has no batch delete: purges receive and delete.
    std::atomic_bool noBatchDelete{false};

    // Sessions (RemoteBrokerSessions.cpp): accept (read-only refused) and remember, forget and
    // release, and every session id of an entity in id order.
    Result<AcceptedSession> accept(const QString& path, const SessionAcceptOptions& accept,
                                   int waitMs);
    void hold(const AcceptedSession& session);
    void letGo(const SessionRef& session);
    Result<void> release(const SessionRef& session);
    Result<QStringList> sessionIds(const QString& path) const;
    // Ends every asynchronous accept without its callback (closing the connection under a wait
    // in flight) and waits for its thread.
    void endWaits();
};

// InvalidArgument: "<what> is only available on a namespace this window hosts."
Error onlyWhenHosted(const QString& what);

// A path as the window gives it, qualified by the namespace's name ("contoso:orders"), as the
// service knows it ("orders"): what follows the first ':' (neither a namespace name nor an entity
// path holds one). An unqualified path stays as it is.
QString unqualified(const QString& path);
LockRef unqualified(const LockRef& lock);
SessionRef unqualified(const SessionRef& session);
// The namespace's name in the window: the host's first label ("contoso" for
// contoso.servicebus.windows.net), in the letters, digits and '-' a namespace name may hold.
QString namespaceNameOf(const ConnectionString& connection);

} // namespace hourglass::remote
