#include "hourglass/Clock.h"

#include <QDateTime>

#include <chrono>

namespace hourglass {

namespace {
qint64 steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

Instant SystemClock::now() const {
    return QDateTime::currentMSecsSinceEpoch();
}

Instant VirtualClock::realNow() {
    return QDateTime::currentMSecsSinceEpoch();
}

VirtualClock::VirtualClock(Instant start)
    : m_anchorVirtual(start)
    , m_anchorRealNs(steadyNs()) {}

Instant VirtualClock::nowLocked() const {
    if (m_paused)
        return m_anchorVirtual;
    const double elapsedMs = static_cast<double>(steadyNs() - m_anchorRealNs) / 1e6;
    return m_anchorVirtual + static_cast<qint64>(elapsedMs * m_speed);
}

void VirtualClock::reanchorLocked() {
    m_anchorVirtual = nowLocked();
    m_anchorRealNs = steadyNs();
}

Instant VirtualClock::now() const {
    std::lock_guard lock(m_mutex);
    return nowLocked();
}

void VirtualClock::pause() {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_paused = true;
    m_realTime = false;
}

void VirtualClock::play() {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_paused = false;
}

bool VirtualClock::isPaused() const {
    std::lock_guard lock(m_mutex);
    return m_paused;
}

void VirtualClock::setSpeed(double factor) {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_speed = factor > 0 ? factor : 1.0;
    if (m_speed != 1.0)
        m_realTime = false;
}

double VirtualClock::speed() const {
    std::lock_guard lock(m_mutex);
    return m_speed;
}

void VirtualClock::advance(Millis delta) {
    if (delta <= 0)
        return;
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_anchorVirtual = addSaturating(m_anchorVirtual, delta);
    m_realTime = false;
}

void VirtualClock::advanceTo(Instant instant) {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    if (instant > m_anchorVirtual) {
        m_anchorVirtual = instant;
        m_realTime = false;
    }
}

void VirtualClock::resetToRealTime() {
    std::lock_guard lock(m_mutex);
    m_anchorVirtual = realNow();
    m_anchorRealNs = steadyNs();
    m_speed = 1.0;
    m_paused = false;
    m_realTime = true;
}

bool VirtualClock::isRealTime() const {
    std::lock_guard lock(m_mutex);
    return m_realTime && !m_paused && m_speed == 1.0;
}

} // namespace hourglass
