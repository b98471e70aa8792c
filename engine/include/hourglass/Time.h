#pragma once
// Instants and durations. The engine counts time in milliseconds: an Instant is milliseconds since
// the Unix epoch (UTC); a duration is a count of milliseconds. "Infinite" (.NET's
// TimeSpan.MaxValue, service-bus-rules.md) is kInfinite, and an instant that never comes is kNever.
// Arithmetic saturates so that "now + infinite" stays "never" instead of overflowing.

#include <QString>
#include <QtGlobal>

#include <limits>
#include <optional>

namespace hourglass {

using Instant = qint64;
using Millis = qint64;

inline constexpr Millis kInfinite = std::numeric_limits<qint64>::max();
inline constexpr Instant kNever = std::numeric_limits<qint64>::max();

inline constexpr Millis seconds(qint64 n) {
    return n * 1000;
}
inline constexpr Millis minutes(qint64 n) {
    return n * 60 * 1000;
}
inline constexpr Millis hours(qint64 n) {
    return n * 3600 * 1000;
}
inline constexpr Millis days(qint64 n) {
    return n * 24 * 3600 * 1000;
}

// a + b, saturating at kNever (both are expected to be >= 0 or a valid instant).
inline constexpr Instant addSaturating(Instant a, Millis b) {
    if (a == kNever || b == kInfinite)
        return kNever;
    if (b > 0 && a > std::numeric_limits<qint64>::max() - b)
        return kNever;
    return a + b;
}

// Parses an ISO-8601 duration such as "PT10M", "P14D", "PT0.5S" or "P1DT2H30M". Years count 365
// days and months 30 days, as .NET's XmlConvert does. A value at or above TimeSpan.MaxValue
// ("P10675199DT2H48M5.4775807S") is kInfinite. Returns nullopt (and an explanation in *why) for
// anything else, including negative durations.
std::optional<Millis> parseIsoDuration(const QString& text, QString* why = nullptr);

// The inverse: "PT10M", "P14D", "PT0.25S"; kInfinite becomes "P10675199DT2H48M5.4775807S".
QString formatIsoDuration(Millis duration);

// "2026-11-22T10:15:30.250Z"; kNever becomes "Never".
QString formatInstant(Instant instant);
std::optional<Instant> parseInstant(const QString& text);

// The .NET TimeSpan.MaxValue in ISO-8601, used for "infinite" at every interface.
inline const char* kInfiniteIso = "P10675199DT2H48M5.4775807S";

} // namespace hourglass
