#include "ClientConnection.h"

#include "ReceiverLink.h"
#include "SenderLink.h"
#include "SocketTransport.h"
#include "WebSocketTransport.h"

#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>
#include <QUuid>

#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/sasl.h>
#include <proton/session.h>
#include <proton/transport.h>

#include <chrono>
#include <climits>
#include <cstring>

namespace hourglass::remote {

namespace {
pn_timestamp_t steadyMs() {
    return pn_timestamp_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                              .count());
}

qint64 nowSeconds() {
    return QDateTime::currentSecsSinceEpoch();
}

Error communication(const QString& description) {
    return Error::make(ErrorCode::ServiceCommunicationProblem, description);
}

// The error a peer's condition stands for, or `otherwise` when it set none.
Error conditionError(pn_condition_t* condition, const Error& otherwise) {
    if (!condition || !pn_condition_is_set(condition))
        return otherwise;
    const char* description = pn_condition_get_description(condition);
    return amqp::errorFromWire(pn_condition_get_name(condition),
                               description ? QString::fromUtf8(description) : QString());
}

// Our own idle time-out: a peer silent this long is taken for gone. Proton also sends empty
// frames often enough for the peer's own.
constexpr pn_millis_t kIdleTimeoutMs = 60000;

// While the connection is being made again, a call tries at once only if the last attempt is
// this old: the window's own calls cannot hammer a host that is gone either.
constexpr qint64 kCallAttemptGapMs = 1000;
// How many lost lock tokens are remembered (each a settlement that would say why).
constexpr qsizetype kLostLocksKept = 100'000;

QString sessionKey(const QString& entityPath, const QString& receiverName,
                   const QString& sessionId) {
    return entityPath.toLower() + QLatin1Char('\n') + receiverName + QLatin1Char('\n') + sessionId;
}
} // namespace

ClientConnection::ClientConnection(ConnectionString where, AmqpClientOptions options)
    : m_where(std::move(where))
    , m_options(std::move(options))
    , m_tokens(m_where, m_options) {
    m_openDeadline.setSingleShot(true);
    QObject::connect(&m_openDeadline, &QTimer::timeout, [this] {
        if (m_state == State::Opening)
            lose(
                communication(QStringLiteral("%1 did not complete the AMQP handshake within %2 ms.")
                                  .arg(m_where.displayName())
                                  .arg(m_options.callTimeoutMs)));
    });
    m_retry.setSingleShot(true);
    QObject::connect(&m_retry, &QTimer::timeout, [this] {
        if (m_state == State::Closed && m_lostAt.load() != 0)
            startAttempt();
    });
    m_ticks.setInterval(1000);
    QObject::connect(&m_ticks, &QTimer::timeout, [this] {
        if (m_driverUp) {
            pn_transport_tick(m_driver.transport, steadyMs());
            pump();
        }
    });
}

ClientConnection::~ClientConnection() {
    close();
}

void ClientConnection::open(Done done) {
    if (m_state == State::Open) {
        done({});
        return;
    }
    if (m_state == State::Closed && m_retry.isActive()) {
        if (steadyMs() - m_lastAttemptMs < kCallAttemptGapMs) {
            done(retryPending());
            return;
        }
        m_retry.stop();
    }
    m_opening.append(std::move(done));
    if (m_state == State::Opening)
        return;
    startAttempt();
}

void ClientConnection::startAttempt() {
    m_state = State::Opening;
    m_lastAttemptMs = qint64(steadyMs());
    m_openDeadline.start(m_options.callTimeoutMs);
    startTransport();
}

QString ClientConnection::lostWhy() const {
    std::lock_guard lock(m_whyMutex);
    return m_lostWhy;
}

Error ClientConnection::retryPending() const {
    const qint64 dueIn = std::max<qint64>(0, m_retryDueMs - qint64(steadyMs()));
    return communication(
        QStringLiteral("The connection to %1 broke at %2 and is not back yet (%3); "
                       "the next attempt is in %4 s.")
            .arg(m_where.displayName(), m_brokeAt, lostWhy())
            .arg((dueIn + 999) / 1000));
}

