// The dead-letter panel: loading, selection, state and the reason filter. Its widgets are built in
// DeadLetterPanelLayout.cpp, its actions (resubmit, delete, purge, export) are in
// DeadLetterPanelActions.cpp.
#include "deadletter/DeadLetterPanel.h"

#include "common/BrokerClient.h"
#include "common/BulkProgressBar.h"
#include "common/MessagePurge.h"
#include "common/MessageTransferActions.h"
#include "common/SequenceGather.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageTable.h"
#include "messages/MessageViewModel.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {

// Sorts on the raw values and keeps only the rows of one DeadLetterReason (or all of them).
class ReasonFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setReason(std::optional<QString> reason) {
        m_reason = std::move(reason);
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override {
        if (!m_reason || sourceParent.isValid())
            return true;
        const auto* messages = static_cast<const MessageViewModel*>(sourceModel());
        return messages->messageAt(sourceRow).deadLetterReason == *m_reason;
    }

private:
    std::optional<QString> m_reason;
};

const char* const kWhatLandsHere = QT_TRANSLATE_NOOP(
    "hourglass::ui::DeadLetterPanel",
    "Messages land here when a receiver dead-letters them, when they are delivered more often "
    "than the maximum delivery count allows, or when they expire while dead-lettering on "
    "expiration is on.");

} // namespace

// What one background refresh read.
struct DeadLetterPanel::Snapshot {
    std::optional<Error> error;
    QList<MessageView> rows;
    qint64 total = 0;
};

DeadLetterPanel::DeadLetterPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_model(new MessageViewModel(client, this))
    , m_proxy(new ReasonFilterProxy(this))
    , m_reasons(new DeadLetterReasonsModel(client, this))
    , m_title(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new QLabel(m_stack))
    , m_error(new QLabel(this))
    , m_progress(new BulkProgressBar(this)) {
    m_title->setObjectName(QStringLiteral("deadLetterTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setContentsMargins(4, 4, 4, 4);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_empty->setObjectName(QStringLiteral("deadLetterEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_empty->setTextFormat(Qt::RichText);

    m_error->setObjectName(QStringLiteral("deadLetterError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #b00020; padding: 4px;"));
    m_error->hide();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);

    buildActions();
    m_content = buildContent();
    m_stack->addWidget(m_content);
    m_emptyPage = emptyStateWithMoveHint(m_empty, QStringLiteral("deadLetterHint"), m_stack);
    m_moveHint = m_emptyPage->findChild<QLabel*>(QStringLiteral("deadLetterHint"));
    m_stack->addWidget(m_emptyPage);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_progress);

    watchCurrentRow(*m_view, this, [this] { emit currentMessageChanged(); });
    connect(&m_client, &BrokerClient::changed, this, [this](const ChangeBatch& batch) {
        if (!m_entityPath.isEmpty() && EntityPath::of(deadLetterPath()).messagesChangedIn(batch))
            refresh();
    });
    connect(m_reasons, &DeadLetterReasonsModel::modelReset, this, [this] {
        // Keep the chosen reason selected across a reset; a reason that is gone shows all.
        const int row = m_reasonFilter ? m_reasons->rowOf(*m_reasonFilter) : -1;
        if (m_reasonFilter && row < 0)
            setReasonFilter(std::nullopt);
        if (row >= 0)
            m_reasonsView->selectRow(row);
    });
    setEntity({}, NamespaceTreeModel::NodeKind::Namespace);
}

std::optional<MessageRef> DeadLetterPanel::currentMessage() const {
    const QModelIndex current = selectedCurrentIndex(*m_view);
    if (!current.isValid())
        return std::nullopt;
    const QModelIndex source = m_proxy->mapToSource(current);
    if (!source.isValid() || source.row() >= m_model->rowCount())
        return std::nullopt;
    return MessageRef{deadLetterPath(), m_model->messageAt(source.row()).sequenceNumber};
}

qint64 DeadLetterPanel::selectedCount() const {
    return selectedRowCountOf(*m_view);
}

QString DeadLetterPanel::deadLetterPath() const {
    return m_entityPath.isEmpty() ? QString()
                                  : EntityPath::of(m_entityPath).deadLetterQueue().toString();
}

