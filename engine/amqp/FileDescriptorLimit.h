#pragma once
// The process's limit on open files, which bounds how many sockets the endpoint can hold. The
// soft limit is often 1,024 while the hard limit allows far more; the endpoint raises the soft
// one to the hard one when it starts (every open socket is a descriptor) and fits its overall
// connection limit under the result, keeping room for the database and everything else.

#include <cstddef>

namespace hourglass::amqp {

// Raises the soft RLIMIT_NOFILE to the hard limit (where the system allows it) and returns the
// soft limit then in force; 0 when it cannot be read. Idempotent; any thread.
std::size_t raiseFileDescriptorLimit();

// Descriptors kept for everything but the endpoint's connections: the database and its journal,
// the listener, the proactor's own, the window's, logs.
constexpr std::size_t kDescriptorsKeptBack = 128;

// `wanted` connections, or fewer so that they fit under `descriptorLimit` (0: unknown, `wanted`).
std::size_t connectionsThatFit(std::size_t wanted, std::size_t descriptorLimit);

} // namespace hourglass::amqp
