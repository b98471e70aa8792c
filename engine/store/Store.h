#pragma once
// The store of record: SQLite in WAL mode, written by group commit.
//
// Writes. The Broker changes its in-memory state under its own mutex and, in the same critical
// section, logs the matching write operations here (the log keeps their order). An operation is
// acknowledged only after waitDurable(ticket) returns: the first waiter becomes the flusher, takes
// every logged operation, applies them in one transaction and commits (one disk sync); callers
// that log while a flush runs are committed together by the next one (L2). Reads go through a
// second connection and see committed data only, so a reader first waits for the writes it
// depends on.
//
// Locking: m_logMutex guards the log; m_commitMutex guards the flush state; m_readMutex guards
// the read connection and its statements. The write connection is used only by the current
// flusher (or by open/load before any other thread exists). Lock order: Broker mutex, then any
// one of these; never a Store mutex then the Broker's.

#include "CommitPacing.h"
#include "DatabaseOwner.h"
#include "PropertyEncoding.h"
#include "SqliteStatement.h"
#include "hourglass/EntityProperties.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace hourglass {

class RecentRows;

// A message row as stored (every column of `messages`, plus the body when loaded).
// The system properties (SystemProperties.h) are one column each; timeToLive is NULL when unset.
struct StoredMessage : SystemProperties {
    qint64 entityId = 0;
    SubQueue subQueue = SubQueue::Main;
    qint64 sequenceNumber = 0;
    MessageState state = MessageState::Active;
    quint32 deliveryCount = 0;
    Instant enqueuedAt = 0;
    Instant scheduledAt = 0;
    Instant expiresAt = kNever;
    Millis effectiveTimeToLive = kInfinite;
    qint64 size = 0;
    QByteArray applicationProperties; // CBOR map; empty for none
    QString deadLetterReason, deadLetterDescription, deadLetterSource;
    QByteArray body;
    QByteArray wireExtras; // stored beside the body, read with it
    bool hasBody = false;
};

struct StoredEntity {
    qint64 id = 0;
    QString namespaceName;
    QString path;
    EntityKind kind = EntityKind::Queue;
    QByteArray propertiesJson;
    QByteArray rulesJson;
    Instant createdAt = 0, updatedAt = 0, lastActivity = 0;
    qint64 nextSequenceNumber = 1;
};

// The write operations the Broker logs. Each names its rows by (entity, sub-queue, sequence).
namespace op {
struct InsertMessage {
    StoredMessage row;
};
struct DeleteMessage {
    qint64 entityId;
    SubQueue subQueue;
    qint64 seq;
};
// A delivery journal row's delivery written into the message's count ("folded", StoreSchema.h).
struct SetDeliveryCount {
    qint64 entityId;
    SubQueue subQueue;
    qint64 seq;
    quint32 deliveryCount;
    qint64 deliveryRecord;
};
struct SetState {
    qint64 entityId;
    SubQueue subQueue;
    qint64 seq;
    MessageState state;
};
// A settlement that modifies properties: the new properties and the size they give the message.
struct SetApplicationProperties {
    qint64 entityId;
    SubQueue subQueue;
    qint64 seq;
    QByteArray cbor;
    qint64 size;
};
// Main -> dead-letter sub-queue, with the reason columns (L7, T7, L6).
struct MoveToDeadLetter {
    qint64 entityId;
    qint64 seq;
    QString reason, description;
};
// A scheduled message becomes active under a new sequence number (L11, T2).
struct Activate {
    qint64 entityId;
    qint64 oldSeq;
    qint64 newSeq;
    Instant enqueuedAt;
    Instant expiresAt;
    Millis effectiveTtl;
};
struct UpsertNamespace {
    QString name;
    Tier tier;
    int ordinal;
};
struct DeleteNamespace {
    QString name;
};
struct InsertEntity {
    StoredEntity row;
};
struct UpdateEntity {
    qint64 id;
    QByteArray propertiesJson, rulesJson;
    Instant updatedAt;
};
struct DeleteEntity {
    qint64 id;
};
// The delivery journal (StoreSchema.h): one peek-lock hand-out of these messages, and the end
// of all of them.
struct RecordDeliveries {
    qint64 id;
    qint64 entityId;
    SubQueue subQueue;
    std::vector<qint64> seqs;
};
struct ForgetDeliveries {
    qint64 id;
};
struct RememberMessageId {
    qint64 entityId;
    QString messageId;
    Instant seenAt;
};
struct ForgetMessageIds {
    qint64 entityId;
    Instant seenBefore;
};
// A named setting of the database; an empty value removes it.
struct SetSetting {
    QString name;
    QString value;
};
// A session's state (S4); none removes it.
struct SetSessionState {
    qint64 entityId;
    QString sessionId;
    std::optional<QByteArray> state;
    Instant setAt;
};
} // namespace op

