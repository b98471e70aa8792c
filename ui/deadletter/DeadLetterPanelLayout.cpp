// The dead-letter panel's widgets: the action buttons, the reasons beside the messages, and the
// "Load more" footer (DeadLetterPanel.h).
#include "deadletter/DeadLetterPanel.h"

#include "deadletter/DeadLetterReasonsModel.h"
#include "messages/MessageDragSource.h"
#include "messages/MessageViewModel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

// The columns of the table, in the order shown; the others are hidden.
constexpr int kShownColumns[] = {
    MessageListModel::SequenceNumberColumn,
    MessageListModel::MessageIdColumn,
    MessageListModel::SubjectColumn,
    MessageViewModel::DeadLetterReasonColumn,
    MessageViewModel::DeadLetterDescriptionColumn,
    MessageViewModel::DeadLetterSourceColumn,
    MessageListModel::EnqueuedColumn,
    MessageListModel::DeliveryCountColumn,
};

struct ColumnSample {
    int column;
    const char* sample;
};
const ColumnSample kColumnSamples[] = {
    {MessageListModel::SequenceNumberColumn, "1234567890"},
    {MessageListModel::MessageIdColumn, "7f3c9a1e2b4d4c0f"},
    {MessageListModel::SubjectColumn, "order-created"},
    {MessageViewModel::DeadLetterReasonColumn, "MaxDeliveryCountExceeded"},
    {MessageViewModel::DeadLetterDescriptionColumn, "The message expired and was dead"},
    {MessageViewModel::DeadLetterSourceColumn, "orders/Subscriptions/x"},
    {MessageListModel::EnqueuedColumn, "2026-01-01 00:00:00"},
};
constexpr int kCellPadding = 16;
constexpr int kSortArrowWidth = 16;

} // namespace

QWidget* DeadLetterPanel::buildContent() {
    auto* content = new QWidget(m_stack);

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(4, 2, 4, 4);
    buttons->setSpacing(4);
    const std::pair<QAction*, const char*> buttonActions[] = {
        {m_resubmitSelected, "resubmitSelected"}, {m_resubmitAll, "resubmitAll"},
        {m_deleteSelected, "deleteSelected"},     {m_purge, "purgeDeadLetters"},
        {m_exportSelected, "exportSelected"},
    };
    for (const auto& [action, name] : buttonActions) {
        auto* button = new QToolButton(content);
        button->setObjectName(QLatin1String(name));
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);

    m_reasonsView = new QTableView(content);
    m_reasonsView->setObjectName(QStringLiteral("deadLetterReasons"));
    m_reasonsView->setModel(m_reasons);
    m_reasonsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_reasonsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_reasonsView->verticalHeader()->hide();
    m_reasonsView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_reasonsView->setAlternatingRowColors(true);
    m_reasonsView->horizontalHeader()->setSectionResizeMode(DeadLetterReasonsModel::ReasonColumn,
                                                            QHeaderView::Stretch);
    m_reasonsView->horizontalHeader()->setSectionResizeMode(DeadLetterReasonsModel::CountColumn,
                                                            QHeaderView::ResizeToContents);
    connect(m_reasonsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &DeadLetterPanel::onReasonSelected);

    m_view = new QTableView(content);
    m_view->setObjectName(QStringLiteral("deadLetterList"));
    // Dead letters drag onto any entity; onto their own, they are resubmitted (NamespaceTreeDrop).
    auto* drag = new MessageDragSource(m_view, [this]() -> Result<DraggedMessages> {
        return DraggedMessages{deadLetterPath(), selectedSequenceNumbers()};
    });
    drag->enableFiles(m_client);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::AscendingOrder);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    arrangeColumns();
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &DeadLetterPanel::updateState);

    auto* splitter = new QSplitter(Qt::Horizontal, content);
    splitter->addWidget(m_reasonsView);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    m_more = new QPushButton(tr("Load more"), content);
    m_more->setObjectName(QStringLiteral("deadLetterMore"));
    connect(m_more, &QPushButton::clicked, this, &DeadLetterPanel::loadMore);
    m_loadedLabel = new QLabel(content);
    m_loadedLabel->setObjectName(QStringLiteral("deadLetterLoaded"));
    auto* footer = new QHBoxLayout;
    footer->setContentsMargins(4, 4, 4, 4);
    footer->addWidget(m_loadedLabel, 1);
    footer->addWidget(m_more);

    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);
    layout->addLayout(footer);
    return content;
}

void DeadLetterPanel::arrangeColumns() {
    QHeaderView* header = m_view->horizontalHeader();
    for (int column = 0; column < MessageViewModel::ColumnCount; ++column)
        header->setSectionHidden(column, true);
    int visual = 0;
    for (int column : kShownColumns) {
        header->setSectionHidden(column, false);
        header->moveSection(header->visualIndex(column), visual++);
    }
    // Starting widths: each column fits its header (and the sort arrow) and a typical value.
    const QFontMetrics cells = m_view->fontMetrics();
    const QFontMetrics headers = header->fontMetrics();
    for (const auto& [column, sample] : kColumnSamples) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        const int width = qMax(cells.horizontalAdvance(QLatin1String(sample)),
                               headers.horizontalAdvance(title) + kSortArrowWidth);
        m_view->setColumnWidth(column, width + kCellPadding);
    }
}

} // namespace hourglass::ui
