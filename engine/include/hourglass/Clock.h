#pragma once
// The injected clock: production uses the system clock; tests, scenarios and demos use
// a VirtualClock that can be paused, sped up or moved ahead. The engine reads time only through
// Clock::now(), so every countdown, lock and scheduled message follows whichever clock it was
// given.

#include "hourglass/Time.h"

#include <QtGlobal>

#include <mutex>

namespace hourglass {

class Clock {
public:
    virtual ~Clock() = default;
    virtual Instant now() const = 0;
};

class SystemClock final : public Clock {
public:
    Instant now() const override;
};

// Virtual time. Thread-safe: every member below is guarded by m_mutex.
// While running, virtual time moves at speed x real time from the last anchor; while paused it
// stands still. Moving the clock does not by itself fire anything: the Broker fires every event
// that fell due, in time order and each at its own instant, the next time it is called (or when
// asked to with Broker::runDue()).
class VirtualClock final : public Clock {
public:
    // Starts paused at `start` (defaults to the current real time).
    explicit VirtualClock(Instant start = realNow());

    Instant now() const override;

    void pause();
    void play();
    bool isPaused() const;
    // Speed factor while running: 1 is real time, 60 makes a minute pass every second.
    void setSpeed(double factor);
    double speed() const;
    // Moves virtual time ahead by `delta` (>= 0) or to `instant` (never backwards).
    void advance(Millis delta);
    void advanceTo(Instant instant);
    // Back to real time: the real current instant, speed 1, running.
    void resetToRealTime();
    // True while virtual time equals real time (running at speed 1 from a real anchor).
    bool isRealTime() const;

    static Instant realNow();

private:
    Instant nowLocked() const;
    void reanchorLocked();

    mutable std::mutex m_mutex;
    Instant m_anchorVirtual; // guarded by m_mutex
    qint64 m_anchorRealNs;   // steady-clock nanoseconds at the anchor; guarded by m_mutex
    double m_speed = 1.0;    // guarded by m_mutex
    bool m_paused = true;    // guarded by m_mutex
    bool m_realTime = false; // guarded by m_mutex
};

} // namespace hourglass
