#include "common/MessagePurge.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/RemoteConfirm.h"
#include "common/SequenceGather.h"
#include "hourglass/Broker.h"
#include "hourglass/EntityPath.h"

#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

#include <atomic>
#include <memory>

namespace hourglass::ui {

namespace {
QString count(qint64 n) {
    return QLocale().toString(n);
}
QString messages(qint64 n) {
    return n == 1 ? MessagePurge::tr("1 message")
                  : MessagePurge::tr("%1 messages").arg(QLocale().toString(n));
}
} // namespace

Result<int> deletePresentMessages(Broker& broker, const QString& path, const QList<qint64>& chunk) {
    auto deleted = broker.deleteMessages(path, chunk);
    if (deleted)
        return int(chunk.size());
    if (deleted.error().code != ErrorCode::MessageNotFound)
        return deleted.error();
    // Some left since they were listed: delete the ones still there. Each pass finds fewer (a
    // message cannot come back under its sequence number), so this ends. On a remote namespace
    // a message another receiver holds locked is still there but cannot be taken: a pass that
    // finds as many as the last one gives up with the service's word.
    QList<qint64> present = chunk;
    for (;;) {
        const qsizetype tried = present.size(); // what the refused delete asked for
        present.removeIf([&](qint64 sequenceNumber) {
            return !broker.message(path, sequenceNumber, Broker::Bodies::Without);
        });
        if (present.isEmpty())
            return 0;
        if (present.size() == tried)
            return deleted.error(); // none had left: the service will not take what remains
        deleted = broker.deleteMessages(path, present);
        if (deleted)
            return int(present.size());
        if (deleted.error().code != ErrorCode::MessageNotFound)
            return deleted.error();
    }
}

MessagePurge::MessagePurge(BrokerClient& client, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_client(client)
    , m_dialogParent(dialogParent) {}

QString MessagePurge::describe(const QString& qualifiedPath) {
    const auto path = EntityPath::parse(qualifiedPath);
    if (!path)
        return QStringLiteral("'%1'").arg(qualifiedPath);
    if (path->isDeadLetterQueue())
        return tr("the dead-letter queue of '%1'").arg(path->entity());
    return path->isSubscription() ? tr("subscription '%1' of topic '%2'")
                                        .arg(path->subscriptionName(), path->topic().entity())
                                  : tr("queue '%1'").arg(path->entity());
}

bool MessagePurge::busy() const {
    return m_gathering || m_question || (m_job && m_job->running());
}

void MessagePurge::withdraw() {
    ++m_generation;
    m_gathering = false;
    if (m_gather)
        m_gather->cancel();
    if (m_question)
        m_question->close();
    emit busyChanged();
}

void MessagePurge::purge(const QString& qualifiedPath) {
    if (qualifiedPath.isEmpty() || busy())
        return;
    m_gathering = true;
    emit busyChanged();
    m_gather = SequenceGather::start(
        m_client, this, qualifiedPath,
        [this, qualifiedPath, generation = m_generation](Result<QList<qint64>> sequenceNumbers) {
            if (generation != m_generation)
                return; // withdrawn meanwhile
            m_gathering = false;
            emit busyChanged();
            if (!sequenceNumbers)
                return emit errorOccurred(sequenceNumbers.error());
            if (sequenceNumbers->isEmpty())
                return emit statusMessage(
                    tr("%1 is empty: nothing to purge").arg(describe(qualifiedPath)));
            ask(qualifiedPath, *sequenceNumbers);
        });
    // A long read (a remote namespace's, page by page) says how far it got.
    connect(m_gather, &SequenceGather::progress, this,
            [this, qualifiedPath](qint64 read, qint64 expected) {
                emit statusMessage(tr("Purge: reading the messages of %1… %2 of %3")
                                       .arg(describe(qualifiedPath), count(read), count(expected)));
            });
}

void MessagePurge::ask(const QString& path, const QList<qint64>& sequenceNumbers) {
    const qint64 n = sequenceNumbers.size();
    auto* box = new QMessageBox(
        QMessageBox::Warning, tr("Purge"),
        n == 1 ? tr("Purge %1: delete its only message? This cannot be undone.").arg(describe(path))
               : tr("Purge %1: delete all %2 messages? This cannot be undone.")
                     .arg(describe(path), count(n)),
        QMessageBox::Ok | QMessageBox::Cancel, m_dialogParent);
    box->setObjectName(QStringLiteral("confirmPurge"));
    // On a remote namespace the question names it.
    const QString remote = remoteNamespaceLine(m_client);
    box->setInformativeText((remote.isEmpty() ? QString() : remote + QLatin1Char(' ')) +
                            tr("Messages that arrive meanwhile are kept."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Ok)->setText(tr("Purge"));
    box->setDefaultButton(QMessageBox::Cancel);
    m_question = box;
    connect(box, &QDialog::finished, this,
            [this, box, path, sequenceNumbers, generation = m_generation](int result) {
                // Accepted by its button or by accept(); a withdrawn question is void.
                QAbstractButton* clicked = box->clickedButton();
                const bool accepted = clicked ? box->buttonRole(clicked) == QMessageBox::AcceptRole
                                              : result == QDialog::Accepted;
                m_question = nullptr;
                emit busyChanged();
                if (accepted && generation == m_generation && !busy())
                    run(path, sequenceNumbers);
            });
    box->open();
    emit busyChanged();
}

void MessagePurge::run(const QString& path, const QList<qint64>& sequenceNumbers) {
    if (m_job && !m_job->running())
        m_job->deleteLater(); // the last purge's strip text goes with it
    // Counted on the workers, read on the GUI thread once each chunk has reported.
    auto deleted = std::make_shared<std::atomic<qint64>>(0);
    // A remote namespace deletes a chunk's worth in one call (Broker::purge: the service's
    // batch delete, oldest first) of the messages enqueued before the user agreed (on this
    // machine's clock), rather than message by message (a receive and a settlement each). Once
    // a call deletes fewer than a chunk (what is left is scheduled, locked by another receiver,
    // or gone), or the namespace has no batch delete, the rest goes message by message, which
    // cancels scheduled ones and says when another receiver holds one.
    const bool remote = !m_client.capabilities().hostsDatabase;
    auto inBatches = std::make_shared<std::atomic_bool>(remote);
    const Instant agreedAt = m_client.clock().now();
    auto* job = new BulkJob(
        m_client, tr("Purging %1").arg(describe(path)), sequenceNumbers,
        [path, deleted, inBatches, agreedAt](Broker& broker,
                                             const QList<qint64>& chunk) -> Result<void> {
            if (*inBatches) {
                PurgeOptions options;
                options.maxCount = int(std::min<qsizetype>(chunk.size(), kMaxPurgeCount));
                options.enqueuedBefore = agreedAt + 1;
                auto done = broker.purge(path, options);
                if (!done && done.error().code != ErrorCode::InvalidArgument)
                    return done.error();
                if (done)
                    *deleted += *done;
                if (done && *done == options.maxCount)
                    return {};
                *inBatches = false;
            }
            auto done = deletePresentMessages(broker, path, chunk);
            if (!done)
                return done.error();
            *deleted += *done;
            return {};
        },
        m_chunkSize, this);
    m_job = job;
    const QString what = describe(path);
    connect(job, &BulkJob::finished, this,
            [this, path, what, deleted, remote](int done, int total, bool cancelled) {
                const qint64 gone = done - deleted->load();
                QString text =
                    cancelled ? tr("Purge of %1 cancelled: deleted %2 of %3")
                                    .arg(what, count(deleted->load()), messages(total))
                              : tr("Purged %1: deleted %2").arg(what, messages(deleted->load()));
                // A batch delete does not say which messages it took: on a remote namespace
                // one not deleted may have left, or be held by another receiver.
                if (gone > 0)
                    text += remote ? tr(" (%1 not deleted: received meanwhile, expired, or held "
                                        "by another receiver)")
                                         .arg(count(gone))
                                   : tr(" (%1 had already left)").arg(count(gone));
                emit statusMessage(text);
                emit finished(path, deleted->load());
                emit busyChanged();
            });
    connect(job, &BulkJob::failed, this, [this, path, deleted](const Error& error, int, int) {
        emit errorOccurred(error);
        emit finished(path, deleted->load());
        emit busyChanged();
    });
    emit jobStarted(job);
    job->start();
    emit busyChanged();
}

} // namespace hourglass::ui
