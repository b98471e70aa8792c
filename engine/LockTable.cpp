// The lock table (LockTable.h).
#include "LockTable.h"

namespace hourglass {

const LockLocation* LockTable::find(const QUuid& token) const {
    const auto it = m_tokens.constFind(token);
    return it == m_tokens.cend() ? nullptr : &it.value();
}

void LockTable::rememberLostWithSession(const QUuid& token) {
    if (m_lostWithSession.contains(token))
        return;
    m_lostWithSession.insert(token);
    m_lostWithSessionOrder.push_back(token);
    while (m_lostWithSessionOrder.size() > kLostWithSession) {
        m_lostWithSession.remove(m_lostWithSessionOrder.front());
        m_lostWithSessionOrder.pop_front();
    }
}

bool LockTable::settleRecord(qint64 record) {
    const auto it = m_openRecords.find(record);
    if (it == m_openRecords.end())
        return false;
    if (--it->second > 0)
        return false;
    m_openRecords.erase(it);
    return true;
}

void LockTable::clear() {
    m_tokens.clear();
    m_openRecords.clear();
    m_lostWithSession.clear();
    m_lostWithSessionOrder.clear();
}

} // namespace hourglass
