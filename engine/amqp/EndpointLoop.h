#pragma once
// The proactor thread of the endpoint: it listens, accepts every connection as a raw connection
// carried by a Carrier (which reads its first bytes: AMQP goes to Proton's connection driver,
// anything else to a StreamService), hands each AMQP connection's events to its Connection, and
// retries waiting receivers when the broker's change feed says messages may have arrived.
// Internal to AmqpEndpoint.

#include "Carrier.h"
#include "ConnectionAdmission.h"
#include "EndpointContext.h"
#include "WorkerPool.h"
#include "hourglass/amqp/AmqpEndpoint.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <proton/proactor.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace hourglass::amqp {

// Where the change feed leaves the paths that gained messages for the proactor thread. Shared,
// so a notification racing with stop() never touches a freed loop.
struct ArrivalBox {
    std::mutex mutex;
    pn_proactor_t* proactor = nullptr; // guarded by mutex; null once stopped
    QSet<QString> paths;               // guarded by mutex; "ns:path", lower case
    QSet<QString> sessionPaths;        // guarded by mutex; session locks changed (lower case)
    QSet<quint64> closeRequests;       // guarded by mutex; connection ids
    // guarded by mutex; set by stop(): every connection is closed with amqp:connection:forced
    // and this description before the loop ends.
    std::optional<QString> closeAllReason;
};

class Connection;

// The limits of `options`, the overall one fitted under `descriptorLimit` (0: unknown).
AdmissionLimits admissionLimits(const EndpointOptions& options, std::size_t descriptorLimit);

class EndpointLoop final : private CarrierHost {
public:
    // `descriptorLimit`: the open-file limit in force (0: unknown); the overall connection
    // limit is fitted under it. `keys`: every namespace's key, shared with the endpoint.
    // `tls`: the certificate of the TLS port (options.tls), loaded; null without one.
    EndpointLoop(Broker& broker, const EndpointOptions& options, std::size_t descriptorLimit,
                 std::shared_ptr<NamespaceKeyRing> keys,
                 std::shared_ptr<const tls::TlsServerContext> tls = nullptr);
    ~EndpointLoop();

    // Listens on the plain port and the TLS port (when there is one); the plain port, or why
    // one of them could not be bound.
    Result<quint16> listen();
    quint16 tlsPort() const { return m_tlsPort; } // once listen() returned
    // Closes every connection with an AMQP close (amqp:connection:forced, `reason`) and waits
    // until their sockets are gone (a peer that does not answer loses its socket on the next
    // tick; at most kCloseAllTime in all), then ends the loop and waits for the broker calls
    // in flight. Safe to call twice.
    void stop(const QString& reason);
    int connectionCount() const { return m_connections.load(); }
    // The limits in force (ConnectionAdmission.h); fixed once constructed.
    const AdmissionLimits& limits() const { return m_limits; }
    // The connections as last published (a few times a second), by id.
    QList<WireConnection> connections() const;
    // Any thread: the connection is closed on the proactor thread; its locks go back (L14).
    void closeConnection(quint64 id);

private:
    void run();
    void handle(pn_event_t* event);
    void accept(pn_listener_t* listener);
    void endOfBatch(Carrier& carrier); // the connection's calls of the batch go out
    // CarrierHost: what a carrier asks of the loop.
    pn_transport_t* newAmqpTransport() override;
    void amqpEvent(Carrier& carrier, pn_event_t* event) override;
    void amqpBatchEnd(Carrier& carrier) override { endOfBatch(carrier); }
    void amqpWoken(Carrier& carrier) override;
    std::unique_ptr<StreamService> makeStreamService(Carrier& carrier,
                                                     const StreamContext& context) override;
    void amqpAfterStream(Carrier& carrier) override; // EndpointLoopLimits.cpp
    Connection* connectionOf(const Carrier& carrier) const;
    void listenerOpened(pn_listener_t* listener);
    void listenerFailed(pn_listener_t* listener, pn_condition_t* condition);
    void listenerFinished(Result<quint16> result);
    void retryWaitingReceivers();
    void scheduleNextTick();
    // EndpointLoopShutdown.cpp: stop()'s closes, asked for from any thread and carried out
    // on the proactor thread.
    void closeEveryConnection(const QString& reason);
    void closeAllNow(); // proactor thread
    void connectionGone();
    // EndpointLoopLimits.cpp: the admission of a new connection, and the ones to close.
    void admit(Carrier& carrier);
    void readmit(Carrier& carrier); // admitted again, as if it had just arrived
    void closeOverdue();
    void limitClose(Carrier* carrier, const QByteArray& condition, const QString& description);

    Broker& m_broker;
    EndpointOptions m_options;
    pn_proactor_t* m_proactor;
    pn_listener_t* m_listener = nullptr;    // the plain port's
    pn_listener_t* m_tlsListener = nullptr; // the TLS port's
    std::shared_ptr<const tls::TlsServerContext> m_tls;
    int m_listenersOpening = 0; // proactor thread
    quint16 m_port = 0;         // listened on (proactor thread, then read after listen())
    quint16 m_tlsPort = 0;
    std::unique_ptr<WorkerPool> m_workers;
    mutable SnapshotBoard m_board;
    std::unique_ptr<EndpointContext> m_context;
    std::shared_ptr<ArrivalBox> m_arrivals;
    QMetaObject::Connection m_feedConnection;
    std::thread m_thread;
    std::atomic<int> m_connections{0};
    std::unordered_map<pn_connection_t*, Connection*> m_live; // proactor thread only
    std::unordered_set<Carrier*> m_carriers;                  // proactor thread only
    Carrier* m_eventCarrier = nullptr; // whose driver's event is being handled
    AdmissionLimits m_limits;
    ConnectionAdmission m_admission;                      // proactor thread only
    std::chrono::steady_clock::time_point m_lastSnapshot; // proactor thread only
    std::chrono::steady_clock::time_point m_lastRetry;    // proactor thread only
    std::atomic<bool> m_stopped{false};
    // stop()'s close of every connection: its reason (proactor thread only, once noted), the
    // connections already told, and the wait for their sockets to go.
    std::optional<QString> m_closingAll;
    QSet<quint64> m_toldToClose;
    std::mutex m_goneMutex;
    std::condition_variable m_gone;

    std::mutex m_startMutex;
    std::condition_variable m_startDone;
    std::optional<Result<quint16>> m_startResult; // guarded by m_startMutex
};

} // namespace hourglass::amqp
