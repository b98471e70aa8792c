#include "messages/MessageListPanel.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/BulkProgressBar.h"
#include "common/MessagePurge.h"
#include "common/MessageTransfer.h"
#include "common/MessageTransferActions.h"
#include "hourglass/EntityPath.h"
#include "messages/CountdownTicker.h"
#include "messages/MessageColumnLayouts.h"
#include "messages/MessageDragSource.h"
#include "messages/MessageFilterBar.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListModel.h"
#include "messages/MessageSearch.h"
#include "messages/MessageSelection.h"
#include "messages/MessageTable.h"
#include "messages/MessageViewModel.h"
#include "messages/SelectionKeeper.h"
#include "messages/SelectionPrefetch.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace hourglass::ui {

namespace {
// Up to this many matches leave one by one (keeping the selection); more reset the table.
constexpr int kRowByRowRemovals = 50;
} // namespace

MessageListPanel::MessageListPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_model(new MessageListModel(client, this))
    , m_matches(new MessageViewModel(client, this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_search(new MessageSearch(client, this))
    , m_title(new QLabel(this))
    , m_filterBar(new MessageFilterBar(this))
    , m_bulkBar(new BulkProgressBar(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(tr("No messages"), m_stack))
    , m_ticker(new CountdownTicker(m_view, CountdownTicker::kDefaultIntervalMs, this))
    , m_actions(nullptr)
    , m_findAction(new QAction(tr("Find messages"), this)) {
    m_title->setObjectName(QStringLiteral("messageListTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_sorted->setSourceModel(m_matches);
    m_sorted->setSortRole(Qt::UserRole);

    m_view->setObjectName(QStringLiteral("messageList"));
    m_view->setModel(m_model);
    prepareMessageTable(m_view);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(false); // sequence order; see the header comment
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    // Uniform row heights: the view never measures rows, so a million rows cost nothing.
    QHeaderView* rows = m_view->verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(fontMetrics().height() + 8);
    rows->hide();
    QHeaderView* columns = m_view->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setHighlightSections(false);
    m_columns = arrangeMessageColumns(m_view, MessageTableKind::List);
    // Messages leaving before the selected rows (moved, deleted, received) must not slide the
    // selection onto others.
    new SelectionKeeper(*m_view, *m_model);
    // A list that pages forward reads the next page a screen before the end, not at it.
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        const QScrollBar* bar = m_view->verticalScrollBar();
        if (m_view->model() == m_model && value >= bar->maximum() - 2 * bar->pageStep() &&
            m_model->canFetchMore())
            m_model->fetchMore();
    });

    m_empty->setObjectName(QStringLiteral("messageListEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false); // greyed, as an empty state reads
    m_emptyPage = emptyStateWithMoveHint(m_empty, QStringLiteral("messageListHint"), m_stack);

    m_stack->addWidget(m_view);
    m_stack->addWidget(m_emptyPage);

    connect(m_filterBar, &MessageFilterBar::applyRequested, this, &MessageListPanel::applyFilter);

    m_title->setContentsMargins(4, 4, 4, 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_bulkBar);
    layout->addWidget(m_stack, 1);

    m_actions = new MessageListActions(client, *this, *m_bulkBar);
    connect(m_actions, &MessageListActions::errorOccurred, this, &MessageListPanel::errorOccurred);
    connect(m_actions, &MessageListActions::statusMessage, this, &MessageListPanel::statusMessage);
    connect(m_actions, &MessageListActions::messagesRemoved, this,
            &MessageListPanel::removeMatches);
    m_findAction->setObjectName(QStringLiteral("findMessagesAction"));
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_filterBar->edit()->setFocus(Qt::ShortcutFocusReason);
        m_filterBar->edit()->selectAll();
    });
    addAction(m_findAction);
    for (QAction* action : m_actions->actions()) {
        addAction(action);
        m_view->addAction(action);
    }
    // Move to… and Copy to…: the menu way to what dragging onto the tree does.
    m_transfer = new MessageTransferActions(
        client, m_view, [this](QObject* context, MessageTransferActions::Done done) {
            resolveSelection(context, [source = path(), done](Result<QList<qint64>> numbers) {
                if (!numbers)
                    return done(numbers.error());
                done(DraggedMessages{source, *numbers});
            });
        });
    connect(m_transfer, &MessageTransferActions::errorOccurred, this,
            &MessageListPanel::errorOccurred);
    connect(m_transfer, &MessageTransferActions::statusMessage, this,
            &MessageListPanel::statusMessage);
    m_transfer->addToContextMenu(this);
    // Search matches moved away leave the matches (the windowed list learns from the engine).
    connect(m_transfer, &MessageTransferActions::transferred, this,
            [this](const DraggedMessages& messages, Broker::Transfer mode) {
                if (mode == Broker::Transfer::Move && messages.sourcePath == path())
                    removeMatches(messages.sequenceNumbers);
            });
    // After a purge the matches are searched again (the purge read no list of its own).
    connect(m_actions->purger(), &MessagePurge::finished, this, [this](const QString& purged) {
        if (isFiltered() && purged == path())
            startSearch();
    });

    // The selected messages drag onto the tree. A drag starts now and cannot wait: rows not
    // loaded yet come from the read the selection started (SelectionPrefetch).
    m_prefetch = new SelectionPrefetch(
        [this](QObject* context, SelectionPrefetch::Done done) {
            resolveSelection(context, std::move(done));
        },
        this);
    connect(m_model, &MessageListModel::indexRefreshed, this, &MessageListPanel::prefetchSelection);
    auto* drag = new MessageDragSource(m_view, [this]() -> Result<DraggedMessages> {
        const QList<SelectedRow> rows = selectedRows();
        DraggedMessages messages{path(), {}};
        const qint64 selected = selectedRowCount();
        if (rows.size() != selected) {
            const auto& read = m_prefetch->result();
            if (!read)
                return makeError(
                    ErrorCode::ServiceBusy,
                    tr("Reading the %L1 selected messages; drag again in a moment.").arg(selected));
            if (!*read)
                return read->error();
            messages.sequenceNumbers = **read;
            return messages;
        }
        for (const SelectedRow& row : rows)
            messages.sequenceNumbers.append(row.sequenceNumber);
        return messages;
    });
    connect(drag, &MessageDragSource::refused, this, &MessageListPanel::errorOccurred);
    drag->enableFiles(client);

    connect(m_model, &MessageListModel::indexRefreshed, this, &MessageListPanel::updateHeader);
    connect(m_model, &MessageListModel::indexRefreshed, this,
            &MessageListPanel::updateUnavailableColumns);
    connect(m_search, &MessageSearch::matchesFound, m_matches, &MessageViewModel::appendMessages);
    connect(m_search, &MessageSearch::progress, this, &MessageListPanel::updateFilterStatus);
    connect(m_search, &MessageSearch::finished, this, [this] {
        m_searchedTotal = m_search->total();
        updateFilterStatus();
    });
    connect(m_search, &MessageSearch::failed, this, [this](const Error& error) {
        m_failure = error.toString();
        updateFilterStatus();
        emit errorOccurred(error);
    });
    connect(m_ticker, &CountdownTicker::visibleRowsDue, this, &MessageListPanel::onCountdownsDue);
    connectSelection();
    m_ticker->start();
    showMode(false);
    updateHeader();
}

void MessageListPanel::setEntity(const QString& qualifiedPath, NodeKind kind) {
    setPath(qualifiedPath);
    // A topic's list holds only its scheduled messages: its subscriptions hold the rest.
    m_actions->setPurgeable(kind != NodeKind::Topic);
}

void MessageListPanel::setPath(const QString& qualifiedPath) {
    m_model->setPath(qualifiedPath);
    showMode(isFiltered()); // the dead-letter columns follow the path
    if (isFiltered())
        startSearch();
    m_view->scrollToTop();
}

QString MessageListPanel::path() const {
    return m_model->path();
}

bool MessageListPanel::isFiltered() const {
    return !m_applied.isEmpty();
}

QList<QAction*> MessageListPanel::actions() const {
    return QList<QAction*>{m_findAction} + m_actions->actions();
}

void MessageListPanel::exportSelectedTo(const QString& directory) {
    m_actions->exportSelectedTo(directory);
}

void MessageListPanel::setFilterText(const QString& text) {
    m_filterBar->edit()->setText(text);
    applyFilter(MessageFilterBar::Apply::Again);
}

void MessageListPanel::applyFilter(MessageFilterBar::Apply apply) {
    const MessageMatcher matcher = m_filterBar->matcher();
    if (matcher == m_applied && (apply == MessageFilterBar::Apply::IfChanged || matcher.isEmpty()))
        return;
    m_applied = matcher;
    m_filterBar->setActive(isFiltered());
    if (matcher.isEmpty()) {
        m_search->cancel();
        m_matches->clear();
        showMode(false);
        updateFilterStatus();
        return;
    }
    showMode(true);
    startSearch();
}

void MessageListPanel::startSearch() {
    m_matches->clear();
    m_searchedTotal = -1;
    m_stale = false;
    m_failure.clear();
    m_search->start(m_model->path(), m_applied);
    updateFilterStatus();
}

void MessageListPanel::showMode(bool filtered) {
    QAbstractItemModel* wanted = filtered ? static_cast<QAbstractItemModel*>(m_sorted) : m_model;
    if (m_view->model() != wanted) {
        // A new model resets the header's sections: keep the widths the user chose, and the
        // order and hidden columns (ColumnLayout applies them again below).
        QList<int> widths;
        for (int column = 0; column < m_view->model()->columnCount(); ++column)
            widths.append(m_view->columnWidth(column));
        m_view->setSortingEnabled(false);
        QItemSelectionModel* old = m_view->selectionModel();
        m_view->setModel(wanted);
        delete old;
        m_columns->applyDefaultWidths(); // the columns the old model lacked
        for (int column = 0; column < widths.size(); ++column)
            m_view->setColumnWidth(column, widths[column]);
        if (filtered) {
            m_view->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::AscendingOrder);
            m_view->setSortingEnabled(true);
        }
        connectSelection();
    }
    updateUnavailableColumns();
    m_view->horizontalHeader()->setToolTip(
        filtered ? tr("Click a column to sort the matches by it")
                 : tr("Messages in sequence order. Sorting a whole list would mean reading "
                      "every message: filter first (\"*\" for every message, up to the "
                      "search cap), then sort the matches by any column."));
    updateHeader();
}

void MessageListPanel::updateUnavailableColumns() {
    const bool deadLetters = EntityPath::of(path()).isDeadLetterQueue();
    // The dead-letter columns come with the filtered matches only (the windowed list lacks them).
    QSet<int> unavailable = isFiltered() && deadLetters ? QSet<int>() : deadLetterColumns();
    // The SessionId column once the index read says the entity requires sessions.
    if (!m_model->requiresSession())
        unavailable.unite(sessionColumns());
    if (m_unavailable == unavailable)
        return;
    m_unavailable = unavailable;
    m_columns->setUnavailable(unavailable);
}

void MessageListPanel::connectSelection() {
    QItemSelectionModel* selection = m_view->selectionModel();
    for (const QMetaObject::Connection& old : std::as_const(m_currentRowWatch))
        disconnect(old);
    m_currentRowWatch = watchCurrentRow(*m_view, this, [this] { emit currentMessageChanged(); });
    connect(selection, &QItemSelectionModel::selectionChanged, m_actions,
            &MessageListActions::updateEnabled);
    connect(selection, &QItemSelectionModel::selectionChanged, this,
            &MessageListPanel::prefetchSelection);
    connect(selection, &QItemSelectionModel::selectionChanged, this,
            [this] { m_transfer->setEnabled(selectedRowCount() > 0); });
    m_transfer->setEnabled(selectedRowCount() > 0);
    m_actions->updateEnabled();
    prefetchSelection();
}

void MessageListPanel::prefetchSelection() {
    if (!m_prefetch)
        return; // during construction
    const MessageSelection selection(*m_view, *m_model);
    const qint64 selected = selection.count();
    m_prefetch->invalidate(selected > 0 && selection.inHand().size() != selected);
}

std::optional<MessageRef> MessageListPanel::currentMessage() const {
    const QModelIndex current = selectedCurrentIndex(*m_view);
    if (!current.isValid())
        return std::nullopt;
    // Null while the row's page is still being read: the page's arrival asks again.
    const QVariant seq = m_view->model()
                             ->index(current.row(), MessageListModel::SequenceNumberColumn)
                             .data(Qt::UserRole);
    if (!seq.isValid())
        return std::nullopt;
    return MessageRef{m_model->path(), seq.toLongLong()};
}

void MessageListPanel::onCountdownsDue(int firstRow, int lastRow) {
    if (!isFiltered()) {
        m_model->refreshCountdowns(firstRow, lastRow);
        return;
    }
    // Sorted rows map to scattered source rows: collect them before a repaint re-sorts any.
    QList<int> sourceRows;
    for (int row = std::max(firstRow, 0); row <= lastRow && row < m_sorted->rowCount(); ++row)
        sourceRows.append(m_sorted->mapToSource(m_sorted->index(row, 0)).row());
    for (int row : sourceRows)
        m_matches->refreshCountdowns(row, row);
}

void MessageListPanel::removeMatches(const QList<qint64>& sequenceNumbers) {
    if (!isFiltered())
        return;
    if (sequenceNumbers.size() <= kRowByRowRemovals) {
        for (qint64 sequenceNumber : sequenceNumbers)
            m_matches->removeMessage(sequenceNumber);
    } else {
        // Thousands of rows one by one would cost a linear search and a proxy update each.
        const QSet<qint64> gone(sequenceNumbers.begin(), sequenceNumbers.end());
        QList<MessageView> kept = m_matches->messages();
        kept.removeIf([&gone](const MessageView& m) { return gone.contains(m.sequenceNumber); });
        m_matches->setMessages(std::move(kept));
    }
    if (m_searchedTotal >= 0)
        m_searchedTotal = std::max<qint64>(0, m_searchedTotal - sequenceNumbers.size());
    m_stale = false; // the next index read tells again
    updateFilterStatus();
}

QList<MessageListPanel::SelectedRow> MessageListPanel::selectedRows() const {
    return MessageSelection(*m_view, *m_model).inHand();
}

qint64 MessageListPanel::selectedRowCount() const {
    return MessageSelection(*m_view, *m_model).count();
}

void MessageListPanel::resolveSelection(QObject* context,
                                        std::function<void(Result<QList<qint64>>)> done) const {
    MessageSelection(*m_view, *m_model).resolve(m_client, context, std::move(done));
}

void MessageListPanel::updateFilterStatus() {
    if (!isFiltered()) {
        m_filterBar->setStatus({});
        return;
    }
    const QLocale locale;
    if (!m_failure.isEmpty()) {
        m_filterBar->setStatus(tr("Search failed: %1").arg(m_failure));
        return;
    }
    const int found = int(m_matches->rowCount());
    QString text = found == 1 ? tr("1 match") : tr("%1 matches").arg(locale.toString(found));
    const qint64 total = m_search->total();
    if (m_search->isRunning()) {
        const int percent =
            total > 0 ? int(std::min<qint64>(100, m_search->scanned() * 100 / total)) : 0;
        text += tr(" in %1 messages, searching… %2%").arg(locale.toString(total)).arg(percent);
    } else if (m_search->matchCount() >= m_search->cap()) {
        text += tr(", capped at %1: refine the filter").arg(locale.toString(m_search->cap()));
    } else if (m_searchedTotal >= 0) {
        text += tr(" in %1 messages").arg(locale.toString(m_searchedTotal));
    }
    if (m_stale)
        text += tr(" · the list changed since: press Enter to search again");
    m_filterBar->setStatus(text);
}

void MessageListPanel::updateHeader() {
    const QString path = m_model->path();
    if (path.isEmpty()) {
        m_title->setText(tr("No entity selected"));
    } else if (!m_model->lastError().isEmpty()) {
        m_title->setText(tr("%1: %2").arg(path, m_model->lastError()));
    } else if (!m_model->isIndexLoaded()) {
        m_title->setText(tr("%1 (loading…)").arg(path));
    } else {
        const qint64 total = m_model->total();
        const QLocale locale;
        if (m_model->canFetchMore()) // paging forward: the rows read so far, more to follow
            m_title->setText(
                tr("%1 (%2 messages, %3 read: scroll for more)")
                    .arg(path, locale.toString(total), locale.toString(m_model->rowCount())));
        else
            m_title->setText(total == 1 ? tr("%1 (1 message)").arg(path)
                                        : tr("%1 (%2 messages)").arg(path, locale.toString(total)));
    }
    // The windowed list's count moved away from what the finished search read.
    // Our own bulk deletes move it too; removeMatches() accounts for them when they end.
    const bool ownJobRunning = m_bulkBar->job() && m_bulkBar->job()->running();
    if (isFiltered() && m_searchedTotal >= 0 && !m_search->isRunning() && !ownJobRunning &&
        m_model->isIndexLoaded() && m_model->total() != m_searchedTotal && !m_stale) {
        m_stale = true;
        updateFilterStatus();
    }
    const bool empty = !isFiltered() && m_model->isIndexLoaded() && m_model->total() == 0;
    m_stack->setCurrentWidget(empty ? m_emptyPage : m_view);
}

} // namespace hourglass::ui
