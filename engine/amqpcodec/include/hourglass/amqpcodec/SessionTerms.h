#pragma once
// The words of a session receiver's attach (engine/amqp/SessionLinks.h answers them, the remote
// client asks with them): the source filter that names the session (null: the next available
// one), the attach property of the client's wait, and the answer's lock end in .NET ticks.

#include "hourglass/Time.h"

namespace hourglass::amqp {

inline constexpr char kSessionFilter[] = "com.microsoft:session-filter";
inline constexpr char kLockedUntilUtc[] = "com.microsoft:locked-until-utc";
inline constexpr char kTimeoutProperty[] = "com.microsoft:timeout";

// .NET ticks (100 ns since 0001-01-01) at the Unix epoch, and per millisecond.
inline constexpr qint64 kTicksAtUnixEpoch = 621355968000000000LL;
inline constexpr qint64 kTicksPerMillisecond = 10000;

// An instant (ms since the Unix epoch) as .NET ticks, and back.
inline constexpr qint64 dotNetTicks(Instant instant) {
    return instant * kTicksPerMillisecond + kTicksAtUnixEpoch;
}
inline constexpr Instant fromDotNetTicks(qint64 ticks) {
    return (ticks - kTicksAtUnixEpoch) / kTicksPerMillisecond;
}

} // namespace hourglass::amqp
