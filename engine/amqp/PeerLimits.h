#pragma once
// The limits on what a peer sends, in one place (README.md "Limits on what a peer sends").

#include <QString>

namespace hourglass::amqp {

// Deepest nesting of AMQP values a peer may send (lists, maps, arrays and described values each
// count as a level; a message section is two: its descriptor's and its list's). Every decoder of
// peer bytes recurses once per level, Proton's own included, on the proactor thread's stack.
constexpr int kMaxNesting = 100;

// Characters of a peer's text quoted in an error description.
constexpr int kMaxQuotedChars = 64;

// What an error description says of `peerText`: at most kMaxQuotedChars characters of it, an
// ellipsis when it was longer. Peers choose their addresses, names and operations; echoing them
// whole lets a peer make our answers as large as its requests.
QString quoted(const QString& peerText);

// The description of a value nested deeper than kMaxNesting.
QString tooDeepDescription();

} // namespace hourglass::amqp
