#include "RawSqliteStore.h"

#include "BenchSupport.h"
#include "store/StoreSchema.h"

#include <vector>

#include <QFile>

#include <sqlite3.h>

namespace hourglass::bench {

namespace {

constexpr qint64 kEntityId = 1;

// Frees a prepared statement at the end of a measurement.
struct Finalize {
    sqlite3_stmt* statement;
    ~Finalize() { sqlite3_finalize(statement); }
};

} // namespace

RawSqliteStore::RawSqliteStore(const QString& path, Durability durability, Open how) {
    if (how == Open::CreateFresh)
        QFile::remove(path);
    check(sqlite3_open_v2(path.toUtf8().constData(), &m_db,
                          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr),
          "sqlite3_open_v2");
    // The engine's pragmas (engine/Store.cpp): a baseline with a bigger cache or weaker sync
    // would not be the same work.
    exec("PRAGMA journal_mode=WAL");
    exec(durability == Durability::PowerSafe ? "PRAGMA synchronous=FULL"
                                             : "PRAGMA synchronous=NORMAL");
    exec("PRAGMA cache_size=-65536");
    exec("PRAGMA temp_store=MEMORY");
    if (how == Open::CreateFresh) {
        exec("BEGIN IMMEDIATE");
        for (int i = 0; i < schema::kCreateStatementCount; ++i)
            exec(schema::kCreateStatements[i]);
        exec("COMMIT");
    }
}

RawSqliteStore::~RawSqliteStore() {
    sqlite3_close(m_db);
}

void RawSqliteStore::check(int rc, const char* what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        die(QStringLiteral("raw SQLite %1: %2")
                .arg(QLatin1String(what), QString::fromUtf8(sqlite3_errmsg(m_db))));
}

void RawSqliteStore::exec(const char* sql) {
    check(sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr), sql);
}

sqlite3_stmt* RawSqliteStore::prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    check(sqlite3_prepare_v3(m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr), sql);
    return statement;
}

void RawSqliteStore::step(sqlite3_stmt* statement) {
    const int rc = sqlite3_step(statement);
    if (rc != SQLITE_DONE)
        check(rc == SQLITE_ROW ? SQLITE_MISUSE : rc, sqlite3_sql(statement));
    sqlite3_reset(statement);
}

double RawSqliteStore::insertMessages(qint64 firstSeq, qint64 count, int perTransaction) {
    sqlite3_stmt* message = prepare(schema::kInsertMessage);
    sqlite3_stmt* body = prepare(schema::kInsertBody);
    Finalize freeMessage{message}, freeBody{body};
    const QByteArray payload = benchBody();
    const Instant now = kClockStart;
    const Stopwatch watch;
    for (qint64 first = firstSeq; first < firstSeq + count; first += perTransaction) {
        exec("BEGIN IMMEDIATE");
        for (qint64 seq = first; seq < std::min(firstSeq + count, first + perTransaction); ++seq) {
            // The columns as the engine binds them for benchMessage(seq): unset strings and an
            // empty property map are NULL.
            const QByteArray id = benchMessageId(seq).toUtf8();
            sqlite3_bind_int64(message, 1, kEntityId);
            sqlite3_bind_int64(message, 2, 0); // SubQueue::Main
            sqlite3_bind_int64(message, 3, seq);
            sqlite3_bind_int64(message, 4, 0); // MessageState::Active
            sqlite3_bind_int64(message, 5, 0); // delivery count
            sqlite3_bind_int64(message, 6, now);
            sqlite3_bind_int64(message, 7, 0);      // never scheduled
            sqlite3_bind_int64(message, 8, kNever); // expires
            sqlite3_bind_null(message, 9);          // own TTL
            sqlite3_bind_int64(message, 10, kInfinite);
            sqlite3_bind_int64(message, 11, payload.size() + id.size());
            sqlite3_bind_text(message, 12, id.constData(), int(id.size()), SQLITE_TRANSIENT);
            for (int column = 13; column <= 23; ++column)
                sqlite3_bind_null(message, column);
            step(message);
            sqlite3_bind_int64(body, 1, schema::bodyKey(kEntityId, seq));
            sqlite3_bind_blob(body, 2, payload.constData(), int(payload.size()), SQLITE_TRANSIENT);
            step(body);
        }
        exec("COMMIT");
    }
    return watch.seconds();
}

double RawSqliteStore::peekLockCompleteWrites(qint64 firstSeq, qint64 count, int batch) {
    return completeWrites(firstSeq, count, batch, Commits::OnePerDelete);
}

double RawSqliteStore::peekLockCompleteBatchWrites(qint64 firstSeq, qint64 count, int batch) {
    return completeWrites(firstSeq, count, batch, Commits::OnePerBatch);
}

