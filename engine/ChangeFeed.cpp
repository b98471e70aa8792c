#include "hourglass/ChangeFeed.h"

#include <QMetaObject>

namespace hourglass {

bool ChangeBatch::isEmpty() const {
    return created.isEmpty() && updated.isEmpty() && deleted.isEmpty() && countsChanged.isEmpty() &&
           messagesAdded.isEmpty() && messagesRemoved.isEmpty() && sessionsChanged.isEmpty() &&
           !namespacesChanged;
}

void ChangeBatch::merge(const ChangeBatch& other) {
    created.unite(other.created);
    updated.unite(other.updated);
    deleted.unite(other.deleted);
    countsChanged.unite(other.countsChanged);
    messagesAdded.unite(other.messagesAdded);
    messagesRemoved.unite(other.messagesRemoved);
    sessionsChanged.unite(other.sessionsChanged);
    namespacesChanged = namespacesChanged || other.namespacesChanged;
}

ChangeFeed::ChangeFeed(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<hourglass::ChangeBatch>();
}

template <typename Mark> void ChangeFeed::mark(Mark&& apply) {
    bool post = false;
    {
        std::lock_guard lock(m_mutex);
        apply(m_pending);
        if (!m_deliveryPosted) {
            m_deliveryPosted = true;
            post = true;
        }
    }
    if (post)
        QMetaObject::invokeMethod(this, &ChangeFeed::deliver, Qt::QueuedConnection);
}

void ChangeFeed::markCreated(const QString& path) {
    mark([&](ChangeBatch& b) { b.created.insert(path); });
}
void ChangeFeed::markUpdated(const QString& path) {
    mark([&](ChangeBatch& b) { b.updated.insert(path); });
}
void ChangeFeed::markDeleted(const QString& path) {
    mark([&](ChangeBatch& b) { b.deleted.insert(path); });
}
void ChangeFeed::markCounts(const QString& path) {
    mark([&](ChangeBatch& b) { b.countsChanged.insert(path); });
}
void ChangeFeed::markAdded(const QString& path) {
    mark([&](ChangeBatch& b) { b.messagesAdded.insert(path); });
}
void ChangeFeed::markRemoved(const QString& path) {
    mark([&](ChangeBatch& b) { b.messagesRemoved.insert(path); });
}
void ChangeFeed::markSessions(const QString& path) {
    mark([&](ChangeBatch& b) { b.sessionsChanged.insert(path); });
}
void ChangeFeed::markNamespaces() {
    mark([&](ChangeBatch& b) { b.namespacesChanged = true; });
}

ChangeBatch ChangeFeed::takePending() {
    std::lock_guard lock(m_mutex);
    ChangeBatch out;
    std::swap(out, m_pending);
    m_deliveryPosted = false;
    return out;
}

void ChangeFeed::deliver() {
    ChangeBatch batch = takePending();
    if (!batch.isEmpty())
        emit changed(batch);
}

} // namespace hourglass
