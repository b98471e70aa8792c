// The proactor thread's side of the limits on connections (ConnectionAdmission.h): admitting a
// new connection, dropping the oldest unauthenticated ones for it, and closing those whose
// deadline to authenticate has passed. A connection served as HTTP counts as unauthenticated (it
// never puts a token on $cbs) but is not held to the deadline.

#include "Connection.h"
#include "EndpointLoop.h"
#include "FileDescriptorLimit.h"
#include "hourglass/amqpcodec/WireErrors.h"

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

void EndpointLoop::readmit(Carrier& carrier) {
    m_admission.left(&carrier);
    admit(carrier);
}

void EndpointLoop::amqpAfterStream(Carrier& carrier) {
    // The AMQP it carries now must put a token in time, as if it had just arrived: the deadline
    // its HTTP had (which only made it wait again) must not run on for it.
    readmit(carrier);
}

void EndpointLoop::closeOverdue() {
    const auto seconds =
        std::chrono::duration_cast<std::chrono::duration<double>>(m_limits.authenticateWithin);
    for (ConnectionAdmission::Key overdue : m_admission.overdue(std::chrono::steady_clock::now())) {
        auto* carrier = static_cast<Carrier*>(overdue);
        // HTTP has no token to put: it waits again (still the first to go when places run
        // short), and its service ends it when it is slow or idle.
        if (m_carriers.contains(carrier) && !carrier->carriesAmqp()) {
            readmit(*carrier);
            continue;
        }
        limitClose(carrier, kUnauthorizedAccess,
                   QStringLiteral("No valid token was put on $cbs within %1 s of connecting.")
                       .arg(seconds.count()));
    }
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
