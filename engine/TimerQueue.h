#pragma once
// The engine's due instants: a min-heap of timer events (scheduled activation, expiry, lock
// expiry, auto-delete-on-idle). Events are never removed when they become stale (a message
// completed before it expired, a renewed lock): the Broker checks each popped event against the
// current state and ignores stale ones. The queue owns when to compact (compactIfGrown): once the
// heap has doubled since it last held only live events, so that stale events never outnumber live
// ones for long and compaction costs amortised O(1) a push. A tick with nothing due looks only at
// the head.
//
// Owned by the broker (BrokerImpl::m_timers) and guarded by the broker's mutex: it has no lock of
// its own, and clang checks that every call is made with BrokerImpl::m_mutex held. Whether an
// event is still live, and what a live one does, is the broker's (BrokerTime.cpp).

#include "hourglass/Time.h"

#include <QtGlobal>

#include <algorithm>
#include <functional>
#include <vector>

namespace hourglass {

// SessionLockExpire: a session lock runs out (S5); AcceptTimeout: a wait for the next available
// session ends without one (S3).
enum class TimerKind : quint8 {
    Activate,
    Expire,
    LockExpire,
    AutoDelete,
    SessionLockExpire,
    AcceptTimeout
};

struct TimerEvent {
    Instant due = kNever;
    // The message; for SessionLockExpire the session's ordinal (SessionIndex.h), for
    // AcceptTimeout the wait's id; unused for AutoDelete.
    qint64 seq = 0;
    quint32 entityId = 0;
    TimerKind kind = TimerKind::Expire;
    quint8 subQueue = 0; // LockExpire: which sub-queue holds the lock

    // Earliest first; equal instants in a stable, meaningful order: locks run out before
    // messages expire, so that T6's "expiry takes effect at once" sees the released message.
    bool later(const TimerEvent& other) const {
        if (due != other.due)
            return due > other.due;
        if (kind != other.kind)
            return rank(kind) > rank(other.kind);
        if (entityId != other.entityId)
            return entityId > other.entityId;
        return seq > other.seq;
    }

private:
    static int rank(TimerKind kind) {
        switch (kind) {
        case TimerKind::Activate:
            return 0;
        case TimerKind::LockExpire:
        case TimerKind::SessionLockExpire:
            return 1;
        case TimerKind::Expire:
            return 2;
        case TimerKind::AutoDelete:
            return 3;
        case TimerKind::AcceptTimeout:
            // Last: a session that becomes available at the very instant a wait ends is
            // still granted to it.
            return 4;
        }
        return 5;
    }
};

class TimerQueue {
public:
    void push(const TimerEvent& event) {
        if (event.due == kNever)
            return;
        m_heap.push_back(event);
        std::push_heap(m_heap.begin(), m_heap.end(), Later());
    }
    bool empty() const { return m_heap.empty(); }
    std::size_t size() const { return m_heap.size(); }
    Instant nextDue() const { return m_heap.empty() ? kNever : m_heap.front().due; }
    const TimerEvent& top() const { return m_heap.front(); }
    TimerEvent pop() {
        std::pop_heap(m_heap.begin(), m_heap.end(), Later());
        TimerEvent event = m_heap.back();
        m_heap.pop_back();
        return event;
    }
    // Keeps only the events for which `live` holds, in O(n), when the heap has grown past twice
    // its size when it last held only live events (and past kMinCompactionMark). True if it did.
    bool compactIfGrown(const std::function<bool(const TimerEvent&)>& live) {
        if (m_heap.size() <= m_compactionMark)
            return false;
        std::erase_if(m_heap, [&](const TimerEvent& e) { return !live(e); });
        std::make_heap(m_heap.begin(), m_heap.end(), Later());
        m_heap.shrink_to_fit();
        markAllLive();
        return true;
    }
    // Every event the heap holds now is live (a database was just loaded into it): the next
    // compaction waits until the heap has doubled.
    void markAllLive() { m_compactionMark = std::max(kMinCompactionMark, 2 * m_heap.size()); }
    void reserve(std::size_t n) { m_heap.reserve(n); }
    void clear() {
        m_heap.clear();
        m_compactionMark = kMinCompactionMark;
    }
    // Rebuilds from an unordered list in O(n) (used when loading a database).
    void assign(std::vector<TimerEvent> events) {
        m_heap = std::move(events);
        std::make_heap(m_heap.begin(), m_heap.end(), Later());
    }

private:
    struct Later {
        bool operator()(const TimerEvent& a, const TimerEvent& b) const { return a.later(b); }
    };
    // Below this many events a heap is never compacted: compacting a small one gains nothing.
    static constexpr std::size_t kMinCompactionMark = 4096;
    std::vector<TimerEvent> m_heap;
    std::size_t m_compactionMark = kMinCompactionMark;
};

} // namespace hourglass
