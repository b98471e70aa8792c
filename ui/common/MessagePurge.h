#pragma once
// Purge: delete every message of a queue, a subscription or a dead-letter queue. The one way the
// message list (its Purge… action, also on the tree's context menu) and the dead-letter tab do
// it:
//  1. every sequence number of the path is read in the background (SequenceGather: the engine's
//     index on a hosted namespace, page by page through peek on a remote one, saying how far it
//     got; withdraw() stops it);
//  2. a non-blocking confirmation ("confirmPurge") names the entity and how many messages go;
//  3. a BulkJob deletes them in chunks, with progress and Cancel in the caller's
//     BulkProgressBar. Messages that left meanwhile (received, expired, moved) are counted
//     apart, so the final word is exact: how many this purge deleted, and how many had gone.
//     Messages that arrive after the question are not purged: the user agreed to a count.
//
// Threads: GUI thread only; broker work goes through BrokerClient.

#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <algorithm>

class QMessageBox;
class QWidget;

namespace hourglass {
class Broker;
}

namespace hourglass::ui {

class BrokerClient;
class BulkJob;
class SequenceGather;

// Deletes the messages of `chunk` still in `path` (those gone meanwhile are what the operator
// wanted gone anyway) and returns how many it deleted.
Result<int> deletePresentMessages(Broker& broker, const QString& path, const QList<qint64>& chunk);

class MessagePurge : public QObject {
    Q_OBJECT
public:
    static constexpr int kChunkSize = 500;

    // The confirmation opens over `dialogParent`.
    MessagePurge(BrokerClient& client, QWidget* dialogParent);

    // How a purge names `qualifiedPath` in its question and its report: "queue 'orders'",
    // "subscription 'audit' of topic 'events'", "the dead-letter queue of 'orders'".
    static QString describe(const QString& qualifiedPath);

    // Gathers, asks, then deletes (see the header). Does nothing while busy().
    void purge(const QString& qualifiedPath);
    // The entity shown changed: a question still open is withdrawn (a running job goes on).
    void withdraw();
    // Gathering, asking or deleting.
    bool busy() const;
    BulkJob* job() const { return m_job; }
    void setChunkSize(int size) { m_chunkSize = std::max(1, size); }

signals:
    void busyChanged();
    // The deleting job was made and is about to start (track it with a BulkProgressBar).
    void jobStarted(hourglass::ui::BulkJob* job);
    // The job ended (done, cancelled or failed); `deleted` messages of `path` are gone.
    void finished(const QString& path, qint64 deleted);
    void statusMessage(const QString& text);
    void errorOccurred(const hourglass::Error& error);

private:
    void ask(const QString& path, const QList<qint64>& sequenceNumbers);
    void run(const QString& path, const QList<qint64>& sequenceNumbers);

    BrokerClient& m_client;
    QWidget* m_dialogParent;
    int m_chunkSize = kChunkSize;
    quint64 m_generation = 0; // bumped by withdraw(): a gather or a question for before is void
    bool m_gathering = false;
    QPointer<SequenceGather> m_gather;
    QPointer<QMessageBox> m_question;
    QPointer<BulkJob> m_job;
};

} // namespace hourglass::ui
