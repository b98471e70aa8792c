#pragma once
// Auto-renew, as a receiver's lock renewer does it: while on, every lock the panel holds is
// renewed once less than a third of its lock duration is left, until the chosen duration (from
// when auto-renew was switched on) has passed. A QTimer looks at the engine's clock, never the
// wall clock, so it follows a VirtualClock that is moved ahead or sped up. Renewals go through
// the BrokerClient; one per lock is in flight at a time.
//
// Threads: GUI thread only.

#include "Status.h"
#include "Time.h"

#include <QObject>
#include <QSet>
#include <QTimer>

#include <optional>

namespace hourglass::ui {

class BrokerClient;
class HeldLocks;

class LockAutoRenewer : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 250;

    LockAutoRenewer(BrokerClient& client, HeldLocks& locks, QObject* parent = nullptr);

    // How long to auto-renew, as typed: an ISO-8601 duration ("PT10M") or a number of minutes
    // ("5", "1.5"). Nullopt (and why in *why) for anything else or for zero.
    static std::optional<Millis> parseDuration(const QString& text, QString* why = nullptr);

    // Switches auto-renew on for `duration` from now (engine clock).
    void start(Millis duration);
    void stop();
    bool isActive() const { return m_timer.isActive(); }
    // When auto-renew stops by itself (engine clock).
    Instant until() const { return m_until; }
    // One look at the clock and the locks (the timer calls it).
    void check();

signals:
    void renewed(qint64 sequenceNumber, hourglass::Instant lockedUntil);
    void renewFailed(qint64 sequenceNumber, const hourglass::Error& error);
    // Auto-renew went off: the chosen duration passed, or stop() was called.
    void stopped();

private:
    BrokerClient& m_client;
    HeldLocks& m_locks;
    QTimer m_timer;
    Instant m_until = 0;
    QSet<qint64> m_inFlight;
    quint64 m_generation = 0; // bumped by stop(): drops the replies of earlier renewals
};

} // namespace hourglass::ui
