#pragma once
// Lock tokens (and session lock tokens) for hand-outs. QUuid::createUuid asks Qt's system
// generator for every token, which on this kind of machine is the CPU's RDRAND instruction, slow
// on virtual machines, and it did so under the broker's lock once per message received. The
// kernel's generator (getrandom) gives the same unguessable bits in bulk: one call fills
// the buffer for 256 tokens.

#include <QUuid>

#include <array>
#include <cstddef>

namespace hourglass {

class LockTokenSource {
public:
    // Not thread-safe: the broker calls it under its own lock.
    QUuid next();

private:
    static constexpr std::size_t kTokenBytes = 16;
    std::array<char, 256 * kTokenBytes> m_buffer{};
    std::size_t m_used = m_buffer.size(); // empty: filled on the first call
};

} // namespace hourglass
