#pragma once
// The Broker's implementation, shared by the Broker*.cpp files (one area each: entities, send,
// receive, settle, time, reads). Internal: not part of the engine's public API.
//
// Locking: m_mutex guards every member below except m_store (which has its own locks), m_clock
// (thread-safe), m_feed (thread-safe) and m_callbacks (thread-safe; a session wait's callback
// is posted to it under m_mutex and runs outside it). Every method named ...Locked() expects
// m_mutex held.
// No disk sync is ever waited for under m_mutex: acknowledgement (Store::waitDurable, sync)
// happens after m_mutex is released, so that other callers keep working while a disk sync runs
// (group commit, L2). BrokerWrite.h is the one code that takes m_mutex and waits on the store:
// every write holds a BrokerWrite and ends with its commit(), every read holds a BrokerRead.
// Code under m_mutex that needs a whole message reads it with Store::readLatest (committed rows
// plus what is logged), never by waiting for a commit.

#include "CallbackQueue.h"
#include "LockTokenSource.h"
#include "MessageIndex.h"
#include "Mutex.h"
#include "SessionIndex.h"
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

struct Entity {
    qint64 id = 0;
    QString namespaceName;
    QString path;
    EntityKind kind = EntityKind::Queue;
    EntityProperties properties;
    QList<Rule> rules;                  // subscriptions
    Entity* topic = nullptr;            // subscriptions: their topic
    std::vector<Entity*> subscriptions; // topics: in creation order
    Instant createdAt = 0;
    Instant updatedAt = 0;
    Instant lastActivity = 0;
    qint64 nextSeq = 1;
    MessageIndex main;
    MessageIndex deadLetter;
    // S1-S6: the sessions of the main sub-queue's messages (empty unless hasSessions()).
    SessionIndex sessions;
    EntityFlow flow; // in memory only: counted since the broker opened
    // A topic keeps its scheduled messages whole: activation fans them out by rules (R1).
    QHash<qint64, OutgoingMessage> scheduledTopicMessages;
    // Duplicate detection history (L13): message id -> when it was seen, oldest first in order.
    QHash<QString, Instant> seenIds;
    std::deque<std::pair<Instant, QString>> seenOrder;
    // The due instant of the one pending AutoDelete timer event (kNever when none).
    Instant autoDeleteEventAt = kNever;

    // "ns:path" and "ns:path/$deadletterqueue", built once: change notifications use them on
    // every message.
    void cacheNames() {
        m_qualified = qualifiedPath(namespaceName, path);
        m_qualifiedDeadLetter = m_qualified + kDeadLetterSuffix;
    }
    const QString& qualified() const { return m_qualified; }
    const QString& qualifiedDeadLetter() const { return m_qualifiedDeadLetter; }
    MessageIndex& index(SubQueue q) { return q == SubQueue::Main ? main : deadLetter; }
    const MessageIndex& index(SubQueue q) const { return q == SubQueue::Main ? main : deadLetter; }
    bool receives() const { return kind != EntityKind::Topic; }
    // RequiresSession (S1): messages need a SessionId and go out through session locks only.
    bool hasSessions() const { return kind != EntityKind::Topic && properties.requiresSession; }

private:
    QString m_qualified;
    QString m_qualifiedDeadLetter;
};

