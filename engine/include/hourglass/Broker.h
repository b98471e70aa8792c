#pragma once
// The broker facade: an Azure Service Bus namespace (or several) as the explorer, the AMQP
// endpoint, the administration API and scenarios see it. Operations are named as Service Bus
// names them and follow `service-bus-rules.md` rule by rule; each returns a Result (payload or
// Error), never throws.
//
// Two kinds of namespace answer these calls. Broker::open gives the embedded one, with SQLite as
// its store of record (EmbeddedBroker, inside the engine). A namespace the process does not host
// (engine/remote) answers them over the wire; what it cannot do (a virtual clock, reads without a
// peek) it refuses with an error and says so in capabilities(), so that the explorer can disable
// the control rather than fail; the explorer operations it does message by message.
//
// Paths. An entity is addressed by its path inside a namespace: "jobs", "events",
// "events/Subscriptions/audit", and a dead-letter queue as "<entity>/$deadletterqueue". A path
// may be qualified with its namespace as "namespace:path"; an unqualified path resolves in the
// first namespace created (the usual case of one namespace per database).
//
// Time. Every operation first fires the events that fell due on the clock (scheduled messages
// appearing, locks running out, expiry, auto-delete), in time order, each at its own instant, so
// results never depend on when a timer last ran. runDue() does only that, for an idle tick.
//
// Threads. Every member function is safe to call from any thread. Sends and settlements return
// only once durable; concurrent callers share disk syncs (group commit, L2). A remote
// namespace's calls wait for the wire: call them off the GUI thread, as every caller does.

#include "hourglass/ChangeFeed.h"
#include "hourglass/Clock.h"
#include "hourglass/EntityProperties.h"
#include "hourglass/Message.h"
#include "hourglass/RoutingPreview.h"
#include "hourglass/Rule.h"
#include "hourglass/Status.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUuid>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <optional>

namespace hourglass {

enum class Durability {
    // synchronous=FULL: an acknowledged operation survives a power loss. The default.
    PowerSafe,
    // synchronous=NORMAL in WAL mode: survives a crash of the process (kill -9), not of the OS.
    ProcessCrashSafe,
};

struct BrokerOptions {
    QString databasePath; // created when missing
    Durability durability = Durability::PowerSafe;
    std::shared_ptr<Clock> clock; // null: the system clock
    // Who opens the database, as a refused second opener is told (e.g. "hourglass serve"): the
    // open database is locked for this process until the broker closes (one owner each).
    QString owner;
};

struct EntityCounts {
    qint64 active = 0; // receivable now (not locked, deferred or scheduled)
    qint64 scheduled = 0;
    qint64 deferred = 0;
    qint64 locked = 0;
    qint64 deadLettered = 0;
    qint64 sizeInBytes = 0; // main and dead-letter sub-queues together

    bool operator==(const EntityCounts&) const = default;
};

// How many messages went through an entity since the broker opened (kept in memory, not stored;
// an entity deleted and created again starts from zero). The charts turn the differences
// between two reads into rates. A message can count in several: an expiry that dead-letters
// counts as expired and as dead-lettered.
struct EntityFlow {
    qint64 sent = 0;         // arrived: sent or scheduled to it, forwarded or transferred to it,
                             // or, for a subscription, a copy of a message of its topic
    qint64 received = 0;     // handed to a receiver (peek-lock, receive-and-delete, deferred);
                             // counted when taken, before the row is read back
    qint64 completed = 0;    // settled with Complete (main or dead-letter queue)
    qint64 expired = 0;      // reached its time to live (T7: dropped or dead-lettered)
    qint64 deadLettered = 0; // moved to the dead-letter queue for any reason, or forwarded by
                             // ForwardDeadLetteredMessagesTo

