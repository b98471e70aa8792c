#include "common/BulkJob.h"

#include "common/BrokerClient.h"

namespace hourglass::ui {

BulkJob::BulkJob(BrokerClient& client, const QString& title, QList<qint64> items, Step step,
                 int chunkSize, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_title(title)
    , m_items(std::move(items))
    , m_step(std::move(step))
    , m_chunkSize(std::max(chunkSize, 1)) {}

void BulkJob::start() {
    if (m_started)
        return;
    m_started = true;
    m_running = true;
    emit progress(0, total());
    runNextChunk();
}

void BulkJob::cancel() {
    m_cancel = true;
}

void BulkJob::runNextChunk() {
    if (m_cancel || m_done >= total()) {
        m_running = false;
        emit finished(m_done, total(), m_done < total());
        return;
    }
    const QList<qint64> chunk = m_items.mid(m_done, m_chunkSize);
    // The step is copied into the call: the job may be deleted while a chunk runs, and then the
    // reply is dropped (the job is the call's context).
    m_client.call(
        this, [step = m_step, chunk](Broker& broker) { return step(broker, chunk); },
        [this, size = int(chunk.size())](Result<void> result) {
            if (!result) {
                m_running = false;
                emit failed(result.error(), m_done, total());
                return;
            }
            m_done += size;
            emit progress(m_done, total());
            runNextChunk();
        });
}

} // namespace hourglass::ui
