#include "EndpointLoop.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include "Connection.h"
#include "SaslMechanisms.h"
#include "hourglass/Broker.h"

#include <proton/condition.h>
#include <proton/listener.h>
#include <proton/netaddr.h>
#include <proton/transport.h>

namespace hourglass::amqp {

namespace {
// Connections publish their snapshot this often, and receivers that found nothing are retried
// every kRetryInterval even without a change notification (a lock that ran out, a scheduled
// message that became active). Both go by elapsed time, not by quiet ticks: arrivals wake the
// loop at once, and under steady traffic there is no quiet tick.
constexpr std::chrono::milliseconds kSnapshotInterval{250};
constexpr std::chrono::milliseconds kRetryInterval{1000};
// The largest frame a peer may send us; a larger message arrives in several frames.
constexpr uint32_t kMaxFrameBytes = 1024 * 1024;

// Paths are kept with their namespace: a link serves one namespace's entity (Claims.h).
QString lowerQualified(const QString& path) {
    return path.toLower();
}
} // namespace

EndpointLoop::EndpointLoop(Broker& broker, const EndpointOptions& options,
                           std::size_t descriptorLimit, std::shared_ptr<NamespaceKeyRing> keys,
                           std::shared_ptr<const tls::TlsServerContext> tls)
    : m_broker(broker)
    , m_options(options)
    , m_proactor(pn_proactor())
    , m_tls(std::move(tls))
    , m_workers(std::make_unique<WorkerPool>(broker, qMax(1, options.workerThreads)))
    , m_context(std::make_unique<EndpointContext>(*m_workers, options.key, m_board))
    , m_arrivals(std::make_shared<ArrivalBox>())
    , m_limits(admissionLimits(options, descriptorLimit))
    , m_admission(m_limits) {
    m_arrivals->proactor = m_proactor;
    m_context->keys = std::move(keys);
    m_context->hosts = ServedHosts(options.host, options.acceptedHosts);
}

EndpointLoop::~EndpointLoop() {
    stop(kShuttingDownReason);
    pn_proactor_free(m_proactor);
}

Result<quint16> EndpointLoop::listen() {
    const QByteArray host = m_options.host.toUtf8();
    const auto listenOn = [&](quint16 number) {
        char address[PN_MAX_ADDR];
        const QByteArray port = QByteArray::number(number);
        pn_proactor_addr(address, sizeof address, host.constData(), port.constData());
        pn_listener_t* listener = pn_listener();
        ++m_listenersOpening;
        pn_proactor_listen(m_proactor, listener, address, 1024);
        return listener;
    };
    m_listener = listenOn(m_options.port);
    if (m_tls && m_options.tls)
        m_tlsListener = listenOn(m_options.tls->port);

    // The feed is delivered in its own thread (the GUI's, or the headless main thread); the
    // slot only records paths and wakes the proactor.
    std::shared_ptr<ArrivalBox> arrivals = m_arrivals;
    m_feedConnection = QObject::connect(
        m_broker.changes(), &ChangeFeed::changed, m_broker.changes(),
        [arrivals, keys = m_context->keys, workers = m_workers.get()](const ChangeBatch& batch) {
            std::lock_guard lock(arrivals->mutex);
            if (!arrivals->proactor)
                return;
            // A new namespace gets its key (kept on disk: a worker makes it).
            if (batch.namespacesChanged)
                workers->submit([keys](Broker& broker) { (void)keys->refresh(broker); });
            for (const QString& path : batch.messagesAdded)
                arrivals->paths.insert(lowerQualified(path));
            for (const QString& path : batch.countsChanged)
                arrivals->paths.insert(lowerQualified(path));
            // A session lock that ran out or was lost: its link may be idle (no credit), so
            // nothing else would tell it (S5).
            for (const QString& path : batch.sessionsChanged)
                arrivals->sessionPaths.insert(lowerQualified(path));
            pn_proactor_set_timeout(arrivals->proactor, 0);
        },
        Qt::DirectConnection);

    m_thread = std::thread([this] { run(); });
    std::unique_lock lock(m_startMutex);
    m_startDone.wait(lock, [this] { return m_startResult.has_value(); });
    return *m_startResult;
}

void EndpointLoop::stop(const QString& reason) {
    if (m_stopped)
        return;
    // Applications are told why in an AMQP close before their sockets go.
    closeEveryConnection(reason);
    m_stopped = true;
    QObject::disconnect(m_feedConnection);
    {
        std::lock_guard lock(m_arrivals->mutex);
        m_arrivals->proactor = nullptr;
    }
    if (m_thread.joinable()) {
        pn_proactor_interrupt(m_proactor);
        m_thread.join();
    }
    // Every broker call in flight returns (and is durable) before the endpoint is gone.
    m_workers->waitIdle();
}

void EndpointLoop::listenerFinished(Result<quint16> result) {
    std::lock_guard lock(m_startMutex);
    if (!m_startResult)
        m_startResult = std::move(result);
    m_startDone.notify_all();
}

void EndpointLoop::run() {
    bool finished = false;
    while (!finished) {
        pn_event_batch_t* events = pn_proactor_wait(m_proactor);
        while (pn_event_t* event = pn_event_batch_next(events)) {
            if (pn_event_type(event) == PN_PROACTOR_INACTIVE && m_stopped)
                finished = true;
            handle(event);
        }
        pn_proactor_done(m_proactor, events);
    }
}

void EndpointLoop::endOfBatch(Carrier& carrier) {
    // Only a live connection: PN_TRANSPORT_CLOSED deleted the others.
    if (Connection* connection = connectionOf(carrier)) {
        connection->endOfBatch();
        // A put-token accepted in this batch: no deadline and no unauthenticated cap any more.
        if (connection->authenticated())
            m_admission.authenticated(&carrier);
    }
}

Connection* EndpointLoop::connectionOf(const Carrier& carrier) const {
    const auto live = m_live.find(carrier.amqpConnection());
    return live == m_live.end() ? nullptr : live->second;
}

void EndpointLoop::retryWaitingReceivers() {
    QSet<QString> paths;
    QSet<QString> sessionPaths;
    QSet<quint64> closing;
    {
        std::lock_guard lock(m_arrivals->mutex);
        paths.swap(m_arrivals->paths);
        sessionPaths.swap(m_arrivals->sessionPaths);
        closing.swap(m_arrivals->closeRequests);
        if (m_arrivals->closeAllReason)
            m_closingAll = m_arrivals->closeAllReason;
    }
    if (m_closingAll)
        closeAllNow();
    const auto now = std::chrono::steady_clock::now();
    const bool snapshot = now - m_lastSnapshot >= kSnapshotInterval;
    const bool retryAll = now - m_lastRetry >= kRetryInterval;
    if (snapshot)
        m_lastSnapshot = now;
    if (retryAll)
        m_lastRetry = now;
    // Those past their deadline to authenticate are told to close, and woken below.
    closeOverdue();
    // A connection's objects may only be touched while its own events are handled: note what
    // it should do and wake it.
    for (const auto& [pnConnection, connection] : m_live) {
        if (!paths.isEmpty())
            connection->noteArrivals(paths);
        if (!sessionPaths.isEmpty())
            connection->noteSessionChanges(sessionPaths);
        if (retryAll)
            connection->noteArrivals({});
        if (snapshot)
            connection->requestSnapshot();
        if (closing.contains(connection->id()))
            connection->requestClose();
    }
    // Every carrier: an AMQP connection does what it was asked and ticks its transport
    // (heartbeats out, the idle time-out in); a service ends what waited too long.
    for (Carrier* carrier : m_carriers)
        carrier->wake();
}

void EndpointLoop::scheduleNextTick() {
    // The next snapshot is due kSnapshotInterval after the last one, whatever woke us since.
    // Under the arrivals' lock: an arrival noted meanwhile keeps its immediate wake-up instead
    // of being overwritten by this later timeout.
    const auto sinceSnapshot = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - m_lastSnapshot);
    const auto wait = std::max<qint64>(1, (kSnapshotInterval - sinceSnapshot).count());
    std::lock_guard lock(m_arrivals->mutex);
    const bool pending = !m_arrivals->paths.isEmpty() || !m_arrivals->sessionPaths.isEmpty() ||
                         !m_arrivals->closeRequests.isEmpty() ||
                         (m_arrivals->closeAllReason && !m_closingAll);
    pn_proactor_set_timeout(m_proactor, pending ? 0 : pn_millis_t(wait));
}

