#pragma once
// The Broker's implementation, shared by the Broker*.cpp files (one area each: entities, send,
// routing, receive, settle, time, reads). Internal: not part of the engine's public API.
//
// Locking, checked by clang (Mutex.h; tests/engine runs the -Wthread-safety pass): m_mutex
// guards every member marked GUARDED_BY(m_mutex); m_store (which has its own locks), m_clock,
// m_feed and m_callbacks are thread-safe (a session wait's callback is posted to m_callbacks
// under m_mutex and runs outside it). A method marked REQUIRES(m_mutex) is called with it held.
// The Entity objects m_registry owns are the broker's state too: reached only through it, they
// are read and changed only with m_mutex held.
// No disk sync is ever waited for under m_mutex: acknowledgement (Store::waitDurable, sync)
// happens after m_mutex is released, so that other callers keep working while a disk sync runs
// (group commit, L2). BrokerWrite.h is the one code that takes m_mutex and waits on the store:
// every write holds a BrokerWrite and ends with its commit(), every read holds a BrokerRead.
// Code under m_mutex that needs a whole message reads it with Store::readLatest (committed rows
// plus what is logged), never by waiting for a commit.

#include "CallbackQueue.h"
#include "EntityRegistry.h"
#include "LockTable.h"
#include "MessageIndex.h"
#include "Mutex.h"
#include "SessionIndex.h"
#include "SessionWaits.h"
#include "TimerQueue.h"
#include "hourglass/Broker.h"
#include "hourglass/EntityPath.h"
#include "store/Store.h"

