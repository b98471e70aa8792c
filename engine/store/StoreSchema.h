#pragma once
// The SQLite schema of the store of record, and its version. Kept apart from Store.cpp so that the
// benchmark can write exactly the same rows when it measures the raw SQLite ceiling.
//
// Layout, chosen for the engine benchmark's targets (README.md, Benchmark):
// - `messages` holds every message's metadata (no body), keyed (entity_id, seq) without rowid
//   (sequence numbers are unique across an entity and its dead-letter queue). Dead-lettering
//   changes a column in place rather than moving the row, and reopening reads only small rows.
//   Pages of messages are read by point lookups of the sequence numbers the in-memory index
//   lists, so no second index is needed.
// - `bodies` holds bodies apart, in a rowid table keyed by bodyKey(entity, seq), so a body is read
//   only on demand and never on reopen.
// - Locks are not stored: they are volatile (L9, D2).
// - `deliveries` is the delivery journal (D2): one row per peek-lock hand-out (a receive's batch),
//   naming the sequence numbers it delivered, committed before the receive returns; so a
//   receive costs one small insert, not an update of every message row it hands out. While a
//   lock is held, the message's stored delivery_count lags by the one delivery its journal row
//   records. When the lock ends and the message stays, its count is written into its row with
//   `delivery_record` = the journal row's id ("folded"); the journal row is deleted once every
//   message it names is settled, always logged after those writes. After a crash, each journal
//   row left adds its delivery back to the messages it names that still exist and have not
//   folded it (delivery_record below its id). Journal ids only grow: a new one is above every
//   id a stored message names.

#include <QByteArray>
#include <QtGlobal>

#include <vector>

namespace hourglass::schema {

// Bumped on every incompatible change; a database with a higher version is refused. Version 2
// added `deliveries`, version 3 `bodies.wire` (what an AMQP sender set beyond Service Bus's
// properties, Message.h wireExtras) and `settings`, version 4 `sessions`; an older database gets
// them when opened.
inline constexpr int kVersion = 4;
// PRAGMA application_id, "HGls": tells an Hourglass database from any other SQLite file.
inline constexpr int kApplicationId = 0x48476c73;

// Statements that create a new database, in order.
extern const char* const kCreateStatements[];
extern const int kCreateStatementCount;
// The delivery journal.
inline constexpr const char* kCreateDeliveries =
    "CREATE TABLE deliveries(id INTEGER PRIMARY KEY, entity_id INTEGER NOT NULL, "
    "sub_queue INTEGER NOT NULL, seqs BLOB NOT NULL)";
// Named settings of the database (the AMQP endpoint's key, ...), kept with the data they guard.
inline constexpr const char* kCreateSettings =
    "CREATE TABLE settings(name TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL)";
// Session states (S4): one row per session that has one, kept until it is set to null (the row
// is then deleted). A rowid table, because a state may be as large as a message (a WITHOUT
// ROWID table wants small rows); the state comes last so that opening reads every row's size
// without its bytes. Session locks are volatile like message locks and are not stored.
inline constexpr const char* kCreateSessions =
    "CREATE TABLE sessions(entity_id INTEGER NOT NULL, session_id TEXT NOT NULL, "
    "set_at INTEGER NOT NULL, state BLOB NOT NULL, UNIQUE(entity_id, session_id))";
// What turns a version 1 database into version 2, a version 2 one into version 3, and a
// version 3 one into version 4.
extern const char* const kUpgradeFrom1[];
extern const int kUpgradeFrom1Count;
extern const char* const kUpgradeFrom2[];
extern const int kUpgradeFrom2Count;
extern const char* const kUpgradeFrom3[];
extern const int kUpgradeFrom3Count;

// Bodies live in a rowid table; the key packs the entity id above 40 bits of sequence number.
inline constexpr qint64 bodyKey(qint64 entityId, qint64 sequenceNumber) {
    return (entityId << 40) | (sequenceNumber & ((qint64(1) << 40) - 1));
}

// A delivery journal row's sequence numbers, as 64-bit little-endian integers.
QByteArray encodeSequenceNumbers(const std::vector<qint64>& seqs);
std::vector<qint64> decodeSequenceNumbers(const QByteArray& blob);

// The statements that store one new message: its metadata row and its body row.
inline constexpr const char* kInsertMessage =
    "INSERT INTO messages(entity_id, sub_queue, seq, state, delivery_count, enqueued_at, "
    "scheduled_at, expires_at, ttl, effective_ttl, size, message_id, correlation_id, session_id, "
    "reply_to, reply_to_session_id, to_address, subject, content_type, app_properties, dl_reason, "
    "dl_description, dl_source) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
    "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)";
inline constexpr const char* kInsertBody =
    "INSERT OR REPLACE INTO bodies(key, body, wire) VALUES(?1, ?2, ?3)";

} // namespace hourglass::schema