using WriteOp =
    std::variant<op::InsertMessage, op::DeleteMessage, op::SetDeliveryCount, op::SetState,
                 op::SetApplicationProperties, op::MoveToDeadLetter, op::Activate,
                 op::UpsertNamespace, op::DeleteNamespace, op::InsertEntity, op::UpdateEntity,
                 op::DeleteEntity, op::RememberMessageId, op::ForgetMessageIds,
                 op::RecordDeliveries, op::ForgetDeliveries, op::SetSetting, op::SetSessionState>;

class Store {
public:
    // How a commit reaches the disk (SQLite's synchronous setting in WAL mode): Full survives a
    // power loss, Normal a crash of the process only. Broker::open maps its Durability to it.
    enum class Sync { Full, Normal };

    // Opens (creating when missing) and checks the database: a file that is not SQLite, not
    // ours, or written by a newer schema is refused with GeneralError and left untouched.
    // `owner` is the claim on the database (DatabaseOwner.h) that Broker::open takes before
    // anything reads the file; the store keeps it until its connections are closed. Tests of
    // the store alone open it without one.
    static Result<std::unique_ptr<Store>> open(const QString& path, Sync sync,
                                               std::unique_ptr<DatabaseOwner> owner = nullptr);
    ~Store();

    // ---- Loading, at open time only (single-threaded).
    Result<void> loadNamespaces(const std::function<void(const NamespaceInfo&, int)>& each);
    Result<void> loadEntities(const std::function<void(const StoredEntity&)>& each);
    // Metadata only (no body, no strings): what the in-memory index needs.
    struct MessageKey {
        qint64 entityId;
        SubQueue subQueue;
        qint64 seq;
        MessageState state;
        quint32 deliveryCount;
        Instant scheduledAt;
        Instant expiresAt;
        std::optional<Millis> timeToLive;
        qint64 size;
        qint64 deliveryRecord; // the last delivery journal row folded into deliveryCount
    };
    Result<void> loadMessageKeys(const std::function<void(const MessageKey&)>& each);
    Result<void> loadMessageIds(const std::function<void(qint64, const QString&, Instant)>& each);
    // The delivery journal's rows: hand-outs whose deliveries are not in their messages' counts.
    struct DeliveryRecord {
        qint64 id;
        qint64 entityId;
        SubQueue subQueue;
        std::vector<qint64> seqs;
    };
    Result<void> loadDeliveries(const std::function<void(const DeliveryRecord&)>& each);
    Result<void> loadSettings(const std::function<void(const QString&, const QString&)>& each);
    // Every stored session state, without its bytes (S4): what memory keeps of it.
    struct SessionStateKey {
        qint64 entityId;
        QString sessionId;
        Instant setAt;
        qint64 size;
    };
    Result<void> loadSessionStates(const std::function<void(const SessionStateKey&)>& each);
    // The session of every message of the entity's main sub-queue that has one (for entities
    // that require sessions only: the column is read nowhere else on open).
    Result<void> loadSessionIds(qint64 entityId,
                                const std::function<void(qint64, const QString&)>& each);

    // ---- Writes (call with the Broker mutex held, so that the log follows memory's order).
    void log(WriteOp operation);
    // Entity high-water marks, coalesced: only the last value per entity in a batch is written.
    void logEntityProgress(qint64 entityId, qint64 nextSequenceNumber, Instant lastActivity);
    // The ticket that covers everything logged so far.
    quint64 ticket() const;
    // Like ticket(), but when nothing waits in the log it names the batch already being (or last)
    // committed, so that a reader that only needs earlier writes to be readable does not force a
    // commit of its own.
    quint64 readTicket() const;
    // Returns once everything up to `ticket` is committed, or with the error of the write that
    // failed, when the batch holding `ticket` (or an earlier uncommitted one) did not commit.
    Result<void> waitDurable(quint64 ticket);

