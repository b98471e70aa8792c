#include "settle/LockAutoRenewer.h"

#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "settle/HeldLocks.h"

namespace hourglass::ui {

LockAutoRenewer::LockAutoRenewer(BrokerClient& client, HeldLocks& locks, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_locks(locks) {
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &LockAutoRenewer::check);
}

std::optional<Millis> LockAutoRenewer::parseDuration(const QString& text, QString* why) {
    // A bare number has always meant minutes here (the field's tooltip says so).
    bool isNumber = false;
    const double minutesValue = text.trimmed().toDouble(&isNumber);
    if (isNumber && minutesValue > 0)
        return Millis(minutesValue * double(minutes(1)));
    const auto parsed = parseHumanDuration(text, why);
    if (parsed && *parsed > 0 && *parsed != kInfinite)
        return parsed;
    if (why && parsed)
        *why = *parsed == kInfinite ? tr("auto-renew needs an end; choose a duration")
                                    : tr("the duration must be more than zero");
    return std::nullopt;
}

void LockAutoRenewer::restrictTo(const QList<qint64>& sequenceNumbers) {
    m_scope = QSet<qint64>(sequenceNumbers.cbegin(), sequenceNumbers.cend());
}

void LockAutoRenewer::start(Millis duration) {
    m_until = addSaturating(m_client.clock().now(), duration);
    m_timer.start();
    check();
}

void LockAutoRenewer::stop() {
    ++m_generation; // renewals under way may be for locks of an entity the panel left
    m_inFlight.clear();
    m_reportedLost.clear();
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    emit stopped();
}

void LockAutoRenewer::check() {
    const Instant now = m_client.clock().now();
    if (now >= m_until) {
        stop();
        return;
    }
    if (m_scope) {
        // A lock in our care that is no longer held ran out (or was refused): say so once.
        for (qint64 sequenceNumber : std::as_const(*m_scope)) {
            if (m_locks.contains(sequenceNumber) &&
                m_locks.status(sequenceNumber) == HeldLocks::Status::Lost &&
                !m_reportedLost.contains(sequenceNumber)) {
                m_reportedLost.insert(sequenceNumber);
                emit lockLost(sequenceNumber);
            }
        }
    }
    // Renewing at a third left leaves two thirds of the span for the reply to come back.
    const Millis threshold = m_locks.lockDuration() / 3;
    for (qint64 sequenceNumber : m_locks.held()) {
        if ((m_scope && !m_scope->contains(sequenceNumber)) ||
            m_inFlight.contains(sequenceNumber) ||
            m_locks.lockedUntil(sequenceNumber) - now >= threshold)
            continue;
        m_inFlight.insert(sequenceNumber);
        const LockRef ref = m_locks.lockRef(sequenceNumber);
        m_client.call(
            this, [ref](Broker& broker) { return broker.renewLock(ref); },
            [this, sequenceNumber, generation = m_generation](Result<Instant> result) {
                if (generation != m_generation)
                    return;
                m_inFlight.remove(sequenceNumber);
                if (!m_locks.contains(sequenceNumber))
                    return; // settled meanwhile
                if (result) {
                    m_locks.setLockedUntil(sequenceNumber, *result);
                    emit renewed(sequenceNumber, *result);
                } else {
                    m_locks.lockFailed(sequenceNumber, result.error());
                    emit renewFailed(sequenceNumber, result.error());
                }
            });
    }
}

} // namespace hourglass::ui
