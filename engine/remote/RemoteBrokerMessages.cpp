// RemoteBroker's data plane (RemoteBroker.h): sends, receives, peeks and settlements through the
// AMQP client, each refused first on a read-only connection, each own change marked on the feed
// at once. The explorer's reads are peeks: the service has no read without one.
#include "RemoteBrokerState.h"

#include "hourglass/EntityPath.h"

#include <QUuid>

namespace hourglass::remote {

namespace {

OutgoingMessage withMessageId(OutgoingMessage message) {
    if (message.messageId.isEmpty())
        message.messageId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return message;
}

// The entity a lock or a path names, without "/$deadletterqueue".
QString entityOf(const QString& path) {
    return path.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)
               ? path.chopped(kDeadLetterSuffix.size())
               : path;
}

// How many dead-lettered messages deadLetterReasons() peeks at most, and how many at a time.
constexpr int kReasonsPeekLimit = 10'000;
constexpr int kReasonsPeekPage = 250;

} // namespace

void RemoteBroker::State::sent(const QString& path) {
    feed.markCounts(qualified(entityOf(path)));
    feed.markAdded(qualified(path));
}

void RemoteBroker::State::taken(const QString& path) {
    feed.markCounts(qualified(entityOf(path)));
    feed.markRemoved(qualified(path));
}

Result<SendResult> RemoteBroker::send(const QString& pathIn, const OutgoingMessage& message) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto result = m_state->amqp->send(path, message);
    if (result)
        m_state->sent(path);
    return result;
}

Result<QList<SendResult>> RemoteBroker::sendBatch(const QString& pathIn,
                                                  const QList<OutgoingMessage>& batch) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    QList<OutgoingMessage> named;
    QList<SendResult> results;
    for (const OutgoingMessage& message : batch) {
        named.append(withMessageId(message));
        SendResult result;
        result.messageId = named.last().messageId;
        result.scheduled = named.last().scheduledEnqueueTime.has_value();
        results.append(result);
    }
    if (auto sent = m_state->amqp->sendBatch(path, named); !sent)
        return sent.error();
    m_state->sent(path);
    return results;
}

Result<SendResult> RemoteBroker::schedule(const QString& pathIn, OutgoingMessage message,
                                          Instant enqueueAt) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    message = withMessageId(std::move(message));
    const auto number = m_state->amqp->schedule(path, message, enqueueAt);
    if (!number)
        return number.error();
    m_state->sent(path);
    SendResult result;
    result.messageId = message.messageId;
    result.sequenceNumber = *number;
    result.scheduled = true;
    return result;
}

QList<Result<SendResult>> RemoteBroker::sendEach(const QString& pathIn,
                                                 const QList<OutgoingMessage>& messages,
                                                 const std::function<void()>& taken) {
    const QString path = unqualified(pathIn);
    QList<Result<SendResult>> results;
    for (const OutgoingMessage& message : messages)
        results.append(send(path, message));
    if (taken)
        taken();
    return results;
}

Result<void> RemoteBroker::cancelScheduled(const QString& pathIn, qint64 sequenceNumber) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto cancelled = m_state->amqp->cancelScheduled(path, sequenceNumber);
    if (cancelled)
        m_state->taken(path);
    return cancelled;
}

Result<QList<MessageView>> RemoteBroker::receive(const QString& pathIn,
                                                 const ReceiveOptions& options) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto received = m_state->amqp->receive(path, options, m_state->options.receiveWaitMs);
    if (received && options.taken)
        options.taken();
    if (received && !received->isEmpty())
        m_state->taken(path);
    return received;
}

Result<MessageView> RemoteBroker::receiveDeferred(const QString& pathIn, qint64 sequenceNumber,
                                                  const QString& receiver) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    auto received = m_state->amqp->receiveDeferred(path, sequenceNumber, receiver);
    if (received)
        m_state->taken(path);
    return received;
}

Result<QList<MessageView>> RemoteBroker::peek(const QString& pathIn, qint64 fromSequenceNumber,
                                              int maxCount) {
    const QString path = unqualified(pathIn);
    PeekOptions options;
    options.fromSequenceNumber = fromSequenceNumber;
    options.maxCount = maxCount;
    return m_state->amqp->peek(path, options);
}

