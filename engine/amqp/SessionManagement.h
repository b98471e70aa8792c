#pragma once
// The `$management` operations of sessions (amqp-endpoint.md, Sessions): renew-session-lock,
// get-session-state, set-session-state, get-message-sessions, and peek-message and
// receive-by-sequence-number when they carry a `session-id`. Like ManagementOperations, runs on a
// worker and knows nothing of Proton. The session's holder is the request's associated link
// (ManagementContext::receiverName): a session lock another receiver holds, or one that is gone,
// is answered 410 with `com.microsoft:session-lock-lost`.

#include "ManagementOperations.h"

#include <optional>

namespace hourglass::amqp {

// `operation` without its "com.microsoft:" prefix. None when the request is not a session
// operation (the plain operations then handle it).
std::optional<ManagementOutcome> runSessionOperation(Broker& broker, const QString& operation,
                                                     const ManagementRequest& request,
                                                     const ManagementContext& context);

} // namespace hourglass::amqp
