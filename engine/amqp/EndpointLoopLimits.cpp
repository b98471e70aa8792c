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

void EndpointLoop::admit(pn_connection_t* pnConnection, Connection& connection) {
    const ConnectionAdmission::Decision decision =
        m_admission.arrived(pnConnection, std::chrono::steady_clock::now());
    for (ConnectionAdmission::Key evicted : decision.evicted)
        limitClose(static_cast<pn_connection_t*>(evicted), kResourceLimitExceeded,
                   QStringLiteral("Too many connections have not authenticated; this was the "
                                  "oldest of them."));
    if (!decision.admitted) {
        connection.requestLimitClose(
            kResourceLimitExceeded,
            QStringLiteral("The endpoint holds as many connections as it allows (%1).")
                .arg(m_limits.maxConnections));
        pn_connection_wake(pnConnection);
    }
}

void EndpointLoop::closeOverdue() {
    const auto seconds =
        std::chrono::duration_cast<std::chrono::duration<double>>(m_limits.authenticateWithin);
    for (ConnectionAdmission::Key overdue : m_admission.overdue(std::chrono::steady_clock::now()))
        limitClose(static_cast<pn_connection_t*>(overdue), kUnauthorizedAccess,
                   QStringLiteral("No valid token was put on $cbs within %1 s of connecting.")
                       .arg(seconds.count()));
}

void EndpointLoop::limitClose(pn_connection_t* pnConnection, const QByteArray& condition,
                              const QString& description) {
    // Its objects are touched only during its own events: noted here, done on its wake.
    if (const auto live = m_live.find(pnConnection); live != m_live.end()) {
        live->second->requestLimitClose(condition, description);
        pn_connection_wake(pnConnection);
    }
}

} // namespace hourglass::amqp
