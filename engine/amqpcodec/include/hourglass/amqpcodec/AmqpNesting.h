#pragma once
// How deep a peer's encoded AMQP values nest, found without recursion. Proton 0.37's decoder
// (pn_data_decode, pn_message_decode) recurses once per level of nesting, and so do the readers
// that turn its tree into QVariants and JSON: a few hundred kilobytes of nested lists exhaust the
// proactor thread's stack. Every peer's bytes pass this check before Proton decodes them.

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QByteArray>

#include <cstddef>
#include <vector>

namespace hourglass::amqp {

enum class Nesting {
    Within,    // well formed as far as sizes go, and no deeper than the limit
    TooDeep,   // more than the limit's levels
    Malformed, // a size or count runs past the bytes, or an unknown constructor
};

// Walks `size` bytes holding a sequence of AMQP values (one value, or a message's sections).
// `ends`, when given, gets where each top-level value ends (a message's section boundaries).
Nesting checkNesting(const char* bytes, std::size_t size, int limit = kMaxNesting,
                     std::vector<std::size_t>* ends = nullptr);
inline Nesting checkNesting(const QByteArray& bytes, int limit = kMaxNesting) {
    return checkNesting(bytes.constData(), std::size_t(bytes.size()), limit);
}

} // namespace hourglass::amqp
