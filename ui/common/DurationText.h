#pragma once
// Short texts for the explorer's countdowns ("45s", "4m 12s", "2h 03m", "3d 4h") and the state a
// countdown cell is in. Pure functions of their arguments: the caller passes "now" from the
// engine's clock (BrokerClient::clock()), never the wall clock, so virtual time drives them.

#include "Time.h"

#include <QMetaType>
#include <QString>

namespace hourglass::ui {

// Remaining time, rounded up to whole seconds so that "0s" appears only once the instant has
// come. Negative durations read "0s"; kInfinite reads "never".
QString shortDuration(Millis remaining);

// What one countdown cell shows.
struct Countdown {
    enum class Kind {
        None,       // nothing to count (a message without a lock, in the lock column)
        Never,      // TTL column: the message never expires
        Running,    // counting down; `fraction` of the full span is left
        Expired,    // expiresAt has passed but the message is still listed (T5, not yet swept)
        HeldByLock, // expiresAt has passed but a lock keeps the message alive (T6)
    };
    Kind kind = Kind::None;
    Millis remaining = 0;
    double fraction = 0.0; // 0..1, only for Running
    bool locked = false;   // Running TTL of a locked message: the delegate adds a lock glyph
    QString text;
};

// The TTL column: expiresAt - now over the effective TTL. `expired` is the engine's flag; time
// that passed since the message was read also counts as expired.
Countdown ttlCountdown(Instant expiresAt, Millis effectiveTimeToLive, bool expired, bool locked,
                       Instant now);
// The lock column: lockedUntil - now over the entity's lock duration.
Countdown lockCountdown(bool locked, Instant lockedUntil, Millis lockDuration, Instant now);

} // namespace hourglass::ui

Q_DECLARE_METATYPE(hourglass::ui::Countdown)
