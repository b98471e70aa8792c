#include "SessionIndex.h"

namespace hourglass {

SessionRecord* SessionIndex::find(const QString& id) {
    const auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : &it->second;
}

const SessionRecord* SessionIndex::find(const QString& id) const {
    const auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : &it->second;
}

SessionRecord* SessionIndex::byOrdinal(qint64 ordinal) {
    const auto it = m_byOrdinal.find(ordinal);
    return it == m_byOrdinal.end() ? nullptr : find(it->second);
}

const SessionRecord* SessionIndex::byOrdinal(qint64 ordinal) const {
    const auto it = m_byOrdinal.find(ordinal);
    return it == m_byOrdinal.end() ? nullptr : find(it->second);
}

SessionRecord& SessionIndex::obtain(const QString& id) {
    auto [it, added] = m_sessions.try_emplace(id);
    if (added) {
        it->second.id = id;
        it->second.ordinal = m_nextOrdinal++;
        m_byOrdinal.emplace(it->second.ordinal, id);
    }
    return it->second;
}

bool SessionIndex::forgetIfUnused(const QString& id) {
    const auto it = m_sessions.find(id);
    if (it == m_sessions.end() || !it->second.unused())
        return false;
    m_byOrdinal.erase(it->second.ordinal);
    m_sessions.erase(it);
    return true;
}

void SessionIndex::addMessage(const QString& sessionId, qint64 seq) {
    SessionRecord& session = obtain(sessionId);
    session.messages.insert(seq);
    // The session's own copy of the id: every message of a session shares one string.
    m_sessionOf.emplace(seq, session.id);
}

void SessionIndex::removeMessage(qint64 seq) {
    const auto it = m_sessionOf.find(seq);
    if (it == m_sessionOf.end())
        return;
    const QString id = it->second;
    m_sessionOf.erase(it);
    if (SessionRecord* session = find(id)) {
        session->messages.erase(seq);
        forgetIfUnused(id);
    }
}

void SessionIndex::renumber(qint64 oldSeq, qint64 newSeq) {
    const auto it = m_sessionOf.find(oldSeq);
    if (it == m_sessionOf.end())
        return;
    const QString id = it->second;
    m_sessionOf.erase(it);
    m_sessionOf.emplace(newSeq, id);
    SessionRecord& session = obtain(id);
    session.messages.erase(oldSeq);
    session.messages.insert(newSeq);
}

const QString* SessionIndex::sessionOf(qint64 seq) const {
    const auto it = m_sessionOf.find(seq);
    return it == m_sessionOf.end() ? nullptr : &it->second;
}

void SessionIndex::clear() {
    m_sessions.clear();
    m_sessionOf.clear();
    m_byOrdinal.clear();
}

} // namespace hourglass