QSortFilterProxyModel* DeadLetterPanel::proxy() const {
    return m_proxy;
}

QString DeadLetterPanel::entityName() const {
    return EntityPath::of(m_entityPath).path();
}

void DeadLetterPanel::setEntity(const QString& qualifiedPath, NamespaceTreeModel::NodeKind kind) {
    using Kind = NamespaceTreeModel::NodeKind;
    QString entity;
    if (kind == Kind::Queue || kind == Kind::Subscription || kind == Kind::DeadLetterQueue)
        entity = EntityPath::of(qualifiedPath).owner().toString();
    ++m_generation;
    ++m_entityGeneration;
    m_entityPath = entity;
    m_loaded = false;
    m_wantedRows = 0;
    m_refresh.reset();
    m_gathering = false;
    if (m_gather)
        m_gather->cancel(); // every sequence number of the last entity's dead letters
    if (m_purger)
        m_purger->withdraw(); // a question about the last entity
    m_total = 0;
    m_reasonFilter.reset();
    static_cast<ReasonFilterProxy*>(m_proxy)->setReason(std::nullopt);
    m_model->clear();
    m_reasons->setEntityPath(entity);
    clearError();
    if (qualifiedPath.isEmpty()) {
        m_title->setText(tr("Dead-letter queue"));
        showEmptyState(tr("<b>No entity selected</b><br>Select a queue or a subscription to see "
                          "its dead-letter queue."));
    } else if (kind == Kind::Topic) {
        m_title->setText(tr("%1: no dead-letter queue").arg(qualifiedPath));
        showEmptyState(tr("<b>Topics have no dead-letter queue</b><br>A topic hands its "
                          "messages to its subscriptions, and each subscription has its own "
                          "dead-letter queue: select one of them."));
    } else if (entity.isEmpty()) {
        m_title->setText(tr("Dead-letter queue"));
        showEmptyState(tr("<b>No dead-letter queue here</b><br>Select a queue or a "
                          "subscription to see its dead-letter queue."));
    } else {
        m_title->setText(tr("%1 — dead-letter queue (loading…)").arg(m_entityPath));
        refresh();
    }
    updateState();
}

void DeadLetterPanel::showEmptyState(const QString& text, MoveHint hint) {
    m_empty->setText(text);
    m_moveHint->setVisible(hint == MoveHint::Shown);
    m_stack->setCurrentWidget(m_emptyPage);
}

void DeadLetterPanel::refresh() {
    if (m_entityPath.isEmpty())
        return;
    if (!m_refresh.start())
        return;
    const QString entity = m_entityPath;
    const QString dlq = deadLetterPath();
    const int limit = std::max({kPageSize, m_model->rowCount(), m_wantedRows});
    const quint64 generation = m_entityGeneration;
    m_client.call(
        this,
        [entity, dlq, limit](Broker& broker) {
            Snapshot snapshot;
            auto counts = broker.counts(entity);
            auto rows = broker.listMessages(dlq, 0, limit, Broker::Bodies::Without);
            if (!counts)
                snapshot.error = counts.error();
            else if (!rows)
                snapshot.error = rows.error();
            else
                snapshot = Snapshot{std::nullopt, std::move(rows).value(), counts->deadLettered};
            return snapshot;
        },
        [this, generation](Snapshot snapshot) {
            if (generation != m_entityGeneration)
                return;
            m_refresh.finish();
            applySnapshot(std::move(snapshot));
            if (m_refresh.takeQueued())
                refresh();
        });
}

void DeadLetterPanel::applySnapshot(Snapshot snapshot) {
    ++m_generation; // a page asked for before this snapshot would duplicate or miss rows
    m_loaded = !snapshot.error.has_value();
    if (snapshot.error) {
        m_total = 0;
        m_model->clear();
        m_title->setText(tr("%1 — dead-letter queue").arg(m_entityPath));
        showError(*snapshot.error);
        showEmptyState(tr("<b>Cannot read the dead-letter queue</b><br>%1")
                           .arg(snapshot.error->description.toHtmlEscaped()));
        updateState();
        return;
    }
    const QList<qint64> selected = selectedSequenceNumbers();
    // A remote namespace's count may lag behind its messages, or be unknown (zeros for a key
    // without the Manage right): never fewer than were read.
    m_total = std::max<qint64>(snapshot.total, snapshot.rows.size());
    m_model->setMessages(std::move(snapshot.rows));
    selectSequenceNumbers(selected);
    if (m_total == 0)
        showEmptyState(tr("<b>No dead-lettered messages</b><br>%1").arg(tr(kWhatLandsHere)),
                       MoveHint::Shown);
    else
        m_stack->setCurrentWidget(m_content);
    updateState();
}

