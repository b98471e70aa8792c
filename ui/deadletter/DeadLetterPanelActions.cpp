// The dead-letter panel's actions: resubmit, delete, purge and export, each a BulkJob over
// sequence numbers (DeadLetterPanel.h).
#include "deadletter/DeadLetterPanel.h"

#include "common/BrokerClient.h"
#include "common/BulkProgressBar.h"
#include "common/MessagePurge.h"
#include "common/RemoteConfirm.h"
#include "common/SequenceGather.h"
#include "messages/MessageExport.h"

#include <QAction>
#include <QFileDialog>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace hourglass::ui {

namespace {
QString count(int n) {
    return QLocale().toString(n);
}
} // namespace

void DeadLetterPanel::buildActions() {
    auto make = [this](const QString& text, const QString& tip, const QKeySequence& keys,
                       void (DeadLetterPanel::*slot)()) {
        auto* action = new QAction(text, this);
        action->setToolTip(keys.isEmpty() ? tip : tr("%1 (%2)").arg(tip, keys.toString()));
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    m_resubmitSelected =
        make(tr("Resubmit"), tr("Send the selected messages back to the entity they came from"),
             QKeySequence(tr("Ctrl+Shift+R")), &DeadLetterPanel::resubmitSelected);
    m_resubmitAll = make(tr("Resubmit all"), tr("Send every dead-lettered message back"), {},
                         &DeadLetterPanel::resubmitAll);
    m_deleteSelected = make(tr("Delete"), tr("Delete the selected messages"),
                            QKeySequence(QKeySequence::Delete), &DeadLetterPanel::deleteSelected);
    m_purge = make(tr("Purge"), tr("Delete every message of this dead-letter queue"), {},
                   &DeadLetterPanel::purge);
    m_purger = new MessagePurge(m_client, this);
    connect(m_purger, &MessagePurge::busyChanged, this, &DeadLetterPanel::updateState);
    connect(m_purger, &MessagePurge::statusMessage, this, &DeadLetterPanel::statusMessage);
    connect(m_purger, &MessagePurge::errorOccurred, this, &DeadLetterPanel::showError);
    connect(m_purger, &MessagePurge::jobStarted, this, [this](BulkJob* job) {
        clearError();
        m_progress->track(job);
        emit jobStarted(job);
    });
    connect(m_purger, &MessagePurge::finished, this, [this] {
        updateState();
        refresh();
    });
    m_exportSelected = make(tr("Export…"), tr("Save the selected messages as JSON files"),
                            QKeySequence(tr("Ctrl+Shift+E")), &DeadLetterPanel::exportSelected);
}

bool DeadLetterPanel::busy() const {
    return m_job || m_gathering || (m_purger && m_purger->busy());
}

void DeadLetterPanel::resubmitSelected() {
    const QList<qint64> selected = selectedSequenceNumbers();
    if (!selected.isEmpty() && !busy())
        askResubmit(selected);
}

void DeadLetterPanel::resubmitAll() {
    gatherAll([this](QList<qint64> all) { askResubmit(all); });
}

void DeadLetterPanel::deleteSelected() {
    const QList<qint64> selected = selectedSequenceNumbers();
    if (selected.isEmpty() || busy())
        return;
    confirm(
        QStringLiteral("confirmDelete"),
        selected.size() == 1
            ? tr("Delete 1 dead-lettered message of %1? This cannot be undone.").arg(entityName())
            : tr("Delete %1 dead-lettered messages of %2? This cannot be undone.")
                  .arg(count(int(selected.size())), entityName()),
        tr("Delete"), [this, selected] { runDelete(selected); });
}

void DeadLetterPanel::purge() {
    if (!busy()) {
        clearError();
        m_purger->purge(deadLetterPath());
    }
}

void DeadLetterPanel::exportSelected() {
    if (selectedSequenceNumbers().isEmpty() || busy())
        return;
    auto* dialog = new QFileDialog(this, tr("Export messages to"));
    dialog->setObjectName(QStringLiteral("exportDirectory"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &DeadLetterPanel::exportSelectedTo);
    dialog->open();
}

void DeadLetterPanel::exportSelectedTo(const QString& directory) {
    const QList<qint64> selected = selectedSequenceNumbers();
    if (selected.isEmpty() || busy())
        return;
    const QString dlq = deadLetterPath();
    // The table holds no bodies: each chunk reads its messages whole, then writes them.
    auto step = [dlq, directory](Broker& broker, const QList<qint64>& chunk) {
        return exportStored(broker, dlq, chunk, directory);
    };
    runJob(tr("Exporting to %1").arg(directory), selected, step, kExportChunkSize,
           [directory](int done, int total, bool cancelled) {
               return cancelled ? tr("Exported %1 of %2 messages to %3 (cancelled)")
                                      .arg(count(done), count(total), directory)
                                : tr("Exported %1 messages to %2").arg(count(done), directory);
           });
}

void DeadLetterPanel::askResubmit(const QList<qint64>& sequenceNumbers) {
    if (sequenceNumbers.isEmpty() || remoteNamespaceLine(m_client).isEmpty())
        return runResubmit(sequenceNumbers);
    const int n = int(sequenceNumbers.size());
    confirm(
        QStringLiteral("confirmResubmit"),
        n == 1 ? tr("Resubmit 1 dead-lettered message to %1?").arg(entityName())
               : tr("Resubmit %1 dead-lettered messages to %2?").arg(count(n), entityName()),
        tr("Resubmit"), [this, sequenceNumbers] { runResubmit(sequenceNumbers); },
        tr("Each is sent back first, then taken from the dead-letter queue: if the "
           "connection breaks between the two, a message may arrive twice, but none is "
           "lost."));
}

void DeadLetterPanel::runResubmit(const QList<qint64>& sequenceNumbers) {
    if (sequenceNumbers.isEmpty())
        return emit statusMessage(tr("Nothing to resubmit"));
    const QString dlq = deadLetterPath();
    const QString name = entityName();
    auto step = [dlq](Broker& broker, const QList<qint64>& chunk) -> Result<void> {
        if (auto sent = broker.resubmit(dlq, chunk); !sent)
            return sent.error();
        return {};
    };
    runJob(tr("Resubmitting to %1").arg(name), sequenceNumbers, step, kChunkSize,
           [name](int done, int total, bool cancelled) {
               if (cancelled)
                   return tr("Resubmitted %1 of %2 messages to %3 (cancelled)")
                       .arg(count(done), count(total), name);
               return done == 1 ? tr("Resubmitted 1 message to %1").arg(name)
                                : tr("Resubmitted %1 messages to %2").arg(count(done), name);
           });
}

void DeadLetterPanel::runDelete(const QList<qint64>& sequenceNumbers) {
    if (sequenceNumbers.isEmpty())
        return;
    const QString dlq = deadLetterPath();
    const QString name = entityName();
    auto step = [dlq](Broker& broker, const QList<qint64>& chunk) {
        return broker.deleteMessages(dlq, chunk);
    };
    runJob(tr("Deleting from the dead-letter queue of %1").arg(name), sequenceNumbers, step,
           kChunkSize, [name](int done, int total, bool cancelled) {
               if (cancelled)
                   return tr("Deleted %1 of %2 dead-lettered messages of %3 (cancelled)")
                       .arg(count(done), count(total), name);
               return done == 1
                          ? tr("Deleted 1 dead-lettered message of %1").arg(name)
                          : tr("Deleted %1 dead-lettered messages of %2").arg(count(done), name);
           });
}

void DeadLetterPanel::gatherAll(std::function<void(QList<qint64>)> then) {
    if (m_entityPath.isEmpty() || busy())
        return;
    clearError();
    m_gathering = true;
    updateState();
    const quint64 generation = m_entityGeneration;
    m_gather = SequenceGather::start(
        m_client, this, deadLetterPath(),
        [this, generation, then](Result<QList<qint64>> sequenceNumbers) {
            if (generation != m_entityGeneration)
                return; // another entity meanwhile (setEntity reset m_gathering)
            m_gathering = false;
            updateState();
            if (!sequenceNumbers)
                return showError(sequenceNumbers.error());
            if (sequenceNumbers->isEmpty())
                return emit statusMessage(
                    tr("The dead-letter queue of %1 is empty").arg(entityName()));
            then(*sequenceNumbers);
        });
}

void DeadLetterPanel::confirm(const QString& objectName, const QString& text,
                              const QString& acceptText, std::function<void()> onAccept,
                              const QString& informative) {
    // On a remote namespace the question names it.
    const QString remote = remoteNamespaceLine(m_client);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Dead-letter queue"),
                                remote.isEmpty() ? text : text + QLatin1Char('\n') + remote,
                                QMessageBox::Ok | QMessageBox::Cancel, this);
    box->setObjectName(objectName);
    if (!informative.isEmpty())
        box->setInformativeText(informative);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Ok)->setText(acceptText);
    box->setDefaultButton(QMessageBox::Cancel);
    const quint64 generation = m_entityGeneration;
    connect(box, &QDialog::finished, this, [this, box, generation, onAccept](int result) {
        // Accepted by its button or by accept(); a confirmation for another entity is void.
        QAbstractButton* clicked = box->clickedButton();
        const bool accepted = clicked ? box->buttonRole(clicked) == QMessageBox::AcceptRole
                                      : result == QDialog::Accepted;
        if (accepted && generation == m_entityGeneration && !busy())
            onAccept();
    });
    box->open();
}

void DeadLetterPanel::runJob(const QString& title, QList<qint64> items, BulkJob::Step step,
                             int chunkSize, Describe describe) {
    clearError();
    auto* job = new BulkJob(m_client, title, std::move(items), std::move(step), chunkSize, this);
    m_job = job;
    m_progress->track(job);
    auto end = [this, job] {
        job->deleteLater();
        if (m_job == job)
            m_job = nullptr;
        updateState();
        refresh();
    };
    connect(job, &BulkJob::finished, this,
            [this, end, describe](int done, int total, bool cancelled) {
                emit statusMessage(describe(done, total, cancelled));
                end();
            });
    connect(job, &BulkJob::failed, this, [this, end](const Error& error, int, int) {
        showError(error);
        end();
    });
    updateState();
    emit jobStarted(job);
    job->start();
}

} // namespace hourglass::ui