std::optional<Error> ClientConnection::lockLostWith(const QUuid& token) const {
    if (!m_lostLocks.contains(token))
        return std::nullopt;
    return Error::make(ErrorCode::MessageLockLost,
                       QStringLiteral("The connection to %1 broke at %2; the lock was released.")
                           .arg(m_where.displayName(), m_brokeAt));
}

std::optional<Error> ClientConnection::sessionLostWith(const QString& entityPath,
                                                       const QString& receiverName,
                                                       const QString& sessionId) const {
    if (!m_lostSessions.contains(sessionKey(entityPath, receiverName, sessionId)))
        return std::nullopt;
    return Error::make(
        ErrorCode::SessionLockLost,
        QStringLiteral("The connection to %1 broke at %2; the session lock was released.")
            .arg(m_where.displayName(), m_brokeAt));
}

void ClientConnection::startTransport() {
    m_retired.reset();
    if (m_options.webSockets)
        m_transport = std::make_unique<WebSocketTransport>(
            WebSocketEndpoint{webSocketUrl(m_where), m_options.extraCaFile});
    else
        m_transport = std::make_unique<SocketTransport>(SocketEndpoint{
            m_where.host, m_where.amqpPort(), m_where.usesTls(), m_options.extraCaFile});
    m_transport->open({[this] { opened(); }, [this](const QByteArray& bytes) { arrived(bytes); },
                       [this](const Error& why) { lose(why); }});
}

void ClientConnection::opened() {
    pn_connection_driver_init(&m_driver, nullptr, nullptr);
    m_driverUp = true;
    pn_transport_t* transport = m_driver.transport;
    // ANONYMOUS: the credential is proven afterwards, on $cbs (Service Bus and the endpoint
    // both offer it).
    pn_sasl_allowed_mechs(pn_sasl(transport), "ANONYMOUS");
    pn_transport_set_idle_timeout(transport, kIdleTimeoutMs);
    pn_connection_t* connection = m_driver.connection;
    const QByteArray container =
        "hourglass-" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    pn_connection_set_container(connection, container.constData());
    pn_connection_set_hostname(connection, m_where.host.toUtf8().constData());
    pn_connection_open(connection);
    m_session = pn_session(connection);
    pn_session_set_incoming_capacity(m_session, 0); // unlimited: we read transfers at once
    pn_session_open(m_session);
    m_ticks.start();
    pump();
}

void ClientConnection::arrived(const QByteArray& bytes) {
    qsizetype at = 0;
    while (m_driverUp && at < bytes.size()) {
        const pn_rwbytes_t buffer = pn_connection_driver_read_buffer(&m_driver);
        if (buffer.size == 0)
            break; // the driver reads no more: it is closing
        const size_t size = std::min(buffer.size, size_t(bytes.size() - at));
        std::memcpy(buffer.start, bytes.constData() + at, size);
        pn_connection_driver_read_done(&m_driver, size);
        at += qsizetype(size);
        pump();
    }
}

void ClientConnection::pump() {
    if (!m_driverUp || m_pumping)
        return;
    m_pumping = true;
    bool busy = true;
    while (busy && m_driverUp) {
        busy = false;
        while (pn_event_t* event = pn_connection_driver_next_event(&m_driver)) {
            handle(event);
            busy = true;
        }
        for (pn_bytes_t out = pn_connection_driver_write_buffer(&m_driver); out.size > 0;
             out = pn_connection_driver_write_buffer(&m_driver)) {
            m_transport->write(out.start, qint64(out.size));
            pn_connection_driver_write_done(&m_driver, out.size);
            busy = true;
        }
        if (!m_lost && pn_connection_driver_finished(&m_driver))
            m_lost = communication(
                QStringLiteral("The connection to %1 ended.").arg(m_where.displayName()));
        if (m_lost)
            break;
    }
    m_pumping = false;
    for (ReceiverLink* dead : std::exchange(m_deadReceivers, {}))
        dropReceiver(dead);
    if (m_lost) {
        const Error why = *m_lost;
        m_lost.reset();
        lose(why);
    }
}