#include <QHash>
#include <QSet>

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace hourglass {

class Logged;

// Where a message that arrives in an entity comes from, for the columns that say so.
struct DeliveryExtras {
    QString deadLetterReason;
    QString deadLetterDescription;
    QString deadLetterSource;
};

class BrokerImpl {
public:
    BrokerImpl(std::unique_ptr<Store> store, std::shared_ptr<Clock> clock);

    // ---- Opening (BrokerLoad.cpp): the steps of load(), in order.
    Result<void> load() REQUIRES(m_mutex);
    Result<void> loadEntities() REQUIRES(m_mutex);
    Result<void> linkSubscriptions() REQUIRES(m_mutex);
    // The delivery journal's rows a crash left (StoreSchema.h), and what they add to counts.
    struct DeliveryJournal {
        std::vector<qint64> rows;
        QHash<std::pair<qint64, qint64>, std::vector<qint64>> rowsNaming; // (entity, seq) -> ids
        std::vector<op::SetDeliveryCount> folds;
        qint64 highestId = 0; // of the rows and of every id a stored message names
        // The deliveries of this message that rows record and its count does not include yet.
        quint32 deliveriesNotFolded(const Store::MessageKey& key);
    };
    Result<void> loadDeliveryJournal(DeliveryJournal& journal) REQUIRES(m_mutex);
    Result<void> loadMessages(DeliveryJournal& journal) REQUIRES(m_mutex);
    Result<void> loadScheduledTopicMessages() REQUIRES(m_mutex);
    // S2, S4: which session each message belongs to, and the sessions' states (not their
    // bytes). Locks are not stored: every session is unlocked after a restart (S5).
    Result<void> loadSessions() REQUIRES(m_mutex);
    void foldDeliveryJournal(const DeliveryJournal& journal) REQUIRES(m_mutex);

    // ---- A failed write (BrokerRecovery.cpp): the store's failure handler. Puts memory back to
    // what the database holds (reloadFromStore) once per failure; then every caller whose writes
    // the failure discarded returns its error.
    void recoverFromFailedWrite();
    void reloadFromStore() REQUIRES(m_mutex);

    // ---- Resolution (m_mutex held)
    struct Target {
        Entity* entity = nullptr;
        SubQueue subQueue = SubQueue::Main;
    };
    Result<QString> namespaceOf(const ParsedPath& parsed) const REQUIRES(m_mutex);
    Result<Target> resolve(const QString& path) const REQUIRES(m_mutex);
    // Remembers resolved paths: settling a batch resolves the same path once, not per lock.
    // Cleared whenever an entity or namespace comes or goes.
    mutable QHash<QString, Target> m_resolved GUARDED_BY(m_mutex);
    Result<Target> resolveUncached(const QString& path) const REQUIRES(m_mutex);
    // How every call on a path starts: fire every timer due at the clock's now (activations,
    // expiries, lock expiries, auto-deletes, each at its own instant), then find the path.
    Result<Target> fireDueAndResolve(const QString& path, Instant& now) REQUIRES(m_mutex);
    // A read of one path that needs nothing but memory: under the lock, after
    // fireDueAndResolve, read(target) gives the value (or the path's error).
    // Defined in BrokerWrite.h, with the rest of the one way into the mutex.
    template <typename Reader>
    auto readTarget(const QString& path, Reader read)
        -> Result<std::invoke_result_t<Reader, const Target&>>;
    Tier tierOf(const QString& namespaceName) const REQUIRES(m_mutex);

    // ---- Entities (BrokerEntities.cpp)
    Result<EntityInfo> createEntity(EntityKind kind, const QString& path,
                                    const EntityProperties& properties, const QList<Rule>& rules);
    Result<EntityInfo> updateEntity(const QString& path, const EntityProperties& properties);
    Result<void> deleteEntity(const QString& path);
    Result<void> addRule(const QString& path, const Rule& rule);
    Result<void> removeRule(const QString& path, const QString& name);
    Result<void> replaceRule(const QString& path, const QString& name, const Rule& rule);
    // The rule edits' one path: resolves the subscription at `path`, lets `edit` change its rules
    // (a refusal changes nothing), then keeps the change and waits for the disk.
    Result<void> editRules(const QString& path, const std::function<Result<void>(Entity&)>& edit);
    Result<void> validateForwarding(const QString& namespaceName, const QString& selfPath,
                                    const EntityProperties& properties) const REQUIRES(m_mutex);
    void eraseEntity(Entity* entity) REQUIRES(m_mutex);
    EntityInfo infoOf(const Entity& entity) const REQUIRES(m_mutex);
    // The counts of an entity, or of its dead-letter queue as that queue's receivers see it.
    static EntityCounts countsOf(const Entity& entity, SubQueue subQueue);
    StoredEntity storedOf(const Entity& entity) const REQUIRES(m_mutex);
    Instant autoDeleteAt(const Entity& entity) const REQUIRES(m_mutex);
    void scheduleAutoDelete(Entity& entity) REQUIRES(m_mutex);
    // A2: marks activity on the entity (and on the topic of a subscription).
    void touch(Entity& entity, Instant now) REQUIRES(m_mutex);
    void logProgress(const Entity& entity) REQUIRES(m_mutex);
    // E5, L9: every lock held on the entity is lost.
    void dropMessageLocks(Entity& entity, Instant now) REQUIRES(m_mutex);

    // ---- Sending (BrokerSend.cpp)
    Result<QList<SendResult>> sendBatch(const QString& path, const QList<OutgoingMessage>& batch);
    QList<Result<SendResult>> sendEach(const QString& path, const QList<OutgoingMessage>& messages,
                                       const std::function<void()>& taken);
    // sendBatch's work under the lock, without waiting for durability.
    Result<QList<SendResult>> enqueueBatch(const QString& path, const QList<OutgoingMessage>& batch)
        REQUIRES(m_mutex);
    Result<void> cancelScheduled(const QString& path, qint64 seq);
    Result<void> checkSendable(const Entity& entity, const OutgoingMessage& message,
                               qint64 extraBytes) const REQUIRES(m_mutex);
    // S1: an entity that requires sessions takes only messages with a SessionId (a send, a
    // transfer); what reaches it otherwise is dead-lettered there (route).
    static Result<void> checkMessageSession(const Entity& entity, const OutgoingMessage& message);
    // The three steps a message takes into an entity, outermost first:
    // 1. scheduleOrDeliver: a checked message arrives; it is scheduled when its
    //    ScheduledEnqueueTime is still ahead, else routed now. The result names its number.
    SendResult scheduleOrDeliver(Entity& entity, OutgoingMessage message, Instant now)
        REQUIRES(m_mutex);
    // 2. route (Router.cpp): where the message goes now.
    // 3. insertMessage: one message row into one sub-queue under a given number: the
    //    index, the store's log, its timer (activation or expiry) and the change feed.
    void insertMessage(Entity& entity, SubQueue subQueue, qint64 seq,
                       const OutgoingMessage& message, Instant now, MessageState state,
                       Instant scheduledAt, const DeliveryExtras& extras) REQUIRES(m_mutex);
    Millis effectiveTtl(const Entity& entity, std::optional<Millis> own) const REQUIRES(m_mutex);
    // L13: whether the entity saw this MessageId within its duplicate detection window (a send,
    // or a message forwarded to it); an id not seen is remembered. False without detection.
    bool seenBefore(Entity& entity, const QString& messageId, Instant now) REQUIRES(m_mutex);
    // The next sequence number of the entity. A subscription numbers from its topic's counter,
    // whatever puts the message there (a topic's copy, a resubmit, a transfer): its copies of
    // the topic's messages carry the topic's numbers, and a number of its own must never be one
    // the topic hands out later (one store row per entity and number).
    qint64 takeSequenceNumber(Entity& entity) REQUIRES(m_mutex);
    void activate(Entity& entity, qint64 seq, Instant at) REQUIRES(m_mutex);

    // ---- Routing (Router.cpp): where a message goes once it arrives.
    // 2. route: where the message goes now. A topic fans it out to its matching
    //    subscriptions (R1), a ForwardTo entity forwards it (T3, L13 at the destination), the
    //    rest keep it. Never fails: what cannot be forwarded is dead-lettered in the source.
    void route(Entity& entity, const OutgoingMessage& message, Instant now,
               const DeliveryExtras& extras, int hop) REQUIRES(m_mutex);
    // S1: a message without a SessionId that reaches an entity requiring sessions by a forward
    // or a topic's copy (a send is refused) is dead-lettered there as SessionIdMissing (or goes
    // on to ForwardDeadLetteredMessagesTo), under the number `seq`.
    void deadLetterWithoutSession(Entity& entity, qint64 seq, const OutgoingMessage& message,
                                  Instant now, const DeliveryExtras& extras, int hop)
        REQUIRES(m_mutex);
    // ForwardDeadLetteredMessagesTo of `entity` when it takes sends; null otherwise (a closed or
    // missing destination keeps dead letters in the entity's own queue).
    Entity* deadLetterDestination(const Entity& entity) const REQUIRES(m_mutex);
    // Why a message forwarded from an entity of `namespaceName` to `forwardTo` could not go
    // there now (route's ForwardingFailed description); empty when the destination exists
    // and takes sends. The routing preview asks the same.
    QString forwardingFailure(const QString& namespaceName, const QString& forwardTo) const
        REQUIRES(m_mutex);
    // Hands a dead letter on to `target` as a send there (activity, L13, its own routing), with
    // `dead` naming the reason, description and source.
    void forwardDeadLetter(Entity& target, const OutgoingMessage& message,
                           const DeliveryExtras& dead, Instant now, int hop) REQUIRES(m_mutex);

    // ---- Receiving (BrokerReceive.cpp)
    // Whether messages can be received from the entity at all (kind, status, its topic's).
    static Result<void> checkReceivable(const Entity& entity);
    // How many messages one receive may ask for (1..10,000).
    static Result<void> checkBatchSize(int maxCount);
    Result<QList<MessageView>> receive(const QString& path, const ReceiveOptions& options);
    Result<MessageView> receiveDeferred(const QString& path, qint64 seq, const QString& receiver);
    Result<QList<MessageView>> peek(const QString& path, qint64 fromSeq, int maxCount);
    // When a message may be going out: handed out by a receive, or back after its lock ended.
    enum class Moment { HandOut, Release };
    // L6 then T5/T6/T8, the one check before a message goes (back) out: one that reached
    // MaxDeliveryCount is dead-lettered, one past its expiry expires (T7; a deferred one only
    // when it is asked for, T8). False when the message was taken away (or is not there).
    bool keepDeliverable(Entity& entity, SubQueue subQueue, qint64 seq, Instant now, Moment moment)
        REQUIRES(m_mutex);
    // What one hand-out took: the message, the delivery count its receiver sees, the lock.
    struct Taken {
        qint64 seq;
        quint32 deliveryCount;
        std::optional<LockInfo> lock;
    };
    // Hands a message out: under a lock for `lockHolder` (peek-lock: DeliveryCount + 1, stored
    // by the delivery journal row `record`) or removed at once (receive-and-delete, lockHolder
    // null).
    Taken handOutMessage(Entity& entity, SubQueue subQueue, qint64 seq, const QString* lockHolder,
                         Instant now, qint64 record) REQUIRES(m_mutex);
    // Logs the delivery journal row of a peek-lock hand-out (StoreSchema.h), if it took any.
    void recordDeliveries(const Entity& entity, SubQueue subQueue, const std::vector<Taken>& taken,
                          qint64 record) REQUIRES(m_mutex);
    // Ends a message's lock however it ends (settled, released, lost, the message removed): the
    // token goes, and the delivery the lock's journal row recorded is folded into the stored
    // count when the message stays. Call it before logging the message's removal when it goes.
    enum class LockEnd { MessageStays, MessageGoes };
    void endMessageLock(Entity& entity, SubQueue subQueue, qint64 seq, LockEnd end)
        REQUIRES(m_mutex);
    // One message of a journal row is settled; the row is forgotten after its last one.
    void settleDeliveryRecord(qint64 record) REQUIRES(m_mutex);
    // What a receive took under the mutex, turned into views once it is durable.
    struct HandOut {
        qint64 entityId = 0;
        SubQueue subQueue = SubQueue::Main;
        QString entityPath;
        Instant now = 0;
        std::vector<Taken> taken;
    };
    Result<QList<MessageView>> handedOut(const HandOut& handOut);
    // After the mutex: waits until what the hand-out logged is durable, reads what was handed
    // out back, and removes receive-and-delete rows once read.
    Result<QList<MessageView>> finishHandOut(const HandOut& handOut, const Logged& logged,
                                             ReceiveMode mode);
    // Hands out the deferred message `seq` under a lock for `receiver` into handOut (L8, T8);
    // the error when it is not there, locked, or was taken away when asked for.
    std::optional<Error> takeDeferred(Entity& entity, SubQueue subQueue, qint64 seq,
                                      const QString& receiver, HandOut& handOut) REQUIRES(m_mutex);
    // After the mutex: the deferred message handed out (or `failure`) once durable.
    Result<MessageView> finishDeferredHandOut(const HandOut& handOut, const Logged& logged,
                                              const std::optional<Error>& failure, qint64 seq);

    // ---- Settlement (BrokerSettle.cpp)
    enum class Settle { Complete, Abandon, DeadLetter, Defer };
    Result<void> settle(const LockRef& lock, Settle action, const DeadLetterOptions& options);
    QList<Result<void>> settleBatch(const QList<LockRef>& locks, Settle action);
    Result<void> settleOne(const LockRef& lock, Settle action, const DeadLetterOptions& options,
                           Instant now) REQUIRES(m_mutex);
    Result<Instant> renewLock(const LockRef& lock);
    Result<LockLocation> checkMessageLock(const LockRef& lock, Instant now) const REQUIRES(m_mutex);
    // Releases a lock (abandon, expiry, loss) and applies L6 and T6 to the released message
    // (keepDeliverable).
    void releaseMessageLock(Entity& entity, SubQueue subQueue, qint64 seq, Instant now)
        REQUIRES(m_mutex);
    // T7: dead-letters or drops an expired message of the main sub-queue.
    void expire(Entity& entity, qint64 seq, Instant now) REQUIRES(m_mutex);
    // L6, L7, T7: main -> dead-letter queue, or to ForwardDeadLetteredMessagesTo.
    void moveToDeadLetter(Entity& entity, qint64 seq, const QString& reason,
                          const QString& description, Instant now) REQUIRES(m_mutex);
    void removeMessage(Entity& entity, SubQueue subQueue, qint64 seq) REQUIRES(m_mutex);
    // Reads one message whole, as it is now: from the store with what is logged but not yet
    // committed (no disk sync is waited for under the mutex).
    std::optional<StoredMessage> loadWhole(const Entity& entity, qint64 seq) REQUIRES(m_mutex);
    Result<void> modifyProperties(Entity& entity, SubQueue subQueue, qint64 seq,
                                  const QVariantMap& changes) REQUIRES(m_mutex);

    // ---- Sessions (SessionLocks.cpp: locks, waits and state; BrokerSessionReceive.cpp:
    // receiving through a session; BrokerSessionReads.cpp: the explorer's reads)
    Result<AcceptedSession> acceptSession(const QString& path, const SessionAcceptOptions& options);
    quint64 acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                               Millis timeout, SessionAcceptCallback done);
    bool cancelAcceptSession(quint64 waitId);
    Result<Instant> renewSessionLock(const SessionRef& ref);
    Result<void> releaseSession(const SessionRef& ref);
    int releaseSessionsOf(const QString& receiver);
    Result<QList<MessageView>> receiveFromSession(const SessionRef& ref, ReceiveMode mode,
                                                  int maxCount);
    Result<MessageView> receiveDeferredFromSession(const SessionRef& ref, qint64 seq);
    Result<std::optional<QByteArray>> sessionState(const SessionRef& ref);
    Result<void> setSessionState(const SessionRef& ref, const std::optional<QByteArray>& state);
    // The main sub-queue of an entity that requires sessions, or why `path` is not one (S1).
    Result<Entity*> sessionEntity(const QString& path, Instant& now) REQUIRES(m_mutex);
    // The session `ref` names, locked by ref.receiver; SessionLockLost otherwise (S5).
    struct HeldSession {
        Entity* entity = nullptr;
        SessionRecord* session = nullptr;
    };
    Result<HeldSession> checkSessionHeld(const SessionRef& ref, Instant& now) REQUIRES(m_mutex);
    // S3: the unlocked session with the oldest receivable message; null when none.
    SessionRecord* nextAvailableSession(Entity& entity) REQUIRES(m_mutex);
    // Locks `session` for `receiver` from `at` for the entity's LockDuration.
    AcceptedSession grantSession(Entity& entity, SessionRecord& session, const QString& receiver,
                                 Instant at) REQUIRES(m_mutex);
    // Why a session lock ends (S5); the session is then available again.
    enum class SessionEnd { Released, Expired, Lost };
    // Ends the lock of the session `sessionId`: every message lock held in it is lost (settling
    // it then fails with SessionLockLost), the released messages go back (L6, T6).
    void endSessionLock(Entity& entity, const QString& sessionId, Instant at, SessionEnd end)
        REQUIRES(m_mutex);
    // E5, L9, S5: every session lock of the entity ends.
    void dropSessionLocks(Entity& entity, Instant at) REQUIRES(m_mutex);
    // Grants what became available to the waits, oldest first, as of `at`. Called after
    // everything that can make a session available (a message arriving or coming back, a
    // session lock ending) and after every timer event.
    void serveAcceptWaits(Instant at) REQUIRES(m_mutex);
    // Ends a wait with `result` (its callback runs on m_callbacks, outside the mutex).
    void endAcceptWait(SessionWaits::Iterator wait, Result<AcceptedSession> result)
        REQUIRES(m_mutex);
    // The entity went away: its waits end with MessagingEntityNotFound.
    void failAcceptWaits(qint64 entityId, const QString& path) REQUIRES(m_mutex);
    // The counts of one session's messages.
    SessionInfo sessionInfoOf(const Entity& entity, const SessionRecord& session) const
        REQUIRES(m_mutex);

    // ---- Operator tools (OperatorTools.cpp)
    Result<void> deleteMessages(const QString& path, const QList<qint64>& seqs);
    Result<QList<SendResult>> transferMessages(const QString& sourcePath, const QList<qint64>& seqs,
                                               const QString& targetPath, Broker::Transfer mode);
    // Every sequence number is held by the target's index, or MessageNotFound naming the first
    // that is not; duplicates are dropped (order kept).
    Result<QList<qint64>> checkPresent(const Target& target, const QList<qint64>& seqs) const
        REQUIRES(m_mutex);

    // ---- Time (BrokerTime.cpp)
    int processDue(Instant now) REQUIRES(m_mutex);
    bool handleEvent(const TimerEvent& event) REQUIRES(m_mutex);
    bool eventLive(const TimerEvent& event) const REQUIRES(m_mutex);
    int runDue();

    // ---- Reads (MessageReads.cpp)
    // An explorer's read changes nothing; a peek counts as activity (A2) and is refused on a
    // topic (L12).
    enum class Read { Explorer, Peek };
    // With sessionId: that session's messages only (an entity with sessions; O(its messages)).
    Result<QList<MessageView>> listMessages(const QString& path, qint64 fromSeq, int maxCount,
                                            bool bodies, Read read,
                                            const QString* sessionId = nullptr);

    // ---- The write path (BrokerWrite.h): what was logged so far, to wait for after the mutex.
    Logged loggedSoFar() const;
    // Only the writes logged so far that a read needs readable (Store::readTicket).
    Logged readableSoFar() const;
    // Runs `answer` on the callback thread (m_callbacks) once everything logged so far is
    // durable: how a session wait is answered, outside the mutex and off the caller.
    void answerWhenDurable(std::function<void()> answer);

    // ---- Members
    mutable Mutex m_mutex;
    std::unique_ptr<Store> m_store;
    std::shared_ptr<Clock> m_clock;
    std::unique_ptr<ChangeFeed> m_feed;
    std::vector<NamespaceInfo>
        m_namespaces GUARDED_BY(m_mutex); // in creation order; the first is the default
    QHash<QString, QString> m_settings GUARDED_BY(m_mutex); // Broker::setting()
    int m_nextNamespaceOrdinal GUARDED_BY(m_mutex) = 1;
    EntityRegistry m_registry GUARDED_BY(m_mutex); // every entity (EntityRegistry.h)
    LockTable m_locks GUARDED_BY(m_mutex);   // tokens, open journal rows, tokens lost (LockTable.h)
    TimerQueue m_timers GUARDED_BY(m_mutex); // due instants and when to compact (TimerQueue.h)
    SessionWaits m_sessionWaits GUARDED_BY(m_mutex); // waits for a session (SessionWaits.h)
    // Where wait callbacks run. Last member: destroyed first, so a running callback finishes
    // while everything it may call is still there (~BrokerImpl stops it before anything else).
    CallbackQueue m_callbacks;
};

// Bytes a message counts for (body, system properties, application properties) against
// MaxMessageSizeInKilobytes and MaxSizeInMegabytes.
qint64 messageSize(const OutgoingMessage& message);
OutgoingMessage outgoingFromStored(const StoredMessage& row);
// A view of a stored row as of `now` (without the in-memory lock state).
MessageView viewFromRow(const StoredMessage& row, const QString& entityPath, Instant now);

} // namespace hourglass
