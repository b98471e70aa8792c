#pragma once
// Where a sign-in waits (EntraSignIn.cpp): for the browser to come back to the loopback
// redirect, or between two polls of a device code. cancel() from any thread ends the wait at
// once, and any wait after it.

#include "hourglass/Status.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace hourglass::remote {

class SignInWait {
public:
    // The redirect's answer: the code, or why there is none. The first one counts.
    void deliver(Result<QString> answer) {
        {
            std::lock_guard lock(m_mutex);
            if (m_answer)
                return;
            m_answer = std::move(answer);
        }
        m_changed.notify_all();
    }

    void cancel() {
        {
            std::lock_guard lock(m_mutex);
            m_cancelled = true;
        }
        m_changed.notify_all();
    }

    bool isCancelled() const {
        std::lock_guard lock(m_mutex);
        return m_cancelled;
    }

    enum class Outcome { Answered, Cancelled, TimedOut };
    // Waits for deliver() up to `timeout`; `answer` holds it when Answered.
    Outcome waitForAnswer(std::chrono::milliseconds timeout,
                          std::optional<Result<QString>>& answer) {
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, timeout, [this] { return m_cancelled || m_answer.has_value(); });
        if (m_cancelled)
            return Outcome::Cancelled;
        if (!m_answer)
            return Outcome::TimedOut;
        answer = std::move(m_answer);
        return Outcome::Answered;
    }

    // Sleeps `duration` unless cancelled first; false when cancelled.
    bool sleep(std::chrono::milliseconds duration) {
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, duration, [this] { return m_cancelled; });
        return !m_cancelled;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_cancelled = false;
    std::optional<Result<QString>> m_answer;
};

} // namespace hourglass::remote