double RawSqliteStore::completeWrites(qint64 firstSeq, qint64 count, int batch, Commits commits) {
    // The engine's writes (store/StoreSchema.h): a receive commits one delivery journal row
    // naming what it handed out; the completions delete the messages and, with the last one,
    // the journal row.
    sqlite3_stmt* record =
        prepare("INSERT INTO deliveries(id, entity_id, sub_queue, seqs) VALUES(?1, ?2, 0, ?3)");
    sqlite3_stmt* forget = prepare("DELETE FROM deliveries WHERE id=?1");
    sqlite3_stmt* deleteMessage =
        prepare("DELETE FROM messages WHERE entity_id=?1 AND sub_queue=?2 AND seq=?3");
    sqlite3_stmt* deleteBody = prepare("DELETE FROM bodies WHERE key=?1");
    Finalize f1{record}, f2{forget}, f3{deleteMessage}, f4{deleteBody};
    const bool eachOnItsOwn = commits == Commits::OnePerDelete;
    const Stopwatch watch;
    for (qint64 first = firstSeq; first < firstSeq + count; first += batch) {
        const qint64 end = std::min(firstSeq + count, first + batch);
        // The receive: one transaction recording the batch's deliveries.
        std::vector<qint64> seqs;
        for (qint64 seq = first; seq < end; ++seq)
            seqs.push_back(seq);
        const QByteArray blob = schema::encodeSequenceNumbers(seqs);
        exec("BEGIN IMMEDIATE");
        sqlite3_bind_int64(record, 1, first);
        sqlite3_bind_int64(record, 2, kEntityId);
        sqlite3_bind_blob(record, 3, blob.constData(), int(blob.size()), SQLITE_TRANSIENT);
        step(record);
        exec("COMMIT");
        // The completions: one transaction each, or one for the batch.
        if (!eachOnItsOwn)
            exec("BEGIN IMMEDIATE");
        for (qint64 seq = first; seq < end; ++seq) {
            if (eachOnItsOwn)
                exec("BEGIN IMMEDIATE");
            sqlite3_bind_int64(deleteMessage, 1, kEntityId);
            sqlite3_bind_int64(deleteMessage, 2, 0);
            sqlite3_bind_int64(deleteMessage, 3, seq);
            step(deleteMessage);
            sqlite3_bind_int64(deleteBody, 1, schema::bodyKey(kEntityId, seq));
            step(deleteBody);
            if (seq == end - 1) {
                sqlite3_bind_int64(forget, 1, first);
                step(forget);
            }
            if (eachOnItsOwn)
                exec("COMMIT");
        }
        if (!eachOnItsOwn)
            exec("COMMIT");
    }
    return watch.seconds();
}

double RawSqliteStore::receiveAndDeleteWrites(qint64 firstSeq, qint64 count, int batch) {
    sqlite3_stmt* deleteMessage =
        prepare("DELETE FROM messages WHERE entity_id=?1 AND sub_queue=?2 AND seq=?3");
    sqlite3_stmt* deleteBody = prepare("DELETE FROM bodies WHERE key=?1");
    Finalize f1{deleteMessage}, f2{deleteBody};
    const Stopwatch watch;
    for (qint64 first = firstSeq; first < firstSeq + count; first += batch) {
        exec("BEGIN IMMEDIATE");
        for (qint64 seq = first; seq < std::min(firstSeq + count, first + batch); ++seq) {
            sqlite3_bind_int64(deleteMessage, 1, kEntityId);
            sqlite3_bind_int64(deleteMessage, 2, 0);
            sqlite3_bind_int64(deleteMessage, 3, seq);
            step(deleteMessage);
            sqlite3_bind_int64(deleteBody, 1, schema::bodyKey(kEntityId, seq));
            step(deleteBody);
        }
        exec("COMMIT");
    }
    return watch.seconds();
}

double RawSqliteStore::scanMessageKeys(qint64* rows) {
    // The columns the engine reads to rebuild its index (engine/Store.cpp loadMessageKeys).
    sqlite3_stmt* scan = prepare("SELECT entity_id, sub_queue, seq, state, delivery_count, "
                                 "scheduled_at, expires_at, ttl, size FROM messages");
    Finalize f{scan};
    const Stopwatch watch;
    qint64 count = 0;
    qint64 checksum = 0; // every column is read, as the engine reads them
    int rc;
    while ((rc = sqlite3_step(scan)) == SQLITE_ROW) {
        for (int column = 0; column < 9; ++column)
            checksum += sqlite3_column_int64(scan, column);
        ++count;
    }
    check(rc, "scan");
    const double seconds = watch.seconds();
    // Published through a volatile so that the compiler cannot drop the column reads.
    static volatile qint64 sink;
    sink = checksum;
    (void)sink;
    *rows = count;
    return seconds;
}

double RawSqliteStore::moveToDeadLetter(qint64 entityId, const std::vector<qint64>& seqs) {
    // The engine's T7 statement (engine/Store.cpp moveToDeadLetter).
    sqlite3_stmt* move = prepare("UPDATE messages SET sub_queue=1, state=0, dl_reason=?3, "
                                 "dl_description=?4 WHERE entity_id=?1 AND sub_queue=0 AND seq=?2");
    Finalize f{move};
    static const char reason[] = "TTLExpiredException";
    static const char description[] = "The message expired and was dead lettered.";
    const Stopwatch watch;
    exec("BEGIN IMMEDIATE");
    for (const qint64 seq : seqs) {
        sqlite3_bind_int64(move, 1, entityId);
        sqlite3_bind_int64(move, 2, seq);
        sqlite3_bind_text(move, 3, reason, -1, SQLITE_STATIC);
        sqlite3_bind_text(move, 4, description, -1, SQLITE_STATIC);
        step(move);
        if (sqlite3_changes(m_db) != 1)
            die(QStringLiteral("raw SQLite: no main row %1 to move").arg(seq));
    }
    exec("COMMIT");
    return watch.seconds();
}

} // namespace hourglass::bench
