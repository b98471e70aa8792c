// A connection closed by the endpoint's limits (ConnectionAdmission.h): it did not authenticate
// in time, the unauthenticated cap needed its place, or there was no place for it at all.

#include "Connection.h"

#include <proton/condition.h>

namespace hourglass::amqp {

void Connection::requestLimitClose(QByteArray condition, QString description) {
    m_limitClose = LimitClose{std::move(condition), std::move(description)};
}

void Connection::applyLimitClose() {
    if (!m_limitClose)
        return;
    const LimitClose close = *std::exchange(m_limitClose, std::nullopt);
    // No open frame yet (before or in SASL): there is nobody to say why to; drop it.
    if (!(pn_connection_state(m_connection) & PN_REMOTE_ACTIVE)) {
        dropTransport();
        return;
    }
    if (pn_connection_state(m_connection) & PN_LOCAL_UNINIT)
        pn_connection_open(m_connection);
    pn_condition_t* condition = pn_connection_condition(m_connection);
    pn_condition_set_name(condition, close.condition.constData());
    pn_condition_set_description(condition, close.description.toUtf8().constData());
    pn_connection_close(m_connection);
    releaseAllLocks();
    releaseAllSessions();
    // The close goes out at the end of this batch; the socket goes on the next wake (a tick is
    // a quarter of a second), whether or not the peer answers.
    m_dropAt = std::chrono::steady_clock::now();
}

} // namespace hourglass::amqp