void ClientConnection::handle(pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_CONNECTION_REMOTE_OPEN:
        if (m_state == State::Opening)
            requestToken(m_tokens.connectAudience(), [this](const Result<void>& outcome) {
                if (!outcome) {
                    lose(outcome.error());
                    return;
                }
                m_state = State::Open;
                m_open = true;
                m_openDeadline.stop();
                // Made (again): a break is over.
                m_failures = 0;
                m_lostAt = 0;
                ++m_epoch;
                {
                    std::lock_guard lock(m_whyMutex);
                    m_lostWhy.clear();
                }
                const QList<Done> waiting = std::exchange(m_opening, {});
                for (const Done& done : waiting)
                    done({});
            });
        break;
    case PN_CONNECTION_REMOTE_CLOSE:
        m_lost = conditionError(
            pn_connection_remote_condition(m_driver.connection),
            communication(QStringLiteral("%1 closed the connection.").arg(m_where.displayName())));
        pn_connection_close(m_driver.connection);
        break;
    case PN_SESSION_REMOTE_CLOSE:
        m_lost = conditionError(
            pn_session_remote_condition(pn_event_session(event)),
            communication(QStringLiteral("%1 ended the session.").arg(m_where.displayName())));
        break;
    case PN_TRANSPORT_ERROR: {
        pn_condition_t* condition = pn_transport_condition(m_driver.transport);
        const char* description = pn_condition_get_description(condition);
        m_lost = communication(QStringLiteral("%1 does not answer as an AMQP 1.0 service: %2")
                                   .arg(m_where.displayName(),
                                        amqp::quoted(description ? QString::fromUtf8(description)
                                                                 : QStringLiteral("unknown"))));
        break;
    }
    case PN_TRANSPORT_CLOSED:
        if (!m_lost)
            m_lost = communication(
                QStringLiteral("The connection to %1 closed.").arg(m_where.displayName()));
        break;
    case PN_LINK_REMOTE_OPEN:
        if (LinkEnd* handler = m_handlers.value(pn_event_link(event)))
            handler->opened(pn_event_link(event));
        break;
    case PN_LINK_FLOW:
        if (LinkEnd* handler = m_handlers.value(pn_event_link(event)))
            handler->flowed(pn_event_link(event));
        break;
    case PN_DELIVERY: {
        pn_delivery_t* delivery = pn_event_delivery(event);
        if (LinkEnd* handler = m_handlers.value(pn_delivery_link(delivery)))
            handler->delivered(delivery);
        break;
    }
    case PN_LINK_REMOTE_CLOSE:
    case PN_LINK_REMOTE_DETACH: {
        pn_link_t* link = pn_event_link(event);
        LinkEnd* handler = m_handlers.value(link);
        const Error why = conditionError(
            pn_link_remote_condition(link),
            communication(QStringLiteral("%1 closed a link.").arg(m_where.displayName())));
        m_handlers.remove(link);
        pn_link_close(link);
        if (handler)
            handler->closedByPeer(why);
        // A session receiver the peer closed (refused, or its session lock lost) is done with.
        if (auto* receiver = dynamic_cast<ReceiverLink*>(handler);
            receiver && receiver->isSessionLink())
            m_deadReceivers.append(receiver);
        break;
    }
    default:
        break;
    }
}

void ClientConnection::authorize(const QString& audience, Done whenReady) {
    open([this, audience, whenReady](const Result<void>& opened) {
        if (!opened)
            whenReady(opened);
        else
            requestToken(audience, whenReady);
    });
}

void ClientConnection::requestToken(const QString& audience, Done done) {
    Audience& entry = m_audiences[audience];
    if (entry.authorized) {
        done({});
        return;
    }
    entry.waiting.append(std::move(done));
    if (!entry.pending)
        putToken(audience);
}

