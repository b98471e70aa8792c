// Operator tools (OperatorTools.h): delete, copy, move and resubmit stored messages.
#include "OperatorTools.h"

#include "BrokerWrite.h"

#include <QSet>

namespace hourglass {

namespace {
// One call is one critical section: larger jobs are cut into chunks by the caller (the explorer
// runs them as background jobs with progress), so that other callers are not held up for long.
constexpr int kMaxMessagesPerCall = 10000;

Result<void> checkCount(const QList<qint64>& seqs) {
    if (seqs.size() > kMaxMessagesPerCall)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1 messages in one call; at most %2 are allowed.")
                             .arg(seqs.size())
                             .arg(kMaxMessagesPerCall));
    return {};
}

// Every sequence number is held by the target's index, or MessageNotFound naming the first that
// is not; duplicates are dropped (order kept).
Result<QList<qint64>> checkPresent(const BrokerImpl::Target& target, const QList<qint64>& seqs) {
    const MessageIndex& index = target.entity->index(target.subQueue);
    QList<qint64> unique;
    QSet<qint64> seen;
    for (qint64 seq : seqs) {
        if (seen.contains(seq))
            continue;
        if (!index.find(seq))
            return makeError(ErrorCode::MessageNotFound,
                             QStringLiteral("No message with sequence number %1 in '%2'.")
                                 .arg(seq)
                                 .arg(target.subQueue == SubQueue::DeadLetter
                                          ? target.entity->path + kDeadLetterSuffix
                                          : target.entity->path));
        seen.insert(seq);
        unique.append(seq);
    }
    return unique;
}

} // namespace

Result<void> OperatorTools::deleteMessages(const QString& path, const QList<qint64>& seqs) {
    if (auto ok = checkCount(seqs); !ok)
        return ok.error();
    BrokerWrite write(m_broker);
    Instant now;
    auto target = m_broker.fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    auto present = checkPresent(*target, seqs);
    if (!present)
        return present.error();
    for (qint64 seq : *present)
        m_broker.removeMessage(*target->entity, target->subQueue, seq);
    return write.commit();
}

Result<QList<SendResult>> OperatorTools::transferMessages(const QString& sourcePath,
                                                          const QList<qint64>& seqs,
                                                          const QString& targetPath,
                                                          Broker::Transfer mode) {
    if (auto ok = checkCount(seqs); !ok)
        return ok.error();
    QList<SendResult> results;
    BrokerWrite write(m_broker);
    Instant now;
    auto source = m_broker.fireDueAndResolve(sourcePath, now);
    if (!source)
        return source.error();
    auto target = m_broker.resolve(targetPath);
    if (!target)
        return target.error();
    Entity& destination = *target->entity;
    if (target->subQueue == SubQueue::DeadLetter)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Messages cannot be moved into a dead-letter queue; "
                                        "choose '%1' itself.")
                             .arg(destination.path));
    if (!acceptsSends(destination))
        return makeError(
            ErrorCode::MessagingEntityDisabled,
            QStringLiteral("'%1' is %2: it accepts no messages.")
                .arg(destination.path, entityStatusName(destination.properties.status)));
    auto present = checkPresent(*source, seqs);
    if (!present)
        return present.error();
    if (present->isEmpty())
        return results;

    // The bodies live only in the store: read the rows whole as they are now (committed,
    // with what is logged on top; no disk sync is waited for under the mutex).
    const std::vector<qint64> wanted(present->cbegin(), present->cend());
    auto rows = m_broker.m_store->readLatestMany(source->entity->id, wanted);
    if (!rows)
        return rows.error();
    if (rows->size() != wanted.size())
        return makeError(
            ErrorCode::GeneralError,
            QStringLiteral("The store lost track of messages of '%1'.").arg(source->entity->path));

    // Check every message before changing anything. A move inside one entity (resubmit)
    // frees what it adds, so it does not count twice against the quota.
    const bool sameEntity = source->entity == &destination;
    qint64 batchBytes = 0;
    QList<OutgoingMessage> outgoing;
    outgoing.reserve(qsizetype(rows->size()));
    for (const StoredMessage& row : *rows) {
        const bool stillScheduled = row.state == MessageState::Scheduled && row.scheduledAt > now;
        OutgoingMessage message =
            transferCopy(outgoingFromStored(row),
                         stillScheduled ? std::optional<Instant>(row.scheduledAt) : std::nullopt);
        const qint64 credit = mode == Broker::Transfer::Move && sameEntity ? row.size : 0;
        if (auto ok = BrokerImpl::checkMessageSession(destination, message); !ok)
            return ok.error();
        if (auto ok = m_broker.checkSendable(destination, message, batchBytes - credit); !ok)
            return ok.error();
        batchBytes += messageSize(message) - credit;
        outgoing.append(std::move(message));
    }

    if (mode == Broker::Transfer::Move)
        for (qint64 seq : *present)
            m_broker.removeMessage(*source->entity, source->subQueue, seq);
    m_broker.touch(destination, now); // A2: like a send, a transfer is activity on the target
    for (OutgoingMessage& message : outgoing)
        results.append(m_broker.scheduleOrDeliver(destination, std::move(message), now));
    m_broker.logProgress(destination);
    m_broker.m_sessionLocks.serveWaits(now);
    return write.commit(results);
}

} // namespace hourglass
