#pragma once
// Lock tokens (and session lock tokens) for hand-outs. QUuid::createUuid asks Qt's system
// generator for every token, which on this kind of machine is the CPU's RDRAND instruction, slow
// on virtual machines, and it did so under the broker's lock once per message received. The
// kernel's generator (getrandom) gives the same unguessable bits in bulk: one call fills
// the buffer for 256 tokens.
//
// Every token of one source starts with the same four random bytes (its run's mark), the other
// twelve random as before: a token of an earlier run (before a restart) is then told from one of
// this run that was settled or ran out, so that settling a message of a session the restart
// ended says SessionLockLost (S5). 96 random bits keep a token unguessable.

#include <QUuid>

#include <array>
#include <cstddef>

namespace hourglass {

class LockTokenSource {
public:
    LockTokenSource();
    // Not thread-safe: the broker calls it under its own lock.
    QUuid next();
    // Whether `token` came from this source (this run of the broker); false for the tokens of
    // an earlier run, with a chance of one in 2^32 of a wrong true.
    bool issuedHere(const QUuid& token) const;

private:
    static constexpr std::size_t kTokenBytes = 16;
    static constexpr std::size_t kMarkBytes = 4;
    alignas(4) std::array<char, kMarkBytes> m_mark{};
    std::array<char, 256 * kTokenBytes> m_buffer{};
    std::size_t m_used = m_buffer.size(); // empty: filled on the first call
};

} // namespace hourglass