    bool operator==(const EntityFlow&) const = default;
};

struct EntityInfo {
    QString namespaceName;
    QString path;      // as created, e.g. "events/Subscriptions/audit"
    QString name;      // last segment, e.g. "audit"
    QString topicPath; // subscriptions only
    EntityKind kind = EntityKind::Queue;
    EntityProperties properties;
    EntityCounts counts;
    QList<Rule> rules; // subscriptions only
    Instant createdAt = 0;
    Instant updatedAt = 0;
    Instant lastActivityAt = 0;
    // When auto-delete-on-idle will remove the entity if nothing happens; kNever when it can't.
    Instant autoDeleteAt = kNever;
    // False when the namespace would not say (a remote key without the Manage right reads no
    // runtime counts): `counts` is zeros then, not a count.
    bool countsKnown = true;
};

enum class ReceiveMode { PeekLock, ReceiveAndDelete };

struct ReceiveOptions {
    ReceiveMode mode = ReceiveMode::PeekLock;
    int maxCount = 1;
    QString receiver; // who holds the locks (L9): settling needs the same name
    // Called once the messages are taken (in memory, under the broker's lock), before the wait
    // for the disk sync that makes the hand-out durable. A caller with several receives out for
    // one receiver starts the next one from here, so the calls take messages in its order.
    std::function<void()> taken = {};
};

// What a peek shows (L12): from the lowest sequence number (fromSequenceNumber <= 0) or from the
// given one, up to maxCount messages; with sessionId, only that session's messages (S2: what
// its session receiver peeks), at the cost of the session's messages, not the entity's.
struct PeekOptions {
    qint64 fromSequenceNumber = 0;
    int maxCount = 1;
    std::optional<QString> sessionId; // only on an entity that requires sessions (S1)
};

struct SendResult {
    // The message's MessageId: its own, or the one the broker gave it when it came without one.
    QString messageId;
    qint64 sequenceNumber = 0; // for a scheduled message, the number that cancels it (L11)
    bool scheduled = false;
    bool duplicate = false; // L13: acknowledged and dropped
};

// Names a lock for settlement: the path it was received from, the token, and the receiver.
struct LockRef {
    QString entityPath;
    QUuid lockToken;
    QString receiver;

    // The lock of a message handed out by receive() or receiveDeferred().
    static LockRef of(const MessageView& message);
};

struct DeadLetterOptions {
    QString reason;
    QString description;
    QVariantMap propertiesToModify;
};

// ---- Sessions (S1-S6)

struct SessionAcceptOptions {
    // Who takes the session's lock (L14: the wire names a connection's link); every later call
    // on the session names the same receiver.
    QString receiver;
    // The session to accept, even one without messages (S3); none: the next available one.
    std::optional<QString> sessionId;
};

// A session lock granted to a receiver (S2).
struct AcceptedSession {
    QString entityPath; // the entity's path, e.g. "orders" or "events/Subscriptions/audit"
    QString sessionId;
    QString receiver;
    Instant lockedUntil = 0; // LockedUntilUtc of the session lock
    Instant acceptedAt = 0;  // when the lock was granted (a wait's grant comes later than its call)
};

// Names a session lock for the calls made under it: the entity, the session and its holder.
struct SessionRef {
    QString entityPath;
    QString sessionId;
    QString receiver;

    static SessionRef of(const AcceptedSession& session);
};

// What the explorer shows of one session: its messages by state (as EntityCounts counts them:
// a locked message counts as locked only), its lock and its state (S4).
struct SessionInfo {
    QString sessionId;
    qint64 active = 0; // receivable by the session's holder now
    qint64 scheduled = 0;
    qint64 deferred = 0;
    qint64 locked = 0;
    QString lockedBy;        // the receiver holding the session lock; empty when none
    Instant lockedUntil = 0; // 0 when not locked
    bool hasState = false;
    qint64 stateSize = 0;
    Instant stateSetAt = 0; // when the state was last set (0 without a state)
    QByteArray state;       // only filled by Broker::session()
};

// Called once when an acceptSessionAsync wait ends, on the broker's callback thread (never the
// caller's, never under the broker's lock: it may call the broker).
using SessionAcceptCallback = std::function<void(const Result<AcceptedSession>& result)>;

// What one purge step deletes (Broker::purge): Service Bus's batch delete.
inline constexpr int kMaxPurgeCount = 4000; // the service's bound on one batch delete
struct PurgeOptions {
    int maxCount = kMaxPurgeCount; // 1..kMaxPurgeCount
    // Only messages enqueued before this instant (kNever: every one).
    Instant enqueuedBefore = kNever;
    // Only this session's messages (an entity that requires sessions).
    std::optional<QString> sessionId;
};

class OperationObserver;

// What a namespace offers beyond the calls every namespace answers.
struct BrokerCapabilities {
    // Hosted in this process on its own database: a virtual clock (advanceClock), scenario
    // playback and recording, the flow counters, explorer reads without activity (listMessages,
    // message, sequenceIndex), operator steps that move or delete in one durable step, settings
    // and namespaces. A remote namespace has none of these.
    bool hostsDatabase = false;
    // listSessions and sessionPages answer (the service offers a session listing).
    bool listsSessions = false;
};

class Broker {
public:
    static Result<std::unique_ptr<Broker>> open(const BrokerOptions& options);
    virtual ~Broker();
    Broker(const Broker&) = delete;
    // What a refused second opener is told besides the owner's name and pid, e.g. "AMQP on
    // 127.0.0.1:5672" once serve listens.
    virtual void describeOwner(const QString& detail) = 0;
    Broker& operator=(const Broker&) = delete;

