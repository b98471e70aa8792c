#pragma once
// What a session receiver's attach says and how it is answered (amqp-endpoint.md, Sessions): the
// source filter `com.microsoft:session-filter` (a session id, or null for the next available one),
// the attach properties `com.microsoft:timeout` (ms) and, in the answer, the granted id in the
// filter and `com.microsoft:locked-until-utc` as .NET ticks (the words: SessionTerms.h). Proactor
// thread only (it touches Proton links); no broker calls, and no decisions of the broker's: whether
// the entity takes session receivers is the broker's answer to the accept.

#include "hourglass/Broker.h"
#include "hourglass/amqpcodec/SessionTerms.h"

#include <QString>

#include <proton/link.h>

#include <chrono>
#include <optional>

namespace hourglass::amqp {

struct SessionRequest {
    std::optional<QString> sessionId; // none: the next available session
    std::chrono::milliseconds timeout{60000};
};

// The session a receiver attach asks for; none when its source carries no session filter.
std::optional<SessionRequest> requestedSession(pn_link_t* link);

// The attach that grants `session`: the filter holds its id, the properties its lock's end.
void describeGrantedSession(pn_link_t* link, const AcceptedSession& session);
// The attach that refuses: no filter echoed; for a time-out, no source at all.
enum class Refusal { NoFilter, NullSource };
void describeRefusedSession(pn_link_t* link, Refusal refusal);

} // namespace hourglass::amqp
