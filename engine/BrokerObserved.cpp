// The embedded broker's side of every operation an OperationObserver hears about. Each forwards to
// BrokerImpl and, when an observer is set and the operation succeeded, reports it after the
// fact, outside the broker's lock. Unset, an operation pays one relaxed atomic load.
#include "EmbeddedBroker.h"

#include "BrokerImpl.h"
#include "hourglass/OperationObserver.h"

#include <atomic>
#include <mutex>
#include <optional>

namespace hourglass {

using Kind = BrokerOperation::Kind;

struct EmbeddedBroker::ObserverSlot {
    std::atomic<bool> set{false}; // read without the mutex on every operation
    std::mutex mutex;
    std::shared_ptr<OperationObserver> observer;
};

// One observed call: holds the observer (kept alive for the call even if it is removed
// meanwhile) and the operation being described; empty when nobody observes.
class EmbeddedBroker::Observation {
public:
    Observation(const EmbeddedBroker& broker, Kind kind, const QString& path) {
        ObserverSlot& slot = *broker.m_observer;
        if (!slot.set.load(std::memory_order_relaxed))
            return;
        {
            std::lock_guard lock(slot.mutex);
            m_observer = slot.observer;
        }
        if (!m_observer)
            return;
        m_operation.emplace();
        m_operation->kind = kind;
        m_operation->at = broker.clock().now();
        m_operation->path = path;
    }
    explicit operator bool() const { return m_operation.has_value(); }
    BrokerOperation* operator->() { return &*m_operation; }
    void report() { m_observer->operationDone(*m_operation); }