void DeadLetterPanel::loadMore() {
    if (m_entityPath.isEmpty() || !m_loaded || m_model->rowCount() == 0)
        return;
    const QString dlq = deadLetterPath();
    const qint64 from = m_model->messages().last().sequenceNumber + 1;
    const quint64 generation = m_generation;
    m_wantedRows = m_model->rowCount() + kPageSize;
    m_more->setEnabled(false);
    m_client.call(
        this,
        [dlq, from](Broker& broker) {
            return broker.listMessages(dlq, from, kPageSize, Broker::Bodies::Without);
        },
        [this, generation](Result<QList<MessageView>> rows) {
            if (generation != m_generation) {
                // A live refresh replaced the rows meanwhile: read again, wanted rows included.
                refresh();
                return updateState();
            }
            if (!rows)
                showError(rows.error());
            else
                m_model->appendMessages(*rows);
            updateState();
        });
}

QList<qint64> DeadLetterPanel::selectedSequenceNumbers() const {
    QList<qint64> out;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        out.append(m_model->messageAt(m_proxy->mapToSource(index).row()).sequenceNumber);
    std::sort(out.begin(), out.end());
    return out;
}

void DeadLetterPanel::selectSequenceNumbers(const QList<qint64>& sequenceNumbers) {
    QItemSelection selection;
    for (qint64 sequenceNumber : sequenceNumbers) {
        const int sourceRow = m_model->rowOf(sequenceNumber);
        const QModelIndex index =
            sourceRow < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(sourceRow, 0));
        if (index.isValid())
            selection.select(index, index);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
}

void DeadLetterPanel::onReasonSelected() {
    const QModelIndexList rows = m_reasonsView->selectionModel()->selectedRows();
    setReasonFilter(rows.isEmpty() ? std::nullopt : m_reasons->reasonAt(rows.first().row()));
}

void DeadLetterPanel::setReasonFilter(std::optional<QString> reason) {
    if (reason == m_reasonFilter)
        return;
    m_reasonFilter = reason;
    static_cast<ReasonFilterProxy*>(m_proxy)->setReason(std::move(reason));
    updateState();
}

void DeadLetterPanel::updateState() {
    const bool hasQueue = !m_entityPath.isEmpty() && m_loaded;
    const bool idle = !busy();
    const bool selection = m_view->selectionModel()->hasSelection();
    m_resubmitSelected->setEnabled(hasQueue && idle && selection);
    m_deleteSelected->setEnabled(hasQueue && idle && selection);
    m_exportSelected->setEnabled(hasQueue && idle && selection);
    m_transfer->setEnabled(hasQueue && idle && selection);
    m_resubmitAll->setEnabled(hasQueue && idle && m_total > 0);
    m_purge->setEnabled(hasQueue && idle && m_total > 0);

    const int loaded = m_model->rowCount();
    m_more->setEnabled(hasQueue && loaded > 0 && loaded < m_total);
    m_more->setVisible(loaded < m_total);
    QString loadedText =
        tr("%1 of %2 loaded").arg(QLocale().toString(loaded), QLocale().toString(m_total));
    if (m_reasonFilter)
        loadedText += tr(", %1 shown for this reason").arg(QLocale().toString(m_proxy->rowCount()));
    m_loadedLabel->setText(loadedText);
    if (hasQueue)
        m_title->setText(m_total == 1 ? tr("%1 — dead-letter queue (1 message)").arg(m_entityPath)
                                      : tr("%1 — dead-letter queue (%2 messages)")
                                            .arg(m_entityPath, QLocale().toString(m_total)));
}

void DeadLetterPanel::showError(const Error& error) {
    m_error->setText(error.toString());
    m_error->show();
    emit errorOccurred(error);
}

void DeadLetterPanel::clearError() {
    m_error->clear();
    m_error->hide();
}

} // namespace hourglass::ui