void ClientConnection::putToken(const QString& audience) {
    m_audiences[audience].pending = true;
    const qint64 issuedAt = nowSeconds();
    const auto token = m_tokens.tokenFor(audience, issuedAt);
    if (!token) {
        tokenAnswered(audience, issuedAt, 0, token.error());
        return;
    }
    amqp::ManagementRequest request;
    request.operation = QStringLiteral("put-token");
    request.properties = {{QStringLiteral("operation"), request.operation},
                          {QStringLiteral("type"), token->type},
                          {QStringLiteral("name"), audience}};
    if (token->expiresAt > 0)
        request.properties.insert(QStringLiteral("expiration"),
                                  QDateTime::fromSecsSinceEpoch(token->expiresAt, Qt::UTC));
    request.body = token->token;
    const qint64 expiresAt = token->expiresAt;
    channel(QStringLiteral("$cbs"))
        .request(std::move(request),
                 [this, audience, issuedAt, expiresAt](Result<amqp::ManagementResponse> answer) {
                     if (!answer) {
                         tokenAnswered(audience, issuedAt, expiresAt, answer.error());
                         return;
                     }
                     const int status = answer->statusCode;
                     if (status == 200 || status == 202) {
                         tokenAnswered(audience, issuedAt, expiresAt, {});
                         return;
                     }
                     Error refused = amqp::errorFromStatus(status, answer->errorCondition,
                                                           answer->statusDescription);
                     if (status == 401 || status == 403)
                         refused.code = ErrorCode::Unauthorized;
                     tokenAnswered(audience, issuedAt, expiresAt, refused);
                 });
}

void ClientConnection::tokenAnswered(const QString& audience, qint64 issuedAt, qint64 expiresAt,
                                     const Result<void>& outcome) {
    auto found = m_audiences.find(audience);
    if (found == m_audiences.end())
        return; // the connection was lost meanwhile
    Audience& entry = found->second;
    entry.pending = false;
    entry.authorized = outcome.ok();
    if (outcome.ok()) {
        if (const qint64 renewAt = CbsTokens::renewAt(issuedAt, expiresAt); renewAt > 0) {
            entry.renewal = std::make_unique<QTimer>();
            entry.renewal->setSingleShot(true);
            QObject::connect(entry.renewal.get(), &QTimer::timeout,
                             [this, audience] { putToken(audience); });
            entry.renewal->start(int(std::min<qint64>((renewAt - issuedAt) * 1000, INT_MAX)));
        }
    }
    const QList<Done> waiting = std::exchange(entry.waiting, {});
    for (const Done& done : waiting)
        done(outcome);
}

SenderLink& ClientConnection::sender(const QString& entityPath) {
    auto& link = m_senders[entityPath];
    if (!link)
        link = std::make_shared<SenderLink>(*this, entityPath);
    return *link;
}

ReceiverLink& ClientConnection::receiver(const QString& entityPath, const QString& receiverName,
                                         ReceiveMode mode) {
    for (const auto& link : std::as_const(m_receivers)) {
        if (!link->isSessionLink() && link->entityPath() == entityPath &&
            link->receiverName() == receiverName && link->mode() == mode)
            return *link;
    }
    m_receivers.append(std::make_shared<ReceiverLink>(*this, entityPath, receiverName, mode));
    return *m_receivers.last();
}

ReceiverLink& ClientConnection::sessionReceiver(const QString& entityPath,
                                                const QString& receiverName, ReceiveMode mode,
                                                const SessionAsk& ask) {
    m_receivers.append(std::make_shared<ReceiverLink>(*this, entityPath, receiverName, mode, ask));
    return *m_receivers.last();
}

ReceiverLink* ClientConnection::sessionHolder(const QString& entityPath,
                                              const QString& receiverName,
                                              const QString& sessionId) {
    for (const auto& link : std::as_const(m_receivers)) {
        if (link->isSessionLink() && link->entityPath() == entityPath &&
            link->receiverName() == receiverName && link->sessionId() == sessionId)
            return link.get();
    }
    return nullptr;
}

void ClientConnection::dropReceiver(ReceiverLink* link) {
    m_receivers.removeIf([link](const auto& held) { return held.get() == link; });
}