    // ---- Namespaces (E1, E3 tier)
    virtual Result<void> createNamespace(const NamespaceInfo& info) = 0;
    virtual Result<void> deleteNamespace(const QString& name) = 0;
    virtual QList<NamespaceInfo> namespaces() const = 0;

    // ---- Settings kept in the database with the data they guard (the AMQP endpoint's key).
    // Empty when not set. Setting an empty value removes it; durable when it returns.
    virtual QString setting(const QString& name) const = 0;
    virtual Result<void> setSetting(const QString& name, const QString& value) = 0;

    // ---- Entities (E1-E5, A1)
    virtual Result<EntityInfo> createQueue(const QString& path,
                                           const EntityProperties& properties) = 0;
    virtual Result<EntityInfo> createTopic(const QString& path,
                                           const EntityProperties& properties) = 0;
    // `path` is "topic/Subscriptions/name". The subscription starts with the $Default true rule
    // (E4) unless `rules` is given.
    virtual Result<EntityInfo> createSubscription(const QString& path,
                                                  const EntityProperties& properties,
                                                  const QList<Rule>& rules = {}) = 0;
    // Replaces every property (E5: an update loses every lock held on the entity).
    virtual Result<EntityInfo> updateEntity(const QString& path,
                                            const EntityProperties& properties) = 0;
    virtual Result<void> deleteEntity(const QString& path) = 0;
    virtual Result<EntityInfo> entity(const QString& path) const = 0;
    // Every entity, queues and topics first then subscriptions, each in path order. An empty
    // namespace name lists all namespaces.
    virtual QList<EntityInfo> entities(const QString& namespaceName = {}) const = 0;

    virtual Result<void> addRule(const QString& subscriptionPath, const Rule& rule) = 0;
    virtual Result<void> removeRule(const QString& subscriptionPath, const QString& ruleName) = 0;
    // Replaces the rule `ruleName` by `rule` (which may carry another name) in one durable step,
    // in the old rule's place. A new rule that is invalid, a new name another rule has, or a
    // missing old rule is refused and the subscription keeps the old rule: never half-changed.
    virtual Result<void> replaceRule(const QString& subscriptionPath, const QString& ruleName,
                                     const Rule& rule) = 0;
    // The routing preview (R1-R5): what sending `message` to the topic `topicPath` would do in
    // each of its subscriptions, in path order, and why (RoutingPreview.h). `assigned` gives the
    // system properties the broker assigns, a stored message's own; none: those a send would get
    // now (the topic's next sequence number, now, delivery count 0, the message's size). Changes
    // nothing. InvalidArgument for a path that is not a topic. Like a send it gives a message
    // without a MessageId one first, finds each ForwardTo and ForwardDeadLetteredMessagesTo as
    // a send would, and says when the topic would refuse the send, drop it as a duplicate
    // (L13) or hold it until its schedule.
    virtual Result<RoutingPreview>
    previewRouting(const QString& topicPath, const OutgoingMessage& message,
                   const std::optional<SqlBrokerFields>& assigned = std::nullopt) const = 0;

