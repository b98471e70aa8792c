#pragma once
// Message rows committed recently, kept in memory so that handing a message out does not read it
// back from SQLite (a receive reads every row it hands out, and most were sent moments before).
// It mirrors the committed database for the rows it holds: a row enters when its insert commits
// and leaves when a committed change touches it (the database then answers), so a read from here
// and a read of the committed row are the same. Bounded by bytes; when full, new rows are not
// admitted, which suits queues: the rows kept are the oldest ones, the next to be received.

#include "Store.h"

#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hourglass {

class RecentRows {
public:
    explicit RecentRows(qint64 capacityBytes);
    // After `ops` committed, in their order.
    void committed(const std::vector<WriteOp>& ops);
    // The committed row with its body, when held.
    std::optional<StoredMessage> find(qint64 entityId, SubQueue subQueue, qint64 seq) const;
    void clear();
    qint64 bytes() const;

private:
    struct Key {
        qint64 entityId;
        int subQueue;
        qint64 seq;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& key) const;
    };
    void insertLocked(const StoredMessage& row);
    void eraseLocked(const Key& key);
    void eraseEntityLocked(qint64 entityId);

    const qint64 m_capacity;
    mutable std::mutex m_mutex;
    std::unordered_map<Key, StoredMessage, KeyHash> m_rows; // guarded by m_mutex
    qint64 m_bytes = 0;                                     // guarded by m_mutex
};

} // namespace hourglass
