#pragma once
// The raw SQLite ceiling: what SQLite alone does with exactly the rows the engine writes
// (StoreSchema.h: the same tables, kInsertMessage + kInsertBody with bodyKey), the same pragmas
// (WAL, synchronous FULL or NORMAL, the same cache size) and the same number of rows per
// transaction. No broker, no index, no locks: every engine figure is printed as a ratio to it.
//
// Rows are those of benchMessage(ordinal) in entity 1, sequence number = ordinal.

#include "hourglass/Broker.h"

#include <QString>

#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace hourglass::bench {

class RawSqliteStore {
public:
    enum class Open { CreateFresh, Existing };
    // Dies on any SQLite error (a baseline measured around a failure would be meaningless).
    RawSqliteStore(const QString& path, Durability durability, Open how);
    ~RawSqliteStore();
    RawSqliteStore(const RawSqliteStore&) = delete;
    RawSqliteStore& operator=(const RawSqliteStore&) = delete;

    // Each method returns the seconds its work took.

    // Inserts rows firstSeq .. firstSeq+count-1, `perTransaction` rows per committed transaction.
    double insertMessages(qint64 firstSeq, qint64 count, int perTransaction);
    // The writes of peek-lock + complete: per `batch` rows one transaction that records their
    // delivery (a delivery journal row), then one transaction per row that deletes its metadata
    // and body (the last one forgets the journal row).
    double peekLockCompleteWrites(qint64 firstSeq, qint64 count, int batch);
    // The writes of receive(batch) + completeBatch: per batch one transaction recording the
    // deliveries, then one deleting the rows and the journal row.
    double peekLockCompleteBatchWrites(qint64 firstSeq, qint64 count, int batch);
    // The writes of receive-and-delete: one transaction per `batch` rows deleting them.
    double receiveAndDeleteWrites(qint64 firstSeq, qint64 count, int batch);
    // Reads the metadata columns of every message, as opening a database must; `rows` gets the
    // number of rows read.
    double scanMessageKeys(qint64* rows);
    // Moves the given main sub-queue rows of entity `entityId` to the dead-letter sub-queue, in
    // one transaction (the statement the engine uses for T7).
    double moveToDeadLetter(qint64 entityId, const std::vector<qint64>& seqs);

private:
    enum class Commits { OnePerDelete, OnePerBatch };
    double completeWrites(qint64 firstSeq, qint64 count, int batch, Commits commits);
    sqlite3_stmt* prepare(const char* sql);
    void exec(const char* sql);
    void step(sqlite3_stmt* statement); // runs to SQLITE_DONE and resets
    void check(int rc, const char* what);

    sqlite3* m_db = nullptr;
};

} // namespace hourglass::bench
