#pragma once
// A namespace this process does not host (Azure, Microsoft's emulator, another machine's
// `hourglass serve`) behind the Broker interface, so that the window's panels read and change it
// as they do the embedded one. The administration API (AdminClient) answers the entity calls;
// the AMQP client answers the data plane. What only a hosted namespace can do is refused with
// InvalidArgument and a one-line reason, and capabilities() says so (hostsDatabase false;
// listsSessions true: the service lists sessions).
//
// Threads: every call waits for the wire (at most the clients' time-outs): call it from a worker
// thread, never the GUI's, as the window's BrokerClient does. The change feed's poll runs on a
// thread of its own and never blocks a caller. Destroy the broker once every call has returned.
//
// Call by call, on a remote namespace:
// - entities(): the queues, the topics and each topic's subscriptions (queues and topics first,
//   then subscriptions, each in path order), with the runtime counts the service gives: active,
//   scheduled, dead-lettered and the size. The service reports no `locked` and no `deferred`
//   count (it counts those messages as active), so both stay 0. A list that fails returns
//   the last listing that worked (nothing before the first: the window's tree keeps its rows
//   while the namespace cannot be reached); lastListError() says why. entity(path) reads one
//   entity, a subscription with its rules; counts(path) its counts
//   ("<entity>/$deadletterqueue": the entity's dead-lettered count as active).
// - A key without the Manage right (Listen- or Send-only, or a signature for one entity): the
//   administration API answers 401. When the options name entities (namedEntities), a listing
//   that gets 401 proves the key on the AMQP side instead (a wrong key still fails there) and
//   gives the named entities, each as the API reads it where it will (a signature for one
//   entity reads that entity), else with its counts unknown (countsKnown false, zeros);
//   listsNamedOnly() says so; without names, the listing's error says the key cannot list and
//   to name the entities. entity(), counts() and the receive checks answer a named entity the
//   same way, so that peek, receive, settle and send work on it; what needs the API (create,
//   update, delete, rules, the routing preview) answers the 401.
// - createQueue, createTopic, createSubscription, updateEntity, deleteEntity, addRule,
//   removeRule, replaceRule: through the administration API; each success marks the change feed
//   at once (created, updated, deleted) and tells the poll, which then does not report it again.
//   replaceRule under another name adds the new rule before it removes the old one (the API has
//   no rename): a failure between the two leaves both.
// - changes(): this broker's own feed. A poll every pollInterval() (settable, 5 s by default)
//   lists the entities and their counts and marks what changed since the last poll: created,
//   deleted, updated (properties), countsChanged, and messagesAdded or messagesRemoved when a
//   count went up or down. The first poll only learns what is there. The poll stops when the
//   broker is destroyed.
// - previewRouting(topic, message): the rules the administration API returns, evaluated by the
//   engine's own preview (RoutingPreview.h), forwarding destinations looked up through the API.
//   The service does not say which message ids it saw nor the topic's next sequence number:
//   `duplicate` stays false and sys.SequenceNumber reads as missing unless `assigned` gives it.
// - namespaces(): one, named after the host's first label ("contoso" for
//   contoso.servicebus.windows.net, "localhost"), as a namespace name may be written; entities()
//   with another namespace name lists nothing. Paths may be given qualified by that name, as the
//   window gives them ("contoso:orders"), or not ("orders"); the change feed marks them qualified,
//   as the embedded broker does. setting() and databasePath() are empty;
//   describeOwner() and setOperationObserver() do nothing; hasOperationObserver() is false.
// - clock() is the system clock; runDue() does nothing (0) and nextDueAt() is kNever: the
//   service keeps its own time.
// - Refused with InvalidArgument ("... is only available on a namespace this window hosts"):
//   createNamespace, deleteNamespace, setSetting, advanceClock, flow, sequenceIndex.
// - deleteMessages, transferMessages, resubmit: message by message, never all or nothing
//   (Broker.h). The chosen messages are peeked first: a missing one is refused with
//   MessageNotFound before anything changes. A copy keeps every property but the dead-letter
//   reason and description (transferCopy); a scheduled message's copy is scheduled for the
//   same instant; the service's duplicate detection on the target may drop a copy whose
//   MessageId it saw. Copy sends the copies. Move and resubmit send each copy, then complete the
//   original (a crash between the two may duplicate, never lose); delete completes it. The
//   originals are received peek-locked on a receiver of the broker's own, in sequence order:
//   every other message received on the way is held until the scan ends, then abandoned (its
//   delivery count goes up by one). A scan stops once every chosen message was found, or when
//   the source runs dry, hands back a message already passed over (its lock ran out) or 10,000
//   others were passed over: then MessageNotFound says how many were not received (locked by
//   another receiver, or gone). Deferred messages are taken by sequence number; scheduled ones
//   are cancelled (a move schedules the copy first).
// - purge: the service's batch delete (AmqpClient::batchDelete) where the namespace answers
//   it; once it answered that it does not, receive-and-delete pages on the broker's receiver
//   (active messages only), which refuse a cutoff or a session.
// - send, sendBatch, sendEach, schedule, cancelScheduled: through the AMQP client's sender link
//   for the entity (schedule and cancel through its $management node). A plain send does not
//   learn its sequence number (0); a message without a MessageId is given one first, so every
//   SendResult names its message. sendBatch sends the messages in one flight, not as one batch
//   transfer: a failure may leave the ones before it sent. sendEach sends one by one.
// - receive: on a receiver link kept per (entity, receiver, mode), waiting at most
//   receiveWaitMs for messages (none is not an error); `taken` is called once they are here.
//   receiveDeferred: by sequence number through $management. Settlements (complete, abandon,
//   defer, deadLetter, completeBatch one by one) go on the link that received the message, or
//   through $management for a deferred one; renewLock through $management.
// - peek (both forms): $management's peek. listMessages and message are peeks too (the service
//   has no read without one: they count as activity where the service counts a peek);
//   deadLetterReasons peeks at most the first 10,000 dead letters and counts their reasons.
// - Sessions: acceptSession takes the named or the next available session on a session
//   receiver link, waiting at most receiveWaitMs; acceptSessionAsync runs it on a thread of the
//   broker's, waiting at most the timeout (bounded by the AMQP call time-out), and calls back
//   there; cancelAcceptSession drops the callback (a session granted after it is released). The
//   link takes messages peek-locked: receiveFromSession in receive-and-delete completes each at
//   once. receiveDeferredFromSession takes a deferred message of a session this broker holds
//   (SessionLockLost otherwise) by sequence number, the session named; it settles through
//   $management like any deferred message. holdsSession and releaseSessionsOf know the sessions
//   this broker accepted (holdsSession: until the lock's LockedUntilUtc on the system clock).
//   listSessions and sessionPages page through the service's get-message-sessions (at most 10,000
//   ids, in id order); they give ids only, no counts and no lock, and refuse stateSetSince.
//   session() reads the state only of a session this broker holds (only the holder may read it).
// - readOnly: every call that changes anything (create, update, delete, rules, sends, receives
//   in either mode, settlements, session accepts and state, the operator steps and purge) is
//   refused with InvalidArgument "This connection is read-only." before anything is sent.
// - A broken AMQP connection (connectionLostAt) is made again at once, then with a back-off;
//   the locks and sessions taken on it are gone and say so when settled or renewed.
// - Destroying the broker stops the poll, ends the asynchronous accepts without calling them
//   back, and closes the AMQP connection: its links end, so the locks it holds are abandoned.