    // ---- Sending (L1, L2, L11, L13, T1-T4, R1, forwarding)
    virtual Result<SendResult> send(const QString& path, const OutgoingMessage& message) = 0;
    // All or nothing: every message is checked before any is stored; one disk sync for all.
    virtual Result<QList<SendResult>> sendBatch(const QString& path,
                                                const QList<OutgoingMessage>& batch) = 0;
    virtual Result<SendResult> schedule(const QString& path, OutgoingMessage message,
                                        Instant enqueueAt) = 0;
    // Independent sends to one path (not a batch: each is checked and stored on its own, and
    // one refused leaves the others), acknowledged together once durable: one disk sync for
    // all. The wire uses it for pipelined transfers. One result per message, in order.
    // `taken` (optional) is called once the messages have their sequence numbers, before the
    // disk sync: a caller with several sends out for one link starts the next from there.
    virtual QList<Result<SendResult>> sendEach(const QString& path,
                                               const QList<OutgoingMessage>& messages,
                                               const std::function<void()>& taken = {}) = 0;
    virtual Result<void> cancelScheduled(const QString& path, qint64 sequenceNumber) = 0;

    // ---- Receiving (L3-L6, L8, T5, T8)
    // Up to maxCount messages; fewer (possibly none) when fewer are receivable. Never blocks.
    virtual Result<QList<MessageView>> receive(const QString& path,
                                               const ReceiveOptions& options) = 0;
    // Whether `path` is something a plain receiver can take messages from, as receive() finds it:
    // refused as receive() refuses a missing entity, a topic, or an entity that requires
    // sessions (its dead-letter queue does not). The entity's status is not looked at: it may
    // change before the first receive, which says so. A read: no activity (A2), not observed.
    virtual Result<void> checkReceiver(const QString& path) const = 0;
    // A deferred message by its sequence number, under a peek-lock (L8, T8).
    virtual Result<MessageView> receiveDeferred(const QString& path, qint64 sequenceNumber,
                                                const QString& receiver = {}) = 0;
    // L12: from the lowest sequence number (fromSequenceNumber <= 0) or from the given one;
    // active, locked, deferred and scheduled messages with their state and bodies. No lock, no
    // count changes; counts as activity where A2 says so.
    virtual Result<QList<MessageView>> peek(const QString& path, qint64 fromSequenceNumber,
                                            int maxCount) = 0;
    // The same with PeekOptions; a session's peek is refused with InvalidArgument on an entity
    // without sessions (a dead-letter queue included) and for a malformed session id.
    virtual Result<QList<MessageView>> peek(const QString& path, const PeekOptions& options) = 0;

    // ---- Settlement (L5-L10, T6)
    virtual Result<void> complete(const LockRef& lock) = 0;
    virtual Result<void> abandon(const LockRef& lock,
                                 const QVariantMap& propertiesToModify = {}) = 0;
    virtual Result<void> deadLetter(const LockRef& lock, const DeadLetterOptions& options = {}) = 0;
    virtual Result<void> defer(const LockRef& lock, const QVariantMap& propertiesToModify = {}) = 0;
    // Returns the new LockedUntilUtc.
    virtual Result<Instant> renewLock(const LockRef& lock) = 0;
    // Completes many locks with one disk sync, as a receiver settling a batch does. Each lock
    // settles on its own: one result per lock, in order.
    virtual QList<Result<void>> completeBatch(const QList<LockRef>& locks) = 0;

    // ---- Sessions (S1-S6). An entity created with RequiresSession takes only messages with a
    // SessionId and hands them out only through session locks: receive() and receiveDeferred()
    // refuse it (InvalidArgument), as the calls below refuse an entity without sessions. Its
    // dead-letter queue has no sessions. Every call below counts as a receive for A2.

