#include "ReceiverLink.h"

#include "ClientConnection.h"

#include "ManagementCalls.h"

#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/LockTokenBytes.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/SessionTerms.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>
#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/link.h>
#include <proton/terminus.h>

#include <QDateTime>

#include <algorithm>
#include <vector>

namespace hourglass::remote {

namespace {
const QByteArray kDeadLetterCondition = QByteArrayLiteral("com.microsoft:dead-letter");
} // namespace

ReceiverLink::ReceiverLink(ClientConnection& connection, QString entityPath, QString receiverName,
                           ReceiveMode mode, std::optional<SessionAsk> session)
    : m_connection(connection)
    , m_entityPath(std::move(entityPath))
    , m_receiverName(std::move(receiverName))
    , m_mode(mode)
    , m_session(std::move(session))
    , m_name(connection.linkName(m_receiverName.isEmpty() ? QStringLiteral("receiver")
                                                          : m_receiverName)) {
    m_wait.setSingleShot(true);
    QObject::connect(&m_wait, &QTimer::timeout, [this] {
        // Time is up: take back the credit left; the flow that answers the drain ends it.
        if (m_link && m_current && !m_draining) {
            m_draining = true;
            pn_link_set_drain(m_link, true);
            pn_link_flow(m_link, 0);
            m_connection.pump();
        }
    });
}

ReceiverLink::~ReceiverLink() {
    if (m_link) {
        m_connection.detachHandler(m_link);
        pn_link_close(m_link);
    }
}

void ReceiverLink::attach() {
    pn_session_t* session = m_connection.session();
    if (!session)
        return;
    m_link = pn_receiver(session, m_name.constData());
    const QByteArray address = m_entityPath.toUtf8();
    pn_terminus_set_address(pn_link_source(m_link), address.constData());
    pn_terminus_set_address(pn_link_target(m_link), m_name.constData());
    pn_link_set_snd_settle_mode(m_link, m_mode == ReceiveMode::ReceiveAndDelete ? PN_SND_SETTLED
                                                                                : PN_SND_UNSETTLED);
    pn_link_set_rcv_settle_mode(m_link, PN_RCV_FIRST);
    if (m_session) {
        // The session filter: its id, or null for the next available one; and how long the
        // service may look for one.
        pn_data_t* filter = pn_terminus_filter(pn_link_source(m_link));
        pn_data_put_map(filter);
        pn_data_enter(filter);
        pn_data_put_symbol(filter, pn_bytes(sizeof amqp::kSessionFilter - 1, amqp::kSessionFilter));
        if (m_session->sessionId) {
            const QByteArray id = m_session->sessionId->toUtf8();
            pn_data_put_string(filter, pn_bytes(size_t(id.size()), id.constData()));
        } else {
            pn_data_put_null(filter);
        }
        pn_data_exit(filter);
        pn_data_t* properties = pn_link_properties(m_link);
        pn_data_put_map(properties);
        pn_data_enter(properties);
        pn_data_put_symbol(properties,
                           pn_bytes(sizeof amqp::kTimeoutProperty - 1, amqp::kTimeoutProperty));
        pn_data_put_uint(properties, uint32_t(std::max(0, m_session->waitMs)));
        pn_data_exit(properties);
    }
    m_connection.attachHandler(m_link, this);
    pn_link_open(m_link);
}

namespace {
// How long past its own wait a service may take to grant or refuse a session before the client
// gives up on it.
constexpr int kAcceptGraceMs = 1000;
} // namespace

void ReceiverLink::accept(Accepted done) {
    m_accepting = std::move(done);
    m_acceptDeadline.setSingleShot(true);
    QObject::connect(&m_acceptDeadline, &QTimer::timeout, [this] {
        if (!m_accepting)
            return;
        // Closing the link ends the service's wait: no session is granted to it later, unseen.
        if (m_link) {
            m_connection.detachHandler(m_link);
            pn_link_close(m_link);
            m_link = nullptr;
        }
        std::exchange(m_accepting, {})(Error::make(
            ErrorCode::ServiceTimeout, QStringLiteral("No session became available within %1 ms.")
                                           .arg(m_session ? m_session->waitMs : 0)));
        m_connection.pump();
        m_connection.dropLater(this); // not now: this is running in its own timer
    });
    m_acceptDeadline.start((m_session ? m_session->waitMs : 0) + kAcceptGraceMs);
    if (!m_link)
        attach();
    m_connection.pump();
}

void ReceiverLink::opened(pn_link_t* link) {
    if (!m_accepting || link != m_link)
        return;
    // Granted: the peer's filter names the session. Refused: no filter (or no source), and the
    // detach that follows says why.
    const QVariantMap filter =
        amqp::readSingleAmqpValue(pn_terminus_filter(pn_link_remote_source(link))).toMap();
    const QVariant granted = filter.value(QString::fromLatin1(amqp::kSessionFilter));
    if (granted.typeId() != QMetaType::QString)
        return;
    m_grantedSession = granted.toString();
    const QVariantMap properties =
        amqp::readSingleAmqpValue(pn_link_remote_properties(link)).toMap();
    AcceptedSession session;
    session.entityPath = m_entityPath;
    session.sessionId = m_grantedSession;
    session.receiver = m_receiverName;
    session.acceptedAt = QDateTime::currentMSecsSinceEpoch();
    const QVariant ticks = properties.value(QString::fromLatin1(amqp::kLockedUntilUtc));
    if (ticks.isValid())
        session.lockedUntil = amqp::fromDotNetTicks(ticks.toLongLong());
    m_acceptDeadline.stop();
    std::exchange(m_accepting, {})(session);
}

void ReceiverLink::detach() {
    if (m_link) {
        m_connection.detachHandler(m_link);
        pn_link_close(m_link);
        m_link = nullptr;
        m_connection.pump();
    }
    failAll(Error::make(ErrorCode::SessionLockLost, QStringLiteral("The receiver was closed.")));
}

void ReceiverLink::receive(int maxCount, int waitMs, Received done) {
    m_queued.append({maxCount, waitMs, std::move(done)});
    if (!m_link)
        attach();
    startNext();
    m_connection.pump();
}

void ReceiverLink::startNext() {
    if (m_current || m_queued.isEmpty() || !m_link)
        return;
    m_current = m_queued.takeFirst();
    m_draining = false;
    // What came after the last receive ended (none, unless a service sent past a drain) is
    // this one's first.
    if (m_got.size() >= m_current->maxCount) {
        finishReceive();
        return;
    }
    pn_link_flow(m_link, m_current->maxCount - int(m_got.size()));
    m_wait.start(m_current->waitMs);
}

void ReceiverLink::finishReceive() {
    m_wait.stop();
    if (m_link)
        pn_link_set_drain(m_link, false);
    m_draining = false;
    const Receive done = *m_current;
    m_current.reset();
    QList<MessageView> got = std::exchange(m_got, {});
    if (got.size() > done.maxCount) { // never more than asked: the rest waits for the next
        m_got = got.mid(done.maxCount);
        got.resize(done.maxCount);
    }
    done.done(std::move(got));
    startNext();
}

void ReceiverLink::flowed(pn_link_t*) {
    // The answer to our drain: the service has nothing more for the credit we gave.
    if (m_current && m_draining && pn_link_credit(m_link) <= 0)
        finishReceive();
}

void ReceiverLink::delivered(pn_delivery_t* delivery) {
    if (m_settling.contains(delivery)) {
        settled(delivery);
        return;
    }
    if (pn_delivery_readable(delivery) && !pn_delivery_partial(delivery))
        takeMessage(delivery);
}

void ReceiverLink::takeMessage(pn_delivery_t* delivery) {
    std::vector<char> bytes(pn_delivery_pending(delivery));
    pn_link_recv(m_link, bytes.data(), bytes.size());
    pn_link_advance(m_link);
    const pn_delivery_tag_t tag = pn_delivery_tag(delivery);
    const QUuid token = amqp::lockTokenFromDeliveryTag(QByteArray(tag.start, qsizetype(tag.size)));
    auto message = amqp::decodeReceivedMessage(QByteArray(bytes.data(), qsizetype(bytes.size())),
                                               amqp::Handover::Delivery);
    const bool locked = m_mode == ReceiveMode::PeekLock && !pn_delivery_settled(delivery);
    if (!message || !locked) {
        if (!message && locked) { // unreadable: give it back rather than hold its lock
            pn_disposition_set_failed(pn_delivery_local(delivery), true);
            pn_delivery_update(delivery, PN_MODIFIED);
        }
        pn_delivery_settle(delivery);
    } else {
        m_held.insert(token, delivery);
    }
    if (!message)
        return; // nothing to show for it; the receive goes on
    placeMessage(m_entityPath, *message);
    message->lockHolder = m_receiverName;
    if (locked)
        message->lockToken = token;
    m_got.append(std::move(*message));
    if (m_current && m_got.size() >= m_current->maxCount && !m_draining)
        finishReceive();
}

void ReceiverLink::settle(const QUuid& token, const Settlement& settlement, Done done) {
    pn_delivery_t* delivery = m_held.take(token);
    if (!delivery) {
        done(Error::make(ErrorCode::MessageLockLost,
                         QStringLiteral("This receiver holds no lock %1.")
                             .arg(token.toString(QUuid::WithoutBraces))));
        return;
    }
    pn_disposition_t* local = pn_delivery_local(delivery);
    uint64_t state = PN_ACCEPTED;
    switch (settlement.kind) {
    case Settlement::Kind::Complete:
        break;
    case Settlement::Kind::Abandon:
    case Settlement::Kind::Defer:
        state = PN_MODIFIED;
        pn_disposition_set_failed(local, settlement.kind == Settlement::Kind::Abandon);
        pn_disposition_set_undeliverable(local, settlement.kind == Settlement::Kind::Defer);
        if (!settlement.propertiesToModify.isEmpty())
            amqp::writeAmqpValue(pn_disposition_annotations(local), settlement.propertiesToModify);
        break;
    case Settlement::Kind::DeadLetter: {
        state = PN_REJECTED;
        pn_condition_t* condition = pn_disposition_condition(local);
        pn_condition_set_name(condition, kDeadLetterCondition.constData());
        QVariantMap info = settlement.propertiesToModify;
        info.insert(QStringLiteral("DeadLetterReason"), settlement.reason);
        info.insert(QStringLiteral("DeadLetterErrorDescription"), settlement.description);
        amqp::writeAmqpValue(pn_condition_info(condition), info);
        break;
    }
    }
    m_settling.insert(delivery, {state, std::move(done)});
    pn_delivery_update(delivery, state);
    m_connection.pump();
}

void ReceiverLink::settled(pn_delivery_t* delivery) {
    if (!pn_delivery_settled(delivery) && pn_delivery_remote_state(delivery) == 0)
        return; // not answered yet
    const auto [sent, done] = m_settling.take(delivery);
    const uint64_t state = pn_delivery_remote_state(delivery);
    pn_condition_t* condition = pn_disposition_condition(pn_delivery_remote(delivery));
    const bool hasCondition = condition && pn_condition_is_set(condition) &&
                              kDeadLetterCondition != pn_condition_get_name(condition);
    Result<void> outcome;
    if (hasCondition) {
        const char* description = pn_condition_get_description(condition);
        outcome = amqp::errorFromWire(pn_condition_get_name(condition),
                                      description ? QString::fromUtf8(description) : QString());
    } else if (state != sent && state != 0) {
        outcome = Error::make(ErrorCode::GeneralError,
                              QStringLiteral("The namespace answered the settlement otherwise."));
    }
    pn_delivery_settle(delivery);
    done(outcome);
}

void ReceiverLink::abandonHeld() {
    for (pn_delivery_t* delivery : std::as_const(m_held)) {
        pn_disposition_set_failed(pn_delivery_local(delivery), true);
        pn_delivery_update(delivery, PN_MODIFIED);
        pn_delivery_settle(delivery);
    }
    m_held.clear();
}

void ReceiverLink::closedByPeer(const Error& why) {
    m_link = nullptr;
    failAll(why);
}

void ReceiverLink::connectionLost(const Error& why) {
    m_link = nullptr;
    failAll(why);
}

void ReceiverLink::failAll(const Error& why) {
    m_wait.stop();
    m_acceptDeadline.stop();
    if (m_accepting)
        std::exchange(m_accepting, {})(why);
    m_held.clear(); // the locks went with the link
    const auto settling = std::exchange(m_settling, {});
    for (const auto& [state, done] : settling)
        done(why);
    QList<Receive> waiting = std::exchange(m_queued, {});
    if (m_current)
        waiting.prepend(*std::exchange(m_current, std::nullopt));
    m_got.clear();
    for (const Receive& receive : waiting)
        receive.done(why);
}

} // namespace hourglass::remote
