#pragma once
// Runs one action over many messages in the background (bulk work never runs on the
// GUI thread): the sequence numbers are cut into chunks and each chunk is one broker call on the
// client's worker pool, one after the other. Between chunks the job reports progress and checks
// for cancellation, so that cancel() stops it within one chunk and what was done stays done.
//
// A step returns an Error to stop the job (reported by failed()); the chunks before it stay
// applied. Lives on the GUI thread; signals arrive there.

#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace hourglass {
class Broker;
}

namespace hourglass::ui {

class BrokerClient;

class BulkJob : public QObject {
    Q_OBJECT
public:
    // Runs on a worker thread with one chunk of the items.
    using Step = std::function<Result<void>(Broker& broker, const QList<qint64>& chunk)>;

    BulkJob(BrokerClient& client, const QString& title, QList<qint64> items, Step step,
            int chunkSize = 500, QObject* parent = nullptr);

    // Starts the first chunk; does nothing when already started.
    void start();
    // Stops before the next chunk (the one running completes).
    void cancel();

    QString title() const { return m_title; }
    int total() const { return int(m_items.size()); }
    int done() const { return m_done; }
    bool running() const { return m_running; }
    bool cancelRequested() const { return m_cancel; }

signals:
    void progress(int done, int total);
    // The job ended: every item done, or cancelled after `done` items.
    void finished(int done, int total, bool cancelled);
    void failed(const hourglass::Error& error, int done, int total);

private:
    void runNextChunk();

    BrokerClient& m_client;
    QString m_title;
    QList<qint64> m_items;
    Step m_step;
    int m_chunkSize;
    int m_done = 0;
    bool m_running = false;
    bool m_started = false;
    bool m_cancel = false;
};

} // namespace hourglass::ui
