#pragma once
// A namespace without a sequence index, for the window's tests: a real broker (the embedded one,
// on the test's database) behind a thin decorator that forwards every call except the ones a
// remote namespace cannot answer. capabilities() says it hosts no database, sequenceIndex is
// refused as RemoteBroker refuses it, and listMessages hands back at most `peekLimit` rows a
// call, as a service's peek may hand back fewer than asked for before the end. Everything else
// (sends, deletes, counts, the clock, the change feed) is the real broker's.

#include "hourglass/Broker.h"

#include <QAtomicInt>

#include <memory>

namespace hourglass::testing {

class IndexlessBroker : public Broker {
public:
    explicit IndexlessBroker(std::unique_ptr<Broker> inner, int peekLimit = 1 << 30)
        : m_inner(std::move(inner))
        , m_peekLimit(peekLimit) {}

    Broker& inner() const { return *m_inner; }
    // How many times sequenceIndex was asked (and refused).
    int indexRequests() const { return m_indexRequests.loadRelaxed(); }
    // How many listMessages calls were made.
    int listRequests() const { return m_listRequests.loadRelaxed(); }

    BrokerCapabilities capabilities() const override {
        BrokerCapabilities capabilities = m_inner->capabilities();
        capabilities.hostsDatabase = false;
        return capabilities;
    }
    Result<SequenceIndex> sequenceIndex(const QString&, int) const override {
        m_indexRequests.ref();
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Paging by sequence index is only available on a "
                                        "namespace this window hosts."));
    }
    Result<QList<MessageView>> listMessages(const QString& path, qint64 fromSequenceNumber,
                                            int maxCount, Bodies bodies) const override {
        m_listRequests.ref();
        return m_inner->listMessages(path, fromSequenceNumber, std::min(maxCount, m_peekLimit),
                                     bodies);
    }

    // ---- Everything else: the real broker's.
    void describeOwner(const QString& detail) override { m_inner->describeOwner(detail); }
    Result<void> createNamespace(const NamespaceInfo& info) override {
        return m_inner->createNamespace(info);
    }
    Result<void> deleteNamespace(const QString& name) override {
        return m_inner->deleteNamespace(name);
    }
    QList<NamespaceInfo> namespaces() const override { return m_inner->namespaces(); }
    QString setting(const QString& name) const override { return m_inner->setting(name); }
    Result<void> setSetting(const QString& name, const QString& value) override {
        return m_inner->setSetting(name, value);
    }
    Result<EntityInfo> createQueue(const QString& path, const EntityProperties& p) override {
        return m_inner->createQueue(path, p);
    }
    Result<EntityInfo> createTopic(const QString& path, const EntityProperties& p) override {
        return m_inner->createTopic(path, p);
    }
    Result<EntityInfo> createSubscription(const QString& path, const EntityProperties& p,
                                          const QList<Rule>& rules) override {
        return m_inner->createSubscription(path, p, rules);
    }
    Result<EntityInfo> updateEntity(const QString& path, const EntityProperties& p) override {
        return m_inner->updateEntity(path, p);
    }
    Result<void> deleteEntity(const QString& path) override { return m_inner->deleteEntity(path); }
    Result<EntityInfo> entity(const QString& path) const override { return m_inner->entity(path); }
    QList<EntityInfo> entities(const QString& namespaceName) const override {
        return m_inner->entities(namespaceName);
    }
    Result<void> addRule(const QString& path, const Rule& rule) override {
        return m_inner->addRule(path, rule);
    }
    Result<void> removeRule(const QString& path, const QString& ruleName) override {
        return m_inner->removeRule(path, ruleName);
    }
    Result<void> replaceRule(const QString& path, const QString& ruleName,
                             const Rule& rule) override {
        return m_inner->replaceRule(path, ruleName, rule);
    }
    Result<RoutingPreview>
    previewRouting(const QString& topicPath, const OutgoingMessage& message,
                   const std::optional<SqlBrokerFields>& assigned) const override {
        return m_inner->previewRouting(topicPath, message, assigned);
    }
    Result<SendResult> send(const QString& path, const OutgoingMessage& message) override {
        return m_inner->send(path, message);
    }
    Result<QList<SendResult>> sendBatch(const QString& path,
                                        const QList<OutgoingMessage>& batch) override {
        return m_inner->sendBatch(path, batch);
    }
    Result<SendResult> schedule(const QString& path, OutgoingMessage message,
                                Instant enqueueAt) override {
        return m_inner->schedule(path, std::move(message), enqueueAt);
    }
    QList<Result<SendResult>> sendEach(const QString& path, const QList<OutgoingMessage>& messages,
                                       const std::function<void()>& taken) override {
        return m_inner->sendEach(path, messages, taken);
    }
    Result<void> cancelScheduled(const QString& path, qint64 sequenceNumber) override {
        return m_inner->cancelScheduled(path, sequenceNumber);
    }
    Result<QList<MessageView>> receive(const QString& path,
                                       const ReceiveOptions& options) override {
        return m_inner->receive(path, options);
    }
    Result<void> checkReceiver(const QString& path) const override {
        return m_inner->checkReceiver(path);
    }
    Result<MessageView> receiveDeferred(const QString& path, qint64 sequenceNumber,
                                        const QString& receiver) override {
        return m_inner->receiveDeferred(path, sequenceNumber, receiver);
    }
    Result<QList<MessageView>> peek(const QString& path, qint64 fromSequenceNumber,
                                    int maxCount) override {
        return m_inner->peek(path, fromSequenceNumber, maxCount);
    }
    Result<QList<MessageView>> peek(const QString& path, const PeekOptions& options) override {
        return m_inner->peek(path, options);
    }
    Result<void> complete(const LockRef& lock) override { return m_inner->complete(lock); }
    Result<void> abandon(const LockRef& lock, const QVariantMap& properties) override {
        return m_inner->abandon(lock, properties);
    }
    Result<void> deadLetter(const LockRef& lock, const DeadLetterOptions& options) override {
        return m_inner->deadLetter(lock, options);
    }
    Result<void> defer(const LockRef& lock, const QVariantMap& properties) override {
        return m_inner->defer(lock, properties);
    }
    Result<Instant> renewLock(const LockRef& lock) override { return m_inner->renewLock(lock); }
    QList<Result<void>> completeBatch(const QList<LockRef>& locks) override {
        return m_inner->completeBatch(locks);
    }
    Result<AcceptedSession> acceptSession(const QString& path,
                                          const SessionAcceptOptions& options) override {
        return m_inner->acceptSession(path, options);
    }
    quint64 acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                               Millis timeout, SessionAcceptCallback done) override {
        return m_inner->acceptSessionAsync(path, options, timeout, std::move(done));
    }
    bool cancelAcceptSession(quint64 waitId) override {
        return m_inner->cancelAcceptSession(waitId);
    }
    Result<Instant> renewSessionLock(const SessionRef& session) override {
        return m_inner->renewSessionLock(session);
    }
    Result<void> releaseSession(const SessionRef& session) override {
        return m_inner->releaseSession(session);
    }
    int releaseSessionsOf(const QString& receiver) override {
        return m_inner->releaseSessionsOf(receiver);
    }
    Result<QList<MessageView>> receiveFromSession(const SessionRef& session, ReceiveMode mode,
                                                  int maxCount) override {
        return m_inner->receiveFromSession(session, mode, maxCount);
    }
    Result<MessageView> receiveDeferredFromSession(const SessionRef& session,
                                                   qint64 sequenceNumber) override {
        return m_inner->receiveDeferredFromSession(session, sequenceNumber);
    }
    Result<std::optional<QByteArray>> sessionState(const SessionRef& session) override {
        return m_inner->sessionState(session);
    }
    bool holdsSession(const SessionRef& session) const override {
        return m_inner->holdsSession(session);
    }
    Result<void> setSessionState(const SessionRef& session,
                                 const std::optional<QByteArray>& state) override {
        return m_inner->setSessionState(session, state);
    }
    Result<void> deleteMessages(const QString& path,
                                const QList<qint64>& sequenceNumbers) override {
        return m_inner->deleteMessages(path, sequenceNumbers);
    }
    Result<QList<SendResult>> transferMessages(const QString& sourcePath,
                                               const QList<qint64>& sequenceNumbers,
                                               const QString& targetPath, Transfer mode) override {
        return m_inner->transferMessages(sourcePath, sequenceNumbers, targetPath, mode);
    }
    Result<qint64> purge(const QString& path, const PurgeOptions& options) override {
        return m_inner->purge(path, options);
    }
    Result<QList<SendResult>> resubmit(const QString& deadLetterPath,
                                       const QList<qint64>& sequenceNumbers) override {
        return m_inner->resubmit(deadLetterPath, sequenceNumbers);
    }
    Result<MessageView> message(const QString& path, qint64 sequenceNumber,
                                Bodies bodies) const override {
        return m_inner->message(path, sequenceNumber, bodies);
    }
    Result<EntityCounts> counts(const QString& path) const override {
        return m_inner->counts(path);
    }
    Result<EntityFlow> flow(const QString& path) const override { return m_inner->flow(path); }
    Result<QMap<QString, qint64>> deadLetterReasons(const QString& path) const override {
        return m_inner->deadLetterReasons(path);
    }
    Result<QList<SessionInfo>> listSessions(const QString& path, const QString& fromSessionId,
                                            int maxCount,
                                            std::optional<Instant> stateSetSince) const override {
        return m_inner->listSessions(path, fromSessionId, maxCount, stateSetSince);
    }
    Result<SessionInfo> session(const QString& path, const QString& sessionId) const override {
        return m_inner->session(path, sessionId);
    }
    Result<SessionPages> sessionPages(const QString& path, int stride) const override {
        return m_inner->sessionPages(path, stride);
    }
    Clock& clock() const override { return m_inner->clock(); }
    int runDue() override { return m_inner->runDue(); }
    Instant nextDueAt() const override { return m_inner->nextDueAt(); }
    Result<void> advanceClock(Millis delta) override { return m_inner->advanceClock(delta); }
    ChangeFeed* changes() const override { return m_inner->changes(); }
    QString databasePath() const override { return m_inner->databasePath(); }
    void setOperationObserver(std::shared_ptr<OperationObserver> observer) override {
        m_inner->setOperationObserver(std::move(observer));
    }
    bool hasOperationObserver() const override { return m_inner->hasOperationObserver(); }

private:
    std::unique_ptr<Broker> m_inner;
    int m_peekLimit;
    mutable QAtomicInt m_indexRequests;
    mutable QAtomicInt m_listRequests;
};

} // namespace hourglass::testing