    // Reports when `result` succeeded, after fill(operation) added what it carries.
    template <typename R, typename Fill> R reportIf(R result, Fill fill) {
        if (m_operation && result.ok()) {
            fill(*m_operation, result);
            report();
        }
        return result;
    }

private:
    std::shared_ptr<OperationObserver> m_observer;
    std::optional<BrokerOperation> m_operation;
};

namespace {
const auto kNothing = [](BrokerOperation&, const auto&) {};
} // namespace

EmbeddedBroker::EmbeddedBroker(std::unique_ptr<BrokerImpl> impl)
    : m_impl(std::move(impl))
    , m_observer(std::make_unique<ObserverSlot>()) {}
EmbeddedBroker::~EmbeddedBroker() {
    // No session wait's callback may run once the broker starts going away: a running one
    // finishes first, pending ones are dropped.
    m_impl->m_callbacks.stop();
    m_impl->m_store->setFailureHandler({});
}

void EmbeddedBroker::setOperationObserver(std::shared_ptr<OperationObserver> observer) {
    std::lock_guard lock(m_observer->mutex);
    m_observer->set.store(observer != nullptr, std::memory_order_relaxed);
    m_observer->observer = std::move(observer);
}

bool EmbeddedBroker::hasOperationObserver() const {
    std::lock_guard lock(m_observer->mutex);
    return m_observer->observer != nullptr;
}

// ---- Entities

namespace {
const auto kKeepEntity = [](BrokerOperation& op, const Result<EntityInfo>& result) {
    op.entity = *result;
};
} // namespace

Result<EntityInfo> EmbeddedBroker::createQueue(const QString& path,
                                               const EntityProperties& properties) {
    Observation seen(*this, Kind::CreateEntity, path);
    return seen.reportIf(m_impl->createEntity(EntityKind::Queue, path, properties, {}),
                         kKeepEntity);
}

Result<EntityInfo> EmbeddedBroker::createTopic(const QString& path,
                                               const EntityProperties& properties) {
    Observation seen(*this, Kind::CreateEntity, path);
    return seen.reportIf(m_impl->createEntity(EntityKind::Topic, path, properties, {}),
                         kKeepEntity);
}

Result<EntityInfo> EmbeddedBroker::createSubscription(const QString& path,
                                                      const EntityProperties& properties,
                                                      const QList<Rule>& rules) {
    Observation seen(*this, Kind::CreateEntity, path);
    return seen.reportIf(m_impl->createEntity(EntityKind::Subscription, path, properties, rules),
                         kKeepEntity);
}

Result<EntityInfo> EmbeddedBroker::updateEntity(const QString& path,
                                                const EntityProperties& properties) {
    Observation seen(*this, Kind::UpdateEntity, path);
    return seen.reportIf(m_impl->updateEntity(path, properties), kKeepEntity);
}

Result<void> EmbeddedBroker::deleteEntity(const QString& path) {
    Observation seen(*this, Kind::DeleteEntity, path);
    return seen.reportIf(m_impl->deleteEntity(path), kNothing);
}

Result<void> EmbeddedBroker::addRule(const QString& subscriptionPath, const Rule& rule) {
    Observation seen(*this, Kind::AddRule, subscriptionPath);
    return seen.reportIf(m_impl->addRule(subscriptionPath, rule),
                         [&](BrokerOperation& op, const auto&) { op.rule = rule; });
}

Result<void> EmbeddedBroker::removeRule(const QString& subscriptionPath, const QString& ruleName) {
    Observation seen(*this, Kind::RemoveRule, subscriptionPath);
    return seen.reportIf(m_impl->removeRule(subscriptionPath, ruleName),
                         [&](BrokerOperation& op, const auto&) { op.ruleName = ruleName; });
}

Result<void> EmbeddedBroker::replaceRule(const QString& subscriptionPath, const QString& ruleName,
                                         const Rule& rule) {
    Observation seen(*this, Kind::ReplaceRule, subscriptionPath);
    return seen.reportIf(m_impl->replaceRule(subscriptionPath, ruleName, rule),
                         [&](BrokerOperation& op, const auto&) {
                             op.ruleName = ruleName;
                             op.rule = rule;
                         });
}

// ---- Sending

Result<SendResult> EmbeddedBroker::send(const QString& path, const OutgoingMessage& message) {
    auto sent = sendBatch(path, {message});
    if (!sent)
        return sent.error();
    return sent->front();
}

namespace {
// The observer hears every message under the MessageId it was stored with: a message sent
// without one is named by its SendResult, which carries the id the broker gave it. The send
// itself is the caller's, made once, observed or not.
OutgoingMessage asStored(OutgoingMessage message, const SendResult& result) {
    if (message.messageId.isEmpty())
        message.messageId = result.messageId;
    return message;
}
} // namespace

Result<QList<SendResult>> EmbeddedBroker::sendBatch(const QString& path,
                                                    const QList<OutgoingMessage>& batch) {
    Observation seen(*this, Kind::Send, path);
    return seen.reportIf(m_impl->sendBatch(path, batch),
                         [&](BrokerOperation& op, const auto& results) {
                             for (qsizetype i = 0; i < batch.size(); ++i)
                                 op.messages.append(asStored(batch[i], results->at(i)));
                             op.sendResults = *results;
                         });
}

QList<Result<SendResult>> EmbeddedBroker::sendEach(const QString& path,
                                                   const QList<OutgoingMessage>& messages,
                                                   const std::function<void()>& taken) {
    Observation seen(*this, Kind::Send, path);
    QList<Result<SendResult>> results = m_impl->sendEach(path, messages, taken);
    if (!seen)
        return results;
    for (qsizetype i = 0; i < results.size(); ++i) {
        if (results[i]) {
            seen->messages.append(asStored(messages[i], *results[i]));
            seen->sendResults.append(*results[i]);
        }
    }
    if (!seen->messages.isEmpty())
        seen.report();
    return results;
}

Result<SendResult> EmbeddedBroker::schedule(const QString& path, OutgoingMessage message,
                                            Instant enqueueAt) {
    message.scheduledEnqueueTime = enqueueAt;
    return send(path, message);
}

Result<void> EmbeddedBroker::cancelScheduled(const QString& path, qint64 sequenceNumber) {
    Observation seen(*this, Kind::CancelScheduled, path);
    return seen.reportIf(
        m_impl->cancelScheduled(path, sequenceNumber),
        [&](BrokerOperation& op, const auto&) { op.sequenceNumbers = {sequenceNumber}; });
}

// ---- Receiving

Result<QList<MessageView>> EmbeddedBroker::receive(const QString& path,
                                                   const ReceiveOptions& options) {
    Observation seen(*this, Kind::Receive, path);
    return seen.reportIf(m_impl->receive(path, options),
                         [&](BrokerOperation& op, const auto& received) {
                             op.receiveOptions = options;
                             op.messagesOut = *received;
                         });
}

Result<MessageView> EmbeddedBroker::receiveDeferred(const QString& path, qint64 sequenceNumber,
                                                    const QString& receiver) {
    Observation seen(*this, Kind::ReceiveDeferred, path);
    return seen.reportIf(m_impl->receiveDeferred(path, sequenceNumber, receiver),
                         [&](BrokerOperation& op, const auto& received) {
                             op.sequenceNumbers = {sequenceNumber};
                             op.receiver = receiver;
                             op.messagesOut = {*received};
                         });
}

Result<QList<MessageView>> EmbeddedBroker::peek(const QString& path, qint64 fromSequenceNumber,
                                                int maxCount) {
    return peek(path, PeekOptions{fromSequenceNumber, maxCount, std::nullopt});
}

Result<QList<MessageView>> EmbeddedBroker::peek(const QString& path, const PeekOptions& options) {
    Observation seen(*this, Kind::Peek, path);
    const QString* sessionId = options.sessionId ? &*options.sessionId : nullptr;
    return seen.reportIf(
        m_impl->m_reads.peek(path, options.fromSequenceNumber, options.maxCount, sessionId),
        [&](BrokerOperation& op, const auto& out) {
            op.fromSequenceNumber = options.fromSequenceNumber;
            op.maxCount = options.maxCount;
            op.session.sessionId = options.sessionId.value_or(QString());
            op.messagesOut = *out;
        });
}

// ---- Explorer operations

Result<void> EmbeddedBroker::deleteMessages(const QString& path,
                                            const QList<qint64>& sequenceNumbers) {
    Observation seen(*this, Kind::DeleteMessages, path);
    return seen.reportIf(
        m_impl->m_operatorTools.deleteMessages(path, sequenceNumbers),
        [&](BrokerOperation& op, const auto&) { op.sequenceNumbers = sequenceNumbers; });
}

Result<QList<SendResult>> EmbeddedBroker::transferMessages(const QString& sourcePath,
                                                           const QList<qint64>& sequenceNumbers,
                                                           const QString& targetPath,
                                                           Transfer mode) {
    Observation seen(*this, Kind::TransferMessages, sourcePath);
    return seen.reportIf(
        m_impl->m_operatorTools.transferMessages(sourcePath, sequenceNumbers, targetPath, mode),
        [&](BrokerOperation& op, const auto& results) {
            op.targetPath = targetPath;
            op.sequenceNumbers = sequenceNumbers;
            op.transfer = mode;
            op.sendResults = *results;
        });
}

Result<QList<SendResult>> EmbeddedBroker::resubmit(const QString& deadLetterPath,
                                                   const QList<qint64>& sequenceNumbers) {
    // The entity is the path without its dead-letter suffix; anything else is refused here, so
    // that a resubmit never silently moves messages between two live queues.
    if (!deadLetterPath.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("'%1' is not a dead-letter queue: resubmit takes "
                                        "'<entity>/$deadletterqueue'.")
                             .arg(deadLetterPath));
    const QString target = deadLetterPath.chopped(kDeadLetterSuffix.size());
    Observation seen(*this, Kind::Resubmit, deadLetterPath);
    return seen.reportIf(m_impl->m_operatorTools.transferMessages(deadLetterPath, sequenceNumbers,
                                                                  target, Transfer::Move),
                         [&](BrokerOperation& op, const auto& results) {
                             op.targetPath = target;
                             op.sequenceNumbers = sequenceNumbers;
                             op.transfer = Transfer::Move;
                             op.sendResults = *results;
                         });
}

// ---- Settlement

Result<void> EmbeddedBroker::complete(const LockRef& lock) {
    Observation seen(*this, Kind::Complete, lock.entityPath);
    return seen.reportIf(m_impl->settle(lock, BrokerImpl::Settle::Complete, {}),
                         [&](BrokerOperation& op, const auto&) { op.locks = {lock}; });
}

Result<void> EmbeddedBroker::abandon(const LockRef& lock, const QVariantMap& propertiesToModify) {
    Observation seen(*this, Kind::Abandon, lock.entityPath);
    return seen.reportIf(
        m_impl->settle(lock, BrokerImpl::Settle::Abandon, {{}, {}, propertiesToModify}),
        [&](BrokerOperation& op, const auto&) {
            op.locks = {lock};
            op.propertiesToModify = propertiesToModify;
        });
}

Result<void> EmbeddedBroker::deadLetter(const LockRef& lock, const DeadLetterOptions& options) {
    Observation seen(*this, Kind::DeadLetter, lock.entityPath);
    return seen.reportIf(m_impl->settle(lock, BrokerImpl::Settle::DeadLetter, options),
                         [&](BrokerOperation& op, const auto&) {
                             op.locks = {lock};
                             op.deadLetter = options;
                         });
}

Result<void> EmbeddedBroker::defer(const LockRef& lock, const QVariantMap& propertiesToModify) {
    Observation seen(*this, Kind::Defer, lock.entityPath);
    return seen.reportIf(
        m_impl->settle(lock, BrokerImpl::Settle::Defer, {{}, {}, propertiesToModify}),
        [&](BrokerOperation& op, const auto&) {
            op.locks = {lock};
            op.propertiesToModify = propertiesToModify;
        });
}

Result<Instant> EmbeddedBroker::renewLock(const LockRef& lock) {
    Observation seen(*this, Kind::RenewLock, lock.entityPath);
    return seen.reportIf(m_impl->renewLock(lock),
                         [&](BrokerOperation& op, const auto&) { op.locks = {lock}; });
}

QList<Result<void>> EmbeddedBroker::completeBatch(const QList<LockRef>& locks) {
    Observation seen(*this, Kind::Complete, locks.isEmpty() ? QString() : locks.first().entityPath);
    QList<Result<void>> results = m_impl->settleBatch(locks, BrokerImpl::Settle::Complete);
    if (seen) {
        for (qsizetype i = 0; i < results.size() && i < locks.size(); ++i) {
            if (results[i].ok())
                seen->locks.append(locks[i]);
        }
        if (!seen->locks.isEmpty())
            seen.report();
    }
    return results;
}

// ---- Sessions

namespace {
void keepSession(BrokerOperation& op, const SessionRef& session) {
    op.session = session;
}
} // namespace

Result<AcceptedSession> EmbeddedBroker::acceptSession(const QString& path,
                                                      const SessionAcceptOptions& options) {
    Observation seen(*this, Kind::AcceptSession, path);
    return seen.reportIf(m_impl->m_sessionLocks.accept(path, options),
                         [&](BrokerOperation& op, const auto& accepted) {
                             keepSession(op, SessionRef::of(*accepted));
                             op.lockedUntil = accepted->lockedUntil;
                         });
}

quint64 EmbeddedBroker::acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                                           Millis timeout, SessionAcceptCallback done) {
    // A grant is reported when it is made known, on the callback thread, before `done` runs
    // (so an observer hears of the accept before anything done under the session), and at the
    // instant of the grant, not of the call: a replay accepts then.
    auto observed = [this, path, done = std::move(done)](const Result<AcceptedSession>& result) {
        if (result) {
            Observation seen(*this, Kind::AcceptSession, path);
            if (seen) {
                seen->at = result->acceptedAt;
                seen->session = SessionRef::of(*result);
                seen->lockedUntil = result->lockedUntil;
                seen.report();
            }
        }
        done(result);
    };
    return m_impl->m_sessionLocks.acceptAsync(path, options, timeout, std::move(observed));
}