#include "hourglass/Broker.h"
#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/ConnectionString.h"
#include "hourglass/remote/NamedEntities.h"

#include <chrono>
#include <memory>

namespace hourglass::remote {

struct RemoteBrokerOptions {
    // The namespace: where its AMQP side is and the credential for both planes.
    ConnectionString connection;
    // The administration API (AdminClientOptions::forConnection(connection), or a second,
    // administration-only string's base URL).
    AdminClientOptions admin;
    // The AMQP side: call time-out, extra CA file, token provider, over WebSockets or not.
    AmqpClientOptions amqp;
    // How long a receive or a session accept waits for the service to hand something over.
    int receiveWaitMs = 1000;
    // Peek and browse only: nothing that changes the namespace reaches the wire.
    bool readOnly = false;
    // How often the change feed's poll lists the runtime counts.
    std::chrono::milliseconds pollInterval{5000};
    // The entities to browse when the administration API refuses the key (it lacks the Manage
    // right): forConnection names the string's EntityPath; the user may name more.
    QList<NamedEntity> namedEntities;

    // The options for `connection` as it stands.
    static RemoteBrokerOptions forConnection(const ConnectionString& connection);
};

class RemoteBroker final : public Broker {
public:
    explicit RemoteBroker(RemoteBrokerOptions options);
    // Stops the poll, then closes both clients.
    ~RemoteBroker() override;

    const RemoteBrokerOptions& options() const;
    bool isReadOnly() const;
    // The change feed's poll interval; a new one takes effect at once (the next poll is due
    // one new interval after the last).
    std::chrono::milliseconds pollInterval() const;
    void setPollInterval(std::chrono::milliseconds interval);
    // When the last poll that listed the entities finished (system time); 0 before the first.
    Instant lastPollAt() const;
    // Why the last listing of entities (entities() or the poll) failed; empty after a success.
    QString lastListError() const;
    // Whether the last listing gave the named entities (options().namedEntities) because the
    // administration API refused the key while the AMQP side accepted it.
    bool listsNamedOnly() const;
    // The AMQP connection broke and is not back yet: since when (system time), 0 while it is up
    // (AmqpClient::connectionLostAt), and why. It is made again in the background; the locks and
    // sessions taken before the break are lost (holdsSession is false for them). Never waits on
    // the wire: the window reads it from its own thread as it reads lastPollAt().
    Instant connectionLostAt() const;
    QString connectionProblem() const;
    // When it last broke, kept once it is back (0: never): what was taken before is gone.
    Instant lastConnectionBreakAt() const;

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

    struct State; // RemoteBrokerState.h

private:
    std::unique_ptr<State> m_state;
};

} // namespace hourglass::remote
