#pragma once
// One call of a worker thread, answered on the client's thread: the worker waits for the answer,
// never longer than its time-out. An answer that comes after the time-out is dropped (the worker
// has gone on with a ServiceTimeout).

#include "hourglass/Status.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace hourglass::remote {

template <typename T> class PendingCall {
public:
    // The answer; only the first counts.
    void finish(Result<T> result) {
        {
            std::lock_guard lock(m_mutex);
            if (m_result)
                return;
            m_result.emplace(std::move(result));
        }
        m_answered.notify_all();
    }

    // A function that answers this call, for the client's thread to hold (it keeps the call
    // alive after the worker has given up on it).
    static std::function<void(Result<T>)> answerer(const std::shared_ptr<PendingCall>& call) {
        return [call](Result<T> result) { call->finish(std::move(result)); };
    }

    // The answer, or ServiceTimeout once `timeoutMs` have passed.
    Result<T> wait(int timeoutMs) {
        std::unique_lock lock(m_mutex);
        if (!m_answered.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                 [this] { return m_result.has_value(); }))
            return Error::make(
                ErrorCode::ServiceTimeout,
                QStringLiteral("The namespace did not answer within %1 ms.").arg(timeoutMs));
        return *m_result;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_answered;
    std::optional<Result<T>> m_result;
};

} // namespace hourglass::remote
