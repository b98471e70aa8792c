#pragma once
// The lock table: which message each lock token of this run names, the delivery journal's rows
// still open (StoreSchema.h), and the message lock tokens lost with their session. Start here for
// "which lock is this token", "is this token of an earlier run", "when is a journal row
// forgotten".
//
// Owned by the broker (BrokerImpl::m_locks) and guarded by the broker's mutex: it has no lock of
// its own, and clang checks that every call is made with BrokerImpl::m_mutex held. A lock itself
// (holder, until when, its journal row) is kept with its message in the MessageIndex; the table
// finds it by token. What a lock's end does to the message (L5-L10) is the broker's
// (BrokerReceive.cpp, BrokerSettle.cpp).

#include "LockTokenSource.h"
#include "hourglass/Message.h"

#include <QHash>
#include <QSet>
#include <QUuid>

#include <cstddef>
#include <deque>
#include <unordered_map>

namespace hourglass {

// Where the message a lock token names is.
struct LockLocation {
    qint64 entityId = 0;
    SubQueue subQueue = SubQueue::Main;
    qint64 seq = 0;
};

class LockTable {
public:
    // ---- Tokens: message and session lock tokens, all from one source per run.
    QUuid newToken() { return m_tokenSource.next(); }
    // False for a token of an earlier run (S5: a restart ended its session).
    bool issuedHere(const QUuid& token) const { return m_tokenSource.issuedHere(token); }
    void add(const QUuid& token, const LockLocation& where) { m_tokens.insert(token, where); }
    void remove(const QUuid& token) { m_tokens.remove(token); }
    // The message `token` locks; null when no lock of this run holds it now.
    const LockLocation* find(const QUuid& token) const;

    // ---- Tokens lost with their session (S5): settling one says SessionLockLost rather than
    // MessageLockLost. The most recent kLostWithSession are remembered.
    void rememberLostWithSession(const QUuid& token);
    bool lostWithSession(const QUuid& token) const { return m_lostWithSession.contains(token); }

    // ---- The delivery journal: a row per peek-lock receive, open while any of its messages is
    // locked under it.
    // The id of the next row (above every id stored, startRecordsAfter).
    qint64 takeRecordId() { return m_nextRecord++; }
    void startRecordsAfter(qint64 highestId) { m_nextRecord = highestId + 1; }
    void openRecord(qint64 record, int messages) { m_openRecords.emplace(record, messages); }
    // One message of `record` is settled: true when it was the row's last (the row is then
    // forgotten here, and the store is to forget it too); false for a row not open.
    bool settleRecord(qint64 record);
    // The row goes with its entity, whatever it still holds.
    void dropRecord(qint64 record) { m_openRecords.erase(record); }

    // A reload from the store: every lock, open row and lost token is forgotten. The token
    // source stays (tokens of this run remain this run's) and load() sets the next row id.
    void clear();

    static constexpr std::size_t kLostWithSession = 65536;

private:
    QHash<QUuid, LockLocation> m_tokens;
    LockTokenSource m_tokenSource;
    qint64 m_nextRecord = 1;
    std::unordered_map<qint64, int> m_openRecords; // row -> messages still locked under it
    QSet<QUuid> m_lostWithSession;
    std::deque<QUuid> m_lostWithSessionOrder; // oldest first
};

} // namespace hourglass
