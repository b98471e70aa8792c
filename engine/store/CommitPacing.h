#pragma once
// When the flusher of a group commit starts (Store::waitDurable). On a slow disk (a commit that
// takes milliseconds), commits run back to back and each carries only what arrived during the
// previous one's sync: the clients whose operations that sync acknowledged answer with new ones a
// moment later, just after the next commit has taken the log, and wait a whole sync more. So,
// while commits run back to back, slow, and carrying many operations (many in flight at once),
// the next flusher first gathers for up to half as long as the last commit took (never more than
// a few milliseconds): it stops early once operations came in and then stopped coming. One sync
// then carries both waves. Nothing is acknowledged before its own commit is durable; a lone
// client's operation (the previous commit small, or long over) and any commit on a fast disk are
// written at once. The wire benchmark's emulated slow disk (tests/bench/amqp, 2 ms longer syncs):
// about half the syncs and a fifth more sends a second; on a fast disk gathering cost more than
// it saved, hence kMinimumCommit.

#include <chrono>
#include <cstddef>
#include <functional>

namespace hourglass {

class CommitPacing {
public:
    using Clock = std::chrono::steady_clock;

    // How long the flusher starting at `now` gathers: zero unless the previous commit carried at
    // least kManyOperations and ended less than its own duration ago.
    Clock::duration window(Clock::time_point now) const;
    // The commit of `operations` that started at `started` ended (written and synced) at `ended`.
    void committed(Clock::time_point started, Clock::time_point ended, std::size_t operations);
    // Waits up to `window`, polling `logged` (how many operations wait for the next commit):
    // returns once some arrived and a poll later no more did, or when the window is over.
    static void gather(Clock::duration window, const std::function<std::size_t()>& logged);

    // After a commit shorter than this (a fast disk) the next one never gathers.
    static constexpr Clock::duration kMinimumCommit = std::chrono::microseconds(1500);
    static constexpr Clock::duration kLongestWindow = std::chrono::milliseconds(3);
    static constexpr std::size_t kManyOperations = 16;

private:
    // Touched only by the flusher of the moment (Store's m_flushing hands it on under a mutex).
    Clock::duration m_lastCommit{};
    Clock::time_point m_lastEnd{};
    std::size_t m_lastOperations = 0;
};

} // namespace hourglass