Result<Instant> EmbeddedBroker::renewSessionLock(const SessionRef& session) {
    Observation seen(*this, Kind::RenewSessionLock, session.entityPath);
    return seen.reportIf(m_impl->m_sessionLocks.renew(session),
                         [&](BrokerOperation& op, const auto& lockedUntil) {
                             keepSession(op, session);
                             op.lockedUntil = *lockedUntil;
                         });
}

Result<void> EmbeddedBroker::releaseSession(const SessionRef& session) {
    Observation seen(*this, Kind::ReleaseSession, session.entityPath);
    return seen.reportIf(m_impl->m_sessionLocks.release(session),
                         [&](BrokerOperation& op, const auto&) { keepSession(op, session); });
}

int EmbeddedBroker::releaseSessionsOf(const QString& receiver) {
    Observation seen(*this, Kind::ReleaseSessions, {});
    const int released = m_impl->m_sessionLocks.releaseAllOf(receiver);
    if (seen && released > 0) {
        seen->receiver = receiver;
        seen.report();
    }
    return released;
}

Result<QList<MessageView>> EmbeddedBroker::receiveFromSession(const SessionRef& session,
                                                              ReceiveMode mode, int maxCount) {
    Observation seen(*this, Kind::Receive, session.entityPath);
    return seen.reportIf(m_impl->receiveFromSession(session, mode, maxCount),
                         [&](BrokerOperation& op, const auto& received) {
                             keepSession(op, session);
                             op.receiveOptions = {mode, maxCount, session.receiver};
                             op.messagesOut = *received;
                         });
}

