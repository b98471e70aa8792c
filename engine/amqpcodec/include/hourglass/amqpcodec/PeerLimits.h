#pragma once
// The limits on what a peer sends, in one place (README.md "Limits on what a peer sends").

#include <QString>

namespace hourglass::amqp {

// Deepest nesting of AMQP values a peer may send (lists, maps, arrays and described values each
// count as a level; a message section is two: its descriptor's and its list's). Every decoder of
// peer bytes recurses once per level, Proton's own included, on the proactor thread's stack.
constexpr int kMaxNesting = 100;

// Bytes one connection's inbound transfers may bring before this end has stored them: the credit
// of all its links together, each transfer counted at its link's largest (InboundTransfers.cpp).
// A lone sender still gets its whole window of 500 (with $cbs and $management beside it); senders
// busy at once share the rest, and a link that holds nothing always gets one transfer.
constexpr quint64 kInboundBytesPerConnection = 192ull * 1024 * 1024;

// Sessions and links one connection may have open at once. The SDKs open a session per link
// (sender, receiver, $cbs, $management); past these a begin ends the connection (Proton's
// channel-max) and an attach is refused with amqp:resource-limit-exceeded.
constexpr int kMaxSessionsPerConnection = 500;
constexpr int kMaxLinksPerConnection = 500;

// The frames of one session's incoming window. Proton renews it as the endpoint reads the
// transfers, which it does at once; a peer that sends past it is closed with
// amqp:session:window-violation.
constexpr int kSessionWindowFrames = 64;

// Answers to $cbs and $management requests one connection may hold: owed (being run) and waiting
// on their links for credit the client has not granted. Past either, a request is rejected with
// amqp:resource-limit-exceeded before it runs, so a client that never grants credit on its reply
// link cannot grow them. The bytes are checked before a request runs, so they may be passed by
// the answers owed then (a peek's answer carries at most 1000 messages).
constexpr int kMaxRepliesHeld = 256;
constexpr qint64 kMaxReplyBytesHeld = 16ll * 1024 * 1024;

// Characters of a peer's text quoted in an error description.
constexpr int kMaxQuotedChars = 64;

// What an error description says of `peerText`: at most kMaxQuotedChars characters of it, an
// ellipsis when it was longer. Peers choose their addresses, names and operations; echoing them
// whole lets a peer make our answers as large as its requests.
QString quoted(const QString& peerText);

// Characters of a peer's error description kept (the remote client's errors quote the
// service's description, which is longer than a name).
constexpr int kMaxQuotedDescriptionChars = 300;
// At most kMaxQuotedDescriptionChars of `peerText`, an ellipsis when it was longer.
QString quotedDescription(const QString& peerText);

// The description of a value nested deeper than kMaxNesting.
QString tooDeepDescription();

} // namespace hourglass::amqp