QList<WireConnection> EndpointLoop::connections() const {
    std::lock_guard lock(m_board.mutex);
    QList<WireConnection> list;
    for (const auto& [id, connection] : m_board.connections)
        list.append(connection);
    return list;
}

void EndpointLoop::closeConnection(quint64 id) {
    std::lock_guard lock(m_arrivals->mutex);
    if (!m_arrivals->proactor)
        return;
    m_arrivals->closeRequests.insert(id);
    pn_proactor_set_timeout(m_arrivals->proactor, 0);
}

void EndpointLoop::handle(pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_LISTENER_OPEN:
        listenerOpened(pn_event_listener(event));
        return;
    case PN_LISTENER_CLOSE:
        listenerFailed(pn_event_listener(event), pn_listener_condition(pn_event_listener(event)));
        return;
    case PN_LISTENER_ACCEPT:
        accept(pn_event_listener(event));
        return;
    case PN_CONNECTION_INIT: {
        // From a carrier's driver: its first bytes were AMQP's.
        pn_connection_t* pnConnection = pn_event_connection(event);
        pn_connection_set_container(pnConnection, "hourglass");
        auto* connection = new Connection(*m_context, pnConnection, m_eventCarrier->waker(),
                                          m_eventCarrier->peer());
        pn_connection_set_context(pnConnection, connection);
        m_live.emplace(pnConnection, connection);
        return;
    }
    case PN_TRANSPORT_CLOSED: {
        pn_connection_t* pnConnection = pn_event_connection(event);
        if (auto* connection =
                pnConnection ? static_cast<Connection*>(pn_connection_get_context(pnConnection))
                             : nullptr) {
            connection->transportClosed();
            m_live.erase(pnConnection);
            delete connection;
            pn_connection_set_context(pnConnection, nullptr);
        }
        return;
    }
    case PN_PROACTOR_TIMEOUT:
        if (!m_stopped) {
            retryWaitingReceivers();
            scheduleNextTick();
        }
        return;
    case PN_PROACTOR_INTERRUPT:
        if (m_listener)
            pn_listener_close(m_listener);
        if (m_tlsListener)
            pn_listener_close(m_tlsListener);
        pn_proactor_cancel_timeout(m_proactor);
        pn_proactor_disconnect(m_proactor, nullptr);
        return;
    default:
        break;
    }
    if (pn_connection_t* pnConnection = pn_event_connection(event)) {
        if (auto* connection = static_cast<Connection*>(pn_connection_get_context(pnConnection)))
            connection->handle(event);
        return;
    }
    if (pn_raw_connection_t* raw = pn_event_raw_connection(event)) {
        auto* carrier = static_cast<Carrier*>(pn_raw_connection_get_context(raw));
        if (carrier && !carrier->handle(event)) {
            m_carriers.erase(carrier);
            m_admission.left(carrier);
            delete carrier;
            --m_connections;
            connectionGone();
        }
    }
}

