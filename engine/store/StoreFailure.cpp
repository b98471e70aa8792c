// A batch SQLite refused: its tickets, and the reset that lets the store go on from what the
// database holds once the broker has put its memory back (Store.h, "A failed write").
#include "Store.h"

namespace hourglass {

void Store::setFailureHandler(std::function<void()> handler) {
    std::lock_guard lock(m_commitMutex);
    m_failureHandler = std::move(handler);
}

std::optional<Error> Store::lostLocked(quint64 ticket) const {
    for (auto it = m_lost.rbegin(); it != m_lost.rend(); ++it) {
        if (ticket >= it->first && ticket <= it->last)
            return it->error;
    }
    return std::nullopt;
}

bool Store::resetAfterFailure() {
    std::lock_guard lock(m_commitMutex);
    if (!m_failure)
        return false;
    // No flusher runs: none starts while m_failure is set, and the one that set it is done.
    std::lock_guard logLock(m_logMutex);
    m_lost.push_back({m_durableBatch + 1, m_openBatch, *m_failure});
    m_lastLostBatch = m_openBatch++;
    m_log.clear();
    m_inflight.clear();
    m_progress.clear();
    m_failure.reset();
    return true;
}

void Store::markFailed(const Error& error) {
    std::lock_guard lock(m_commitMutex);
    m_failure = error;
}

} // namespace hourglass
