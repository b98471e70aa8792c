#include "tree/NamespaceTreePanel.h"

#include "common/ColumnLayout.h"

#include <QDragMoveEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {
using Column = NamespaceTreeModel::Column;
using Shown = ColumnLayout::Shown;
// What matters most first: what is waiting, what is being worked on, what failed. A count only
// ever holds a number.
const QString kCount = QStringLiteral("99,999");
// The name column takes what the counts that matter most leave, down to this.
constexpr int kMinNameColumnWidth = 120;
QList<ColumnLayout::Column> treeColumns() {
    return {{Column::NameColumn, Shown::Always, {}},
            {Column::ActiveColumn, Shown::ByDefault, kCount},
            {Column::LockedColumn, Shown::ByDefault, kCount},
            {Column::DeadLetteredColumn, Shown::ByDefault, kCount},
            {Column::ScheduledColumn, Shown::ByDefault, kCount},
            {Column::DeferredColumn, Shown::ByDefault, kCount},
            {Column::DeletesInColumn, Shown::ByDefault, QStringLiteral("59m 59s")}};
}
} // namespace

NamespaceTreePanel::NamespaceTreePanel(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_model(new NamespaceTreeModel(client, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTreeView(m_stack))
    , m_emptyState(new QLabel(tr("No namespace yet"), m_stack))
    , m_dropHint(new QLabel(this)) {
    m_filter->setObjectName(QStringLiteral("treeFilter"));
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);

    // Filter on the plain name (the sort role), not on the displayed text with its badge.
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true); // a matching topic keeps its subscriptions
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(NamespaceTreeModel::NameColumn);
    m_proxy->setFilterRole(Qt::UserRole);
    m_proxy->setSortRole(Qt::UserRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

    m_view->setObjectName(QStringLiteral("namespaceTree"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    // Names that share a prefix ("orders-…-eu-west", "orders-…-us-east") differ at the end:
    // elide in the middle so both ends stay readable; the tooltip has the whole name.
    m_view->setTextElideMode(Qt::ElideMiddle);
    // Depth costs name room: an entity under a topic under a namespace is three steps in.
    m_view->setIndentation(fontMetrics().averageCharWidth() * 2);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NamespaceTreeModel::NameColumn, Qt::AscendingOrder);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(false);
    m_columns = new ColumnLayout(m_view->header(), QStringLiteral("tree"), treeColumns());
    connect(m_columns, &ColumnLayout::columnsReset, this, [this] {
        m_nameSizedByUser = false;
        fitNameColumn();
    });
    connect(m_view->header(), &QHeaderView::sectionResized, this, [this](int column) {
        // Only a drag of the header's handle is the user's choice: the column layout sizing
        // sections to their content (rows arriving, a restored state) must not stop the fit.
        if (column == NamespaceTreeModel::NameColumn && !m_fittingName &&
            QGuiApplication::mouseButtons().testFlag(Qt::LeftButton))
            m_nameSizedByUser = true;
        else if (!m_nameSizedByUser && column != NamespaceTreeModel::NameColumn)
            fitNameColumn(); // a count column grew or shrank: the name takes the rest again
    });

    // Drops land on a row, never between rows (overwrite mode): every drop targets an entity.
    m_view->setAcceptDrops(true);
    m_view->setDragDropMode(QAbstractItemView::DropOnly);
    m_view->setDragDropOverwriteMode(true);
    m_view->setDropIndicatorShown(true);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->viewport()->installEventFilter(this);
    m_dropHint->setObjectName(QStringLiteral("dropHint"));
    m_dropHint->setWordWrap(true);
    m_dropHint->setContentsMargins(6, 3, 6, 3);
    m_dropHint->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_dropHint->hide();
    connect(m_model, &NamespaceTreeModel::dropFinished, this, &NamespaceTreePanel::statusMessage);
    connect(m_model, &NamespaceTreeModel::dropFailed, this, &NamespaceTreePanel::errorOccurred);

    m_emptyState->setObjectName(QStringLiteral("treeEmptyState"));
    m_emptyState->setAlignment(Qt::AlignCenter);
    m_emptyState->setEnabled(false); // greyed: a hint, not content

    m_stack->addWidget(m_view);
    m_stack->addWidget(m_emptyState);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_dropHint);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        m_view->expandAll(); // show every match, however deep
    });
    // The view connected first, so it knows the new rows by the time they are expanded.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &NamespaceTreePanel::onRowsInserted);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &NamespaceTreePanel::onSelectionChanged);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            &NamespaceTreePanel::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &NamespaceTreePanel::updateEmptyState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &NamespaceTreePanel::updateEmptyState);
    connect(m_model, &NamespaceTreeModel::refreshed, this, &NamespaceTreePanel::updateEmptyState);
    connect(m_model, &NamespaceTreeModel::refreshed, this, [this] {
        // In a turn of its own: the first listing of a thousand entities takes milliseconds of
        // the GUI thread, and so does the selection (the workspace's panels hear of it).
        if (!m_autoSelected)
            QTimer::singleShot(1, this, &NamespaceTreePanel::selectFirstQueueOnce);
    });
    connect(m_model, &NamespaceTreeModel::refreshed, this, &NamespaceTreePanel::selectPending);
    updateEmptyState();
}

bool NamespaceTreePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_view->viewport())
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::Resize:
        if (!m_nameSizedByUser)
            fitNameColumn();
        return false;
    case QEvent::DragMove:
        // Ahead of the view, which would refuse the row too, but silently.
        return showDropRefusal(static_cast<QDragMoveEvent*>(event));
    case QEvent::DragLeave:
    case QEvent::Drop:
        hideDropHint();
        return false;
    default:
        return false;
    }
}

