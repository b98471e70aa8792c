#pragma once
// The dead-letter queue of one entity: why messages are there (counts per DeadLetterReason, a
// reason filters the table), the messages with their reason, description and source, and what an
// operator does about them: resubmit to the original entity (selected or all), delete selected,
// purge all, export selected as JSON files.
//
// Every broker call goes through BrokerClient (the GUI thread never waits on SQLite).
// Actions on many messages run as a BulkJob in chunks, followed by the BulkProgressBar, and can
// be cancelled; "all" and purge first gather every sequence number of the dead-letter queue
// in the background (common/SequenceGather: the engine's index on a hosted namespace, page by
// page through peek on a remote one). Delete and purge ask first, with a
// non-blocking dialog naming how many messages go. Purge is common/MessagePurge, as in the
// message list. The table holds the first kPageSize messages
// (without bodies) and grows page by page with "Load more"; it stays live with client.changed.
//
// Object names for tests: "deadLetterTitle", "deadLetterReasons", "deadLetterList",
// "deadLetterMore", "deadLetterLoaded", "deadLetterEmpty", "deadLetterError", "resubmitSelected",
// "resubmitAll", "deleteSelected", "purgeDeadLetters", "exportSelected", dialogs "confirmPurge",
// "confirmDelete", "exportDirectory"; the progress strip has "bulkProgress" and "bulkCancel".

#include "common/BulkJob.h"
#include "common/CoalescedRefresh.h"
#include "common/CurrentMessage.h"
#include "hourglass/Status.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreeModel.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QAction;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class BulkProgressBar;
class ColumnLayout;
class MessagePurge;
class MessageTransferActions;
class DeadLetterReasonsModel;
class MessageViewModel;
class SequenceGather;

class DeadLetterPanel : public EntityPanel {
    Q_OBJECT
public:
    static constexpr int kPageSize = 500;
    static constexpr int kChunkSize = 500;
    static constexpr int kExportChunkSize = 100;

    explicit DeadLetterPanel(BrokerClient& client, QWidget* parent = nullptr);

    // A queue or subscription shows its dead-letter queue, a DeadLetterQueue node its own; a
    // topic or namespace shows why there is nothing here; an empty path shows nothing.
    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    // The entity whose dead-letter queue is shown ("ns:orders"), empty when none.
    QString entityPath() const { return m_entityPath; }
    QString deadLetterPath() const;

    // The actions (also in QWidget::actions(), so their shortcuts work while the panel has
    // focus): Ctrl+Shift+R resubmit selected, Delete delete selected, Ctrl+Shift+E export.
    QAction* resubmitSelectedAction() const { return m_resubmitSelected; }
    QAction* resubmitAllAction() const { return m_resubmitAll; }
    QAction* deleteSelectedAction() const { return m_deleteSelected; }
    QAction* purgeAction() const { return m_purge; }
    QAction* exportSelectedAction() const { return m_exportSelected; }

    // Exports the selected messages (read with their bodies) into `directory`, in the background.
    void exportSelectedTo(const QString& directory);
    // Appends the next page of messages.
    void loadMore();
    // Re-reads the loaded messages and the count.
    void refresh();

    // The sequence numbers of the selected rows, in sequence order.
    QList<qint64> selectedSequenceNumbers() const;
    // Selects exactly these messages (those that are loaded and pass the reason filter).
    void selectSequenceNumbers(const QList<qint64>& sequenceNumbers);
    // The reason the table is filtered to; nullopt shows every reason.
    std::optional<QString> reasonFilter() const { return m_reasonFilter; }
    qint64 total() const { return m_total; }
    BulkJob* currentJob() const { return m_job; }

    MessageViewModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const;
    DeadLetterReasonsModel* reasonsModel() const { return m_reasons; }
    QTableView* view() const { return m_view; }
    // The message of the selected current row (common/CurrentMessage.h): the dead-letter panel
    // shows reasons, and its messages open in the workspace's shared detail panel.
    std::optional<MessageRef> currentMessage() const override;
    qint64 selectedCount() const override;

signals:
    // A bulk job was created and is about to start (tests and the main window can follow it).
    void jobStarted(hourglass::ui::BulkJob* job);

private:
    struct Snapshot;
    using Describe = std::function<QString(int done, int total, bool cancelled)>;

    void buildActions();
    QWidget* buildContent();
    // Where the queue is missing or unreadable the hint about moving messages would mislead.
    enum class MoveHint { Hidden, Shown };
    void showEmptyState(const QString& text, MoveHint hint = MoveHint::Hidden);
    void applySnapshot(Snapshot snapshot);
    void updateState();
    void onReasonSelected();
    void setReasonFilter(std::optional<QString> reason);
    void showError(const Error& error);
    void clearError();

    // The actions.
    void resubmitSelected();
    void resubmitAll();
    void deleteSelected();
    void purge();
    void exportSelected();
    void runResubmit(const QList<qint64>& sequenceNumbers);
    // On a remote namespace resubmit is a send, then a complete: asked first, saying what a
    // break between the two can do ("confirmResubmit"). On the window's own database it is one
    // durable step and goes at once.
    void askResubmit(const QList<qint64>& sequenceNumbers);
    void runDelete(const QList<qint64>& sequenceNumbers);
    // Gathers every sequence number of the dead-letter queue in the background, then `then`.
    void gatherAll(std::function<void(QList<qint64>)> then);
    // A non-blocking confirmation; `onAccept` runs when the destructive button is chosen.
    // `informative`, when given, is the smaller text under the question.
    void confirm(const QString& objectName, const QString& text, const QString& acceptText,
                 std::function<void()> onAccept, const QString& informative = {});
    void runJob(const QString& title, QList<qint64> items, BulkJob::Step step, int chunkSize,
                Describe describe);
    bool busy() const;
    // "orders" for status lines: the entity path without its namespace.
    QString entityName() const;

    BrokerClient& m_client;
    QString m_entityPath;
    quint64 m_generation = 0; // bumped per entity and per applied refresh: drops stale replies
    quint64 m_entityGeneration = 0; // bumped per entity only
    bool m_loaded = false;
    // How many rows the user asked to see ("Load more"): a refresh reads at least these, so a
    // page whose reply a live refresh made stale is not lost.
    int m_wantedRows = 0;
    CoalescedRefresh m_refresh; // one snapshot read at a time, one more queued
    bool m_gathering = false;
    QPointer<SequenceGather> m_gather; // while m_gathering
    qint64 m_total = 0;
    std::optional<QString> m_reasonFilter;
    QPointer<BulkJob> m_job;

    MessageViewModel* m_model;
    QSortFilterProxyModel* m_proxy;
    DeadLetterReasonsModel* m_reasons;
    QLabel* m_title;
    QStackedWidget* m_stack;
    QWidget* m_content;
    QLabel* m_empty;
    QWidget* m_emptyPage; // m_empty and m_moveHint
    QLabel* m_moveHint;
    QTableView* m_reasonsView;
    QTableView* m_view;
    ColumnLayout* m_columns = nullptr;
    MessageTransferActions* m_transfer = nullptr;
    MessagePurge* m_purger = nullptr; // Purge: the message list's way too (common/MessagePurge.h)
    QPushButton* m_more;
    QLabel* m_loadedLabel;
    QLabel* m_error;
    BulkProgressBar* m_progress;
    QAction* m_resubmitSelected;
    QAction* m_resubmitAll;
    QAction* m_deleteSelected;
    QAction* m_purge;
    QAction* m_exportSelected;
};

} // namespace hourglass::ui
