#pragma once
// Runs a client call on a worker thread, as the window does, while this thread's event loop keeps
// turning (the test's own stand-in servers live on it). A call that has not returned within the
// bound fails the test program: the client promises never to hang.

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <future>

namespace hourglass::testing {

inline constexpr int kCallBoundMs = 30'000;

template <typename F> auto onWorker(F&& call) -> decltype(call()) {
    auto future = std::async(std::launch::async, std::forward<F>(call));
    QElapsedTimer timer;
    timer.start();
    while (future.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
        if (timer.elapsed() > kCallBoundMs) {
            std::fprintf(stderr, "a client call did not return within %d ms\n", kCallBoundMs);
            std::abort();
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return future.get();
}

} // namespace hourglass::testing
