#pragma once
// The namespace hosted in this process (Broker::open): every call forwards to BrokerImpl, which
// keeps the state under one mutex and SQLite as its store of record. The Broker calls an
// OperationObserver hears about are defined in BrokerObserved.cpp, the others beside the part
// of BrokerImpl they read (Broker.cpp, BrokerEntities.cpp, MessageReads.cpp, ...).

#include "hourglass/Broker.h"

#include <memory>

namespace hourglass {

class BrokerImpl;

class EmbeddedBroker final : public Broker {
public:
    explicit EmbeddedBroker(std::unique_ptr<BrokerImpl> impl);
    ~EmbeddedBroker() override;

    void describeOwner(const QString& detail) override;
    Result<void> createNamespace(const NamespaceInfo& info) override;
    Result<void> deleteNamespace(const QString& name) override;
    QList<NamespaceInfo> namespaces() const override;
    QString setting(const QString& name) const override;
    Result<void> setSetting(const QString& name, const QString& value) override;
    Result<EntityInfo> createQueue(const QString& path,
                                   const EntityProperties& properties) override;
    Result<EntityInfo> createTopic(const QString& path,
                                   const EntityProperties& properties) override;
    Result<EntityInfo> createSubscription(const QString& path, const EntityProperties& properties,
                                          const QList<Rule>& rules) override;
    Result<EntityInfo> updateEntity(const QString& path,
                                    const EntityProperties& properties) override;
    Result<void> deleteEntity(const QString& path) override;
    Result<EntityInfo> entity(const QString& path) const override;
    QList<EntityInfo> entities(const QString& namespaceName) const override;
    Result<void> addRule(const QString& subscriptionPath, const Rule& rule) override;
    Result<void> removeRule(const QString& subscriptionPath, const QString& ruleName) override;
    Result<void> replaceRule(const QString& subscriptionPath, const QString& ruleName,
                             const Rule& rule) override;
    Result<RoutingPreview>
    previewRouting(const QString& topicPath, const OutgoingMessage& message,
                   const std::optional<SqlBrokerFields>& assigned) const override;
    Result<SendResult> send(const QString& path, const OutgoingMessage& message) override;
    Result<QList<SendResult>> sendBatch(const QString& path,
                                        const QList<OutgoingMessage>& batch) override;
    Result<SendResult> schedule(const QString& path, OutgoingMessage message,
                                Instant enqueueAt) override;
    QList<Result<SendResult>> sendEach(const QString& path, const QList<OutgoingMessage>& messages,
                                       const std::function<void()>& taken) override;
    Result<void> cancelScheduled(const QString& path, qint64 sequenceNumber) override;
    Result<QList<MessageView>> receive(const QString& path, const ReceiveOptions& options) override;
    Result<void> checkReceiver(const QString& path) const override;
    Result<MessageView> receiveDeferred(const QString& path, qint64 sequenceNumber,
                                        const QString& receiver) override;
    Result<QList<MessageView>> peek(const QString& path, qint64 fromSequenceNumber,
                                    int maxCount) override;
    Result<QList<MessageView>> peek(const QString& path, const PeekOptions& options) override;
    Result<void> complete(const LockRef& lock) override;
    Result<void> abandon(const LockRef& lock, const QVariantMap& propertiesToModify) override;
    Result<void> deadLetter(const LockRef& lock, const DeadLetterOptions& options) override;
    Result<void> defer(const LockRef& lock, const QVariantMap& propertiesToModify) override;
    Result<Instant> renewLock(const LockRef& lock) override;
    QList<Result<void>> completeBatch(const QList<LockRef>& locks) override;
    Result<AcceptedSession> acceptSession(const QString& path,
                                          const SessionAcceptOptions& options) override;
    quint64 acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                               Millis timeout, SessionAcceptCallback done) override;
    bool cancelAcceptSession(quint64 waitId) override;
    Result<Instant> renewSessionLock(const SessionRef& session) override;
    Result<void> releaseSession(const SessionRef& session) override;
    int releaseSessionsOf(const QString& receiver) override;
    Result<QList<MessageView>> receiveFromSession(const SessionRef& session, ReceiveMode mode,
                                                  int maxCount) override;
    Result<MessageView> receiveDeferredFromSession(const SessionRef& session,
                                                   qint64 sequenceNumber) override;
    Result<std::optional<QByteArray>> sessionState(const SessionRef& session) override;
    bool holdsSession(const SessionRef& session) const override;
    Result<void> setSessionState(const SessionRef& session,
                                 const std::optional<QByteArray>& state) override;
    Result<void> deleteMessages(const QString& path, const QList<qint64>& sequenceNumbers) override;
    Result<QList<SendResult>> transferMessages(const QString& sourcePath,
                                               const QList<qint64>& sequenceNumbers,
                                               const QString& targetPath, Transfer mode) override;
    Result<QList<SendResult>> resubmit(const QString& deadLetterPath,
                                       const QList<qint64>& sequenceNumbers) override;
    Result<qint64> purge(const QString& path, const PurgeOptions& options) override;
    Result<QList<MessageView>> listMessages(const QString& path, qint64 fromSequenceNumber,
                                            int maxCount, Bodies bodies) const override;
    Result<MessageView> message(const QString& path, qint64 sequenceNumber,
                                Bodies bodies) const override;
    Result<EntityCounts> counts(const QString& path) const override;
    Result<EntityFlow> flow(const QString& path) const override;
    Result<SequenceIndex> sequenceIndex(const QString& path, int stride) const override;
    Result<QMap<QString, qint64>> deadLetterReasons(const QString& path) const override;
    Result<QList<SessionInfo>> listSessions(const QString& path, const QString& fromSessionId,
                                            int maxCount,
                                            std::optional<Instant> stateSetSince) const override;
    Result<SessionInfo> session(const QString& path, const QString& sessionId) const override;
    Result<SessionPages> sessionPages(const QString& path, int stride) const override;
    Clock& clock() const override;
    int runDue() override;
    Instant nextDueAt() const override;
    Result<void> advanceClock(Millis delta) override;
    ChangeFeed* changes() const override;
    QString databasePath() const override;
    void setOperationObserver(std::shared_ptr<OperationObserver> observer) override;
    bool hasOperationObserver() const override;
    BrokerCapabilities capabilities() const override;

private:
    class Observation; // one observed call (BrokerObserved.cpp)
    struct ObserverSlot;

    std::unique_ptr<BrokerImpl> m_impl;
    std::unique_ptr<ObserverSlot> m_observer;
};

} // namespace hourglass
