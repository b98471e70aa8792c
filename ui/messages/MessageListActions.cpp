#include "messages/MessageListActions.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/BulkProgressBar.h"
#include "common/MessagePurge.h"
#include "messages/MessageExport.h"
#include "messages/MessageListPanel.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace hourglass::ui {

namespace {

QAction* makeAction(QObject* parent, const QString& text, const char* objectName,
                    const QKeySequence& shortcut) {
    auto* action = new QAction(text, parent);
    action->setObjectName(QLatin1String(objectName));
    action->setShortcut(shortcut);
    // Only while the panel (or the table in it) has focus: the main window has other lists.
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    return action;
}

QString countText(qint64 count) {
    return count == 1 ? MessageListActions::tr("1 message")
                      : MessageListActions::tr("%1 messages").arg(QLocale().toString(count));
}

// Reads a chunk with bodies and writes one file per message (messages gone meanwhile skipped).
Result<void> exportChunk(Broker& broker, const QString& path, const QList<qint64>& chunk,
                         const QString& directory) {
    QList<MessageView> messages;
    for (qint64 sequenceNumber : chunk) {
        auto message = broker.message(path, sequenceNumber, Broker::Bodies::With);
        if (message)
            messages.append(std::move(message).value());
        else if (message.error().code != ErrorCode::MessageNotFound)
            return message.error();
    }
    auto written = exportMessages(messages, directory);
    if (!written)
        return written.error();
    return {};
}

} // namespace

MessageListActions::MessageListActions(BrokerClient& client, MessageListPanel& panel,
                                       BulkProgressBar& bar)
    : QObject(&panel)
    , m_client(client)
    , m_panel(panel)
    , m_bar(bar)
    , m_cancelScheduled(
          makeAction(this, tr("Cancel scheduled message"), "cancelScheduledAction", {}))
    , m_delete(
          makeAction(this, tr("Delete messages…"), "deleteMessagesAction", QKeySequence::Delete))
    , m_export(makeAction(this, tr("Export messages…"), "exportMessagesAction",
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)))
    , m_copyId(makeAction(this, tr("Copy message id"), "copyMessageIdAction", QKeySequence::Copy))
    , m_purge(makeAction(this, tr("&Purge…"), "purgeMessagesAction", {}))
    , m_separator(new QAction(this))
    , m_purger(new MessagePurge(client, &panel)) {
    m_separator->setSeparator(true);
    m_cancelScheduled->setToolTip(tr("Cancel the selected scheduled messages before they appear"));
    connect(m_cancelScheduled, &QAction::triggered, this, &MessageListActions::cancelScheduled);
    connect(m_delete, &QAction::triggered, this, &MessageListActions::deleteSelected);
    connect(m_export, &QAction::triggered, this, &MessageListActions::exportSelected);
    connect(m_copyId, &QAction::triggered, this, &MessageListActions::copyMessageIds);
    m_purge->setToolTip(tr("Delete every message of this queue or subscription"));
    connect(m_purge, &QAction::triggered, this, &MessageListActions::purge);
    connect(m_purger, &MessagePurge::busyChanged, this, &MessageListActions::updateEnabled);
    connect(m_purger, &MessagePurge::statusMessage, this, &MessageListActions::statusMessage);
    connect(m_purger, &MessagePurge::errorOccurred, this, &MessageListActions::errorOccurred);
    connect(m_purger, &MessagePurge::jobStarted, this, [this](BulkJob* job) {
        if (m_job && !m_job->running() && m_job != job)
            m_job->deleteLater();
        m_job = job;
        m_bar.track(job);
    });
}

QList<QAction*> MessageListActions::actions() const {
    return {m_cancelScheduled, m_copyId, m_separator, m_export, m_delete, m_purge};
}

void MessageListActions::setChunkSizes(int deleteChunk, int exportChunk) {
    m_deleteChunk = qMax(1, deleteChunk);
    m_exportChunk = qMax(1, exportChunk);
}

bool MessageListActions::jobRunning() const {
    return (m_job && m_job->running()) || m_purger->busy();
}

void MessageListActions::setPurgeable(bool purgeable) {
    m_purgeable = purgeable;
    updateEnabled();
}

void MessageListActions::purge() {
    if (m_purgeable && !jobRunning())
        m_purger->purge(m_panel.path());
}

void MessageListActions::updateEnabled() {
    const bool any = m_panel.selectedRowCount() > 0;
    const QList<MessageListPanel::SelectedRow> rows = m_panel.selectedRows();
    const bool scheduled =
        std::any_of(rows.begin(), rows.end(), [](const auto& row) { return row.scheduled; });
    m_cancelScheduled->setEnabled(scheduled);
    m_copyId->setEnabled(!rows.isEmpty());
    m_delete->setEnabled(any && !jobRunning());
    m_export->setEnabled(any && !jobRunning());
    // Enabled on an empty list too: the count is read when asked (a purge of nothing says so).
    m_purge->setEnabled(m_purgeable && !m_panel.path().isEmpty() && !jobRunning());
}

