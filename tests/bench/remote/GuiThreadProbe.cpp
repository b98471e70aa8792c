#include "GuiThreadProbe.h"

#include "BenchSupport.h"

#include <QEventLoop>
#include <QMetaEnum>
#include <QThread>

#include <ctime>

namespace hourglass::bench {

namespace {

qint64 threadCpuNs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000000000 + now.tv_nsec;
}

} // namespace

TimedApplication::TimedApplication(int& argc, char** argv)
    : QApplication(argc, argv) {}

bool TimedApplication::notify(QObject* receiver, QEvent* event) {
    if (m_depth > 0 || QThread::currentThread() != thread())
        return QApplication::notify(receiver, event);
    const QEvent::Type type = event->type(); // the event may be gone once handled
    const QString name = receiver ? QString::fromLatin1(receiver->metaObject()->className()) +
                                        QLatin1Char(' ') + receiver->objectName()
                                  : QString();
    QElapsedTimer timer;
    timer.start();
    ++m_depth;
    const bool handled = QApplication::notify(receiver, event);
    --m_depth;
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (ms > m_longestMs) {
        m_longestMs = ms;
        const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
        m_longest = QStringLiteral("%1 to %2")
                        .arg(typeName ? QLatin1String(typeName) : QString::number(int(type)),
                             name.trimmed());
    }
    return handled;
}

std::pair<double, QString> TimedApplication::takeLongest() {
    std::pair<double, QString> longest{m_longestMs, m_longest};
    m_longestMs = 0;
    m_longest.clear();
    return longest;
}

GuiThreadProbe::GuiThreadProbe() {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(1);
    connect(&m_timer, &QTimer::timeout, this, &GuiThreadProbe::tick);
    m_wall.start();
    m_timer.start();
}

void GuiThreadProbe::reset() {
    m_stretch = {};
    m_lastWallNs = -1;
    if (auto* application = dynamic_cast<TimedApplication*>(QCoreApplication::instance()))
        application->takeLongest();
}

GuiThreadProbe::Stretch GuiThreadProbe::stretch() const {
    Stretch stretch = m_stretch;
    if (auto* application = dynamic_cast<TimedApplication*>(QCoreApplication::instance())) {
        auto [ms, what] = application->takeLongest();
        stretch.longestEventMs = ms;
        stretch.longestEvent = what;
    }
    return stretch;
}

void GuiThreadProbe::tick() {
    const qint64 wallNs = m_wall.nsecsElapsed();
    const qint64 cpuNs = threadCpuNs();
    if (m_lastWallNs >= 0) {
        const double wallMs = double(wallNs - m_lastWallNs) / 1e6;
        const double cpuMs = double(cpuNs - m_lastCpuNs) / 1e6;
        if (wallMs > m_stretch.wallMs) {
            m_stretch.wallMs = wallMs;
            m_stretch.cpuMs = cpuMs;
        }
        m_stretch.maxCpuMs = std::max(m_stretch.maxCpuMs, cpuMs);
        ++m_stretch.ticks;
    }
    m_lastWallNs = wallNs;
    m_lastCpuNs = cpuNs;
    if (m_onTick)
        m_onTick();
}

double GuiThreadProbe::waitUntil(const std::function<bool()>& done, const QString& what,
                                 double limitSeconds) {
    QElapsedTimer waited;
    waited.start();
    if (done())
        return 0;
    QEventLoop loop;
    bool timedOut = false;
    m_onTick = [&] {
        if (done())
            loop.quit();
        else if (waited.elapsed() > limitSeconds * 1000) {
            timedOut = true;
            loop.quit();
        }
    };
    loop.exec();
    m_onTick = nullptr;
    if (timedOut)
        die(QStringLiteral("gave up after %1 s waiting for %2").arg(limitSeconds).arg(what));
    return double(waited.nsecsElapsed()) / 1e6;
}

} // namespace hourglass::bench