ReceiverLink* ClientConnection::holder(const QString& entityPath, const QString& receiverName,
                                       const QUuid& token) {
    for (const auto& link : std::as_const(m_receivers)) {
        if (link->entityPath() == entityPath && link->receiverName() == receiverName &&
            link->holds(token))
            return link.get();
    }
    return nullptr;
}

RequestChannel& ClientConnection::channel(const QString& node) {
    auto& channel = m_channels[node];
    if (!channel)
        channel = std::make_shared<RequestChannel>(*this, node);
    return *channel;
}

QByteArray ClientConnection::linkName(const QString& prefix) {
    return QStringLiteral("%1-%2").arg(prefix).arg(++m_linkCount).toUtf8();
}

void ClientConnection::close() {
    // Closed on purpose: no longer broken, nothing to make again.
    m_retry.stop();
    m_lostAt = 0;
    m_failures = 0;
    if (m_state == State::Closed)
        return;
    m_closing = true;
    if (m_driverUp) {
        // The locks we hold go back to the entity now rather than when they run out.
        for (const auto& receiver : std::as_const(m_receivers))
            receiver->abandonHeld();
        pn_connection_close(m_driver.connection);
        pump();
    }
    lose(communication(QStringLiteral("The connection was closed.")));
    m_closing = false;
}

void ClientConnection::lose(const Error& why) {
    if (m_pumping) {
        m_lost = why;
        return;
    }
    const State was = m_state;
    if (was == State::Open && !m_closing)
        broke(why);
    m_state = State::Closed;
    m_open = false;
    m_openDeadline.stop();
    m_ticks.stop();
    if (m_transport) {
        m_transport->abort();
        // Kept until the next connection: this may run inside one of its callbacks.
        m_retired = std::move(m_transport);
    }
    const auto senders = std::exchange(m_senders, {});
    const auto channels = std::exchange(m_channels, {});
    const auto receivers = std::exchange(m_receivers, {});
    m_deadReceivers.clear();
    m_handlers.clear();
    m_audiences.clear();
    for (const auto& sender : senders)
        sender->connectionLost(why);
    for (const auto& channel : channels)
        channel->connectionLost(why);
    for (const auto& receiver : receivers)
        receiver->connectionLost(why);
    if (m_driverUp) {
        m_driverUp = false;
        m_session = nullptr;
        pn_connection_driver_destroy(&m_driver);
    }
    if (!m_closing && m_lostAt.load() != 0) {
        if (was == State::Open) {
            scheduleRetry(0);
        } else if (was == State::Opening) {
            // An attempt to make it again failed: wait longer before the next.
            ++m_failures;
            {
                std::lock_guard lock(m_whyMutex);
                m_lostWhy = amqp::quotedDescription(why.description); // it may quote the peer
            }
            const qint64 delay = qint64(std::max(1, m_options.reconnectFirstDelayMs))
                                 << std::min(m_failures - 1, 20);
            scheduleRetry(int(std::min<qint64>(delay, std::max(1, m_options.reconnectMaxDelayMs))));
        }
    }
    const QList<Done> waiting = std::exchange(m_opening, {});
    for (const Done& done : waiting)
        done(why);
}

void ClientConnection::broke(const Error& why) {
    if (m_lostLocks.size() > kLostLocksKept)
        m_lostLocks.clear();
    for (const auto& receiver : std::as_const(m_receivers)) {
        for (const QUuid& token : receiver->heldTokens())
            m_lostLocks.insert(token);
        if (receiver->isSessionLink() && !receiver->sessionId().isEmpty())
            m_lostSessions.insert(sessionKey(receiver->entityPath(), receiver->receiverName(),
                                             receiver->sessionId()));
    }
    m_failures = 0;
    m_brokeAt = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    {
        std::lock_guard lock(m_whyMutex);
        m_lostWhy = amqp::quotedDescription(why.description); // it may quote the peer
    }
    m_lostAt = QDateTime::currentMSecsSinceEpoch();
    m_lastBreakAt = m_lostAt.load();
}

void ClientConnection::scheduleRetry(int delayMs) {
    m_retryDueMs = qint64(steadyMs()) + delayMs;
    m_retry.start(delayMs);
}

} // namespace hourglass::remote
