#pragma once
// Short texts for the explorer's countdowns ("45s", "4m 12s", "2h 03m", "3d 4h") and the state a
// countdown cell is in. Pure functions of their arguments: the caller passes "now" from the
// engine's clock (BrokerClient::clock()), never the wall clock, so virtual time drives them.

#include "hourglass/Time.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace hourglass::ui {

// Remaining time, rounded up to whole seconds so that "0s" appears only once the instant has
// come. Negative durations read "0s"; kInfinite reads "never".
QString shortDuration(Millis remaining);

// A duration as people type it, read the one way every duration field of the explorer reads it:
//   units        "90s", "2m", "1h30m", "1h 30m", "1d2h", "1.5h", "250ms" (d, h, m, s, ms; any
//                case, each unit once, a fraction allowed)
//   clock form   "00:02:00", "1.00:00:00", "00:00:30.5" (.NET TimeSpan, [d.]hh:mm[:ss[.f]], as
//                Service Bus config files and the Azure portal write it)
//   ISO-8601     "PT2M", "P1D", "P1DT2H" (the engine's own parser, Time.h)
//   "infinite" or "never": kInfinite (whether a field allows it is the field's business)
// Zero is a duration; negative ones are not. Anything else is nullopt, with a sentence in *why
// that says what was expected. A bare number ("5") is refused: minutes or days is a guess.
std::optional<Millis> parseHumanDuration(const QString& text, QString* why = nullptr);

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
