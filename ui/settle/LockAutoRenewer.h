#pragma once
// Auto-renew, as a receiver's lock renewer does it: while on, every lock the panel holds is
// renewed once less than a third of its lock duration is left, until the chosen duration (from
// when auto-renew was switched on) has passed. A QTimer looks at the engine's clock, never the
// wall clock, so it follows a VirtualClock that is moved ahead or sped up. Renewals go through
// the BrokerClient; one per lock is in flight at a time.
//
// The Lock panel's renewer covers every held lock for a chosen duration; a settle dialog's covers
// only the locks it settles, for as long as it is open (restrictTo, then start(kInfinite)).
//
// Threads: GUI thread only.

#include "hourglass/Status.h"
#include "hourglass/Time.h"

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

    // How long to auto-renew, as typed: any duration parseHumanDuration reads ("10m", "1h30m",
    // "PT10M") or a number of minutes ("5", "1.5"). Nullopt (and why in *why) for anything else,
    // for zero and for infinite.
    static std::optional<Millis> parseDuration(const QString& text, QString* why = nullptr);

    // Renews only these locks from now on (by default, every lock the panel holds).
    void restrictTo(const QList<qint64>& sequenceNumbers);
    // Switches auto-renew on for `duration` from now (engine clock); kInfinite: until stop().
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
    // A lock in the renewer's care is lost (it ran out before a renewal, or a renewal was
    // refused with MessageLockLost); said once per lock.
    void lockLost(qint64 sequenceNumber);
    // Auto-renew went off: the chosen duration passed, or stop() was called.
    void stopped();

private:
    BrokerClient& m_client;
    HeldLocks& m_locks;
    QTimer m_timer;
    Instant m_until = 0;
    QSet<qint64> m_inFlight;
    std::optional<QSet<qint64>> m_scope; // nullopt: every held lock
    QSet<qint64> m_reportedLost;
    quint64 m_generation = 0; // bumped by stop(): drops the replies of earlier renewals
};

} // namespace hourglass::ui