void EndpointLoop::listenerOpened(pn_listener_t* listener) {
    char port[PN_MAX_ADDR];
    pn_netaddr_host_port(pn_listener_addr(listener), nullptr, 0, port, sizeof port);
    (listener == m_tlsListener ? m_tlsPort : m_port) = quint16(QByteArray(port).toUInt());
    if (--m_listenersOpening == 0) {
        listenerFinished(m_port);
        pn_proactor_set_timeout(m_proactor, pn_millis_t(kSnapshotInterval.count()));
    }
}

void EndpointLoop::listenerFailed(pn_listener_t* listener, pn_condition_t* condition) {
    const bool tls = listener == m_tlsListener;
    (tls ? m_tlsListener : m_listener) = nullptr;
    if (!pn_condition_is_set(condition))
        return; // closed by us
    // Proton repeats the address ("Address already in use - listen on host:port").
    QString why = QString::fromUtf8(pn_condition_get_description(condition));
    if (const qsizetype repeated = why.indexOf(QStringLiteral(" - listen on ")); repeated > 0)
        why.truncate(repeated);
    listenerFinished(
        Error::make(ErrorCode::GeneralError,
                    QStringLiteral("Cannot listen on %1:%2: %3")
                        .arg(m_options.host)
                        .arg(tls && m_options.tls ? m_options.tls->port : m_options.port)
                        .arg(why)));
}

void EndpointLoop::accept(pn_listener_t* listener) {
    pn_raw_connection_t* raw = pn_raw_connection();
    CarrierPort port;
    port.host = m_options.host;
    const bool tls = listener == m_tlsListener;
    port.port = tls ? m_tlsPort : m_port;
    if (tls)
        port.tls = m_tls;
    auto* carrier = new Carrier(*this, raw, std::move(port));
    pn_raw_connection_set_context(raw, carrier);
    pn_listener_raw_accept(listener, raw);
    m_carriers.insert(carrier);
    ++m_connections;
    admit(*carrier);
}

pn_transport_t* EndpointLoop::newAmqpTransport() {
    pn_transport_t* transport = pn_transport();
    pn_transport_set_server(transport);
    offerServiceBusSasl(transport);
    // The SDKs authenticate with put-token on $cbs, not with SASL; some skip SASL.
    pn_transport_require_auth(transport, false);
    // Frames larger than this are a framing error: a peer cannot make us buffer gigabytes.
    pn_transport_set_max_frame(transport, kMaxFrameBytes);
    // Sessions are numbered by channel: a begin past the last one ends the connection.
    pn_transport_set_channel_max(transport, uint16_t(kMaxSessionsPerConnection - 1));
    // A peer silent this long is dropped; the open advertises half of it. The carrier ticks
    // the transport on every wake (heartbeats out, the time-out in), a few times a second.
    if (m_options.idleTimeoutMs > 0)
        pn_transport_set_idle_timeout(transport, pn_millis_t(m_options.idleTimeoutMs));
    return transport;
}

void EndpointLoop::amqpEvent(Carrier& carrier, pn_event_t* event) {
    m_eventCarrier = &carrier;
    handle(event);
    m_eventCarrier = nullptr;
}

void EndpointLoop::amqpWoken(Carrier& carrier) {
    if (Connection* connection = connectionOf(carrier))
        connection->woken();
}

std::unique_ptr<StreamService> EndpointLoop::makeStreamService(Carrier& /*carrier*/,
                                                               const StreamContext& context) {
    if (!m_options.streamServices)
        return nullptr;
    // Not AMQP: it stays among the unauthenticated (HTTP carries a token in each request and
    // never puts one on $cbs), so that it gives up its place to a client with a key when places
    // run short; closeOverdue lets it wait again instead of dropping it, since the service has
    // time-outs of its own.
    return m_options.streamServices(context);
}

} // namespace hourglass::amqp
