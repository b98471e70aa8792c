// The proactor thread's side of the limits on connections (ConnectionAdmission.h): admitting a
// new connection, dropping the oldest unauthenticated ones for it, and closing those whose
// deadline to authenticate has passed.

#include "Connection.h"
#include "EndpointLoop.h"
#include "FileDescriptorLimit.h"
#include "WireErrors.h"

#include <algorithm>

namespace hourglass::amqp {

AdmissionLimits admissionLimits(const EndpointOptions& options, std::size_t descriptorLimit) {
    AdmissionLimits limits;
    limits.maxConnections =
        connectionsThatFit(std::size_t(qMax(1, options.maxConnections)), descriptorLimit);
    limits.maxUnauthenticated = std::min(
        std::size_t(qMax(1, options.maxUnauthenticatedConnections)), limits.maxConnections);
    limits.authenticateWithin = std::chrono::milliseconds(qMax(1, options.authenticateWithinMs));
    return limits;
}

void EndpointLoop::admit(Carrier& carrier) {
    const ConnectionAdmission::Decision decision =
        m_admission.arrived(&carrier, std::chrono::steady_clock::now());
    for (ConnectionAdmission::Key evicted : decision.evicted)
        limitClose(static_cast<Carrier*>(evicted), kResourceLimitExceeded,
                   QStringLiteral("Too many connections have not authenticated; this was the "
                                  "oldest of them."));
    if (!decision.admitted) {
        // Just accepted, it has said nothing yet: its socket goes at once.
        carrier.requestDrop();
        carrier.wake();
    }
}

void EndpointLoop::amqpAfterStream(Carrier& carrier) {
    // Its service took it off the deadline (HTTP has time-outs of its own). The AMQP it carries
    // now must put a token in time and counts against the unauthenticated cap, as if it had
    // just arrived: otherwise a WebSocket upgrade would hold an idle connection for as long as
    // the idle time-out allows.
    m_admission.left(&carrier);
    admit(carrier);
}

void EndpointLoop::closeOverdue() {
    const auto seconds =
        std::chrono::duration_cast<std::chrono::duration<double>>(m_limits.authenticateWithin);
    for (ConnectionAdmission::Key overdue : m_admission.overdue(std::chrono::steady_clock::now()))
        limitClose(static_cast<Carrier*>(overdue), kUnauthorizedAccess,
                   QStringLiteral("No valid token was put on $cbs within %1 s of connecting.")
                       .arg(seconds.count()));
}

void EndpointLoop::limitClose(Carrier* carrier, const QByteArray& condition,
                              const QString& description) {
    if (!m_carriers.contains(carrier))
        return;
    // Its objects are touched only during its own events: noted here, done on its wake. One
    // that has not spoken AMQP (yet) is dropped without a word.
    if (Connection* connection = connectionOf(*carrier))
        connection->requestLimitClose(condition, description);
    else
        carrier->requestDrop();
    carrier->wake();
}

} // namespace hourglass::amqp
