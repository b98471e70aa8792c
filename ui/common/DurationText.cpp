#include "common/DurationText.h"

#include <algorithm>

namespace hourglass::ui {

QString shortDuration(Millis remaining) {
    if (remaining == kInfinite)
        return QStringLiteral("never");
    if (remaining <= 0)
        return QStringLiteral("0s");
    const qint64 totalSeconds = (remaining + 999) / 1000;
    const qint64 days = totalSeconds / 86400;
    const qint64 hours = totalSeconds % 86400 / 3600;
    const qint64 minutes = totalSeconds % 3600 / 60;
    const qint64 secs = totalSeconds % 60;
    if (days > 0)
        return QStringLiteral("%1d %2h").arg(days).arg(hours);
    if (hours > 0)
        return QStringLiteral("%1h %2m").arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (minutes > 0)
        return QStringLiteral("%1m %2s").arg(minutes).arg(secs, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(secs);
}

namespace {
double fractionOf(Millis remaining, Millis span) {
    if (span <= 0 || span == kInfinite)
        return 1.0;
    // A scheduled message's TTL starts when it becomes active, so more than the span may remain.
    return std::clamp(double(remaining) / double(span), 0.0, 1.0);
}
} // namespace

Countdown ttlCountdown(Instant expiresAt, Millis effectiveTimeToLive, bool expired, bool locked,
                       Instant now) {
    Countdown c;
    c.locked = locked;
    if (expiresAt == kNever) {
        c.kind = Countdown::Kind::Never;
        c.remaining = kInfinite;
        c.text = QStringLiteral("never");
        return c;
    }
    c.remaining = expiresAt - now;
    if (expired || c.remaining <= 0) {
        c.remaining = 0;
        c.kind = locked ? Countdown::Kind::HeldByLock : Countdown::Kind::Expired;
        c.text = locked ? QStringLiteral("expired, held by lock") : QStringLiteral("expired");
        return c;
    }
    c.kind = Countdown::Kind::Running;
    c.fraction = fractionOf(c.remaining, effectiveTimeToLive);
    c.text = shortDuration(c.remaining);
    return c;
}

Countdown lockCountdown(bool locked, Instant lockedUntil, Millis lockDuration, Instant now) {
    Countdown c;
    if (!locked)
        return c;
    c.locked = true;
    c.kind = Countdown::Kind::Running;
    c.remaining = std::max<Millis>(0, lockedUntil - now);
    c.fraction = fractionOf(c.remaining, lockDuration);
    c.text = shortDuration(c.remaining);
    return c;
}

} // namespace hourglass::ui