Result<MessageView> EmbeddedBroker::receiveDeferredFromSession(const SessionRef& session,
                                                               qint64 sequenceNumber) {
    Observation seen(*this, Kind::ReceiveDeferred, session.entityPath);
    return seen.reportIf(m_impl->receiveDeferredFromSession(session, sequenceNumber),
                         [&](BrokerOperation& op, const auto& received) {
                             keepSession(op, session);
                             op.sequenceNumbers = {sequenceNumber};
                             op.receiver = session.receiver;
                             op.messagesOut = {*received};
                         });
}

Result<void> EmbeddedBroker::setSessionState(const SessionRef& session,
                                             const std::optional<QByteArray>& state) {
    Observation seen(*this, Kind::SetSessionState, session.entityPath);
    return seen.reportIf(m_impl->m_sessionLocks.setState(session, state),
                         [&](BrokerOperation& op, const auto&) {
                             keepSession(op, session);
                             op.sessionState = state;
                         });
}

// ---- Time

Result<void> EmbeddedBroker::advanceClock(Millis delta) {
    Observation seen(*this, Kind::AdvanceClock, QString());
    auto* virtualClock = dynamic_cast<VirtualClock*>(m_impl->m_clock.get());
    if (!virtualClock)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Only a virtual clock can be moved ahead."));
    if (delta < 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The clock cannot go backwards."));
    virtualClock->advance(delta);
    m_impl->runDue();
    const Result<void> moved;
    return seen.reportIf(moved, [&](BrokerOperation& op, const auto&) { op.clockDelta = delta; });
}

} // namespace hourglass
