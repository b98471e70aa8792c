#pragma once
// Coarse, coalesced change notifications for the explorer. The engine marks what
// changed under its own lock; the feed delivers one `changed` signal per batch, in the thread the
// feed lives in, carrying every path touched since the previous one. A burst of 100,000 sends
// becomes a handful of signals, not 100,000 repaints.

#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>

#include <mutex>

namespace hourglass {

struct ChangeBatch {
    QSet<QString> created;         // entity paths created
    QSet<QString> updated;         // entity paths whose properties or rules changed
    QSet<QString> deleted;         // entity paths deleted (explicitly or by auto-delete)
    QSet<QString> countsChanged;   // entity paths whose counts changed
    QSet<QString> messagesAdded;   // paths (including "/$deadletterqueue") that gained messages
    QSet<QString> messagesRemoved; // paths that lost messages (or whose messages changed state)
    QSet<QString> sessionsChanged; // entity paths whose session locks or states changed (S2-S5)
    bool namespacesChanged = false;

    bool isEmpty() const;
    void merge(const ChangeBatch& other);
};

class ChangeFeed : public QObject {
    Q_OBJECT
public:
    explicit ChangeFeed(QObject* parent = nullptr);

    // Called by the engine (any thread). The first mark after a delivery posts one queued
    // delivery to this object's thread; later marks join the same batch.
    void markCreated(const QString& path);
    void markUpdated(const QString& path);
    void markDeleted(const QString& path);
    void markCounts(const QString& path);
    void markAdded(const QString& path);
    void markRemoved(const QString& path);
    void markSessions(const QString& path);
    void markNamespaces();

    // Takes what has accumulated without waiting for the event loop (headless callers, tests).
    ChangeBatch takePending();

signals:
    void changed(const hourglass::ChangeBatch& batch);

private:
    template <typename Mark> void mark(Mark&& apply);
    void deliver();

    std::mutex m_mutex;
    ChangeBatch m_pending;         // guarded by m_mutex
    bool m_deliveryPosted = false; // guarded by m_mutex
};

} // namespace hourglass

Q_DECLARE_METATYPE(hourglass::ChangeBatch)