bool NamespaceTreePanel::showDropRefusal(QDragMoveEvent* event) {
    const QPoint pos = event->position().toPoint();
    const QModelIndex row = m_proxy->mapToSource(m_view->indexAt(pos));
    const auto refusal = row.isValid()
                             ? m_model->dropRefusal(event->mimeData(), event->dropAction(), row)
                             : std::nullopt;
    if (!refusal) {
        hideDropHint();
        return false;
    }
    event->ignore(m_view->visualRect(m_view->indexAt(pos)));
    m_dropHint->setText(refusal->description);
    m_dropHint->show();
    QToolTip::showText(m_view->viewport()->mapToGlobal(pos), refusal->description, m_view);
    return true;
}

void NamespaceTreePanel::fitNameColumn() {
    // Active, Locked and Dead-lettered end at the tree's right edge whatever its width (the
    // splitter's, the window's); the name takes the rest. The other counts are a scroll away.
    // The user may have moved columns: everything up to the last of the three, wherever they
    // stand, shares the width with the name.
    QHeaderView* header = m_view->header();
    int lastVisual = -1;
    for (int column : {NamespaceTreeModel::ActiveColumn, NamespaceTreeModel::LockedColumn,
                       NamespaceTreeModel::DeadLetteredColumn})
        if (!header->isSectionHidden(column))
            lastVisual = std::max(lastVisual, header->visualIndex(column));
    int counts = 0;
    for (int column = 0; column < header->count(); ++column)
        if (column != NamespaceTreeModel::NameColumn && !header->isSectionHidden(column) &&
            header->visualIndex(column) <= lastVisual)
            counts += header->sectionSize(column);
    m_fittingName = true;
    m_view->setColumnWidth(NamespaceTreeModel::NameColumn,
                           std::max(kMinNameColumnWidth, m_view->viewport()->width() - counts));
    m_fittingName = false;
}

void NamespaceTreePanel::hideDropHint() {
    m_dropHint->hide();
    m_dropHint->clear();
    QToolTip::hideText();
}

void NamespaceTreePanel::onRowsInserted(const QModelIndex& parent, int first, int last) {
    for (int row = first; row <= last; ++row)
        m_view->expandRecursively(m_proxy->index(row, 0, parent));
}

void NamespaceTreePanel::selectFirstQueueOnce() {
    // A database that opens with nothing selected shows its first queue's messages at once, so
    // countdowns are on screen from the start; after that the user's choice stands.
    if (m_autoSelected || m_view->selectionModel()->hasSelection())
        return;
    if (!m_preferred.isEmpty()) {
        const QModelIndexList preferred =
            m_proxy->match(m_proxy->index(0, 0), NamespaceTreeModel::PathRole, m_preferred, 1,
                           Qt::MatchFixedString | Qt::MatchRecursive);
        if (!preferred.isEmpty()) {
            m_autoSelected = true;
            m_view->setCurrentIndex(preferred.first());
            return;
        }
    }
    const QModelIndexList queues = m_proxy->match(
        m_proxy->index(0, 0), NamespaceTreeModel::KindRole,
        int(NamespaceTreeModel::NodeKind::Queue), 1, Qt::MatchExactly | Qt::MatchRecursive);
    if (queues.isEmpty())
        return;
    m_autoSelected = true;
    m_view->setCurrentIndex(queues.first());
}

void NamespaceTreePanel::focusFilter() {
    m_filter->setFocus(Qt::ShortcutFocusReason);
}

void NamespaceTreePanel::selectWhenShown(const QString& qualifiedPath) {
    m_pending = qualifiedPath;
    selectPending();
}

void NamespaceTreePanel::selectPending() {
    if (m_pending.isEmpty())
        return;
    const auto find = [this] {
        return m_proxy->match(m_proxy->index(0, 0), NamespaceTreeModel::PathRole, m_pending, 1,
                              Qt::MatchFixedString | Qt::MatchRecursive);
    };
    QModelIndexList hits = find();
    if (hits.isEmpty() && !m_filter->text().isEmpty() &&
        !m_model
             ->match(m_model->index(0, 0), NamespaceTreeModel::PathRole, m_pending, 1,
                     Qt::MatchFixedString | Qt::MatchRecursive)
             .isEmpty()) {
        m_filter->clear(); // the filter hides it
        hits = find();
    }
    if (hits.isEmpty())
        return; // not in the tree yet: the next refresh brings it
    m_pending.clear();
    m_autoSelected = true; // the user's choice stands over the first queue's
    m_view->setCurrentIndex(hits.first());
    m_view->scrollTo(hits.first());
}

void NamespaceTreePanel::updateEmptyState() {
    // Before the first snapshot arrives, "no namespace" would be a guess.
    const bool empty = m_model->isLoaded() && m_model->rowCount() == 0;
    m_stack->setCurrentWidget(empty ? static_cast<QWidget*>(m_emptyState) : m_view);
}

void NamespaceTreePanel::onSelectionChanged() {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows(0);
    if (rows.isEmpty()) {
        emit noEntitySelected();
        return;
    }
    const QModelIndex row = rows.first();
    const auto kind = NamespaceTreeModel::NodeKind(row.data(NamespaceTreeModel::KindRole).toInt());
    if (kind == NamespaceTreeModel::NodeKind::Namespace) {
        emit noEntitySelected();
        return;
    }
    emit entitySelected(row.data(NamespaceTreeModel::PathRole).toString(),
                        EntityKind(row.data(NamespaceTreeModel::EntityKindRole).toInt()),
                        kind == NamespaceTreeModel::NodeKind::DeadLetterQueue);
}

} // namespace hourglass::ui
