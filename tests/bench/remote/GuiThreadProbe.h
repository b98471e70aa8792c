#pragma once
// How long the GUI thread goes without turning its event loop while remote calls run. A timer
// asks to fire every millisecond; the longest gap between two of its ticks is the longest
// stretch the thread spent on something else (an event handler, a model reset, a paint), plus
// the time the thread was not scheduled at all. The thread's own CPU time between the same two
// ticks (CLOCK_THREAD_CPUTIME_ID) tells those apart: on a loaded machine a long gap with little
// CPU in it is the scheduler's, not the window's.
//
// waitUntil() turns the event loop (blocking in it while idle, not spinning) until a condition
// holds, checking it on the same millisecond ticks, so that waiting adds no busy time of its own.
// Threads: GUI thread only.

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace hourglass::bench {

class GuiThreadProbe : public QObject {
public:
    struct Stretch {
        double wallMs = 0;   // the longest gap between two ticks
        double cpuMs = 0;    // the GUI thread's CPU time within that gap
        double maxCpuMs = 0; // the most CPU time the thread used between any two ticks
        int ticks = 0;
    };

    GuiThreadProbe();

    // Starts a phase: the figures so far are forgotten.
    void reset();
    Stretch stretch() const { return m_stretch; }

    // Turns the event loop until `done` holds; gives up (the benchmark stops, saying `what`)
    // after `limitSeconds`. Returns the milliseconds waited.
    double waitUntil(const std::function<bool()>& done, const QString& what,
                     double limitSeconds = 120);

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_wall;
    qint64 m_lastWallNs = -1;
    qint64 m_lastCpuNs = 0;
    Stretch m_stretch;
    std::function<void()> m_onTick;
};

} // namespace hourglass::bench
