// RemoteBroker's operator steps (RemoteBroker.h): copy, move, resubmit, delete and purge done as
// a Service Bus client can do them, message by message, never all or nothing (Broker.h,
// "Explorer operations"). A move sends the copy, then completes the original: a crash between
// the two may duplicate a message, never lose it.
#include "RemoteBrokerState.h"

#include "hourglass/EntityPath.h"

#include <QSet>

namespace hourglass::remote {

namespace {
// The receiver that takes the messages an operator step settles: a link of its own, so that
// its locks never mix with a receiver the user opened in the window.
const QString kOperatorReceiver = QStringLiteral("hourglass-operator");
// How many messages one receive of a scan asks for, and one peek of the choice reads.
constexpr int kScanPage = 100;
constexpr int kPeekPage = 250;
// How many other messages a scan holds at most before it gives up on the chosen ones.
constexpr int kScanLimit = 10'000;

QString entityOf(const QString& path) {
    return path.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)
               ? path.chopped(kDeadLetterSuffix.size())
               : path;
}

QList<qint64> uniqueInOrder(const QList<qint64>& numbers) {
    QList<qint64> unique;
    QSet<qint64> seen;
    for (const qint64 number : numbers)
        if (!seen.contains(number)) {
            seen.insert(number);
            unique.append(number);
        }
    return unique;
}

Error notFound(qsizetype missing, qsizetype asked, const QString& path, const QString& why) {
    return makeError(ErrorCode::MessageNotFound,
                     QStringLiteral("%1 of the %2 messages chosen were not found in '%3'%4.")
                         .arg(missing)
                         .arg(asked)
                         .arg(path, why));
}

// The instant a scheduled message becomes active, as a peek reads it.
Instant activationOf(const MessageView& message) {
    return message.scheduledEnqueueTime > 0 ? message.scheduledEnqueueTime : message.enqueuedTime;
}
} // namespace

Result<QList<MessageView>> RemoteBroker::State::peekChosen(const QString& path,
                                                           const QList<qint64>& numbers) {
    QHash<qint64, MessageView> found;
    const qint64 last = *std::max_element(numbers.cbegin(), numbers.cend());
    PeekOptions options;
    options.fromSequenceNumber = *std::min_element(numbers.cbegin(), numbers.cend());
    options.maxCount = kPeekPage;
    const QSet<qint64> wanted(numbers.cbegin(), numbers.cend());
    while (found.size() < wanted.size() && options.fromSequenceNumber <= last) {
        const auto page = amqp->peek(path, options);
        if (!page)
            return page.error();
        if (page->isEmpty())
            break;
        for (const MessageView& message : *page)
            if (wanted.contains(message.sequenceNumber))
                found.insert(message.sequenceNumber, message);
        options.fromSequenceNumber = page->last().sequenceNumber + 1;
    }
    if (found.size() < wanted.size())
        return notFound(wanted.size() - found.size(), wanted.size(), path, {});
    QList<MessageView> chosen;
    for (const qint64 number : numbers)
        chosen.append(found.value(number));
    return chosen;
}

Result<SendResult> RemoteBroker::State::sendCopy(const MessageView& message,
                                                 const QString& target) {
    const bool scheduled = message.state == MessageState::Scheduled;
    OutgoingMessage copy = transferCopy(message.asSent());
    SendResult result;
    result.messageId = copy.messageId;
    result.scheduled = scheduled;
    if (scheduled) {
        const auto number = amqp->schedule(target, copy, activationOf(message));
        if (!number)
            return number.error();
        result.sequenceNumber = *number;
    } else if (auto sent = amqp->send(target, copy); !sent) {
        return sent.error();
    }
    sent(target);
    return result;
}