    // Takes a session's lock for options.receiver, at once: the named session (even one without
    // messages or not seen before), or the next available one, the unlocked session with the
    // oldest receivable message (S3). SessionCannotBeLocked when the named session is locked
    // (by anyone, the same receiver included); ServiceTimeout when no session is available.
    virtual Result<AcceptedSession> acceptSession(const QString& path,
                                                  const SessionAcceptOptions& options) = 0;
    // Like acceptSession for the next available session, but waits up to `timeout` on the
    // broker's clock (a virtual clock's time, when it has one) without blocking anyone: returns
    // at once with the wait's id, and `done` is called once, when a session is granted, when
    // the timeout ran out (ServiceTimeout), or with the error that refused the call. Waits are
    // served oldest first as sessions become available. Pending waits end without a call when
    // the broker closes.
    virtual quint64 acceptSessionAsync(const QString& path, const SessionAcceptOptions& options,
                                       Millis timeout, SessionAcceptCallback done) = 0;
    // Ends a pending wait without calling it back; false when it had already ended (its callback
    // was or is about to be called: a session granted after the caller gave up should be
    // released).
    virtual bool cancelAcceptSession(quint64 waitId) = 0;
    // S2: extends the session lock by LockDuration from now; returns the new LockedUntilUtc.
    // SessionLockLost when the lock ran out, was released or lost, or is another receiver's.
    virtual Result<Instant> renewSessionLock(const SessionRef& session) = 0;
    // Ends the session lock (the session becomes available); the message locks held in it are
    // lost, and settling them fails with SessionLockLost (S5).
    virtual Result<void> releaseSession(const SessionRef& session) = 0;
    // S5, L14: releases every session lock `receiver` holds, in every entity (its connection
    // broke), with the message locks held in them. Returns how many were held.
    virtual int releaseSessionsOf(const QString& receiver) = 0;
    // The session's messages in sequence order, each under its own lock (peek-lock) or removed
    // at once (receive-and-delete), as receive() does (S2). Settle them with complete(),
    // abandon(), deadLetter(), defer() and renewLock() as any message.
    virtual Result<QList<MessageView>> receiveFromSession(const SessionRef& session,
                                                          ReceiveMode mode, int maxCount) = 0;
    // S6: a deferred message of the session by its sequence number, under a lock (L8, T8).
    // MessageNotFound when it is not a deferred message of this session.
    virtual Result<MessageView> receiveDeferredFromSession(const SessionRef& session,
                                                           qint64 sequenceNumber) = 0;
    // S4: the session's state, none when it has none; only its holder reads and writes it. A
    // state larger than the entity's MaxMessageSizeInKilobytes is refused with
    // MessageSizeExceeded; none removes it. Durable when setSessionState returns.
    virtual Result<std::optional<QByteArray>> sessionState(const SessionRef& session) = 0;
    // Whether session.receiver holds the session's lock now (false once it ran out, was
    // released or lost: S5). A read: no activity, O(1). For a holder that is otherwise idle
    // (the wire's session link without credit) to learn that its session is gone.
    virtual bool holdsSession(const SessionRef& session) const = 0;
    virtual Result<void> setSessionState(const SessionRef& session,
                                         const std::optional<QByteArray>& state) = 0;

    // ---- Explorer operations: what an operator does to stored messages, beyond what a Service
    // Bus client can do. On a hosted namespace each is all or nothing (a missing sequence number
    // is refused with MessageNotFound and nothing changes) and acknowledged once durable. A lock
    // held on a message that goes away is lost (the receiver's settlement then fails with
    // MessageLockLost). On a remote namespace (engine/remote) they are never all or nothing:
    // each message is settled on its own, as a client can (the copy sent, then the original
    // completed), so a failure part way leaves the messages before it done, and a crash between
    // sending a copy and completing its original may duplicate that message, never lose it.

    // Removes the given messages of a path (main or "/$deadletterqueue"), whatever their state.
    virtual Result<void> deleteMessages(const QString& path,
                                        const QList<qint64>& sequenceNumbers) = 0;
    enum class Transfer { Copy, Move };
    // Sends the given messages of `sourcePath` to `targetPath` as new messages (new sequence
    // number, enqueued now, delivery count 0; a scheduled message stays scheduled for the same
    // instant), keeping every system and application property except DeadLetterReason and
    // DeadLetterErrorDescription. Move also removes the originals, in the same step. The target
    // must accept sends (status, size, quota); duplicate detection does not drop a transfer.
    virtual Result<QList<SendResult>> transferMessages(const QString& sourcePath,
                                                       const QList<qint64>& sequenceNumbers,
                                                       const QString& targetPath,
                                                       Transfer mode) = 0;
    // Moves dead-lettered messages back to the entity whose dead-letter queue holds them (a
    // subscription's come back to the subscription, not through its topic): transferMessages
    // with Move from "<entity>/$deadletterqueue" to "<entity>".
    virtual Result<QList<SendResult>> resubmit(const QString& deadLetterPath,
                                               const QList<qint64>& sequenceNumbers) = 0;

