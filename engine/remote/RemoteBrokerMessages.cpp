// RemoteBroker's data plane (RemoteBroker.h). This step has the administration side only: every
// call that needs the AMQP connection is refused, saying so, and read-only refuses first.
#include "RemoteBrokerState.h"

namespace hourglass::remote {

namespace {
Error needsAmqp() {
    return makeError(ErrorCode::ServiceCommunicationProblem,
                     QStringLiteral("Messages on a remote namespace need its AMQP connection, "
                                    "which this build does not open yet."));
}
} // namespace

Result<SendResult> RemoteBroker::send(const QString&, const OutgoingMessage&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<QList<SendResult>> RemoteBroker::sendBatch(const QString&, const QList<OutgoingMessage>&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<SendResult> RemoteBroker::schedule(const QString&, OutgoingMessage, Instant) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
QList<Result<SendResult>> RemoteBroker::sendEach(const QString& path,
                                                 const QList<OutgoingMessage>& messages,
                                                 const std::function<void()>& taken) {
    QList<Result<SendResult>> results;
    for (const OutgoingMessage& message : messages)
        results.append(send(path, message));
    if (taken)
        taken();
    return results;
}
Result<void> RemoteBroker::cancelScheduled(const QString&, qint64) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<QList<MessageView>> RemoteBroker::receive(const QString&, const ReceiveOptions&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<MessageView> RemoteBroker::receiveDeferred(const QString&, qint64, const QString&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<QList<MessageView>> RemoteBroker::peek(const QString&, qint64, int) {
    return needsAmqp();
}
Result<QList<MessageView>> RemoteBroker::peek(const QString&, const PeekOptions&) {
    return needsAmqp();
}
Result<void> RemoteBroker::complete(const LockRef&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<void> RemoteBroker::abandon(const LockRef&, const QVariantMap&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<void> RemoteBroker::deadLetter(const LockRef&, const DeadLetterOptions&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<void> RemoteBroker::defer(const LockRef&, const QVariantMap&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<Instant> RemoteBroker::renewLock(const LockRef&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
QList<Result<void>> RemoteBroker::completeBatch(const QList<LockRef>& locks) {
    QList<Result<void>> results;
    for (const LockRef& lock : locks)
        results.append(complete(lock));
    return results;
}
Result<AcceptedSession> RemoteBroker::acceptSession(const QString&, const SessionAcceptOptions&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
quint64 RemoteBroker::acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                                         Millis, SessionAcceptCallback done) {
    done(acceptSession(path, options));
    return 0;
}
bool RemoteBroker::cancelAcceptSession(quint64) {
    return false;
}
Result<Instant> RemoteBroker::renewSessionLock(const SessionRef&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<void> RemoteBroker::releaseSession(const SessionRef&) {
    return needsAmqp();
}
int RemoteBroker::releaseSessionsOf(const QString&) {
    return 0;
}
Result<QList<MessageView>> RemoteBroker::receiveFromSession(const SessionRef&, ReceiveMode, int) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<MessageView> RemoteBroker::receiveDeferredFromSession(const SessionRef&, qint64) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return needsAmqp();
}
Result<std::optional<QByteArray>> RemoteBroker::sessionState(const SessionRef&) {
    return needsAmqp();
}
bool RemoteBroker::holdsSession(const SessionRef&) const {
    return false;
}
Result<void> RemoteBroker::setSessionState(const SessionRef&, const std::optional<QByteArray>&) {
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    return needsAmqp();
}
Result<QList<MessageView>> RemoteBroker::listMessages(const QString&, qint64, int, Bodies) const {
    return needsAmqp();
}
Result<MessageView> RemoteBroker::message(const QString&, qint64, Bodies) const {
    return needsAmqp();
}
Result<QMap<QString, qint64>> RemoteBroker::deadLetterReasons(const QString&) const {
    return needsAmqp();
}
Result<QList<SessionInfo>> RemoteBroker::listSessions(const QString&, const QString&, int,
                                                      std::optional<Instant>) const {
    return needsAmqp();
}
Result<SessionInfo> RemoteBroker::session(const QString&, const QString&) const {
    return needsAmqp();
}
Result<Broker::SessionPages> RemoteBroker::sessionPages(const QString&, int) const {
    return needsAmqp();
}

} // namespace hourglass::remote