Result<QList<SendResult>> RemoteBroker::State::settleChosen(const QString& source,
                                                            const QList<qint64>& numbers,
                                                            const std::optional<QString>& target) {
    QList<SendResult> results;
    const QList<qint64> unique = uniqueInOrder(numbers);
    if (unique.isEmpty())
        return results;
    // Every chosen message is looked at first: one that is missing stops the step before
    // anything changed.
    const auto chosen = peekChosen(source, unique);
    if (!chosen)
        return chosen.error();

    // Scheduled and deferred messages cannot come through a receiver: a scheduled one is
    // cancelled (after its copy is scheduled), a deferred one is taken by its sequence number.
    QSet<qint64> toReceive;
    for (const MessageView& message : *chosen) {
        if (message.state == MessageState::Active) {
            toReceive.insert(message.sequenceNumber);
            continue;
        }
        if (message.state == MessageState::Scheduled) {
            if (target) {
                auto copied = sendCopy(message, *target);
                if (!copied)
                    return copied.error();
                results.append(*copied);
            }
            if (auto cancelled = amqp->cancelScheduled(source, message.sequenceNumber); !cancelled)
                return cancelled.error();
        } else {
            const auto deferred =
                amqp->receiveDeferred(source, message.sequenceNumber, kOperatorReceiver);
            if (!deferred)
                return deferred.error();
            if (target) {
                auto copied = sendCopy(*deferred, *target);
                if (!copied)
                    return copied.error();
                results.append(*copied);
            }
            if (auto completed = amqp->complete(LockRef::of(*deferred)); !completed)
                return completed.error();
        }
        taken(source);
    }
    if (toReceive.isEmpty())
        return results;

    // The active ones: received peek-locked in sequence order; each chosen one is copied (for a
    // move) and completed, every other one held until the scan ends, then abandoned (held, so
    // that the next receive does not hand it back; abandoned, so that it counts one more
    // delivery, as the service counts every lock that ends without a settlement).
    const qsizetype wanted = toReceive.size();
    QList<LockRef> passedOver;
    QSet<qint64> seen; // passed over: one that comes again had its lock run out meanwhile
    bool cameBack = false;
    std::optional<Error> failure;
    ReceiveOptions receive;
    receive.mode = ReceiveMode::PeekLock;
    receive.receiver = kOperatorReceiver;
    receive.maxCount = kScanPage;
    while (!toReceive.isEmpty() && !failure && !cameBack && passedOver.size() < kScanLimit) {
        const auto page = amqp->receive(source, receive, options.receiveWaitMs);
        if (!page) {
            failure = page.error();
            break;
        }
        if (page->isEmpty())
            break; // the source ran dry
        for (const MessageView& message : *page) {
            if (failure || !toReceive.contains(message.sequenceNumber)) {
                // Every message before the chosen ones has been seen once a message comes
                // back: the chosen ones are not coming (locked elsewhere, or gone).
                cameBack = cameBack || seen.contains(message.sequenceNumber);
                seen.insert(message.sequenceNumber);
                passedOver.append(LockRef::of(message));
                continue;
            }
            if (target) {
                auto copied = sendCopy(message, *target);
                if (!copied) {
                    failure = copied.error();
                    passedOver.append(LockRef::of(message));
                    continue;
                }
                results.append(*copied);
            }
            if (auto completed = amqp->complete(LockRef::of(message)); !completed) {
                failure = completed.error();
                continue;
            }
            toReceive.remove(message.sequenceNumber);
            taken(source);
        }
    }
    for (const LockRef& lock : passedOver)
        (void)amqp->abandon(lock); // a lock that ran out meanwhile went back by itself
    if (!passedOver.isEmpty())
        feed.markCounts(qualified(entityOf(source)));
    if (failure)
        return *failure;
    if (!toReceive.isEmpty())
        return notFound(
            toReceive.size(), wanted, source,
            passedOver.size() >= kScanLimit
                ? QStringLiteral(" among the first %1 messages a receiver took").arg(kScanLimit)
                : QStringLiteral(" by a receiver: they are locked by another "
                                 "receiver or went meanwhile"));
    return results;
}

Result<void> RemoteBroker::deleteMessages(const QString& pathIn,
                                          const QList<qint64>& sequenceNumbers) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused;
    const auto done = m_state->settleChosen(path, sequenceNumbers, std::nullopt);
    if (!done)
        return done.error();
    return {};
}

Result<QList<SendResult>> RemoteBroker::transferMessages(const QString& sourcePathIn,
                                                         const QList<qint64>& sequenceNumbers,
                                                         const QString& targetPathIn,
                                                         Transfer mode) {
    const QString sourcePath = unqualified(sourcePathIn);
    const QString targetPath = unqualified(targetPathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    if (targetPath.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Messages cannot be moved into a dead-letter queue; "
                                        "choose '%1' itself.")
                             .arg(entityOf(targetPath)));
    if (mode == Transfer::Move)
        return m_state->settleChosen(sourcePath, sequenceNumbers, targetPath);
    QList<SendResult> results;
    const QList<qint64> unique = uniqueInOrder(sequenceNumbers);
    if (unique.isEmpty())
        return results;
    const auto chosen = m_state->peekChosen(sourcePath, unique);
    if (!chosen)
        return chosen.error();
    for (const MessageView& message : *chosen) {
        auto copied = m_state->sendCopy(message, targetPath);
        if (!copied)
            return copied.error();
        results.append(*copied);
    }
    return results;
}

Result<QList<SendResult>> RemoteBroker::resubmit(const QString& deadLetterPathIn,
                                                 const QList<qint64>& sequenceNumbers) {
    const QString deadLetterPath = unqualified(deadLetterPathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    if (!deadLetterPath.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("'%1' is not a dead-letter queue: resubmit takes "
                                        "'<entity>/$deadletterqueue'.")
                             .arg(deadLetterPath));
    return m_state->settleChosen(deadLetterPath, sequenceNumbers, entityOf(deadLetterPath));
}

Result<qint64> RemoteBroker::purge(const QString& pathIn, const PurgeOptions& purge) {
    const QString path = unqualified(pathIn);
    if (auto refused = m_state->refuseWhenReadOnly(); !refused)
        return refused.error();
    if (purge.maxCount < 1 || purge.maxCount > kMaxPurgeCount)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A purge deletes from 1 to %1 messages at a time; %2 were "
                                        "asked for.")
                             .arg(kMaxPurgeCount)
                             .arg(purge.maxCount));
    if (!m_state->noBatchDelete) {
        const auto deleted =
            m_state->amqp->batchDelete(path, purge.maxCount, purge.enqueuedBefore, purge.sessionId);
        if (!deleted)
            return deleted.error();
        if (deleted->has_value()) {
            if (**deleted > 0)
                m_state->taken(path);
            return **deleted;
        }
        m_state->noBatchDelete = true; // the namespace does not offer it: no need to ask again
    }
    if (purge.enqueuedBefore != kNever || purge.sessionId)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("This namespace has no batch delete: a purge here takes "
                                        "every message, without a cutoff or a session."));
    ReceiveOptions receive;
    receive.mode = ReceiveMode::ReceiveAndDelete;
    receive.receiver = kOperatorReceiver;
    qint64 deleted = 0;
    while (deleted < purge.maxCount) {
        receive.maxCount = int(std::min<qint64>(purge.maxCount - deleted, kScanPage));
        const auto page = m_state->amqp->receive(path, receive, m_state->options.receiveWaitMs);
        if (!page)
            return page.error();
        if (page->isEmpty())
            break;
        deleted += page->size();
        m_state->taken(path);
    }
    return deleted;
}

} // namespace hourglass::remote
