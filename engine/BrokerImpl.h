#pragma once
// The Broker's implementation: the broker's state, and the functions that work on it directly,
// spread over the Broker*.cpp files (one area each: opening, entities, send, receive, settle,
// time). The broker's parts are members that work through it, each in files of its own: the
// router (Router.h), session locks (SessionLocks.h), operator tools (OperatorTools.h) and the
// message reads (MessageReads.h); the entity registry, the lock table and the timers are the
// state's own classes (EntityRegistry.h, LockTable.h, TimerQueue.h). Internal: not part of the
// engine's public API.
//
// Locking, checked by clang (Mutex.h; tests/engine runs the -Wthread-safety pass): m_mutex
// guards every member marked GUARDED_BY(m_mutex), and a part's functions that expect it held
// assert it (Mutex::assertHeld); m_store (which has its own locks), m_clock,
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
#include "MessageReads.h"
#include "Mutex.h"
#include "OperatorTools.h"
#include "Router.h"
#include "SessionIndex.h"
#include "SessionLocks.h"
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
    // 2. m_router.route (Router.h): where the message goes now.
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

    // ---- Receiving (BrokerReceive.cpp)
    // Whether messages can be received from the entity at all (kind, status, its topic's).
    static Result<void> checkReceivable(const Entity& entity);
    // How many messages one receive may ask for (1..10,000).
    static Result<void> checkBatchSize(int maxCount);
    Result<QList<MessageView>> receive(const QString& path, const ReceiveOptions& options);
    Result<MessageView> receiveDeferred(const QString& path, qint64 seq, const QString& receiver);
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
    // A receive starts: the hand-out names the entity and sub-queue, and the receive is
    // activity on the entity (A2).
    void beginHandOut(Entity& entity, SubQueue subQueue, HandOut& handOut) REQUIRES(m_mutex);
    // A receive without a session: resolves `path`, checks that it can be received from that
    // way, and begins the hand-out; the entity, or why not.
    Result<Entity*> beginReceive(const QString& path, HandOut& handOut) REQUIRES(m_mutex);
    // What a receive took is recorded: its delivery journal row (when under a lock for
    // `lockHolder`), and the change feed.
    void endHandOut(Entity& entity, const HandOut& handOut, const QString* lockHolder,
                    qint64 record) REQUIRES(m_mutex);
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

    // ---- Sessions: the locks, waits and state are SessionLocks (m_sessionLocks);
    // BrokerSessionReceive.cpp receives through a session, BrokerSessionReads.cpp has the
    // explorer's reads.
    Result<QList<MessageView>> receiveFromSession(const SessionRef& ref, ReceiveMode mode,
                                                  int maxCount);
    Result<MessageView> receiveDeferredFromSession(const SessionRef& ref, qint64 seq);
    // The counts of one session's messages.
    SessionInfo sessionInfoOf(const Entity& entity, const SessionRecord& session) const
        REQUIRES(m_mutex);

    // ---- Time (BrokerTime.cpp)
    int processDue(Instant now) REQUIRES(m_mutex);
    bool handleEvent(const TimerEvent& event) REQUIRES(m_mutex);
    bool eventLive(const TimerEvent& event) const REQUIRES(m_mutex);
    int runDue();

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
    // The broker's parts: logic of one concern each, working on the state above.
    Router m_router{*this};               // where an arriving message goes (Router.h)
    SessionLocks m_sessionLocks{*this};   // accepting, renewing, losing sessions (SessionLocks.h)
    OperatorTools m_operatorTools{*this}; // delete, copy, move, resubmit (OperatorTools.h)
    MessageReads m_reads{*this};          // message lists and peek (MessageReads.h)
    // Where wait callbacks run. Last member: destroyed first, so a running callback finishes
    // while everything it may call is still there (~BrokerImpl stops it before anything else).
    CallbackQueue m_callbacks;
};

OutgoingMessage outgoingFromStored(const StoredMessage& row);
// A view of a stored row as of `now` (without the in-memory lock state).
MessageView viewFromRow(const StoredMessage& row, const QString& entityPath, Instant now);

} // namespace hourglass
