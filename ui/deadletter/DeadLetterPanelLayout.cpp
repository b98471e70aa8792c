// The dead-letter panel's widgets: the action buttons, the reasons beside the messages, and the
// "Load more" footer (DeadLetterPanel.h).
#include "deadletter/DeadLetterPanel.h"

#include "common/ColumnFit.h"
#include "common/MessageTransferActions.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "messages/MessageColumnLayouts.h"
#include "messages/MessageDragSource.h"
#include "messages/MessageTable.h"
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
    prepareMessageTable(m_view);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::AscendingOrder);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_columns = arrangeMessageColumns(m_view, MessageTableKind::DeadLetters);
    // The description says most about a dead letter: it ends in view, elided (its tooltip has
    // it whole), instead of running off the table's right edge.
    // The reason gives way first: the list of reasons beside it has it whole.
    new ColumnFit(m_view, MessageViewModel::DeadLetterDescriptionColumn,
                  fontMetrics().averageCharWidth() * 16,
                  {MessageViewModel::DeadLetterReasonColumn});
    // The table's context menu: the panel's commands for the selection, then Move to… and Copy
    // to… (what dragging onto the tree does).
    m_transfer = new MessageTransferActions(
        m_client, m_view, [this](QObject*, MessageTransferActions::Done done) {
            done(DraggedMessages{deadLetterPath(), selectedSequenceNumbers()});
        });
    connect(m_transfer, &MessageTransferActions::errorOccurred, this,
            &DeadLetterPanel::errorOccurred);
    connect(m_transfer, &MessageTransferActions::statusMessage, this,
            &DeadLetterPanel::statusMessage);
    m_view->addActions({m_resubmitSelected, m_deleteSelected, m_exportSelected});
    m_transfer->addToContextMenu(this);
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

} // namespace hourglass::ui
