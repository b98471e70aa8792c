#include "CommitPacing.h"

#include <algorithm>
#include <thread>

namespace hourglass {

CommitPacing::Clock::duration CommitPacing::window(Clock::time_point now) const {
    if (m_lastOperations < kManyOperations || m_lastCommit < kMinimumCommit ||
        now - m_lastEnd >= m_lastCommit)
        return Clock::duration::zero();
    return std::min<Clock::duration>(m_lastCommit / 2, kLongestWindow);
}

void CommitPacing::committed(Clock::time_point started, Clock::time_point ended,
                             std::size_t operations) {
    m_lastCommit = ended - started;
    m_lastOperations = operations;
    m_lastEnd = ended;
}

void CommitPacing::gather(Clock::duration window, const std::function<std::size_t()>& logged) {
    if (window <= Clock::duration::zero())
        return;
    const auto step = std::max<Clock::duration>(window / 4, std::chrono::microseconds(20));
    const auto deadline = Clock::now() + window;
    std::size_t seen = logged();
    bool arriving = false;
    for (auto now = Clock::now(); now < deadline; now = Clock::now()) {
        std::this_thread::sleep_for(std::min<Clock::duration>(step, deadline - now));
        const std::size_t count = logged();
        if (count > seen) {
            arriving = true;
            seen = count;
        } else if (arriving) {
            return; // the wave is in
        }
    }
}

} // namespace hourglass
