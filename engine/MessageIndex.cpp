#include "MessageIndex.h"

namespace hourglass {

void MessageIndex::count(const MessageMeta& meta, int sign) {
    if (meta.locked)
        m_counts.locked += sign;
    else if (meta.state == MessageState::Scheduled)
        m_counts.scheduled += sign;
    else if (meta.state == MessageState::Deferred)
        m_counts.deferred += sign;
    else
        m_counts.receivable += sign;
    m_counts.sizeInBytes += sign * static_cast<qint64>(meta.size);
}

void MessageIndex::insert(qint64 seq, const MessageMeta& meta) {
    MessageMeta stored = meta;
    stored.locked = false;
    // Sends append in sequence order, so the hint makes the common insert O(1).
    m_messages.emplace_hint(m_messages.end(), seq, stored);
    if (stored.state == MessageState::Active)
        markReceivable(seq);
    count(stored, +1);
}

std::optional<MessageMeta> MessageIndex::remove(qint64 seq) {
    auto it = m_messages.find(seq);
    if (it == m_messages.end())
        return std::nullopt;
    MessageMeta meta = it->second;
    count(meta, -1);
    m_messages.erase(it);
    if (meta.locked)
        m_locks.erase(seq);
    return meta;
}

MessageMeta* MessageIndex::find(qint64 seq) {
    auto it = m_messages.find(seq);
    return it == m_messages.end() ? nullptr : &it->second;
}

const MessageMeta* MessageIndex::find(qint64 seq) const {
    auto it = m_messages.find(seq);
    return it == m_messages.end() ? nullptr : &it->second;
}

std::optional<qint64> MessageIndex::firstReceivable() {
    if (m_counts.receivable == 0)
        return std::nullopt;
    for (auto it = m_messages.lower_bound(m_cursor); it != m_messages.end(); ++it) {
        if (it->second.state == MessageState::Active && !it->second.locked) {
            m_cursor = it->first;
            return it->first;
        }
    }
    // Unreachable while the counts are right; keep the cursor sound anyway.
    m_cursor = std::numeric_limits<qint64>::max();
    return std::nullopt;
}

void MessageIndex::lock(qint64 seq, const LockInfo& info) {
    MessageMeta* meta = find(seq);
    if (!meta || meta->locked)
        return;
    count(*meta, -1);
    meta->locked = true;
    count(*meta, +1);
    m_locks[seq] = info;
}

void MessageIndex::unlock(qint64 seq) {
    MessageMeta* meta = find(seq);
    if (!meta || !meta->locked)
        return;
    count(*meta, -1);
    meta->locked = false;
    count(*meta, +1);
    m_locks.erase(seq);
    if (meta->state == MessageState::Active)
        markReceivable(seq);
}

const LockInfo* MessageIndex::lockOf(qint64 seq) const {
    auto it = m_locks.find(seq);
    return it == m_locks.end() ? nullptr : &it->second;
}

LockInfo* MessageIndex::lockOf(qint64 seq) {
    auto it = m_locks.find(seq);
    return it == m_locks.end() ? nullptr : &it->second;
}

void MessageIndex::setState(qint64 seq, MessageState state) {
    MessageMeta* meta = find(seq);
    if (!meta || meta->state == state)
        return;
    count(*meta, -1);
    meta->state = state;
    count(*meta, +1);
    if (!meta->locked && state == MessageState::Active)
        markReceivable(seq);
}

void MessageIndex::resize(qint64 seq, quint32 size) {
    MessageMeta* meta = find(seq);
    if (!meta)
        return;
    m_counts.sizeInBytes += static_cast<qint64>(size) - static_cast<qint64>(meta->size);
    meta->size = size;
}

void MessageIndex::clear() {
    m_messages.clear();
    m_cursor = std::numeric_limits<qint64>::max();
    m_locks.clear();
    m_counts = {};
}

} // namespace hourglass
