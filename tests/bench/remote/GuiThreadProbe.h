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

#include <QApplication>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace hourglass::bench {

// The application, timing each event it hands out on the GUI thread (the outermost only: an
// event handled inside another's handler is part of that one), so that a long stretch can be
// named. Make it in place of QApplication.
class TimedApplication : public QApplication {
public:
    TimedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;
    // The longest event since the last take, and what it was; then starts again.
    std::pair<double, QString> takeLongest();

private:
    int m_depth = 0;
    double m_longestMs = 0;
    QString m_longest;
};

class GuiThreadProbe : public QObject {
public:
    struct Stretch {
        double wallMs = 0;   // the longest gap between two ticks
        double cpuMs = 0;    // the GUI thread's CPU time within that gap
        double maxCpuMs = 0; // the most CPU time the thread used between any two ticks
        int ticks = 0;
        // The longest single event the GUI thread handled (TimedApplication), and what it was:
        // the receiver's class and name and the event's type.
        double longestEventMs = 0;
        QString longestEvent;
    };

    GuiThreadProbe();

    // Starts a phase: the figures so far are forgotten.
    void reset();
    // The figures since reset() (taking the longest event: call it once a phase).
    Stretch stretch() const;

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