struct LockLocation {
    qint64 entityId = 0;
    SubQueue subQueue = SubQueue::Main;
    qint64 seq = 0;
};

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
    Result<void> load();
    Result<void> loadEntitiesLocked();
    Result<void> linkSubscriptionsLocked();
    // The delivery journal's rows a crash left (StoreSchema.h), and what they add to counts.
    struct DeliveryJournal {
        std::vector<qint64> rows;
        QHash<std::pair<qint64, qint64>, std::vector<qint64>> rowsNaming; // (entity, seq) -> ids
        std::vector<op::SetDeliveryCount> folds;
        qint64 highestId = 0; // of the rows and of every id a stored message names
        // The deliveries of this message that rows record and its count does not include yet.
        quint32 deliveriesNotFolded(const Store::MessageKey& key);
    };
    Result<void> loadDeliveryJournalLocked(DeliveryJournal& journal);
    Result<void> loadMessagesLocked(DeliveryJournal& journal);
    Result<void> loadScheduledTopicMessagesLocked();
    // S2, S4: which session each message belongs to, and the sessions' states (not their
    // bytes). Locks are not stored: every session is unlocked after a restart (S5).
    Result<void> loadSessionsLocked();
    void foldDeliveryJournalLocked(const DeliveryJournal& journal);

    // ---- A failed write (BrokerRecovery.cpp): the store's failure handler. Puts memory back to
    // what the database holds (reloadLocked) once per failure; then every caller whose writes
    // the failure discarded returns its error.
    void recoverFromFailedWrite();
    void reloadLocked();

    // ---- Resolution (m_mutex held)
    struct Target {
        Entity* entity = nullptr;
        SubQueue subQueue = SubQueue::Main;
    };
    Result<QString> namespaceOfLocked(const ParsedPath& parsed) const;
    Result<Target> resolveLocked(const QString& path) const;
    // Remembers resolved paths: settling a batch resolves the same path once, not per lock.
    // Cleared whenever an entity or namespace comes or goes.
    mutable QHash<QString, Target> m_resolved;
    Result<Target> resolveUncachedLocked(const QString& path) const;
    // How every call on a path starts: fire every timer due at the clock's now (activations,
    // expiries, lock expiries, auto-deletes, each at its own instant), then find the path.
    Result<Target> fireDueAndResolveLocked(const QString& path, Instant& now);
    // A read of one path that needs nothing but memory: under the lock, after
    // fireDueAndResolveLocked, read(target) gives the value (or the path's error).
    // Defined in BrokerWrite.h, with the rest of the one way into the mutex.
    template <typename Reader>
    auto readTarget(const QString& path, Reader read)
        -> Result<std::invoke_result_t<Reader, const Target&>>;
    Entity* findLocked(const QString& namespaceName, const QString& path) const;
    Entity* entityByIdLocked(qint64 id) const;
    static QString keyOf(const QString& namespaceName, const QString& path);
    Tier tierOfLocked(const QString& namespaceName) const;

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
    Result<void> validateForwardingLocked(const QString& namespaceName, const QString& selfPath,
                                          const EntityProperties& properties) const;
    void deleteEntityLocked(Entity* entity);
    EntityInfo infoLocked(const Entity& entity) const;
    // The counts of an entity, or of its dead-letter queue as that queue's receivers see it.
    static EntityCounts countsLocked(const Entity& entity, SubQueue subQueue);
    StoredEntity storedLocked(const Entity& entity) const;
    Instant autoDeleteAtLocked(const Entity& entity) const;
    void scheduleAutoDeleteLocked(Entity& entity);
    // A2: marks activity on the entity (and on the topic of a subscription).
    void touchLocked(Entity& entity, Instant now);
    void logProgressLocked(const Entity& entity);
    // E5, L9: every lock held on the entity is lost.
    void dropLocksLocked(Entity& entity, Instant now);

    // ---- Sending (BrokerSend.cpp)
    Result<QList<SendResult>> sendBatch(const QString& path, const QList<OutgoingMessage>& batch);
    QList<Result<SendResult>> sendEach(const QString& path, const QList<OutgoingMessage>& messages,
                                       const std::function<void()>& taken);
    // sendBatch's work under the lock, without waiting for durability.
    Result<QList<SendResult>> sendBatchLocked(const QString& path,
                                              const QList<OutgoingMessage>& batch);
    Result<void> cancelScheduled(const QString& path, qint64 seq);
    Result<void> checkSendableLocked(const Entity& entity, const OutgoingMessage& message,
                                     qint64 extraBytes) const;
    // S1: an entity that requires sessions takes only messages with a SessionId (a send, a
    // transfer); what reaches it otherwise is dead-lettered there (routeLocked).
    static Result<void> checkSessionIdLocked(const Entity& entity, const OutgoingMessage& message);
    // The three steps a message takes into an entity, outermost first:
    // 1. scheduleOrDeliverLocked: a checked message arrives; it is scheduled when its
    //    ScheduledEnqueueTime is still ahead, else routed now. The result names its number.
    SendResult scheduleOrDeliverLocked(Entity& entity, OutgoingMessage message, Instant now);
    // 2. routeLocked: where the message goes now. A topic fans it out to its matching
    //    subscriptions (R1), a ForwardTo entity forwards it (T3, L13 at the destination), the
    //    rest keep it. Never fails: what cannot be forwarded is dead-lettered in the source.
    void routeLocked(Entity& entity, const OutgoingMessage& message, Instant now,
                     const DeliveryExtras& extras, int hop);
    // 3. insertMessageLocked: one message row into one sub-queue under a given number: the
    //    index, the store's log, its timer (activation or expiry) and the change feed.
    void insertMessageLocked(Entity& entity, SubQueue subQueue, qint64 seq,
                             const OutgoingMessage& message, Instant now, MessageState state,
                             Instant scheduledAt, const DeliveryExtras& extras);
    // S1: a message without a SessionId that reaches an entity requiring sessions by a forward
    // or a topic's copy (a send is refused) is dead-lettered there as SessionIdMissing (or goes
    // on to ForwardDeadLetteredMessagesTo), under the number `seq`.
    void deadLetterWithoutSessionLocked(Entity& entity, qint64 seq, const OutgoingMessage& message,
                                        Instant now, const DeliveryExtras& extras, int hop);
    Millis effectiveTtlLocked(const Entity& entity, std::optional<Millis> own) const;
    // L13: whether the entity saw this MessageId within its duplicate detection window (a send,
    // or a message forwarded to it); an id not seen is remembered. False without detection.
    bool seenBeforeLocked(Entity& entity, const QString& messageId, Instant now);
    // The next sequence number of the entity. A subscription numbers from its topic's counter,
    // whatever puts the message there (a topic's copy, a resubmit, a transfer): its copies of
    // the topic's messages carry the topic's numbers, and a number of its own must never be one
    // the topic hands out later (one store row per entity and number).
    qint64 takeSequenceNumberLocked(Entity& entity);
    void activateLocked(Entity& entity, qint64 seq, Instant at);

    // ---- Receiving (BrokerReceive.cpp)
    // Whether messages can be received from the entity at all (kind, status, its topic's).
    static Result<void> checkReceivableLocked(const Entity& entity);
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
    bool keepDeliverableLocked(Entity& entity, SubQueue subQueue, qint64 seq, Instant now,
                               Moment moment);
    // What one hand-out took: the message, the delivery count its receiver sees, the lock.
    struct Taken {
        qint64 seq;
        quint32 deliveryCount;
        std::optional<LockInfo> lock;
    };
    // Hands a message out: under a lock for `lockHolder` (peek-lock: DeliveryCount + 1, stored
    // by the delivery journal row `record`) or removed at once (receive-and-delete, lockHolder
    // null).
    Taken handOutLocked(Entity& entity, SubQueue subQueue, qint64 seq, const QString* lockHolder,
                        Instant now, qint64 record);
    // Logs the delivery journal row of a peek-lock hand-out (StoreSchema.h), if it took any.
    void recordDeliveriesLocked(const Entity& entity, SubQueue subQueue,
                                const std::vector<Taken>& taken, qint64 record);
    // Ends a message's lock however it ends (settled, released, lost, the message removed): the
    // token goes, and the delivery the lock's journal row recorded is folded into the stored
    // count when the message stays. Call it before logging the message's removal when it goes.
    enum class LockEnd { MessageStays, MessageGoes };
    void endLockLocked(Entity& entity, SubQueue subQueue, qint64 seq, LockEnd end);
    // One message of a journal row is settled; the row is forgotten after its last one.
    void settleDeliveryRecordLocked(qint64 record);
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
    std::optional<Error> takeDeferredLocked(Entity& entity, SubQueue subQueue, qint64 seq,
                                            const QString& receiver, HandOut& handOut);
    // After the mutex: the deferred message handed out (or `failure`) once durable.
    Result<MessageView> finishDeferredHandOut(const HandOut& handOut, const Logged& logged,
                                              const std::optional<Error>& failure, qint64 seq);

    // ---- Settlement (BrokerSettle.cpp)
    enum class Settle { Complete, Abandon, DeadLetter, Defer };
    Result<void> settle(const LockRef& lock, Settle action, const DeadLetterOptions& options);
    QList<Result<void>> settleBatch(const QList<LockRef>& locks, Settle action);
    Result<void> settleLocked(const LockRef& lock, Settle action, const DeadLetterOptions& options,
                              Instant now);
    Result<Instant> renewLock(const LockRef& lock);
    Result<LockLocation> checkLockLocked(const LockRef& lock, Instant now) const;
    // Releases a lock (abandon, expiry, loss) and applies L6 and T6 to the released message
    // (keepDeliverableLocked).
    void releaseLockLocked(Entity& entity, SubQueue subQueue, qint64 seq, Instant now);
    // T7: dead-letters or drops an expired message of the main sub-queue.
    void expireLocked(Entity& entity, qint64 seq, Instant now);
    // L6, L7, T7: main -> dead-letter queue, or to ForwardDeadLetteredMessagesTo.
    void deadLetterLocked(Entity& entity, qint64 seq, const QString& reason,
                          const QString& description, Instant now);
    // ForwardDeadLetteredMessagesTo of `entity` when it takes sends; null otherwise (a closed or
    // missing destination keeps dead letters in the entity's own queue).
    Entity* deadLetterDestinationLocked(const Entity& entity) const;
    // Why a message forwarded from an entity of `namespaceName` to `forwardTo` could not go
    // there now (routeLocked's ForwardingFailed description); empty when the destination exists
    // and takes sends. The routing preview asks the same.
    QString forwardingFailureLocked(const QString& namespaceName, const QString& forwardTo) const;
    // Hands a dead letter on to `target` as a send there (activity, L13, its own routing), with
    // `dead` naming the reason, description and source.
    void forwardDeadLetterLocked(Entity& target, const OutgoingMessage& message,
                                 const DeliveryExtras& dead, Instant now, int hop);
    void removeMessageLocked(Entity& entity, SubQueue subQueue, qint64 seq);
    // Reads one message whole, as it is now: from the store with what is logged but not yet
    // committed (no disk sync is waited for under the mutex).
    std::optional<StoredMessage> loadWholeLocked(const Entity& entity, qint64 seq);
    Result<void> modifyPropertiesLocked(Entity& entity, SubQueue subQueue, qint64 seq,
                                        const QVariantMap& changes);

    // ---- Sessions (BrokerSessions.cpp: locks, waits and state; BrokerSessionReceive.cpp:
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
    Result<Entity*> sessionEntityLocked(const QString& path, Instant& now);
    // The session `ref` names, locked by ref.receiver; SessionLockLost otherwise (S5).
    struct HeldSession {
        Entity* entity = nullptr;
        SessionRecord* session = nullptr;
    };
    Result<HeldSession> checkSessionLocked(const SessionRef& ref, Instant& now);
    // S3: the unlocked session with the oldest receivable message; null when none.
    SessionRecord* nextAvailableSessionLocked(Entity& entity);
    // Locks `session` for `receiver` from `at` for the entity's LockDuration.
    AcceptedSession grantSessionLocked(Entity& entity, SessionRecord& session,
                                       const QString& receiver, Instant at);
    // Why a session lock ends (S5); the session is then available again.
    enum class SessionEnd { Released, Expired, Lost };
    // Ends the lock of the session `sessionId`: every message lock held in it is lost (settling
    // it then fails with SessionLockLost), the released messages go back (L6, T6).
    void endSessionLockLocked(Entity& entity, const QString& sessionId, Instant at, SessionEnd end);
    // E5, L9, S5: every session lock of the entity ends.
    void dropSessionLocksLocked(Entity& entity, Instant at);
    // The waits for a session (acceptSessionAsync), oldest first.
    struct AcceptWait {
        qint64 entityId = 0;
        QString path; // as the caller gave it, for AcceptedSession::entityPath
        QString receiver;
        Instant deadline = kNever;
        SessionAcceptCallback done;
    };
    // Grants what became available to the waits, oldest first, as of `at`. Called after
    // everything that can make a session available (a message arriving or coming back, a
    // session lock ending) and after every timer event.
    void serveAcceptWaitsLocked(Instant at);
    // Ends a wait with `result` (its callback runs on m_callbacks, outside the mutex).
    void endAcceptWaitLocked(std::map<quint64, AcceptWait>::iterator wait,
                             Result<AcceptedSession> result);
    // The entity went away: its waits end with MessagingEntityNotFound.
    void failAcceptWaitsLocked(qint64 entityId, const QString& path);
    // A message lock lost with its session: settling it reports SessionLockLost (S5) rather
    // than MessageLockLost. Remembered for the most recent kLostSessionLocks tokens.
    void rememberLostWithSessionLocked(const QUuid& token);
    // The counts of one session's messages.
    SessionInfo sessionInfoLocked(const Entity& entity, const SessionRecord& session) const;

    // ---- Operator tools (BrokerOperator.cpp)
    Result<void> deleteMessages(const QString& path, const QList<qint64>& seqs);
    Result<QList<SendResult>> transferMessages(const QString& sourcePath, const QList<qint64>& seqs,
                                               const QString& targetPath, Broker::Transfer mode);
    // Every sequence number is held by the target's index, or MessageNotFound naming the first
    // that is not; duplicates are dropped (order kept).
    Result<QList<qint64>> checkPresentLocked(const Target& target, const QList<qint64>& seqs) const;

    // ---- Time (BrokerTime.cpp)
    int processDueLocked(Instant now);
    bool handleEventLocked(const TimerEvent& event);
    bool eventLiveLocked(const TimerEvent& event) const;
    void maybeCompactTimersLocked();
    int runDue();

    // ---- Reads (BrokerReads.cpp)
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
    std::vector<NamespaceInfo> m_namespaces; // in creation order; the first is the default
    QHash<QString, QString> m_settings;      // Broker::setting()
    int m_nextNamespaceOrdinal = 1;
    std::unordered_map<qint64, std::unique_ptr<Entity>> m_entities;
    QHash<QString, Entity*> m_byKey; // keyOf(namespace, path) -> entity
    qint64 m_nextEntityId = 1;
    QHash<QUuid, LockLocation> m_lockTokens;
    // The delivery journal (StoreSchema.h): the next row's id (above every id stored), and for
    // each row not yet forgotten, how many of its messages are still locked under it.
    qint64 m_nextDeliveryRecord = 1;
    LockTokenSource m_tokenSource; // lock and session lock tokens (m_mutex)
    std::unordered_map<qint64, int> m_openDeliveryRecords;
    TimerQueue m_timers;
    std::size_t m_timerCompactionMark = 4096;
    // Sessions: the waits for the next available session, by id (ids only grow: oldest first).
    std::map<quint64, AcceptWait> m_acceptWaits;
    quint64 m_nextAcceptWait = 1;
    // Message lock tokens lost with their session, oldest first (rememberLostWithSessionLocked).
    QSet<QUuid> m_lostWithSession;
    std::deque<QUuid> m_lostWithSessionOrder;
    static constexpr std::size_t kLostSessionLocks = 65536;
    // Where wait callbacks run. Last member: destroyed first, so a running callback finishes
    // while everything it may call is still there (~BrokerImpl stops it before anything else).
    CallbackQueue m_callbacks;
};

// Whether an entity's status lets messages in (E3 Status).
inline bool acceptsSends(const Entity& entity) {
    return entity.properties.status != EntityStatus::Disabled &&
           entity.properties.status != EntityStatus::SendDisabled;
}

// Bytes a message counts for (body, system properties, application properties) against
// MaxMessageSizeInKilobytes and MaxSizeInMegabytes.
qint64 messageSize(const OutgoingMessage& message);
OutgoingMessage outgoingFromStored(const StoredMessage& row);
// A view of a stored row as of `now` (without the in-memory lock state).
MessageView viewFromRow(const StoredMessage& row, const QString& entityPath, Instant now);

} // namespace hourglass
