#include "StoreSchema.h"

#include <QtEndian>

namespace hourglass::schema {

const char* const kCreateStatements[] = {
    "CREATE TABLE namespaces(name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE, tier INTEGER NOT NULL, "
    "ordinal INTEGER NOT NULL)",
    // `path_key` is the lower-cased path: uniqueness is case-insensitive inside a namespace (E2).
    "CREATE TABLE entities(id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, path TEXT NOT NULL, "
    "path_key TEXT NOT NULL, kind INTEGER NOT NULL, properties TEXT NOT NULL, rules TEXT, "
    "created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_activity INTEGER NOT NULL, "
    "next_seq INTEGER NOT NULL, UNIQUE(namespace, path_key))",
    "CREATE TABLE messages(entity_id INTEGER NOT NULL, sub_queue INTEGER NOT NULL, "
    "seq INTEGER NOT NULL, state INTEGER NOT NULL, delivery_count INTEGER NOT NULL, "
    // Beside delivery_count: opening reads both for every message, and a column read costs
    // what the columns before it in the record cost to skip.
    "delivery_record INTEGER NOT NULL DEFAULT 0, "
    "enqueued_at INTEGER NOT NULL, scheduled_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, "
    "ttl INTEGER, effective_ttl INTEGER NOT NULL, size INTEGER NOT NULL, message_id TEXT, "
    "correlation_id TEXT, session_id TEXT, reply_to TEXT, reply_to_session_id TEXT, "
    "to_address TEXT, subject TEXT, content_type TEXT, app_properties BLOB, dl_reason TEXT, "
    "dl_description TEXT, dl_source TEXT, PRIMARY KEY(entity_id, seq)) WITHOUT ROWID",
    "CREATE TABLE bodies(key INTEGER PRIMARY KEY, body BLOB NOT NULL, wire BLOB)",
    // Duplicate detection history (L13), kept across restarts.
    "CREATE TABLE duplicates(entity_id INTEGER NOT NULL, message_id TEXT NOT NULL, "
    "seen_at INTEGER NOT NULL, PRIMARY KEY(entity_id, message_id)) WITHOUT ROWID",
    kCreateDeliveries,
    kCreateSettings,
    kCreateSessions,
};
const int kCreateStatementCount = sizeof(kCreateStatements) / sizeof(kCreateStatements[0]);

const char* const kUpgradeFrom1[] = {
    // Appended: an upgraded database reads it a little slower on open than a new one.
    "ALTER TABLE messages ADD COLUMN delivery_record INTEGER NOT NULL DEFAULT 0",
    kCreateDeliveries,
};
const int kUpgradeFrom1Count = sizeof(kUpgradeFrom1) / sizeof(kUpgradeFrom1[0]);

const char* const kUpgradeFrom2[] = {
    "ALTER TABLE bodies ADD COLUMN wire BLOB",
    kCreateSettings,
};
const int kUpgradeFrom2Count = sizeof(kUpgradeFrom2) / sizeof(kUpgradeFrom2[0]);

const char* const kUpgradeFrom3[] = {
    kCreateSessions,
};
const int kUpgradeFrom3Count = sizeof(kUpgradeFrom3) / sizeof(kUpgradeFrom3[0]);

QByteArray encodeSequenceNumbers(const std::vector<qint64>& seqs) {
    QByteArray blob(qsizetype(seqs.size() * sizeof(qint64)), Qt::Uninitialized);
    char* out = blob.data();
    for (qint64 seq : seqs) {
        qToLittleEndian(seq, out);
        out += sizeof(qint64);
    }
    return blob;
}

std::vector<qint64> decodeSequenceNumbers(const QByteArray& blob) {
    std::vector<qint64> seqs;
    seqs.reserve(std::size_t(blob.size()) / sizeof(qint64));
    for (qsizetype at = 0; at + qsizetype(sizeof(qint64)) <= blob.size(); at += sizeof(qint64))
        seqs.push_back(qFromLittleEndian<qint64>(blob.constData() + at));
    return seqs;
}

} // namespace hourglass::schema
