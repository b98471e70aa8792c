#pragma once
// The in-memory index of one sub-queue (an entity's messages, or its dead-letter queue): every
// message's small metadata by sequence number and the locks held. Bodies and properties stay in
// SQLite: about 80 bytes of memory per message here.
//
// Finding the next receivable message: a cursor holds the lowest sequence number that may be
// receivable; receives scan forward from it past locked, deferred and scheduled messages, and
// anything that becomes receivable below it (an abandon, a lock running out) moves it back. This
// keeps no second structure per message, and each message is passed at most once per move back.
//
// Not thread-safe: guarded by the Broker's mutex.

#include "hourglass/Message.h"
#include "hourglass/Time.h"

#include <QString>
#include <QUuid>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace hourglass {

struct MessageMeta {
    // For a Scheduled message: the instant it becomes active. Otherwise its expiry (kNever).
    Instant activatesOrExpiresAt = kNever;
    // The message's own TimeToLive, or -1 when it has none (it then takes entity defaults).
    Millis ownTtl = -1;
    quint32 deliveryCount = 0;
    quint32 size = 0;
    MessageState state = MessageState::Active;
    bool locked = false;

    Instant expiresAt() const {
        return state == MessageState::Scheduled ? kNever : activatesOrExpiresAt;
    }
};

struct LockInfo {
    QUuid token;
    QString receiver;
    Instant lockedUntil = 0;
    // The delivery journal row that records this delivery (StoreSchema.h).
    qint64 deliveryRecord = 0;
};

struct IndexCounts {
    qint64 receivable = 0; // Active and not locked: what a receive can take now
    qint64 scheduled = 0;
    qint64 deferred = 0; // not locked
    qint64 locked = 0;
    qint64 sizeInBytes = 0;
    qint64 total() const { return receivable + scheduled + deferred + locked; }
};

class MessageIndex {
public:
    // Adds a message (not locked). Active messages become receivable.
    void insert(qint64 seq, const MessageMeta& meta);
    // Removes a message and its lock; returns its metadata (nullptr-equivalent when absent).
    std::optional<MessageMeta> remove(qint64 seq);
    MessageMeta* find(qint64 seq);
    const MessageMeta* find(qint64 seq) const;

    // The lowest receivable sequence number, if any.
    std::optional<qint64> firstReceivable();
    // The lowest receivable sequence number for which accept(seq) holds, if any. Passes over the
    // others (the messages of locked sessions, S3) without moving the cursor past them.
    template <typename Accept> std::optional<qint64> findReceivable(Accept accept) {
        if (!firstReceivable())
            return std::nullopt;
        for (auto it = m_messages.lower_bound(m_cursor); it != m_messages.end(); ++it) {
            if (it->second.state == MessageState::Active && !it->second.locked && accept(it->first))
                return it->first;
        }
        return std::nullopt;
    }
    // Locks a receivable (or deferred) message.
    void lock(qint64 seq, const LockInfo& info);
    // Releases a lock; an Active message becomes receivable again, a Deferred one stays deferred.
    void unlock(qint64 seq);
    const LockInfo* lockOf(qint64 seq) const;
    LockInfo* lockOf(qint64 seq);
    // Changes the state of an unlocked message (Active <-> Deferred, Scheduled -> removed).
    void setState(qint64 seq, MessageState state);
    // A message's new size in bytes (its properties were modified): the quota counts it.
    void resize(qint64 seq, quint32 size);

    const std::map<qint64, MessageMeta>& messages() const { return m_messages; }
    const std::unordered_map<qint64, LockInfo>& locks() const { return m_locks; }
    const IndexCounts& counts() const { return m_counts; }
    void clear();

private:
    void count(const MessageMeta& meta, int sign);

    void markReceivable(qint64 seq) { m_cursor = std::min(m_cursor, seq); }

    std::map<qint64, MessageMeta> m_messages;
    // No receivable message has a lower sequence number than this.
    qint64 m_cursor = std::numeric_limits<qint64>::max();
    std::unordered_map<qint64, LockInfo> m_locks;
    IndexCounts m_counts;
};

} // namespace hourglass