void MessageListActions::cancelScheduled() {
    QList<qint64> scheduled;
    for (const MessageListPanel::SelectedRow& row : m_panel.selectedRows())
        if (row.scheduled)
            scheduled.append(row.sequenceNumber);
    if (scheduled.isEmpty())
        return;
    struct Outcome {
        QList<qint64> cancelled;
        std::optional<Error> error;
    };
    m_client.call(
        this,
        [path = m_panel.path(), scheduled](Broker& broker) {
            Outcome outcome;
            for (qint64 sequenceNumber : scheduled) {
                auto cancelled = broker.cancelScheduled(path, sequenceNumber);
                if (!cancelled) {
                    outcome.error = cancelled.error();
                    break;
                }
                outcome.cancelled.append(sequenceNumber);
            }
            return outcome;
        },
        [this](Outcome outcome) {
            if (!outcome.cancelled.isEmpty()) {
                emit messagesRemoved(outcome.cancelled);
                emit statusMessage(
                    tr("Cancelled %1 scheduled").arg(countText(outcome.cancelled.size())));
            }
            if (outcome.error)
                emit errorOccurred(*outcome.error);
        });
}

void MessageListActions::deleteSelected() {
    if (jobRunning() || m_panel.selectedRowCount() == 0)
        return;
    m_panel.resolveSelection(this, [this, path = m_panel.path()](Result<QList<qint64>> selected) {
        if (!selected)
            emit errorOccurred(selected.error());
        else if (!selected->isEmpty())
            confirmDelete(path, *selected);
    });
}

void MessageListActions::confirmDelete(const QString& path, const QList<qint64>& sequenceNumbers) {
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Delete messages"),
                        tr("Delete %1 from %2?").arg(countText(sequenceNumbers.size()), path),
                        QMessageBox::Yes | QMessageBox::Cancel, &m_panel);
    box->setObjectName(QStringLiteral("confirmDeleteMessages"));
    box->setInformativeText(tr("Deleted messages cannot be restored."));
    box->button(QMessageBox::Yes)->setText(tr("Delete"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, path, sequenceNumbers] {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            startDelete(path, sequenceNumbers);
    });
    box->open();
}

void MessageListActions::startDelete(const QString& path, const QList<qint64>& sequenceNumbers) {
    if (jobRunning())
        return;
    auto* job = new BulkJob(
        m_client, tr("Deleting %1").arg(countText(sequenceNumbers.size())), sequenceNumbers,
        [path](Broker& broker, const QList<qint64>& chunk) {
            auto deleted = deletePresentMessages(broker, path, chunk);
            return deleted ? Result<void>() : Result<void>(deleted.error());
        },
        m_deleteChunk, this);
    // Chunks run in order: the first `done` items are gone, whether the job ended or failed.
    auto removed = [this, sequenceNumbers](int done) {
        if (done > 0)
            emit messagesRemoved(sequenceNumbers.first(done));
    };
    connect(job, &BulkJob::finished, this, [this, removed](int done, int total, bool cancelled) {
        removed(done);
        emit statusMessage(cancelled ? tr("Deleted %1 of %2, then cancelled")
                                           .arg(QLocale().toString(done), countText(total))
                                     : tr("Deleted %1").arg(countText(done)));
    });
    connect(job, &BulkJob::failed, this, [this, removed](const Error& error, int done, int) {
        removed(done);
        emit errorOccurred(error);
    });
    track(job);
}

void MessageListActions::exportSelected() {
    if (jobRunning() || m_panel.selectedRowCount() == 0)
        return;
    auto* dialog = new QFileDialog(&m_panel, tr("Export messages to a folder"));
    dialog->setObjectName(QStringLiteral("exportMessagesDialog"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &MessageListActions::exportSelectedTo);
    dialog->open();
}

void MessageListActions::exportSelectedTo(const QString& directory) {
    if (jobRunning())
        return;
    if (!QDir(directory).exists()) {
        emit errorOccurred(
            makeError(ErrorCode::InvalidArgument, tr("No such folder: %1").arg(directory)));
        return;
    }
    m_panel.resolveSelection(
        this, [this, path = m_panel.path(), directory](Result<QList<qint64>> selected) {
            if (!selected)
                emit errorOccurred(selected.error());
            else if (!selected->isEmpty())
                startExport(path, *selected, directory);
        });
}

void MessageListActions::startExport(const QString& path, const QList<qint64>& sequenceNumbers,
                                     const QString& directory) {
    if (jobRunning())
        return;
    auto* job = new BulkJob(
        m_client, tr("Exporting %1").arg(countText(sequenceNumbers.size())), sequenceNumbers,
        [path, directory](Broker& broker, const QList<qint64>& chunk) {
            return exportChunk(broker, path, chunk, directory);
        },
        m_exportChunk, this);
    connect(job, &BulkJob::finished, this, [this, directory](int done, int, bool) {
        emit statusMessage(
            tr("Exported %1 to %2").arg(countText(done), QDir::toNativeSeparators(directory)));
    });
    connect(job, &BulkJob::failed, this,
            [this](const Error& error, int, int) { emit errorOccurred(error); });
    track(job);
}

void MessageListActions::track(BulkJob* job) {
    if (m_job && !m_job->running())
        m_job->deleteLater(); // the last job's strip text goes with it
    m_job = job;
    connect(job, &BulkJob::finished, this, &MessageListActions::updateEnabled);
    connect(job, &BulkJob::failed, this, &MessageListActions::updateEnabled);
    m_bar.track(job);
    job->start();
    updateEnabled();
}

void MessageListActions::copyMessageIds() {
    QStringList ids;
    for (const MessageListPanel::SelectedRow& row : m_panel.selectedRows())
        ids.append(row.messageId);
    if (ids.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
    emit statusMessage(tr("Copied %1 message id(s)").arg(ids.size()));
}

} // namespace hourglass::ui