    // Empties a path (main or "/$deadletterqueue") a step at a time, as Service Bus's batch
    // delete (com.microsoft:batch-delete-messages) does: deletes up to options.maxCount messages
    // enqueued before options.enqueuedBefore (of options.sessionId only, when given), lowest
    // sequence number first, and returns how many went. Active and deferred messages go;
    // scheduled ones and those under a lock stay. Call it until it returns fewer than maxCount
    // to empty the path. A count outside 1..kMaxPurgeCount is refused with InvalidArgument.
    // Hosted: each call is one durable step (deleteMessages of the messages it chose). Remote:
    // the service's batch delete where the namespace answers it, else receive-and-delete,
    // which takes active messages only (no deferred ones) and refuses a cutoff or a session.
    virtual Result<qint64> purge(const QString& path, const PurgeOptions& options = {}) = 0;

    // ---- Explorer reads: paged, without side effects and without activity (not a peek)
    // Up to maxCount messages of the path (main or "/$deadletterqueue") from fromSequenceNumber
    // on, in sequence order. Bodies only when asked for.
    enum class Bodies { Without, With };
    virtual Result<QList<MessageView>> listMessages(const QString& path, qint64 fromSequenceNumber,
                                                    int maxCount,
                                                    Bodies bodies = Bodies::Without) const = 0;
    virtual Result<MessageView> message(const QString& path, qint64 sequenceNumber,
                                        Bodies bodies = Bodies::With) const = 0;
    virtual Result<EntityCounts> counts(const QString& path) const = 0;
    // What went through the entity since the broker opened (EntityFlow); memory only.
    virtual Result<EntityFlow> flow(const QString& path) const = 0;
    // Where the pages of a path's message list start: the sequence number of every `stride`-th
    // message, first one included, and how many messages there are. Row r of the list lies in
    // the page that starts at anchors[r / stride]. Memory only; O(messages).
    struct SequenceIndex {
        qint64 total = 0;
        int stride = 1;
        QList<qint64> anchors;
    };
    virtual Result<SequenceIndex> sequenceIndex(const QString& path, int stride) const = 0;
    // DeadLetterReason -> number of messages in the path's dead-letter queue.
    virtual Result<QMap<QString, qint64>> deadLetterReasons(const QString& path) const = 0;
    // The sessions of an entity that requires sessions, in session id order from
    // fromSessionId on (included), up to maxCount: every session that holds a message, a lock
    // or a state. With stateSetSince, only those whose state was set at or after it (the
    // wire's get-message-sessions). No state bytes. O(messages of the sessions listed).
    virtual Result<QList<SessionInfo>>
    listSessions(const QString& path, const QString& fromSessionId, int maxCount,
                 std::optional<Instant> stateSetSince = {}) const = 0;
    // One session with its state's bytes; a session nobody used reads as empty, not as an error.
    virtual Result<SessionInfo> session(const QString& path, const QString& sessionId) const = 0;
    // Where the pages of the session list start (like sequenceIndex): the id of every
    // `stride`-th session, first one included, and how many sessions there are.
    struct SessionPages {
        qint64 total = 0;
        int stride = 1;
        QStringList anchors;
    };
    virtual Result<SessionPages> sessionPages(const QString& path, int stride) const = 0;

    // ---- Time
    virtual Clock& clock() const = 0;
    // Fires every event due at clock().now(). Returns how many events it handled. With nothing
    // due it costs one look at the head of a heap.
    virtual int runDue() = 0;
    // The instant of the next event that may be due (kNever when none).
    virtual Instant nextDueAt() const = 0;
    // For a VirtualClock: moves it ahead and fires everything due on the way, in time order.
    virtual Result<void> advanceClock(Millis delta) = 0;

    // ---- Notifications
    virtual ChangeFeed* changes() const = 0;

    // The database file this broker stores into.
    virtual QString databasePath() const = 0;

    // ---- Observation (OperationObserver.h)
    // From now on, tells `observer` about every operation that succeeds (reads, namespaces and
    // the clock excepted); null removes it. Unset, it costs each operation one atomic load.
    virtual void setOperationObserver(std::shared_ptr<OperationObserver> observer) = 0;
    virtual bool hasOperationObserver() const = 0;

    // What this namespace offers besides the calls every namespace answers (BrokerCapabilities).
    virtual BrokerCapabilities capabilities() const = 0;

protected:
    Broker() = default;
};

} // namespace hourglass