Result<QList<MessageView>> RemoteBroker::peek(const QString& pathIn, const PeekOptions& options) {
    const QString path = unqualified(pathIn);
    return m_state->amqp->peek(path, options);
}

Result<void> RemoteBroker::complete(const LockRef& lockIn) {
    const LockRef lock = unqualified(lockIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto settled = m_state->amqp->complete(lock);
    if (settled)
        m_state->taken(lock.entityPath);
    return settled;
}

Result<void> RemoteBroker::abandon(const LockRef& lockIn, const QVariantMap& propertiesToModify) {
    const LockRef lock = unqualified(lockIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto settled = m_state->amqp->abandon(lock, propertiesToModify);
    if (settled)
        m_state->feed.markCounts(m_state->qualified(entityOf(lock.entityPath)));
    return settled;
}

Result<void> RemoteBroker::deadLetter(const LockRef& lockIn, const DeadLetterOptions& options) {
    const LockRef lock = unqualified(lockIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto settled = m_state->amqp->deadLetter(lock, options);
    if (settled) {
        m_state->taken(lock.entityPath);
        m_state->feed.markAdded(m_state->qualified(entityOf(lock.entityPath) + kDeadLetterSuffix));
    }
    return settled;
}

Result<void> RemoteBroker::defer(const LockRef& lockIn, const QVariantMap& propertiesToModify) {
    const LockRef lock = unqualified(lockIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    auto settled = m_state->amqp->defer(lock, propertiesToModify);
    if (settled)
        m_state->feed.markCounts(m_state->qualified(entityOf(lock.entityPath)));
    return settled;
}

Result<Instant> RemoteBroker::renewLock(const LockRef& lockIn) {
    const LockRef lock = unqualified(lockIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    return m_state->amqp->renewLock(lock);
}

QList<Result<void>> RemoteBroker::completeBatch(const QList<LockRef>& locks) {
    QList<Result<void>> results;
    for (const LockRef& lock : locks)
        results.append(complete(lock));
    return results;
}

Result<QList<MessageView>> RemoteBroker::listMessages(const QString& pathIn,
                                                      qint64 fromSequenceNumber, int maxCount,
                                                      Bodies bodies) const {
    const QString path = unqualified(pathIn);
    PeekOptions options;
    options.fromSequenceNumber = fromSequenceNumber;
    options.maxCount = maxCount;
    auto messages = m_state->amqp->peek(path, options);
    if (messages && bodies == Bodies::Without)
        for (MessageView& message : *messages)
            message.body.clear();
    return messages;
}

Result<MessageView> RemoteBroker::message(const QString& pathIn, qint64 sequenceNumber,
                                          Bodies bodies) const {
    const QString path = unqualified(pathIn);
    PeekOptions options;
    options.fromSequenceNumber = sequenceNumber;
    options.maxCount = 1;
    const auto messages = m_state->amqp->peek(path, options);
    if (!messages)
        return messages.error();
    if (messages->isEmpty() || messages->first().sequenceNumber != sequenceNumber)
        return makeError(ErrorCode::MessageNotFound,
                         QStringLiteral("No message %1 in '%2'.").arg(sequenceNumber).arg(path));
    MessageView found = messages->first();
    if (bodies == Bodies::Without)
        found.body.clear();
    return found;
}

Result<QMap<QString, qint64>> RemoteBroker::deadLetterReasons(const QString& pathIn) const {
    const QString path = unqualified(pathIn);
    const QString deadLetters = entityOf(path) + kDeadLetterSuffix;
    QMap<QString, qint64> reasons;
    PeekOptions options;
    options.maxCount = kReasonsPeekPage;
    for (int seen = 0; seen < kReasonsPeekLimit;) {
        const auto page = m_state->amqp->peek(deadLetters, options);
        if (!page)
            return page.error();
        if (page->isEmpty())
            break;
        for (const MessageView& message : *page)
            ++reasons[message.deadLetterReason];
        seen += int(page->size());
        options.fromSequenceNumber = page->last().sequenceNumber + 1;
    }
    return reasons;
}

} // namespace hourglass::remote
