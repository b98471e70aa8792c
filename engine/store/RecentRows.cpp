#include "RecentRows.h"

namespace hourglass {

namespace {
// What a row costs here: its variable parts and a fixed part for the strings and the map node.
qint64 costOf(const StoredMessage& row) {
    return row.body.size() + row.wireExtras.size() + row.applicationProperties.size() +
           2 * (row.messageId.size() + row.correlationId.size() + row.sessionId.size() +
                row.replyTo.size() + row.to.size() + row.subject.size() + row.contentType.size()) +
           256;
}
} // namespace

RecentRows::RecentRows(qint64 capacityBytes)
    : m_capacity(capacityBytes) {}

std::size_t RecentRows::KeyHash::operator()(const Key& key) const {
    return std::hash<qint64>()(key.seq * 31 + key.entityId * 2 + key.subQueue);
}

void RecentRows::committed(const std::vector<WriteOp>& ops) {
    std::lock_guard lock(m_mutex);
    for (const WriteOp& operation : ops) {
        std::visit(
            [&](const auto& o) {
                using T = std::decay_t<decltype(o)>;
                if constexpr (std::is_same_v<T, op::InsertMessage>) {
                    insertLocked(o.row);
                } else if constexpr (std::is_same_v<T, op::DeleteMessage> ||
                                     std::is_same_v<T, op::SetDeliveryCount> ||
                                     std::is_same_v<T, op::SetState> ||
                                     std::is_same_v<T, op::SetApplicationProperties>) {
                    eraseLocked({o.entityId, int(o.subQueue), o.seq});
                } else if constexpr (std::is_same_v<T, op::MoveToDeadLetter>) {
                    eraseLocked({o.entityId, int(SubQueue::Main), o.seq});
                    eraseLocked({o.entityId, int(SubQueue::DeadLetter), o.seq});
                } else if constexpr (std::is_same_v<T, op::Activate>) {
                    eraseLocked({o.entityId, int(SubQueue::Main), o.oldSeq});
                    eraseLocked({o.entityId, int(SubQueue::Main), o.newSeq});
                } else if constexpr (std::is_same_v<T, op::DeleteEntity>) {
                    eraseEntityLocked(o.id);
                } else if constexpr (std::is_same_v<T, op::DeleteNamespace>) {
                    // Its entities' ids are not in the operation: start afresh.
                    m_rows.clear();
                    m_bytes = 0;
                } else {
                    // Operations that change no message row. A new operation must be placed in
                    // one of the branches above or added here.
                    static_assert(std::is_same_v<T, op::UpsertNamespace> ||
                                      std::is_same_v<T, op::InsertEntity> ||
                                      std::is_same_v<T, op::UpdateEntity> ||
                                      std::is_same_v<T, op::RememberMessageId> ||
                                      std::is_same_v<T, op::ForgetMessageIds> ||
                                      std::is_same_v<T, op::RecordDeliveries> ||
                                      std::is_same_v<T, op::ForgetDeliveries> ||
                                      std::is_same_v<T, op::SetSetting> ||
                                      std::is_same_v<T, op::SetSessionState>,
                                  "decide how this operation changes message rows");
                }
            },
            operation);
    }
}

std::optional<StoredMessage> RecentRows::find(qint64 entityId, SubQueue subQueue,
                                              qint64 seq) const {
    std::lock_guard lock(m_mutex);
    const auto it = m_rows.find({entityId, int(subQueue), seq});
    if (it == m_rows.end())
        return std::nullopt;
    return it->second;
}

void RecentRows::clear() {
    std::lock_guard lock(m_mutex);
    m_rows.clear();
    m_bytes = 0;
}

qint64 RecentRows::bytes() const {
    std::lock_guard lock(m_mutex);
    return m_bytes;
}

void RecentRows::insertLocked(const StoredMessage& row) {
    const Key key{row.entityId, int(row.subQueue), row.sequenceNumber};
    eraseLocked(key);
    const qint64 cost = costOf(row);
    if (m_bytes + cost > m_capacity)
        return; // full: the database answers for this one
    StoredMessage& kept = m_rows.emplace(key, row).first->second;
    // As a read of the committed row gives it (Store.cpp, readMessageRow).
    if (kept.body.isNull())
        kept.body = QByteArray("");
    kept.hasBody = true;
    m_bytes += cost;
}

void RecentRows::eraseLocked(const Key& key) {
    const auto it = m_rows.find(key);
    if (it == m_rows.end())
        return;
    m_bytes -= costOf(it->second);
    m_rows.erase(it);
}

void RecentRows::eraseEntityLocked(qint64 entityId) {
    for (auto it = m_rows.begin(); it != m_rows.end();) {
        if (it->first.entityId == entityId) {
            m_bytes -= costOf(it->second);
            it = m_rows.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace hourglass
