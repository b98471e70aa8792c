#pragma once
// What an operator does to the selected rows of the message list: cancel scheduled messages,
// delete (after a non-blocking confirmation, "confirmDeleteMessages"), export to a directory
// (bodies read in the background) and copy message ids; and to the whole list: purge (every
// message of the queue, subscription or dead-letter queue shown, after a confirmation naming it
// and the count: common/MessagePurge, as the dead-letter tab purges). Delete, export and purge
// run as BulkJobs, one broker call per chunk, followed by the panel's BulkProgressBar and
// cancellable there.
//
// Action object names: "cancelScheduledAction", "deleteMessagesAction", "exportMessagesAction",
// "copyMessageIdAction", "purgeMessagesAction". Shortcuts: Delete, Ctrl+Shift+E, Ctrl+C (while
// the panel has focus).
//
// Threads: GUI thread only; broker work goes through BrokerClient.

#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QAction;

namespace hourglass::ui {

class BrokerClient;
class BulkJob;
class BulkProgressBar;
class MessageListPanel;
class MessagePurge;

class MessageListActions : public QObject {
    Q_OBJECT
public:
    // Delete removes this many messages per broker call; export reads and writes this many.
    static constexpr int kDeleteChunkSize = 500;
    static constexpr int kExportChunkSize = 200;

    MessageListActions(BrokerClient& client, MessageListPanel& panel, BulkProgressBar& bar);

    QList<QAction*> actions() const;
    QAction* cancelScheduledAction() const { return m_cancelScheduled; }
    QAction* deleteAction() const { return m_delete; }
    QAction* exportAction() const { return m_export; }
    QAction* copyIdAction() const { return m_copyId; }
    // Purge… (also on the tree's context menu): every message of the path shown.
    QAction* purgeAction() const { return m_purge; }
    MessagePurge* purger() const { return m_purger; }
    // Whether the path shown can be purged: a queue, a subscription or a dead-letter queue (a
    // topic's list holds only its scheduled messages; its subscriptions hold the rest).
    void setPurgeable(bool purgeable);

    // Chunk sizes of the next jobs (tests use small ones to see progress).
    void setChunkSizes(int deleteChunk, int exportChunk);
    // The job running or last run (null before the first).
    BulkJob* job() const { return m_job; }

    // Enables the actions for the panel's selection.
    void updateEnabled();
    void cancelScheduled();
    // Resolves the selection, then asks for confirmation; the job starts once accepted.
    void deleteSelected();
    // Asks for a directory (non-blocking), then exportSelectedTo().
    void exportSelected();
    void exportSelectedTo(const QString& directory);
    void copyMessageIds();
    void purge();

signals:
    void errorOccurred(const hourglass::Error& error);
    void statusMessage(const QString& text);
    // Messages this object removed from the path (deleted, or scheduled ones cancelled).
    void messagesRemoved(const QList<qint64>& sequenceNumbers);

private:
    bool jobRunning() const;
    void confirmDelete(const QString& path, const QList<qint64>& sequenceNumbers);
    void startDelete(const QString& path, const QList<qint64>& sequenceNumbers);
    void startExport(const QString& path, const QList<qint64>& sequenceNumbers,
                     const QString& directory);
    void track(BulkJob* job);

    BrokerClient& m_client;
    MessageListPanel& m_panel;
    BulkProgressBar& m_bar;
    QPointer<BulkJob> m_job;
    int m_deleteChunk = kDeleteChunkSize;
    int m_exportChunk = kExportChunkSize;
    QAction* m_cancelScheduled;
    QAction* m_delete;
    QAction* m_export;
    QAction* m_copyId;
    QAction* m_purge;
    QAction* m_separator;
    MessagePurge* m_purger;
    bool m_purgeable = true;
};

} // namespace hourglass::ui