    // ---- A failed write. SQLite rolls the batch back; memory, ahead of it, must follow. The
    // first waiter to find the failure calls the handler (outside every Store lock), which puts
    // the broker's memory back to what the store holds, calling resetAfterFailure() under the
    // Broker mutex. Without a handler (while opening) the failure stays: reopening recovers.
    void setFailureHandler(std::function<void()> handler);
    // Drops everything logged and not committed: every ticket up to now that is not committed
    // fails with the write's error, later ones go on from what the database holds. False when
    // no failure waits to be recovered from (another waiter did it).
    bool resetAfterFailure();
    // Refuses every write from here on with `error` (the memory could not be rebuilt).
    void markFailed(const Error& error);
    // How many transactions have been committed (tests prove group commit with it).
    quint64 commitCount() const;
    // What the rows kept for hand-outs take, in bytes (RecentRows.h; tests prove it holds rows).
    qint64 recentRowBytes() const;

    // ---- Reads that include what is logged but not committed yet (for the Broker, under its
    // mutex): the committed row with every logged change to it replayed on top, so that no disk
    // sync is waited for. A message is named by its entity and its sequence number now (numbers
    // are unique across an entity and its dead-letter queue; an activation renumbers a row, and
    // the read follows it). Rows that are gone are left out.
    Result<std::optional<StoredMessage>> readLatest(qint64 entityId, qint64 seq);
    Result<std::vector<StoredMessage>> readLatestMany(qint64 entityId,
                                                      const std::vector<qint64>& seqs);

    // ---- Reads of committed data (any thread).
    // The rows of the given sequence numbers that still exist, in the given order.
    Result<std::vector<StoredMessage>> readMany(qint64 entityId, SubQueue subQueue,
                                                const std::vector<qint64>& seqs, bool withBodies);
    Result<std::optional<StoredMessage>> readOne(qint64 entityId, SubQueue subQueue, qint64 seq,
                                                 bool withBody);
    // A session's committed state; none when it has none.
    Result<std::optional<QByteArray>> readSessionState(qint64 entityId, const QString& sessionId);

    QString path() const { return m_path; }
    void describeOwner(const QString& detail) {
        if (m_owner)
            m_owner->describe(detail);
    }

private:
    Store() = default;
    Result<void> initialise(Sync sync);
    // Runs the statements in one transaction and stamps the current schema version; empty on
    // success, else why it failed (and nothing changed).
    QString changeSchema(const std::vector<const char*>& statements);
    Result<void> prepareWriteStatements();
    QString apply(const WriteOp& operation);
    QString writeBatch(const std::vector<WriteOp>& ops,
                       const std::map<qint64, std::pair<qint64, Instant>>& progress);

    QString m_path;
    // Declared first: released after both connections are closed.
    std::unique_ptr<DatabaseOwner> m_owner;
    SqliteConnection m_write; // only the flusher uses it
    struct WriteStatements;
    std::unique_ptr<WriteStatements> m_ws; // only the flusher uses it
    // Rows committed recently, with their bodies: hand-outs read them without SQLite.
    std::unique_ptr<RecentRows> m_recent;

    mutable std::mutex m_logMutex;
    std::vector<WriteOp> m_log; // guarded by m_logMutex
    // The batch the flusher is writing: kept until it is committed so that readLatest() sees it.
    // Changed only under m_logMutex; the flusher reads it without that lock while it writes
    // (readers only read it too).
    std::vector<WriteOp> m_inflight;
    std::map<qint64, std::pair<qint64, Instant>> m_progress; // guarded by m_logMutex
    quint64 m_openBatch = 1; // the batch new operations join; guarded by m_logMutex

    mutable std::mutex m_commitMutex;
    std::condition_variable m_committed;
    bool m_flushing = false;        // guarded by m_commitMutex
    CommitPacing m_pacing;          // the flusher's own (m_flushing hands it on)
    quint64 m_durableBatch = 0;     // guarded by m_commitMutex
    quint64 m_commits = 0;          // guarded by m_commitMutex
    std::optional<Error> m_failure; // guarded by m_commitMutex; until resetAfterFailure()
    // The tickets whose batches a failure discarded, with the failure (m_commitMutex).
    struct LostBatches {
        quint64 first, last;
        Error error;
    };
    std::vector<LostBatches> m_lost;
    std::optional<Error> lostLocked(quint64 ticket) const; // m_commitMutex held
    quint64 m_lastLostBatch = 0;                           // guarded by m_logMutex
    std::function<void()> m_failureHandler; // set before the store is shared, cleared before ~

    std::mutex m_readMutex;
    SqliteConnection m_read;                                      // guarded by m_readMutex
    SqliteStatement m_readOne, m_readOneBody, m_readSessionState; // guarded by m_readMutex
    Result<std::optional<StoredMessage>> readOneHeld(qint64 entityId, SubQueue subQueue, qint64 seq,
                                                     bool withBody);
};

} // namespace hourglass
