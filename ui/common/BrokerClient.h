#pragma once
// The explorer's only door to the engine (the GUI thread never waits on SQLite). Every
// Broker call runs on a small worker pool; its result comes back on the thread of a context
// object (normally the GUI thread), and is dropped if that object is gone. Callers that may see
// stale replies (a list that changed entity meanwhile) carry their own generation token.
//
// The client also drives time: a timer asks the engine to fire what fell due (Broker::runDue) a
// few times a second, off the GUI thread, so a countdown that reaches zero turns into an expiry.
//
// Threads: create and use from the GUI thread. The Broker itself is thread-safe.

#include "hourglass/Broker.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <memory>
#include <type_traits>

namespace hourglass::ui {

class BrokerClient : public QObject {
    Q_OBJECT
public:
    // Takes (or shares) the broker: a scenario being played in the window keeps it too, and the
    // broker closes when its last owner lets go. Its change feed is moved to this object's thread
    // so that `changed` arrives there.
    explicit BrokerClient(std::shared_ptr<Broker> broker, QObject* parent = nullptr);
    // Waits for calls still running, then lets go of the broker.
    ~BrokerClient() override;

    // Runs work(broker) on a worker thread, then done(result) on context's thread (skipped when
    // context was destroyed meanwhile).
    template <typename Work, typename Done> void call(QObject* context, Work work, Done done) {
        using R = std::invoke_result_t<Work, Broker&>;
        QPointer<QObject> guard(context);
        Broker* broker = m_broker.get();
        m_pool.start([broker, guard, work = std::move(work), done = std::move(done)]() mutable {
            auto result = std::make_shared<R>(work(*broker));
            if (!guard)
                return;
            QMetaObject::invokeMethod(
                guard.data(),
                [guard, result, done = std::move(done)]() mutable {
                    if (guard)
                        done(std::move(*result));
                },
                Qt::QueuedConnection);
        });
    }

    // The broker's clock: reading now() never blocks on the broker.
    Clock& clock() const { return m_broker->clock(); }
    // The clock as a VirtualClock, or null for the system clock.
    VirtualClock* virtualClock() const;
    QString databasePath() const { return m_broker->databasePath(); }
    // How a namespace the window does not host is named to the user ("\"Served\"
    // (localhost:5671)"), set by whoever opened it; empty for the window's own database.
    void setRemoteLabel(const QString& label) { m_remoteLabel = label; }
    QString remoteLabel() const { return m_remoteLabel; }
    // What the namespace offers (read once: a namespace's capabilities do not change).
    BrokerCapabilities capabilities() const { return m_capabilities; }
    // The broker itself, shared: for a component that must keep it alive as long as it serves
    // it (the AMQP endpoint), not for calls from the GUI thread (use call()).
    std::shared_ptr<Broker> sharedBroker() const { return m_broker; }

    // Waits until every call started so far has finished (tests, shutdown).
    void waitForIdle();
    // Lets go of `client` without waiting on the GUI thread (a remote namespace's calls wait for
    // the wire): it stops ticking and is deleted once its calls have finished; its broker is then
    // let go on a worker thread, where closing it (a remote one closes its connection, which
    // abandons the locks it holds) may take its time.
    static void retire(std::unique_ptr<BrokerClient> client);
    // A remote namespace's connection broke at `brokeAtMs` (system time): whoever opened it
    // says so (connectionLost follows), so that panels holding its locks let them go.
    void reportConnectionLost(qint64 brokeAtMs, const QString& reason) {
        emit connectionLost(brokeAtMs, reason);
    }

signals:
    // The engine's coalesced change notifications.
    void changed(const hourglass::ChangeBatch& batch);
    // The connection to the namespace broke at `brokeAtMs`: the locks and sessions taken before
    // are gone (`reason` says so in a line).
    void connectionLost(qint64 brokeAtMs, const QString& reason);

private:
    void tick();

    std::shared_ptr<Broker> m_broker;
    BrokerCapabilities m_capabilities;
    QThreadPool m_pool;
    QTimer m_ticker;
    bool m_tickRunning = false; // GUI thread only
    QString m_remoteLabel;
};

} // namespace hourglass::ui
